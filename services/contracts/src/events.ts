import { type Static, type TSchema, Type } from 'typebox';
import { BlogPostDeletedEvent, BlogPostEvent } from './blog.ts';
import { Booking, BookingStatusSchema, ContactRequest } from './booking.ts';
import type { ServiceName } from './enums.ts';
import { AdminDeletedEvent, AdminInvitedEvent, SessionRevokedEvent } from './identity.ts';
import { CallEvent } from './voice.ts';

/**
 * The event catalogue: every subject any service publishes, its producer and its
 * payload schema. Subjects are `<service>.<entity>.<verb>`; payloads evolve by adding
 * fields only. Each producing service has one JetStream stream named after it.
 */

export interface EventEnvelope<P = unknown> {
  /** Unique event id (uuid); also the JetStream msgID used for dedupe. */
  id: string;
  subject: string;
  occurredAt: string;
  payload: P;
  /** W3C trace context of the producing span, when there was one. */
  traceparent?: string;
}

const def = <S extends TSchema>(producer: ServiceName, payload: S) => ({ producer, payload });

export const EVENTS = {
  'booking.booking.created': def('booking', Booking),
  'booking.booking.status_changed': def(
    'booking',
    Type.Object({ booking: Booking, previousStatus: BookingStatusSchema }),
  ),
  'booking.contact.submitted': def('booking', ContactRequest),
  'blog.post.published': def('blog', BlogPostEvent),
  'blog.post.updated': def('blog', BlogPostEvent),
  'blog.post.unpublished': def('blog', BlogPostEvent),
  'blog.post.deleted': def('blog', BlogPostDeletedEvent),
  'voice.call.started': def('voice', CallEvent),
  'voice.call.completed': def('voice', CallEvent),
  'identity.admin.invited': def('identity', AdminInvitedEvent),
  'identity.admin.deleted': def('identity', AdminDeletedEvent),
  'identity.session.revoked': def('identity', SessionRevokedEvent),
} as const;

export type EventSubject = keyof typeof EVENTS;
export type EventPayload<S extends EventSubject> = Static<(typeof EVENTS)[S]['payload']>;

/** JetStream stream that holds a producer's events. */
export function streamOf(service: ServiceName): string {
  return service.toUpperCase();
}

export function producerOf(subject: string): ServiceName {
  const def = (EVENTS as Record<string, { producer: ServiceName }>)[subject];
  if (!def) throw new Error(`Unknown event subject: ${subject}`);
  return def.producer;
}
