import type { EventEnvelope, EventOf, EventSubject } from '@parley/contracts';

export interface DeliveryMeta {
  /** 1 on the first delivery; grows with each redelivery. */
  deliveryCount: number;
}

/** What a consumer's handler receives: an envelope whose payload matches its subject. */
export type Handler<S extends EventSubject> = (event: EventOf<S>, meta: DeliveryMeta) => Promise<void>;

/**
 * A durable consumer as a service declares it: survives restarts; several replicas with the
 * same durable share its work. The kit checks payloads against the catalogue, retries
 * failures with backoff for hours and then keeps the event in the service's dead letters.
 */
export interface ConsumerSpec<S extends EventSubject = EventSubject> {
  /** Durable name, `<service>-<purpose>` (e.g. `email-booking-confirmation`). */
  durable: string;
  subjects: readonly S[];
  /** Deliveries handled at once by this process (default 8). */
  concurrency?: number;
  /** Resolve to acknowledge; throw to have the event redelivered later. */
  handler: Handler<S>;
}

/** The outcome of one delivery: acknowledge it, or deliver it again after a delay. */
export type DeliveryOutcome = { ack: true } | { retryInMs: number };

/**
 * A consumer as the bus sees it: `deliver` never throws; it says what to do with the message.
 * (The kit's consumer wrapper turns a ConsumerSpec into this: checks, spans, retries, dead letters.)
 */
export interface BusConsumer {
  durable: string;
  subjects: readonly EventSubject[];
  concurrency: number;
  deliver(event: EventEnvelope, deliveryCount: number): Promise<DeliveryOutcome>;
}

export interface Subscription {
  /** Stops pulling, lets in-flight deliveries finish (what is left is redelivered later). */
  stop(): Promise<void>;
}

/** A publish that failed because the bus cannot take messages now (not the message's fault). */
export class BusUnavailableError extends Error {
  override name = 'BusUnavailableError';
}

export type PublishResult = { ok: true } | { ok: false; error: Error };

/** Answers one request of a request/reply subject. */
export type Responder = (payload: unknown) => Promise<unknown>;

/**
 * The event bus every service uses (Medusa-style: one interface, a local implementation for
 * the embedded mode and a NATS JetStream one for production, chosen by config). Both keep
 * the same promise: a published event reaches every durable consumer of its subject at least
 * once, including consumers that subscribe later (they start from the stream's beginning).
 */
export interface EventBus {
  readonly kind: 'nats' | 'in-process';
  /** Publishes an event durably; publishing the same event id twice delivers it once. */
  publish(event: EventEnvelope): Promise<void>;
  /** Publishes several events; one result per event, in order (never throws). */
  publishBatch(events: readonly EventEnvelope[]): Promise<PublishResult[]>;
  subscribe(consumer: BusConsumer): Promise<Subscription>;
  /** Asks one replica of whoever answers `subject`; rejects on timeout or when nobody answers. */
  request(subject: string, payload: unknown, opts?: { timeoutMs?: number }): Promise<unknown>;
  /** Answers requests on `subject` (replicas of one service share them: queue group `group`). */
  respond(subject: string, group: string, responder: Responder): Promise<Subscription>;
  /** True while the bus can take publishes (connected). */
  isConnected(): boolean;
  /** Messages not yet acknowledged, per durable consumer. */
  lag(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export const DEFAULT_CONSUMER_CONCURRENCY = 8;
