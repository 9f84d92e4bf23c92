/**
 * PostgreSQL and NATS for the integration tier from containers (testcontainers), started from the
 * images Parley deploys beside it (docker/images.env: the local builds of scripts/images.sh where
 * they exist, else the chart's defaults), so tests run against the server versions production runs.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Ryuk (testcontainers' reaper) is an image from Docker Hub; containers are stopped by the
// setup's teardown instead, and one left by a killed run is removed by the next (labels below).
process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
// A local engine (its unix socket) publishes ports on this machine's loopback. Without this,
// testcontainers run inside a container (a /.dockerenv, as on CI machines) reaches them through
// the docker0 gateway instead, and tests that compare or relay addresses see 172.17.0.1.
const dockerHost = process.env.DOCKER_HOST ?? '';
if (dockerHost === '' || dockerHost.startsWith('unix://'))
  process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';

const IMAGES_ENV = fileURLToPath(new URL('../../../../docker/images.env', import.meta.url));
const RUN_LABEL = 'parley.test-run-pid';

export interface ImageChoice {
  postgres: string;
  nats: string;
}

/** KEY=VALUE lines of docker/images.env. */
export function imagesEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(IMAGES_ENV, 'utf8').split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m?.[1] && m[2] !== undefined) out[m[1]] = m[2];
  }
  return out;
}

function docker(args: string[]): { ok: boolean; out: string } {
  const r = spawnSync('docker', args, { encoding: 'utf8', timeout: 20_000 });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim() };
}

/** Whether a Docker engine answers. */
export function containerRuntimeAvailable(): boolean {
  return docker(['info', '--format', '{{.ServerVersion}}']).ok;
}

const present = (image: string) => docker(['image', 'inspect', image]).ok;

/**
 * The images to start: PARLEY_TEST_POSTGRES_IMAGE / PARLEY_TEST_NATS_IMAGE, else the local
 * builds, else the chart's defaults, whichever is on this machine; null when neither is (nothing
 * is pulled: where Docker Hub is reachable, `docker pull postgres:18 nats:2.10` first).
 */
export function chooseImages(): ImageChoice | null {
  const env = imagesEnv();
  const pick = (override: string | undefined, local: string | undefined, official: string | undefined) =>
    [override, local, official].find((i): i is string => Boolean(i) && present(i as string)) ?? null;
  const postgres = pick(process.env.PARLEY_TEST_POSTGRES_IMAGE, env.LOCAL_POSTGRES_IMAGE, env.POSTGRES_IMAGE);
  const nats = pick(process.env.PARLEY_TEST_NATS_IMAGE, env.LOCAL_NATS_IMAGE, env.NATS_IMAGE);
  return postgres && nats ? { postgres, nats } : null;
}

/** Removes containers left by test runs whose process is gone. */
function removeOrphans(): void {
  const { ok, out } = docker([
    'ps',
    '-aq',
    '--filter',
    `label=${RUN_LABEL}`,
    '--format',
    `{{.ID}} {{.Label "${RUN_LABEL}"}}`,
  ]);
  if (!ok || !out) return;
  for (const line of out.split('\n')) {
    const [id, pid] = line.split(' ');
    if (!id || !pid) continue;
    let alive = true;
    try {
      process.kill(Number(pid), 0);
    } catch {
      alive = false;
    }
    if (!alive) docker(['rm', '-f', id]);
  }
}

export interface ContainerServers {
  postgresUrl: string;
  natsUrl: string;
  /** What ran, for the test summary: images and server versions. */
  description: string;
  stop(): Promise<void>;
}

/** Starts PostgreSQL and NATS with JetStream from `images`, tuned as the embedded test server is. */
export async function startContainerServers(images: ImageChoice): Promise<ContainerServers> {
  removeOrphans();
  const { GenericContainer, Wait } = await import('testcontainers');
  const labels = { [RUN_LABEL]: String(process.pid) };
  const password = 'postgres';
  const [pg, nats] = await Promise.all([
    new GenericContainer(images.postgres)
      .withEnvironment({ POSTGRES_USER: 'postgres', POSTGRES_PASSWORD: password, POSTGRES_DB: 'postgres' })
      // Throw-away data, as the embedded test server: no fsync; enough connections for the tier.
      .withCommand([
        'postgres',
        '-c',
        'max_connections=300',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ])
      .withTmpFs({ '/var/lib/postgresql': 'rw' })
      .withExposedPorts(5432)
      .withLabels(labels)
      .withWaitStrategy(Wait.forSuccessfulCommand('pg_isready -h 127.0.0.1 -U postgres -d postgres'))
      .withStartupTimeout(60_000)
      .start(),
    new GenericContainer(images.nats)
      .withCommand(['-js', '-sd', '/data', '-m', '8222'])
      .withTmpFs({ '/data': 'rw' })
      .withExposedPorts(4222, 8222)
      .withLabels(labels)
      .withWaitStrategy(Wait.forHttp('/healthz?js-enabled-only=true', 8222))
      .withStartupTimeout(30_000)
      .start(),
  ]);
  const host = pg.getHost() === 'localhost' ? '127.0.0.1' : pg.getHost();
  const pgVersion = (await pg.exec(['postgres', '--version'])).output.trim();
  const natsVersion = await fetch(`http://${host}:${nats.getMappedPort(8222)}/varz`)
    .then((r) => r.json() as Promise<{ version?: string }>)
    .then(
      (v) => v.version ?? '?',
      () => '?',
    );
  return {
    postgresUrl: `postgresql://postgres:${password}@${host}:${pg.getMappedPort(5432)}/postgres`,
    natsUrl: `nats://${host}:${nats.getMappedPort(4222)}`,
    description: `PostgreSQL and NATS from containers: ${pgVersion} (${images.postgres}), nats-server ${natsVersion} (${images.nats})`,
    async stop() {
      await Promise.all([pg.stop(), nats.stop()]);
    },
  };
}
