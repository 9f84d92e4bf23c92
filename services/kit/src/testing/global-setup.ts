import { type NatsServer, natsServerBinary, startNatsServer } from '../local/nats.ts';
import { type PostgresServer, startEmbeddedPostgres } from '../local/postgres.ts';

/**
 * Vitest global setup of the integration tier: real PostgreSQL and real NATS.
 * TEST_DATABASE_URL / NATS_URL are used when given; otherwise an embedded PostgreSQL
 * and a local nats-server are started. With CI=true a missing dependency fails the run.
 */
export default async function setup(): Promise<() => Promise<void>> {
  let pgServer: PostgresServer | null = null;
  let nats: NatsServer | null = null;

  if (process.env.TEST_DATABASE_URL) {
    process.env.PARLEY_TEST_PG_URL = process.env.TEST_DATABASE_URL;
  } else {
    pgServer = await startEmbeddedPostgres();
    process.env.PARLEY_TEST_PG_URL = pgServer.adminUrl;
  }

  if (!process.env.NATS_URL) {
    if (natsServerBinary()) {
      nats = await startNatsServer();
      process.env.NATS_URL = nats.url;
    } else if (process.env.CI === 'true') {
      throw new Error('CI=true and no NATS available: install nats-server or set NATS_URL');
    } else {
      console.warn('[integration] nats-server not found: NATS-backed tests will fail');
    }
  }

  return async () => {
    await nats?.dispose();
    await pgServer?.stop();
  };
}
