/**
 * The event backbone end to end: rows committed to a service's outbox (one event per
 * transaction, as services write them), relayed to the bus, handled by a durable consumer that
 * applies each once (inbox claim + an effect row, in one transaction). For each bus (NATS
 * JetStream, and the embedded mode's local bus in PostgreSQL):
 *   1. throughput: N events committed by 8 writers as fast as they go; events/s from the first
 *      commit to the last applied;
 *   2. lag: a steady 500 events/s for BENCH_SECONDS; the end-to-end lag (commit → applied) p50/p99.
 * Every event must be applied exactly once (the books balance), or the bench fails.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BACKBONE_SCHEMA_SQL,
  busConsumer,
  claimEvent,
  createLocalBus,
  createLogger,
  createNatsBus,
  createPool,
  DeadLetters,
  type EventBus,
  enqueueEvent,
  ensureDatabase,
  OutboxRelay,
  pgExecutor,
} from '@parley/kit';
import { startEmbeddedPostgres, startNatsServer, withDatabase } from '@parley/kit/local';
import type pg from 'pg';
import { table } from './_load.ts';

/** Set when a target is missed: the exit code says so (set at the very end, after the stop). */
let benchFailed = false;

const TOTAL = Number(process.env.BENCH_EVENTS ?? 20_000);
const STEADY_RATE = 500;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const logger = createLogger('bench-events', 'error');

const contact = () => ({
  id: randomUUID(),
  firstName: 'Bench',
  lastName: 'Mark',
  email: 'bench@example.com',
  company: 'Acme',
  companySize: null,
  message: null,
  createdAt: new Date().toISOString(),
});

async function commitOne(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await enqueueEvent(pgExecutor(client), 'booking.contact.submitted', contact());
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function run(name: string, adminUrl: string, makeBus: () => Promise<EventBus>) {
  const producerUrl = withDatabase(adminUrl, `bench_${name}_producer`);
  const consumerUrl = withDatabase(adminUrl, `bench_${name}_consumer`);
  await ensureDatabase(adminUrl, `bench_${name}_producer`);
  await ensureDatabase(adminUrl, `bench_${name}_consumer`);
  const producer = createPool(producerUrl, 10);
  const consumer = createPool(consumerUrl, 10);
  await producer.query(BACKBONE_SCHEMA_SQL);
  await consumer.query(
    `${BACKBONE_SCHEMA_SQL} CREATE TABLE effects (event_id uuid PRIMARY KEY, lag_ms int NOT NULL)`,
  );

  const publishBus = await makeBus();
  const consumeBus = name === 'nats' ? await makeBus() : publishBus;
  const relay = new OutboxRelay({ pool: producer, bus: publishBus, logger });
  let applied = 0;
  let lastApplied = 0;
  const lags: number[] = [];
  let measuring = false;
  const sub = await consumeBus.subscribe(
    busConsumer(
      {
        durable: `bench-${name}`,
        subjects: ['booking.contact.submitted'],
        concurrency: 32,
        handler: async (event) => {
          const client = await consumer.connect();
          try {
            await client.query('BEGIN');
            const lag = Date.now() - Date.parse(event.occurredAt);
            if (await claimEvent(pgExecutor(client), `bench-${name}`, event.id)) {
              await client.query('INSERT INTO effects (event_id, lag_ms) VALUES ($1, $2)', [event.id, lag]);
              applied++;
              lastApplied = Date.now();
              if (measuring) lags.push(lag);
            }
            await client.query('COMMIT');
          } finally {
            client.release();
          }
        },
      },
      { logger, deadLetters: new DeadLetters(consumer) },
    ),
  );
  relay.start();

  // 1. Throughput.
  const t0 = Date.now();
  let committed = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (committed < TOTAL) {
        committed++;
        await commitOne(producer);
      }
    }),
  );
  const commitMs = Date.now() - t0;
  while (applied < TOTAL) await new Promise((r) => setTimeout(r, 20));
  const throughputMs = lastApplied - t0;

  // 2. Lag at a steady rate.
  const before = applied;
  measuring = true;
  const start = Date.now();
  const commits: Array<Promise<void>> = [];
  for (let i = 0; i < STEADY_RATE * SECONDS; i++) {
    const due = start + (i * 1000) / STEADY_RATE;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    commits.push(commitOne(producer));
  }
  // Only committed events count (a commit refused under overload was never an event).
  const steadyTotal = (await Promise.allSettled(commits)).filter((c) => c.status === 'fulfilled').length;
  while (applied < before + steadyTotal) await new Promise((r) => setTimeout(r, 20));
  measuring = false;

  const { rows } = await consumer.query<{ n: string }>('SELECT count(*) AS n FROM effects');
  const stored = Number(rows[0]?.n);
  const balanced = stored === TOTAL + steadyTotal && applied === TOTAL + steadyTotal;
  if (!balanced)
    console.error(`${name}: expected ${TOTAL + steadyTotal} applied, counted ${applied}, stored ${stored}`);
  await sub.stop();
  await relay.stop();
  if (consumeBus !== publishBus) await consumeBus.close();
  await publishBus.close();
  await producer.end();
  await consumer.end();
  lags.sort((a, b) => a - b);
  return {
    bus: name,
    committed_per_s: Math.round(TOTAL / (commitMs / 1000)),
    end_to_end_per_s: Math.round(TOTAL / (throughputMs / 1000)),
    [`lag_p50_ms@${STEADY_RATE}/s`]: percentile(lags, 50),
    [`lag_p99_ms@${STEADY_RATE}/s`]: percentile(lags, 99),
    applied_once: balanced ? 'yes' : 'NO',
  };
}

// A data directory of our own, so PostgreSQL runs as the embedded platform does: durable
// (synchronous_commit and fsync on), not the test servers' fast, unsafe settings.
const dir = mkdtempSync(join(tmpdir(), 'parley-bench-events-'));
chmodSync(dir, 0o755);
const pgServer = await startEmbeddedPostgres({ dataDir: dir });
const nats = await startNatsServer();
try {
  const rows = [
    await run('nats', pgServer.adminUrl, () => createNatsBus({ url: nats.url, name: 'bench', logger })),
    await run('local', pgServer.adminUrl, async () => {
      await ensureDatabase(pgServer.adminUrl, 'bench_bus');
      return createLocalBus({ databaseUrl: withDatabase(pgServer.adminUrl, 'bench_bus'), logger });
    }),
  ];
  table(rows);
  const ok = rows.every((r) => r.applied_once === 'yes');
  console.log(
    `events: ${TOTAL} for throughput, ${STEADY_RATE}/s for ${SECONDS} s for lag; every event applied once: ${ok ? 'PASS' : 'FAIL'}`,
  );
  benchFailed = !ok;
} finally {
  await nats.dispose();
  await pgServer.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(benchFailed ? 1 : 0);
