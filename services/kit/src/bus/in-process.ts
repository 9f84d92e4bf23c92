import type { EventEnvelope } from '@parley/contracts';
import type { Logger } from 'pino';
import { runConsumerHandler } from './handler.ts';
import {
  type ConsumerSpec,
  DEFAULT_MAX_DELIVER,
  DEFAULT_RETRY_DELAY_MS,
  type EventBus,
  type Subscription,
} from './types.ts';

/** Remembered ids for dedupe; JetStream's duplicate window plays this role in production. */
const DEDUPE_CAPACITY = 10_000;

interface Durable {
  spec: ConsumerSpec;
  /** Events not yet acknowledged (queued, in flight or waiting for a retry). */
  pending: number;
  active: boolean;
  timers: Set<NodeJS.Timeout>;
}

/**
 * Single-process bus for the embedded mode: the same contract as the NATS bus (dedupe
 * by id, one delivery per durable, redelivery with delay, termination after maxDeliver)
 * without a broker. Events live in memory only; the services' outboxes keep them safe
 * until published, so a crash loses nothing that was committed.
 */
export function createInProcessBus(opts: { logger: Logger }): EventBus {
  const seen = new Set<string>();
  const durables = new Map<string, Durable>();
  let closed = false;

  function deliver(d: Durable, event: EventEnvelope, attempt: number) {
    if (!d.active) return;
    const maxDeliver = d.spec.maxDeliver ?? DEFAULT_MAX_DELIVER;
    void runConsumerHandler(d.spec, event, attempt, opts.logger).then((outcome) => {
      if (outcome === 'ack' || !d.active) {
        d.pending--;
        return;
      }
      if (attempt >= maxDeliver) {
        opts.logger.error(
          { durable: d.spec.durable, eventId: event.id, subject: event.subject, attempt },
          'event terminated after max deliveries',
        );
        d.pending--;
        return;
      }
      const timer = setTimeout(() => {
        d.timers.delete(timer);
        deliver(d, event, attempt + 1);
      }, d.spec.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS);
      d.timers.add(timer);
    });
  }

  return {
    kind: 'in-process',
    async publish(event) {
      if (closed) throw new Error('bus is closed');
      if (seen.has(event.id)) return;
      seen.add(event.id);
      if (seen.size > DEDUPE_CAPACITY) seen.delete(seen.values().next().value as string);
      for (const d of durables.values()) {
        if (!d.active || !(d.spec.subjects as string[]).includes(event.subject)) continue;
        d.pending++;
        // Asynchronous like a broker: the publisher never runs consumer code.
        queueMicrotask(() => deliver(d, event, 1));
      }
    },
    async subscribe(spec) {
      if (durables.get(spec.durable)?.active)
        throw new Error(`durable ${spec.durable} is already subscribed`);
      const d: Durable = { spec, pending: 0, active: true, timers: new Set() };
      durables.set(spec.durable, d);
      const sub: Subscription = {
        async stop() {
          d.active = false;
          for (const t of d.timers) clearTimeout(t);
          d.timers.clear();
          durables.delete(spec.durable);
        },
      };
      return sub;
    },
    async isReady() {
      return !closed;
    },
    async lag() {
      return Object.fromEntries([...durables.values()].map((d) => [d.spec.durable, d.pending]));
    },
    async close() {
      closed = true;
      for (const d of durables.values()) {
        d.active = false;
        for (const t of d.timers) clearTimeout(t);
      }
      durables.clear();
    },
  };
}
