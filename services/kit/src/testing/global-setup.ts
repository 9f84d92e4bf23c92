import { type NatsServer, natsServerBinary, startNatsServer } from '../local/nats.ts';
import { type PostgresServer, startEmbeddedPostgres } from '../local/postgres.ts';

/**
 * Vitest global setup of the integration tier: real PostgreSQL and real NATS.
 * TEST_DATABASE_URL / NATS_URL are used when given; otherwise an embedded PostgreSQL
 * and a local nats-server are started; a missing nats-server fails the run, naming the command.
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
    if (!natsServerBinary())
      throw new Error('nats-server is not installed: run `apt-get install -y nats-server` (or set NATS_URL)');
    nats = await startNatsServer();
    process.env.NATS_URL = nats.url;
  }

  return async () => {
    await nats?.dispose();
    await pgServer?.stop();
  };
}
