import { createHash } from 'node:crypto';
import pg from 'pg';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Logger } from './logger.ts';

/**
 * A service's periodic work, one way for all of it: each job has a name, an interval and a
 * scope, a clean stop (a pass that runs is waited for) and metrics (last success, duration,
 * failures, by job).
 *
 * - `each`: every replica runs it, for what is its own (its process, its caches).
 * - `one`: one replica at a time runs it, for housekeeping of the shared database that N
 *   replicas would only repeat. The leader is the replica holding the service's session
 *   advisory lock on a connection of its own; when it stops or dies the connection closes,
 *   the lock goes with it, and another replica takes it within `leaseCheckMs`.
 */
export interface JobSpec {
  name: string;
  everyMs: number;
  scope: 'each' | 'one';
  /** One pass; `signal` is aborted when the service stops (a long pass ends early). */
  run: (signal: AbortSignal) => Promise<unknown>;
  /** The first pass after this long (default: `everyMs`; 0 = at start). */
  firstAfterMs?: number;
}

export interface JobsOptions {
  /** The service (names the advisory lock: one leader per service and database). */
  service: string;
  databaseUrl: string;
  logger: Logger;
  registry?: Registry;
  /** How often a replica that does not lead tries to (default 5 s). */
  leaseCheckMs?: number;
}

interface Scheduled {
  spec: JobSpec;
  timer: NodeJS.Timeout | undefined;
  running: Promise<void> | null;
}

/** The key of a service's leader lock: stable, and apart from the advisory locks of the services' own work. */
function leaderKey(service: string): bigint {
  return createHash('sha256').update(`parley-jobs:${service}`).digest().readBigInt64BE(0);
}

/** When a running pass is reported as stuck: ten intervals, at least a minute. */
export const stuckAfterMs = (everyMs: number): number => Math.max(60_000, 10 * everyMs);

export class Jobs {
  private readonly jobs = new Map<string, Scheduled>();
  private started = false;
  private stopped = false;
  /** This replica's connection for the leader lock (the lock is held on it while leading). */
  private lockClient: pg.Client | null = null;
  private isLeader = false;
  private leaseTimer: NodeJS.Timeout | undefined;
  private acquiring: Promise<void> | null = null;
  private watching = false;
  private readonly stopping = new AbortController();
  private readonly metrics: {
    last: Gauge<'job'>;
    duration: Histogram<'job'>;
    failures: Counter<'job'>;
    leader: Gauge;
  } | null;

  constructor(private readonly opts: JobsOptions) {
    const registers = opts.registry ? [opts.registry] : [];
    this.metrics = opts.registry
      ? {
          last: new Gauge({
            name: 'job_last_success_timestamp_seconds',
            help: 'When each periodic job last finished without error (Unix time)',
            labelNames: ['job'] as const,
            registers,
          }),
          duration: new Histogram({
            name: 'job_duration_seconds',
            help: 'How long a periodic job pass took',
            labelNames: ['job'] as const,
            buckets: [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
            registers,
          }),
          failures: new Counter({
            name: 'job_failures_total',
            help: 'Periodic job passes that failed (retried at the next interval)',
            labelNames: ['job'] as const,
            registers,
          }),
          leader: new Gauge({
            name: 'jobs_leader',
            help: "1 while this replica runs the service's one-replica jobs",
            registers,
          }),
        }
      : null;
  }

  add(spec: JobSpec): void {
    if (this.jobs.has(spec.name)) throw new Error(`job ${spec.name} is already defined`);
    if (!(spec.everyMs > 0)) throw new Error(`job ${spec.name}: everyMs must be above 0`);
    const job: Scheduled = { spec, timer: undefined, running: null };
    this.jobs.set(spec.name, job);
    if (this.started) this.schedule(job, spec.firstAfterMs ?? spec.everyMs);
  }

  /** Whether this replica runs the one-replica jobs now. */
  get leading(): boolean {
    return this.isLeader;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const job of this.jobs.values()) this.schedule(job, job.spec.firstAfterMs ?? job.spec.everyMs);
  }

  /** Runs a job's pass now (a test, an admin's request): false when this replica may not run it. */
  async runNow(name: string): Promise<boolean> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`no job ${name}`);
    if (job.spec.scope === 'one') {
      await this.tryLead();
      if (!this.leading) return false;
    }
    await this.pass(job);
    return true;
  }

  /** Stops every timer, waits for the passes that run, and gives up the leadership. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    clearTimeout(this.leaseTimer);
    for (const job of this.jobs.values()) clearTimeout(job.timer);
    await Promise.all([...this.jobs.values()].map((j) => j.running));
    await this.acquiring;
    await this.resign();
  }

  private schedule(job: Scheduled, inMs: number): void {
    if (this.stopped) return;
    if (job.spec.scope === 'one') this.watchLease();
    job.timer = setTimeout(async () => {
      // A replica that does not lead yet asks now (a no-op query while another one leads).
      if (job.spec.scope === 'one' && !this.leading) await this.tryLead();
      if (job.spec.scope === 'each' || this.leading) await this.pass(job);
      this.schedule(job, job.spec.everyMs);
    }, inMs);
    job.timer.unref();
  }

  private pass(job: Scheduled): Promise<void> {
    // One pass of a job at a time: a slow pass is not overtaken by the next interval's.
    job.running ??= (async () => {
      const t0 = performance.now();
      // A pass that never ends stops its job silently (the next one waits for it): said once.
      const stuck = setTimeout(
        () =>
          this.opts.logger.warn(
            { job: job.spec.name, runningMs: Math.round(performance.now() - t0) },
            'periodic job pass is still running; the job waits for it',
          ),
        stuckAfterMs(job.spec.everyMs),
      );
      stuck.unref();
      try {
        await job.spec.run(this.stopping.signal);
        this.metrics?.last.set({ job: job.spec.name }, Date.now() / 1000);
      } catch (err) {
        this.metrics?.failures.inc({ job: job.spec.name });
        this.opts.logger.warn(
          { err, job: job.spec.name },
          'periodic job failed; it runs again at its next interval',
        );
      } finally {
        clearTimeout(stuck);
        this.metrics?.duration.observe({ job: job.spec.name }, (performance.now() - t0) / 1000);
        job.running = null;
      }
    })();
    return job.running;
  }

  /** From the first one-replica job on: tries to lead now, and again every `leaseCheckMs`. */
  private watchLease(): void {
    if (this.watching) return;
    this.watching = true;
    void this.tryLead();
    const check = () => {
      if (this.stopped) return;
      this.leaseTimer = setTimeout(async () => {
        await this.tryLead();
        check();
      }, this.opts.leaseCheckMs ?? 5_000);
      this.leaseTimer.unref();
    };
    check();
  }

  /**
   * Takes the service's leader lock when no replica holds it (a no-op while this one does),
   * on this replica's own connection, kept open between tries.
   */
  private tryLead(): Promise<void> {
    if (this.isLeader || this.stopped) return Promise.resolve();
    this.acquiring ??= (async () => {
      try {
        const client = this.lockClient ?? (await this.connect());
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
          leaderKey(this.opts.service).toString(),
        ]);
        if (!rows[0]?.ok || this.lockClient !== client) return;
        this.isLeader = true;
        this.metrics?.leader.set(1);
        this.opts.logger.info({ service: this.opts.service }, 'this replica runs the one-replica jobs');
      } catch (err) {
        this.opts.logger.warn({ err }, 'could not try the jobs leader lock; trying again later');
        this.drop(this.lockClient);
      } finally {
        this.acquiring = null;
      }
    })();
    return this.acquiring;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.opts.databaseUrl,
      application_name: `parley-${this.opts.service}-jobs`,
    });
    // The lock lives as long as this connection: its loss ends the lead.
    client.on('error', (err) => {
      if (this.isLeader)
        this.opts.logger.warn({ err }, 'jobs leader connection lost; another replica may lead');
      this.drop(client);
    });
    client.on('end', () => this.drop(client));
    await client.connect();
    this.lockClient = client;
    return client;
  }

  private drop(client: pg.Client | null): void {
    if (!client || this.lockClient !== client) return;
    this.lockClient = null;
    this.isLeader = false;
    this.metrics?.leader.set(0);
    client.end().catch(() => {});
  }

  /** Gives up the lead (and the connection) on stop: another replica takes it at its next try. */
  private async resign(): Promise<void> {
    const client = this.lockClient;
    if (!client) return;
    this.lockClient = null;
    this.isLeader = false;
    this.metrics?.leader.set(0);
    await client.end().catch(() => {});
  }
}
