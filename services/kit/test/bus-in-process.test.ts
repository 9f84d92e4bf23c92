import type { EventEnvelope } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { createInProcessBus } from '../src/bus/in-process.ts';
import { createLogger } from '../src/logger.ts';

const logger = createLogger('bus-test', 'silent');
const event = (id: string, subject = 'booking.booking.created'): EventEnvelope => ({
  id,
  subject,
  occurredAt: new Date().toISOString(),
  payload: { n: id },
});
const until = async (cond: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('in-process bus', () => {
  it('delivers each event once to every durable subscribed to its subject', async () => {
    const bus = createInProcessBus({ logger });
    const a: string[] = [];
    const b: string[] = [];
    await bus.subscribe({
      durable: 'a',
      subjects: ['booking.booking.created'],
      handler: async (e) => void a.push(e.id),
    });
    await bus.subscribe({
      durable: 'b',
      subjects: ['booking.contact.submitted'],
      handler: async (e) => void b.push(e.id),
    });
    await bus.publish(event('1'));
    await bus.publish(event('1')); // same id: dedupe
    await bus.publish(event('2', 'booking.contact.submitted'));
    await until(() => a.length === 1 && b.length === 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(a).toEqual(['1']);
    expect(b).toEqual(['2']);
    await bus.close();
  });

  it('redelivers after a failure with the delivery count, then acknowledges', async () => {
    const bus = createInProcessBus({ logger });
    const counts: number[] = [];
    await bus.subscribe({
      durable: 'flaky',
      subjects: ['booking.booking.created'],
      retryDelayMs: 10,
      handler: async (_e, { deliveryCount }) => {
        counts.push(deliveryCount);
        if (deliveryCount < 3) throw new Error('transient');
      },
    });
    await bus.publish(event('x'));
    await until(() => counts.length === 3);
    await new Promise((r) => setTimeout(r, 30));
    expect(counts).toEqual([1, 2, 3]);
    expect((await bus.lag()).flaky).toBe(0);
    await bus.close();
  });

  it('stops after maxDeliver attempts of a poison event', async () => {
    const bus = createInProcessBus({ logger });
    let calls = 0;
    await bus.subscribe({
      durable: 'poison',
      subjects: ['booking.booking.created'],
      maxDeliver: 3,
      retryDelayMs: 5,
      handler: async () => {
        calls++;
        throw new Error('always');
      },
    });
    await bus.publish(event('p'));
    await until(() => calls === 3);
    // No fourth attempt follows.
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toBe(3);
    expect((await bus.lag()).poison).toBe(0);
    await bus.close();
  });

  it('counts unacknowledged events as lag and refuses publishing after close', async () => {
    const bus = createInProcessBus({ logger });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    await bus.subscribe({ durable: 'slow', subjects: ['booking.booking.created'], handler: () => gate });
    await bus.publish(event('l1'));
    await bus.publish(event('l2'));
    expect((await bus.lag()).slow).toBe(2);
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect((await bus.lag()).slow).toBe(0);
    await bus.close();
    expect(await bus.isReady()).toBe(false);
    await expect(bus.publish(event('late'))).rejects.toThrow('closed');
  });
});
