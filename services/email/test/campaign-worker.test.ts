import { createLogger } from '@parley/kit';
import type pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Claimed, DeliveryRepository, Outcome } from '../src/features/campaigns/delivery.repository.ts';
import { SendWorker, Throttle, type WorkerOptions } from '../src/features/campaigns/worker.ts';
import type { Transports } from '../src/features/delivery/transports/index.ts';
import { type MailTransport, SendError } from '../src/features/delivery/transports/transport.ts';
import { TokenSigner } from '../src/shared/tokens.ts';

/**
 * The campaign worker alone (src/features/campaigns/worker.ts), without a database or a mail server:
 * the throttle's spacing, and how one batch's transport answers become the outcomes the
 * delivery repository settles (and when the cooling period starts).
 */

describe('Throttle', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('spaces takes evenly at the rate (the first goes at once)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const throttle = new Throttle(10);
    let taken = 0;
    const takes = Array.from({ length: 3 }, () => throttle.take().then(() => taken++));
    await vi.advanceTimersByTimeAsync(0);
    expect(taken).toBe(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(taken).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(taken).toBe(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(taken).toBe(3);
    await Promise.all(takes);
  });

  it('does not wait without a rate', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const throttle = new Throttle(0);
    let taken = 0;
    for (let i = 0; i < 5; i++) void throttle.take().then(() => taken++);
    await vi.advanceTimersByTimeAsync(0);
    expect(taken).toBe(5);
  });
});

const options: WorkerOptions = {
  worker: false,
  ratePerSecond: 0,
  batchSize: 10,
  concurrency: 3,
  leaseMs: 60_000,
  retryBaseMs: 1000,
  maxAttempts: 3,
  pollMs: 50,
  connectionFailures: 2,
};

function claimed(id: number, email: string, attempts = 1): Claimed {
  return {
    id: String(id),
    send_id: 7,
    email,
    first_name: 'Ada',
    last_name: null,
    company: null,
    attributes: null,
    tracking_id: `t${id}`,
    attempts,
    sending_at: new Date('2026-11-27T06:00:00Z'),
  };
}

/** A pool that answers readSendContent for send 7 (and nothing else); statements come as { text, values }. */
const pool = {
  query: async (statement: { text: string; values: unknown[] }) => ({
    rows:
      statement.values[0] === 7
        ? [
            {
              campaign_id: 3,
              newsletter_id: null,
              subject: 'Hello {{firstName}}',
              from_name: 'Parley',
              from_email: 'news@parley.test',
              html_content: '<p>Hi</p>',
              text_content: null,
              test_mode: false,
              original_recipients: 0,
            },
          ]
        : [],
  }),
} as unknown as pg.Pool;

/** A worker over a fake delivery repository and a transport that answers by address. */
function workerWith(batch: Claimed[], answer: (to: string) => Promise<{ providerMessageId: string | null }>) {
  const settled: Array<{ worker: string; outcomes: Outcome[]; transport: string }> = [];
  const blocked: string[] = [];
  const completed: Array<number[] | undefined> = [];
  const delivery = {
    claim: vi.fn(async () => batch),
    settle: async (worker: string, outcomes: Outcome[], transport: string) => {
      settled.push({ worker, outcomes, transport });
    },
    block: async (reason: string) => {
      blocked.push(reason);
    },
    completeFinished: async (sendIds?: number[]) => {
      completed.push(sendIds);
      return 0;
    },
  } as unknown as DeliveryRepository;
  const transport = {
    name: 'smtp',
    description: 'test',
    send: async (envelope: { to: string[] }) => ({
      ...(await answer(envelope.to[0] as string)),
      response: '250',
    }),
    verify: async () => ({ ok: true }),
    close: async () => {},
  } as unknown as MailTransport;
  const bounces: string[] = [];
  const worker = new SendWorker({
    pool,
    logger: createLogger('campaign-worker-test', 'silent'),
    transports: { get: async () => transport } as unknown as Transports,
    signer: new TokenSigner('test-secret'),
    origin: 'https://parley.test',
    options,
    delivery,
    recordBounce: async (_trackingId, address, _reason, source) => {
      bounces.push(`${address} ${source}`);
    },
  });
  return { worker, delivery, settled, blocked, completed, bounces };
}

describe('SendWorker.workOnce', () => {
  it('turns each transport answer into the outcome the settle writes', async () => {
    const { worker, delivery, settled, blocked, completed, bounces } = workerWith(
      [
        claimed(1, 'ok@x.test'),
        claimed(2, 'hard@x.test'),
        claimed(3, 'soft@x.test', 2),
        claimed(4, 'soft-last@x.test', 3),
        claimed(5, 'conn@x.test'),
        claimed(6, 'drop@x.test'),
      ],
      async (to) => {
        if (to === 'ok@x.test') return { providerMessageId: 'q1' };
        if (to === 'hard@x.test') throw new SendError('550 no such user', true, 550, true);
        if (to.startsWith('soft')) throw new SendError('451 try later', false, 451);
        if (to === 'conn@x.test') throw new SendError('connect ECONNREFUSED', false, undefined, false, true);
        throw new Error('socket hang up');
      },
    );
    expect(await worker.workOnce()).toBe(6);
    expect(delivery.claim).toHaveBeenCalledWith(worker.workerId, options);
    expect(settled).toHaveLength(1);
    expect(settled[0]?.worker).toBe(worker.workerId);
    expect(settled[0]?.transport).toBe('smtp');
    const byId = new Map(settled[0]?.outcomes.map((o) => [o.id, o]));
    expect(byId.get('1')).toMatchObject({ status: 'sent', error: null, attemptAdj: 0, providerId: null });
    expect(byId.get('2')).toMatchObject({ status: 'failed', error: '550 no such user' });
    // A temporary refusal: pending again, backing off by attempts (1 s, 2 s, ...).
    expect(byId.get('3')).toMatchObject({ status: 'pending', delayMs: 2000, attemptAdj: 0 });
    expect(byId.get('4')).toMatchObject({ status: 'failed', error: '451 try later (after 3 attempts)' });
    // Never handed over: pending, the attempt not counted.
    expect(byId.get('5')).toMatchObject({ status: 'pending', delayMs: 1000, attemptAdj: -1 });
    expect(byId.get('6')).toMatchObject({ status: 'unknown', error: 'outcome unknown: socket hang up' });
    expect(bounces).toEqual(['hard@x.test smtp-dsn']);
    // One connection failure of six (the threshold is two): no cooling period.
    expect(blocked).toEqual([]);
    expect(completed).toEqual([[7]]);
    expect(worker.handed).toBe(6);
  });

  it('starts the cooling period when the connection failures reach the threshold', async () => {
    const { worker, blocked, settled } = workerWith(
      [claimed(1, 'a@x.test'), claimed(2, 'b@x.test')],
      async () => {
        throw new SendError('connect ECONNREFUSED', false, undefined, false, true);
      },
    );
    expect(await worker.workOnce()).toBe(2);
    expect(settled[0]?.outcomes.map((o) => o.status)).toEqual(['pending', 'pending']);
    expect(blocked).toEqual(['connection failure: connect ECONNREFUSED']);
  });

  it('fails the rows of a send whose campaign is gone, without the transport', async () => {
    const gone = { ...claimed(1, 'a@x.test'), send_id: 8 };
    const send = vi.fn();
    const { worker, settled } = workerWith([gone], send);
    expect(await worker.workOnce()).toBe(1);
    expect(send).not.toHaveBeenCalled();
    expect(settled[0]?.outcomes).toEqual([
      expect.objectContaining({ id: '1', status: 'failed', error: 'the campaign no longer exists' }),
    ]);
  });

  it('claims nothing and settles nothing when there is no work', async () => {
    const { worker, settled, completed } = workerWith([], async () => ({ providerMessageId: null }));
    expect(await worker.workOnce()).toBe(0);
    expect(settled).toEqual([]);
    expect(completed).toEqual([]);
  });
});
