import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { type EventEnvelope, type EventSubject, eventPayloadProblem } from '@parley/contracts';
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import { contextFromHeaders, tracer } from '../telemetry.ts';
import type { DeadLetterReplayer, DeadLetters } from './dead-letters.ts';
import { DEFAULT_RETRY_POLICY, maxDeliveries, type RetryPolicy, retryDelayMs } from './retry.ts';
import {
  type BusConsumer,
  type ConsumerSpec,
  DEFAULT_CONSUMER_CONCURRENCY,
  type DeliveryOutcome,
} from './types.ts';

export interface ConsumerContext {
  logger: Logger;
  policy?: RetryPolicy;
  /** Where events that exhausted their retries go (the service's database). */
  deadLetters: DeadLetters;
  replayer?: DeadLetterReplayer;
  metrics?: {
    deliveries: Counter<'consumer' | 'outcome'>;
  };
}

/**
 * Turns a service's consumer into what the bus runs: the payload is checked against the
 * catalogue (a mismatch is a dead letter at once: no retry can fix it), the handler runs in a
 * CONSUMER span linked to the producer's, a failure is retried with backoff and jitter, and
 * after the policy's last delivery the event is kept in the dead letters and acknowledged.
 */
export function busConsumer<S extends EventSubject>(
  spec: ConsumerSpec<S>,
  ctx: ConsumerContext,
): BusConsumer {
  const policy = ctx.policy ?? DEFAULT_RETRY_POLICY;
  const lastDelivery = maxDeliveries(policy);
  const log = ctx.logger.child({ consumer: spec.durable });
  const count = (outcome: string) => ctx.metrics?.deliveries.inc({ consumer: spec.durable, outcome });

  async function deadLetter(
    event: EventEnvelope,
    error: string,
    deliveries: number,
  ): Promise<DeliveryOutcome> {
    try {
      await ctx.deadLetters.record(spec.durable, event, error, deliveries);
    } catch (err) {
      // The database is away too: keep the message on the bus and try again later.
      log.warn({ err, eventId: event.id }, 'could not store a dead letter; will retry');
      return { retryInMs: retryDelayMs(policy, Math.min(deliveries, 10)) };
    }
    count('dead_lettered');
    log.error(
      { eventId: event.id, subject: event.subject, deliveries, error },
      'event moved to the dead letters (list and replay with `events`)',
    );
    return { ack: true };
  }

  /** Runs the handler once; resolves null on success or the error text. */
  async function attempt(event: EventEnvelope, deliveryCount: number): Promise<string | null> {
    const producer = event.traceparent
      ? trace.getSpanContext(contextFromHeaders({ traceparent: event.traceparent }))
      : undefined;
    const span = tracer.startSpan(
      `${event.subject} process`,
      {
        kind: SpanKind.CONSUMER,
        links: producer ? [{ context: producer }] : [],
        attributes: {
          'messaging.operation.type': 'process',
          'messaging.destination.name': event.subject,
          'messaging.consumer.group.name': spec.durable,
          'messaging.message.id': event.id,
          'parley.delivery_count': deliveryCount,
        },
      },
      // The consumer's work continues the producer's trace, so one trace shows the whole flow.
      producer ? trace.setSpanContext(context.active(), producer) : context.active(),
    );
    try {
      await context.with(trace.setSpan(context.active(), span), () =>
        spec.handler(event as Parameters<typeof spec.handler>[0], { deliveryCount }),
      );
      return null;
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      return err instanceof Error ? err.message || err.name : String(err);
    } finally {
      span.end();
    }
  }

  ctx.replayer?.register(spec.durable, async (event) => {
    const problem = eventPayloadProblem(event.subject, event.payload);
    return problem ?? attempt(event, 1);
  });

  return {
    durable: spec.durable,
    subjects: spec.subjects,
    concurrency: spec.concurrency ?? DEFAULT_CONSUMER_CONCURRENCY,
    async deliver(event, deliveryCount) {
      const problem = eventPayloadProblem(event.subject, event.payload);
      if (problem) return deadLetter(event, problem, deliveryCount);
      const error = await attempt(event, deliveryCount);
      if (error === null) {
        count('ack');
        return { ack: true };
      }
      if (deliveryCount >= lastDelivery) return deadLetter(event, error, deliveryCount);
      count('retry');
      const retryInMs = retryDelayMs(policy, deliveryCount);
      log.warn(
        { eventId: event.id, subject: event.subject, deliveryCount, retryInMs, error },
        'event handler failed; will retry',
      );
      return { retryInMs };
    },
  };
}

/**
 * A bus consumer without the service machinery (tests of the buses themselves): a thrown
 * handler is retried after `retryInMs`; the handler sees every delivery.
 */
export function plainConsumer(spec: {
  durable: string;
  subjects: readonly EventSubject[];
  concurrency?: number;
  retryInMs?: number;
  handler: (event: EventEnvelope, deliveryCount: number) => Promise<void>;
}): BusConsumer {
  return {
    durable: spec.durable,
    subjects: spec.subjects,
    concurrency: spec.concurrency ?? DEFAULT_CONSUMER_CONCURRENCY,
    async deliver(event, deliveryCount) {
      try {
        await spec.handler(event, deliveryCount);
        return { ack: true };
      } catch {
        return { retryInMs: spec.retryInMs ?? 100 };
      }
    },
  };
}
