import type { EventEnvelope, EventSubject } from '@parley/contracts';

export interface DeliveryMeta {
  /** 1 on the first delivery; grows with each redelivery. */
  deliveryCount: number;
}

/** A durable consumer: survives restarts; several replicas with the same durable share its work. */
export interface ConsumerSpec {
  /** Durable name, `<service>-<purpose>` (e.g. `email-booking-confirmation`). */
  durable: string;
  subjects: EventSubject[];
  /** Deliveries before a failing event is terminated and logged (default 5). */
  maxDeliver?: number;
  /** Delay before redelivering after a handler error (default 1000 ms). */
  retryDelayMs?: number;
  /** Resolve to acknowledge; throw to have the event redelivered later. */
  handler(event: EventEnvelope, meta: DeliveryMeta): Promise<void>;
}

export interface Subscription {
  stop(): Promise<void>;
}

/**
 * The event bus every service uses (Medusa-style: one interface, an in-process
 * implementation for the embedded mode and a NATS JetStream one for production).
 */
export interface EventBus {
  readonly kind: 'nats' | 'in-process';
  /** Publishes an event; publishing the same event id twice delivers it once. */
  publish(event: EventEnvelope): Promise<void>;
  subscribe(spec: ConsumerSpec): Promise<Subscription>;
  isReady(): Promise<boolean>;
  /** Messages not yet acknowledged, per durable consumer. */
  lag(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export const DEFAULT_MAX_DELIVER = 5;
export const DEFAULT_RETRY_DELAY_MS = 1000;
