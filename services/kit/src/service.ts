import type { ServiceName } from '@parley/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Static, TObject } from 'typebox';
import { buildServiceApp, type ServiceInstance } from './app.ts';
import { requireAdmin, requireInternal, requireRole } from './auth.ts';
import { createBus, type EventBus, OutboxRelay, type Subscription } from './bus/index.ts';
import { loadConfig, type ServiceEnv } from './config.ts';
import { migrate } from './db/migrate.ts';
import { createPool, pingDatabase } from './db/pool.ts';
import { createLogger } from './logger.ts';
import { createServiceMetrics } from './metrics.ts';

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
  /** Registers a consumer; it is stopped on shutdown. */
  consume: EventBus['subscribe'];
  /** Registers work to do on shutdown (after the server stopped accepting). */
  onShutdown(fn: () => Promise<void>): void;
}

export interface ServiceModule<S extends TObject = TObject> {
  name: ServiceName;
  envSchema: S;
  migrationsDir: string;
  /** Adds the service's routes and consumers. */
  register(app: ServiceInstance, deps: ServiceDeps<Static<S> & BaseConfig>): Promise<void>;
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
  return module;
}

export async function startService<S extends TObject>(
  module: ServiceModule<S>,
  opts: StartOptions = {},
): Promise<RunningService> {
  const env = opts.env ?? process.env;
  const config = loadConfig(module.name, module.envSchema, env) as Static<S> & BaseConfig;
  const logger = opts.logger ?? createLogger(module.name, config.LOG_LEVEL);

  if (opts.migrate ?? env.MIGRATE_ON_START !== 'false') {
    const result = await migrate(config.DATABASE_URL, module.migrationsDir, (m) => logger.info(m));
    logger.debug({ result }, 'migrations checked');
  }

  const pool = createPool(config.DATABASE_URL, config.DATABASE_POOL_MAX ?? 10);
  const ownBus = !opts.bus;
  const bus = opts.bus ?? (await createBus({ natsUrl: config.NATS_URL, name: module.name, logger }));
  const relay = new OutboxRelay({ pool, bus, logger });
  const metrics = createServiceMetrics(module.name, {
    pool,
    outboxBacklog: () => relay.backlog(),
    consumerLag: () => bus.lag(),
  });
  const app = await buildServiceApp({
    name: module.name,
    logger,
    metrics,
    readiness: { database: () => pingDatabase(pool), bus: () => bus.isReady() },
  });

  const subscriptions: Subscription[] = [];
  const shutdownTasks: Array<() => Promise<void>> = [];
  const secret = config.INTERNAL_AUTH_SECRET;
  await module.register(app, {
    config,
    pool,
    bus,
    logger,
    now: opts.now ?? (() => new Date()),
    auth: {
      admin: requireAdmin(secret),
      superAdmin: requireRole(secret, 'super_admin'),
      internal: requireInternal(secret),
    },
    consume: async (spec) => {
      const sub = await bus.subscribe(spec);
      subscriptions.push(sub);
      return sub;
    },
    onShutdown: (fn) => shutdownTasks.push(fn),
  });

  relay.start();
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
        await phase('consumers', Promise.allSettled(subscriptions.map((s) => s.stop())));
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
    if (argv[0] === 'migrate') {
      const config = loadConfig(module.name, module.envSchema, process.env) as Static<S> & BaseConfig;
      const result = await migrate(config.DATABASE_URL, module.migrationsDir, (m) => logger.info(m));
      logger.info(
        { applied: result.applied.length, alreadyApplied: result.alreadyApplied.length },
        'migrations done',
      );
      return;
    }
    const running = await startService(module, { logger });
    const shutdown = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      running.stop().then(
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
