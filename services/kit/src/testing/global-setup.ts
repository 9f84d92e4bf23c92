import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type NatsServer, natsServerBinary, startNatsServer } from '../local/nats.ts';
import { type PostgresServer, startEmbeddedPostgres } from '../local/postgres.ts';
import {
  type ContainerServers,
  chooseImages,
  containerRuntimeAvailable,
  startContainerServers,
} from './containers.ts';

/**
 * Vitest global setup of the integration tier: real PostgreSQL and real NATS.
 * - TEST_DATABASE_URL / NATS_URL: those servers.
 * - Otherwise, where a container runtime answers and the images are on the machine
 *   (scripts/images.sh makes them): PostgreSQL and NATS from the images Parley deploys beside it,
 *   through testcontainers (containers.ts).
 * - Otherwise an embedded PostgreSQL and a local nats-server; a missing nats-server fails the run,
 *   naming the command.
 * PARLEY_TEST_RUNTIME=containers|embedded forces one (CI forces containers). What ran is printed
 * and, with PARLEY_TEST_RESULTS_DIR, written for the test summary: never a silent choice.
 */
export default async function setup(): Promise<() => Promise<void>> {
  let pgServer: PostgresServer | null = null;
  let nats: NatsServer | null = null;
  let containers: ContainerServers | null = null;
  const wanted = process.env.PARLEY_TEST_RUNTIME ?? 'auto';
  const external = Boolean(process.env.TEST_DATABASE_URL || process.env.NATS_URL);
  let runtime: string;

  if (!external && wanted !== 'embedded') {
    const images = containerRuntimeAvailable() ? chooseImages() : null;
    if (images) {
      containers = await startContainerServers(images);
      process.env.PARLEY_TEST_PG_URL = containers.postgresUrl;
      process.env.NATS_URL = containers.natsUrl;
    } else if (wanted === 'containers') {
      throw new Error(
        containerRuntimeAvailable()
          ? 'PARLEY_TEST_RUNTIME=containers, but the PostgreSQL and NATS images are missing: run `bash scripts/images.sh --bases-only`'
          : 'PARLEY_TEST_RUNTIME=containers, but no container runtime answers (`docker info`)',
      );
    }
  }
  if (containers) {
    runtime = containers.description;
  } else {
    if (process.env.TEST_DATABASE_URL) {
      process.env.PARLEY_TEST_PG_URL = process.env.TEST_DATABASE_URL;
    } else {
      pgServer = await startEmbeddedPostgres();
      process.env.PARLEY_TEST_PG_URL = pgServer.adminUrl;
    }
    if (!process.env.NATS_URL) {
      if (!natsServerBinary())
        throw new Error(
          'nats-server is not installed: run `apt-get install -y nats-server` (or set NATS_URL)',
        );
      nats = await startNatsServer();
      process.env.NATS_URL = nats.url;
    }
    runtime = external
      ? 'PostgreSQL and NATS given by TEST_DATABASE_URL / NATS_URL'
      : `embedded PostgreSQL and a local nats-server (${wanted === 'embedded' ? 'PARLEY_TEST_RUNTIME=embedded' : 'no container runtime or images'})`;
  }
  console.log(`integration tier: ${runtime}`);
  if (process.env.PARLEY_TEST_RESULTS_DIR)
    writeFileSync(join(process.env.PARLEY_TEST_RESULTS_DIR, 'integration-runtime.txt'), `${runtime}\n`);

  return async () => {
    await containers?.stop();
    await nats?.dispose();
    await pgServer?.stop();
  };
}
