import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Jobs } from '../src/jobs.ts';
import { createLogger } from '../src/logger.ts';
import { createTestDatabase } from '../src/testing/database.ts';

/**
 * The jobs helper on real PostgreSQL: replicas of one service on one database (two `Jobs`),
 * a one-replica job that only the leader runs, a per-replica job that both run, the lease
 * passing to the other replica when the leader stops, a stop that waits for a running pass,
 * and the metrics.
 */
const logger = createLogger('jobs-test', 'silent');
let url = '';
const running: Jobs[] = [];

beforeAll(async () => {
  url = await createTestDatabase('kit_jobs');
});
afterAll(async () => {
  await Promise.all(running.map((j) => j.stop()));
});

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function replica(service: string, counts: { one: number; each: number }, registry?: Registry): Jobs {
  const jobs = new Jobs({
    service,
    databaseUrl: url,
    logger,
    leaseCheckMs: 50,
    ...(registry ? { registry } : {}),
  });
  jobs.add({ name: 'sweep', scope: 'one', everyMs: 20, run: async () => void counts.one++ });
  jobs.add({ name: 'cache', scope: 'each', everyMs: 20, run: async () => void counts.each++ });
  running.push(jobs);
  return jobs;
}

describe('Jobs', () => {
  it('runs a one-replica job on the leader only, a per-replica job on each, and hands the lead over on stop', async () => {
    const a = { one: 0, each: 0 };
    const b = { one: 0, each: 0 };
    const ja = replica('leader-test', a);
    const jb = replica('leader-test', b);
    ja.start();
    jb.start();
    await until('a leader', () => ja.leading || jb.leading);
    const [leader, other, led, follower] = ja.leading ? [ja, jb, a, b] : [jb, ja, b, a];
    await until('passes on both', () => led.one >= 5 && a.each >= 5 && b.each >= 5);
    expect(other.leading).toBe(false);
    expect(follower.one, "the follower's one-replica job").toBe(0);
    // A pass on request: the follower may not run the one-replica job, the leader may.
    expect(await other.runNow('sweep')).toBe(false);
    expect(await leader.runNow('sweep')).toBe(true);

    await leader.stop();
    await until('the other replica leading', () => other.leading);
    await until("the new leader's passes", () => follower.one >= 3);
    const stoppedAt = led.one;
    await new Promise((r) => setTimeout(r, 100));
    expect(led.one, 'a stopped replica runs nothing').toBe(stoppedAt);
  });

  it('keeps the leads of two services apart', async () => {
    const x = replica('service-x', { one: 0, each: 0 });
    const y = replica('service-y', { one: 0, each: 0 });
    x.start();
    y.start();
    await until('both services leading', () => x.leading && y.leading);
  });

  it('waits for a running pass on stop, and counts passes, failures and the lead in its metrics', async () => {
    const registry = new Registry();
    const jobs = new Jobs({ service: 'metrics-test', databaseUrl: url, logger, leaseCheckMs: 50, registry });
    running.push(jobs);
    let release: () => void = () => {};
    let entered = false;
    let failing = true;
    jobs.add({
      name: 'slow',
      scope: 'each',
      everyMs: 10_000,
      firstAfterMs: 0,
      run: () => {
        entered = true;
        return new Promise<void>((r) => {
          release = r;
        });
      },
    });
    jobs.add({
      name: 'flaky',
      scope: 'one',
      everyMs: 20,
      run: async () => {
        if (failing) throw new Error('not this time');
      },
    });
    jobs.start();
    await until('the slow pass running', () => entered);
    await until('the lead', () => jobs.leading);
    const text = async () => registry.metrics();
    await until('a failure counted', async () =>
      /job_failures_total\{job="flaky"\} [1-9]/.test(await text()),
    );
    failing = false;
    await until('a success recorded', async () =>
      /job_last_success_timestamp_seconds\{job="flaky"\} [1-9]/.test(await text()),
    );
    expect(await text()).toMatch(/jobs_leader 1/);

    let stopped = false;
    const stopping = jobs.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(stopped, 'stop waits for the running pass').toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
    expect(jobs.leading).toBe(false);
    expect(await text()).toMatch(/jobs_leader 0/);
  });
});
