import { afterEach, describe, expect, it, vi } from 'vitest';
import { Jobs, stuckAfterMs } from '../src/jobs.ts';
import type { Logger } from '../src/logger.ts';

/**
 * A pass that never ends would stop its job without a word (each next pass waits for it): the
 * helper says so once, after ten intervals (at least a minute), and not for a pass that ends.
 * Per-replica jobs only, so no database is involved.
 */
afterEach(() => {
  vi.useRealTimers();
});

function recordingLogger() {
  const warnings: Array<{ fields: Record<string, unknown>; msg: string }> = [];
  const logger = {
    warn: (fields: Record<string, unknown>, msg: string) => warnings.push({ fields, msg }),
    info: () => {},
    error: () => {},
    debug: () => {},
  } as unknown as Logger;
  return { logger, warnings };
}

describe('Jobs: a pass that does not end', () => {
  it('is reported once, after ten intervals (at least a minute), naming the job', async () => {
    vi.useFakeTimers();
    const { logger, warnings } = recordingLogger();
    const jobs = new Jobs({ service: 'test', databaseUrl: 'postgres://unused', logger });
    let release = () => {};
    let passes = 0;
    jobs.add({
      name: 'tick',
      scope: 'each',
      everyMs: 2_000,
      run: () => {
        passes++;
        return new Promise<void>((r) => {
          release = r;
        });
      },
    });
    jobs.start();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(passes).toBe(1);
    await vi.advanceTimersByTimeAsync(stuckAfterMs(2_000) - 1_000);
    expect(warnings).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.fields).toMatchObject({ job: 'tick' });
    expect(warnings[0]?.msg).toMatch(/still running/);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(warnings).toHaveLength(1);
    expect(passes).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(passes).toBe(2);
    release();
    await jobs.stop();
  });

  it('is not reported when it ends in time', async () => {
    vi.useFakeTimers();
    const { logger, warnings } = recordingLogger();
    const jobs = new Jobs({ service: 'test', databaseUrl: 'postgres://unused', logger });
    jobs.add({ name: 'quick', scope: 'each', everyMs: 1_000, run: async () => {} });
    jobs.start();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(warnings).toEqual([]);
    expect(stuckAfterMs(1_000)).toBe(60_000);
    expect(stuckAfterMs(30_000)).toBe(300_000);
    await jobs.stop();
  });
});
