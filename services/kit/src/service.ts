import {
  type DiagnosticResult,
  deadLettersSubject,
  diagnosticsSubject,
  EVENTS,
  type EventSubject,
  type ServiceName,
} from '@parley/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { type Static, type TObject, Type } from 'typebox';
import { buildServiceApp, type ServiceInstance } from './app.ts';
import { requireAdmin, requireInternal, requireRole } from './auth.ts';
import { budgetRoutes } from './budgets/routes.ts';
import { BudgetCounter, PgBudgetStore } from './budgets/store.ts';
import { runEventsCommand } from './bus/events-cli.ts';
import {
  busConsumer,
  type ConsumerSpec,
  createBus,
  DeadLetterReplayer,
  DeadLetters,
  type EventBus,
  OutboxRelay,
  pruneInbox,
  type Responder,
  retryPolicyFrom,
  type Subscription,
} from './bus/index.ts';
import { loadConfig, ServiceEnv } from './config.ts';
import { migrate, waitForMigrations } from './db/migrate.ts';
import { createPool, pingDatabase, waitForDatabase } from './db/pool.ts';
import { drainConnections } from './drain.ts';
import { type JobSpec, Jobs } from './jobs.ts';
import { createLogger } from './logger.ts';
import { createServiceMetrics } from './metrics.ts';
import { startTelemetry } from './telemetry.ts';

/** How long each phase of a service's stop may take before the stop goes on without it. */
const STOP_PHASE_GRACE_MS = 4000;

type BaseConfig = { [K in keyof typeof ServiceEnv]: Static<(typeof ServiceEnv)[K]> };

/** What a service's plugin receives: its validated config and its I/O boundaries. */
export interface ServiceDeps<C extends BaseConfig = BaseConfig> {
  config: C;
  pool: pg.Pool;
  bus: EventBus;
  logger: Logger;
  auth: {
    admin: onRequestAsyncHookHandler;
    superAdmin: onRequestAsyncHookHandler;
    /** Service-to-service only (see INTERNAL_TOKEN_HEADER). */
    internal: onRequestAsyncHookHandler;
  };
  /** The service's clock; tests inject one to move time (idle expiry, windows). */
  now: () => Date;
  /**
   * Registers a durable consumer (payloads checked against the catalogue, retries with
   * backoff, dead letters in this service's database); it is stopped on shutdown.
   */
  consume<S extends EventSubject>(spec: ConsumerSpec<S>): Promise<Subscription>;
  /**
   * Adds a check this service answers for on its diagnostics subject (request/reply), e.g.
   * the email service's transport. `database` is built in.
   */
  diagnostic(check: string, run: () => Promise<Omit<DiagnosticResult, 'duration'>>): void;
  /**
   * Answers requests on `subject` (a request/reply subject named in @parley/contracts); any one
   * replica of the service answers each request. Stopped with the other responders on shutdown.
   */
  respond(subject: string, responder: Responder): Promise<void>;
  /**
   * Periodic work (src/jobs.ts): on every replica (`each`) or on one replica at a time
   * (`one`, housekeeping of the shared database); stopped, a running pass waited for, before
   * the shutdown tasks run.
   */
  job(spec: JobSpec): void;
  /** Registers work to do on shutdown (after the server stopped accepting). */
  onShutdown(fn: () => Promise<void>): void;
  /** The service's Prometheus registry (served at /metrics): a service adds its own metrics to it. */
  metrics: Registry;
}

/** What a service publishes and consumes: its `src/events.ts`, checked by the kit. */
export interface ServiceEvents {
  publishes: readonly EventSubject[];
  consumes: readonly EventSubject[];
}

export interface ServiceModule<S extends TObject = TObject> {
  name: ServiceName;
  envSchema: S;
  migrationsDir: string;
  /**
   * The service's events.ts. `publishes` must be subjects the catalogue gives this service as
   * producer; `deps.consume` refuses a consumer of a subject not in `consumes`.
   */
  events: ServiceEvents;
  /** Adds the service's routes and consumers. */
  register(app: ServiceInstance, deps: ServiceDeps<Static<S> & BaseConfig>): Promise<void>;
  /**
   * The service's own database commands (`<main> <name> [args]`, e.g. an operator's rebuild):
   * each gets a pool on DATABASE_URL and the rest of the arguments, and answers the exit code.
   */
  commands?: Record<string, (pool: pg.Pool, args: string[], logger: Logger) => Promise<number>>;
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /** Shared bus (embedded mode runs every service on one in-process bus). */
  bus?: EventBus;
  logger?: Logger;
  /** Apply pending migrations before starting (default true; Kubernetes uses a Job instead). */
  migrate?: boolean;
  /** Clock for the service's rules (default: the system clock). */
  now?: () => Date;
  /** Listen address; default from HOST/PORT env (PORT 0 = any free port). */
  listen?: { host: string; port: number };
}

export interface RunningService {
  name: ServiceName;
  app: ServiceInstance;
  url: string;
  bus: EventBus;
  stop(): Promise<void>;
}

export function defineService<S extends TObject>(module: ServiceModule<S>): ServiceModule<S> {
  const wrong = [
    ...module.events.publishes
      .filter((s) => EVENTS[s]?.producer !== module.name)
      .map((s) => `publishes ${s}, which the event catalogue gives to ${EVENTS[s]?.producer ?? 'nobody'}`),
    ...module.events.consumes
      .filter((s) => !EVENTS[s] || EVENTS[s].producer === module.name)
      .map(
        (s) => `consumes ${s}, which ${EVENTS[s] ? 'it produces itself' : 'is not in the event catalogue'}`,
      ),
  ];
  if (wrong.length) throw new Error(`${module.name}/src/events.ts: ${wrong.join('; ')}`);
  return module;
}

export async function startService<S extends TObject>(
  module: ServiceModule<S>,
  opts: StartOptions = {},
): Promise<RunningService> {
  const env = opts.env ?? process.env;
  const config = loadConfig(module.name, module.envSchema, env) as Static<S> & BaseConfig;
  const logger = opts.logger ?? createLogger(module.name, config.LOG_LEVEL);

  await waitForDatabase(config.DATABASE_URL, (msg, reason) => logger.info({ reason }, msg));
  if (opts.migrate ?? env.MIGRATE_ON_START !== 'false') {
    const result = await migrate(config.DATABASE_URL, module.migrationsDir, (m) => logger.info(m));
    logger.debug({ result }, 'migrations checked');
  } else {
    await waitForMigrations(config.DATABASE_URL, module.migrationsDir, (msg, missing) =>
      logger.info({ missing: missing.length, first: missing[0] }, msg),
    );
  }

  const pool = createPool(config.DATABASE_URL, config.DATABASE_POOL_MAX ?? 10);
  const ownBus = !opts.bus;
  const bus = opts.bus ?? (await createBus({ natsUrl: config.NATS_URL, name: module.name, logger }));
  const deadLetters = new DeadLetters(pool);
  const metrics = createServiceMetrics(module.name, {
    pool,
    outboxBacklog: () => relay.backlog(),
    consumerLag: () => bus.lag(),
    deadLetters: () => deadLetters.count(),
    busConnected: () => bus.isConnected(),
  });
  const jobs = new Jobs({
    service: module.name,
    databaseUrl: config.DATABASE_URL,
    logger,
    registry: metrics.registry,
  });
  const relay = new OutboxRelay({
    pool,
    bus,
    logger,
    metrics: metrics.events.outbox,
    ...(config.OUTBOX_MAX_ATTEMPTS ? { maxAttempts: config.OUTBOX_MAX_ATTEMPTS } : {}),
  });
  const replayer = new DeadLetterReplayer(deadLetters, logger);
  const retryPolicy = retryPolicyFrom(config);
  const clock = opts.now ?? (() => new Date());
  // Per-client budgets are counted in the service's database, so they hold across replicas.
  const budgets = new PgBudgetStore(pool, () => clock().getTime());
  const budgetCounter = new BudgetCounter(budgets, () => clock().getTime());
  const app = await buildServiceApp({
    name: module.name,
    logger,
    metrics,
    // Ready = can serve requests: the database. The bus is reported, never gating: while
    // NATS is away the outbox keeps every event and the service keeps serving.
    readiness: { database: () => pingDatabase(pool) },
    readinessInfo: { bus: async () => bus.isConnected() },
    rateLimit: { counter: budgetCounter, multiplier: config.RATE_LIMIT_MULTIPLIER },
  });

  const subscriptions: Subscription[] = [];
  const responders: Subscription[] = [];
  const shutdownTasks: Array<() => Promise<void>> = [];
  const secret = config.INTERNAL_AUTH_SECRET;
  // The gateway's route budgets of this service's routes are counted here too.
  budgetRoutes(app, budgets, requireInternal(secret));
  const checks = new Map<string, () => Promise<Omit<DiagnosticResult, 'duration'>>>();
  checks.set('database', async () => {
    const t0 = performance.now();
    const ok = await pingDatabase(pool);
    const ms = Math.round(performance.now() - t0);
    return ok
      ? { status: 'success', result: 'Connected', details: `${module.name} database answered in ${ms} ms` }
      : { status: 'error', result: 'Unreachable', details: `${module.name} database did not answer` };
  });
  await module.register(app, {
    config,
    pool,
    bus,
    logger,
    now: clock,
    auth: {
      admin: requireAdmin(secret),
      superAdmin: requireRole(secret, 'super_admin'),
      internal: requireInternal(secret),
    },
    consume: async (spec) => {
      const undeclared = spec.subjects.filter((s) => !module.events.consumes.includes(s));
      if (undeclared.length)
        throw new Error(
          `${module.name}: consumer ${spec.durable} takes ${undeclared.join(', ')}, not declared in CONSUMES (src/events.ts)`,
        );
      const sub = await bus.subscribe(
        busConsumer(
          { ...spec, concurrency: spec.concurrency ?? config.EVENT_CONCURRENCY },
          { logger, policy: retryPolicy, deadLetters, replayer, metrics: metrics.events },
        ),
      );
      subscriptions.push(sub);
      return sub;
    },
    diagnostic: (check, run) => void checks.set(check, run),
    respond: async (subject, responder) => {
      responders.push(await bus.respond(subject, module.name, responder));
    },
    job: (spec) => jobs.add(spec),
    onShutdown: (fn) => shutdownTasks.push(fn),
    metrics: metrics.registry,
  });

  // Diagnostics: any replica answers a check of this service (NATS request/reply, or in process).
  const diagnostics = await bus.respond(diagnosticsSubject(module.name), module.name, async (payload) => {
    const check = (payload as { check?: unknown } | undefined)?.check;
    const run = typeof check === 'string' ? checks.get(check) : undefined;
    if (!run) throw new Error(`${module.name} has no check named ${String(check)}`);
    const t0 = performance.now();
    const result = await run().catch(
      (err: Error): Omit<DiagnosticResult, 'duration'> => ({
        status: 'error',
        result: 'Check failed',
        details: err.message,
      }),
    );
    return { ...result, duration: Math.round(performance.now() - t0) } satisfies DiagnosticResult;
  });

  // Dead letters, for the diagnostics screen (and `events` on the command line).
  const deadLetterList = await bus.respond(deadLettersSubject(module.name, 'list'), module.name, () =>
    deadLetters.list(200),
  );
  const deadLetterReplay = await bus.respond(
    deadLettersSubject(module.name, 'replay'),
    module.name,
    async (payload) => {
      const ids = (payload as { ids?: unknown } | undefined)?.ids;
      if (ids !== 'all' && !(Array.isArray(ids) && ids.every((id) => typeof id === 'string')))
        throw new Error('ids must be a list of dead-letter ids or "all"');
      return { queued: await deadLetters.requestReplay(ids as string[] | 'all') };
    },
  );

  relay.start();
  replayer.start();
  const inboxDays = config.INBOX_RETENTION_DAYS ?? 7;
  jobs.add({
    name: 'inbox-retention',
    scope: 'one',
    everyMs: 3600_000,
    firstAfterMs: 0,
    run: () => pruneInbox(pool, inboxDays),
  });
  // Ended budget windows are forgotten once a minute (a window that a hit has just started
  // again is not ended, and the delete leaves it).
  jobs.add({ name: 'budget-sweep', scope: 'one', everyMs: 60_000, run: () => budgets.sweep() });
  jobs.start();
  const listen = opts.listen ?? { host: config.HOST ?? '0.0.0.0', port: config.PORT ?? 0 };
  await app.listen(listen);
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : listen.port;
  const url = `http://${listen.host === '0.0.0.0' ? '127.0.0.1' : listen.host}:${port}`;
  logger.info({ url, bus: bus.kind }, `${module.name} service listening`);

  let stopping: Promise<void> | null = null;
  return {
    name: module.name,
    app,
    url,
    bus,
    stop() {
      stopping ??= (async () => {
        // Stop accepting and finish in-flight requests, then stop consuming, flush the
        // outbox, and close pools. Each phase has a grace period: a phase that overruns it
        // is named in a warning (with the pool's state) and the stop goes on, so one stuck
        // request or client cannot keep the process (and, embedded, PostgreSQL) running.
        const poolState = () => ({
          total: pool.totalCount,
          idle: pool.idleCount,
          waiting: pool.waitingCount,
        });
        await phase('http', app.close(), () => app.server.closeAllConnections());
        await phase('jobs', jobs.stop());
        await phase(
          'responders',
          Promise.all([diagnostics, deadLetterList, deadLetterReplay, ...responders].map((r) => r.stop())),
        );
        await phase('consumers', Promise.allSettled(subscriptions.map((s) => s.stop())));
        await phase('dead-letter replays', replayer.stop());
        for (const task of shutdownTasks)
          await phase(
            'shutdown task',
            task().catch((err) => logger.error({ err }, 'shutdown task failed')),
          );
        await phase('outbox relay', relay.stop());
        if (ownBus) await phase('event bus', bus.close());
        await phase('database pool', pool.end());
        logger.info(`${module.name} service stopped`);

        async function phase(name: string, work: Promise<unknown>, onOverrun?: () => void) {
          let timer: NodeJS.Timeout | undefined;
          const overran = await Promise.race([
            work.then(
              () => false,
              (err) => {
                logger.error({ err, phase: name }, 'stopping failed');
                return false;
              },
            ),
            new Promise<boolean>((resolve) => {
              timer = setTimeout(() => resolve(true), STOP_PHASE_GRACE_MS);
            }),
          ]);
          clearTimeout(timer);
          if (!overran) return;
          logger.warn(
            { phase: name, graceMs: STOP_PHASE_GRACE_MS, pool: poolState() },
            `${module.name}: stopping ${name} overran its grace period; going on`,
          );
          onOverrun?.();
        }
      })();
      return stopping;
    },
  };
}

/**
 * Process entry of a service (`src/main.ts`): `migrate` applies migrations and exits;
 * otherwise the service runs until SIGTERM/SIGINT and shuts down gracefully.
 */
export async function runServiceMain<S extends TObject>(
  module: ServiceModule<S>,
  argv = process.argv.slice(2),
) {
  const logger = createLogger(module.name, process.env.LOG_LEVEL);
  try {
    // The database commands need only the database: a migration Job or an operator's shell
    // does not have to carry the service's other secrets.
    const databaseOnly = () =>
      loadConfig(module.name, Type.Object({ DATABASE_URL: ServiceEnv.DATABASE_URL }), process.env);
    if (argv[0] === 'events') {
      const config = databaseOnly();
      const pool = createPool(config.DATABASE_URL, 2);
      try {
        process.exitCode = await runEventsCommand(module.name, pool, argv.slice(1));
      } finally {
        await pool.end();
      }
      return;
    }
    const command = argv[0] ? module.commands?.[argv[0]] : undefined;
    if (command) {
      const pool = createPool(databaseOnly().DATABASE_URL, 2);
      try {
        process.exitCode = await command(pool, argv.slice(1), logger);
      } finally {
        await pool.end();
      }
      return;
    }
    if (argv[0] === 'migrate') {
      const config = databaseOnly();
      await waitForDatabase(config.DATABASE_URL, (msg, reason) => logger.info({ reason }, msg));
      const result = await migrate(config.DATABASE_URL, module.migrationsDir, (m) => logger.info(m));
      logger.info(
        { applied: result.applied.length, alreadyApplied: result.alreadyApplied.length },
        'migrations done',
      );
      return;
    }
    // A service in its own process exports its traces (the embedded start does it once for all).
    const telemetry = await startTelemetry({
      serviceName: module.name,
      otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
    });
    const running = await startService(module, { logger });
    const shutdown = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      drainConnections(running.app.server)
        .then((drained) => {
          logger.info(drained, 'connections drained');
          return running.stop();
        })
        .then(() => telemetry.shutdown())
        .then(
          () => process.exit(0),
          (err) => {
            logger.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  } catch (err) {
    logger.fatal({ err }, `${module.name} failed to start`);
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 100).unref();
  }
}
