import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { EventEnvelope } from '@parley/contracts';
import type { Logger } from 'pino';
import { contextFromHeaders, tracer } from '../telemetry.ts';
import type { ConsumerSpec } from './types.ts';

/**
 * Runs a consumer's handler for one delivery inside a CONSUMER span linked to the
 * producer's span (its traceparent travels with the event), and reports the outcome.
 */
export async function runConsumerHandler(
  spec: ConsumerSpec,
  event: EventEnvelope,
  deliveryCount: number,
  logger: Logger,
): Promise<'ack' | 'retry'> {
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
    await context.with(trace.setSpan(context.active(), span), () => spec.handler(event, { deliveryCount }));
    return 'ack';
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    logger.warn(
      { err, durable: spec.durable, eventId: event.id, subject: event.subject, deliveryCount },
      'event handler failed',
    );
    return 'retry';
  } finally {
    span.end();
  }
}
