import { type Static, type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { BlogPostDeletedEvent, BlogPostEvent } from './blog.ts';
import { Booking, BookingStatusSchema, ContactRequest } from './booking.ts';
import {
  AddressBookCreatedEvent,
  AddressBookDeletedEvent,
  ContactResubscribedEvent,
  ContactUnsubscribedEvent,
  ImportCompletedEvent,
} from './email.ts';
import { CampaignSentEvent, NewsletterSentEvent } from './email-campaigns.ts';
import { SERVICE_NAMES, type ServiceName } from './enums.ts';
import { AdminDeletedEvent, AdminInvitedEvent, SessionRevokedEvent } from './identity.ts';
import { literalUnion } from './schema.ts';
import { SettingChangedEvent } from './settings.ts';
import { CallEvent } from './voice.ts';

/**
 * The event catalogue: every subject any service publishes, its producer, its payload
 * schema and the aggregate it is about. Subjects are `<service>.<entity>.<verb>`; payloads
 * evolve by adding fields only. Each producing service has one stream named after it.
 *
 * The aggregate key orders events: the outbox publishes the events of one aggregate in
 * commit order, and a consumer handles the events of one aggregate one at a time.
 */

export interface EventEnvelope<P = unknown> {
  /** Unique event id (uuid); also the JetStream msgID used for dedupe. */
  id: string;
  subject: string;
  occurredAt: string;
  payload: P;
  /** The aggregate the event is about (see the catalogue); absent = no ordering. */
  key?: string;
  /** W3C trace context of the producing span, when there was one. */
  traceparent?: string;
}

interface EventDef<S extends TSchema> {
  producer: ServiceName;
  payload: S;
  key: (payload: Static<S>) => string;
}

const def = <S extends TSchema>(
  producer: ServiceName,
  payload: S,
  key: (payload: Static<S>) => string,
): EventDef<S> => ({ producer, payload, key });

export const EVENTS = {
  'booking.booking.created': def('booking', Booking, (p) => p.id),
  'booking.booking.status_changed': def(
    'booking',
    Type.Object({ booking: Booking, previousStatus: BookingStatusSchema }),
    (p) => p.booking.id,
  ),
  'booking.contact.submitted': def('booking', ContactRequest, (p) => p.id),
  'blog.post.published': def('blog', BlogPostEvent, (p) => p.post.id),
  'blog.post.updated': def('blog', BlogPostEvent, (p) => p.post.id),
  'blog.post.unpublished': def('blog', BlogPostEvent, (p) => p.post.id),
  'blog.post.deleted': def('blog', BlogPostDeletedEvent, (p) => p.id),
  'voice.call.started': def('voice', CallEvent, (p) => p.conversation.id),
  'voice.call.completed': def('voice', CallEvent, (p) => p.conversation.id),
  'identity.admin.invited': def('identity', AdminInvitedEvent, (p) => p.adminId),
  'identity.admin.deleted': def('identity', AdminDeletedEvent, (p) => p.adminId),
  'identity.session.revoked': def('identity', SessionRevokedEvent, (p) => p.adminId),
  'settings.setting.changed': def('settings', SettingChangedEvent, (p) => p.key),
  // email (audience): book events and imports are ordered per book, suppressions per address.
  'email.address_book.created': def('email', AddressBookCreatedEvent, (p) => `book:${p.id}`),
  'email.address_book.deleted': def('email', AddressBookDeletedEvent, (p) => `book:${p.id}`),
  'email.import.completed': def('email', ImportCompletedEvent, (p) => `book:${p.addressBookId}`),
  'email.contact.unsubscribed': def('email', ContactUnsubscribedEvent, (p) => `address:${p.address}`),
  'email.contact.resubscribed': def('email', ContactResubscribedEvent, (p) => `address:${p.address}`),
  // email (sends): one event per send of a campaign or newsletter, ordered per campaign/newsletter.
  'email.campaign.sent': def('email', CampaignSentEvent, (p) => `campaign:${p.campaignId}`),
  'email.newsletter.sent': def('email', NewsletterSentEvent, (p) => `newsletter:${p.newsletterId}`),
} as const;

export type EventSubject = keyof typeof EVENTS;
export type EventPayload<S extends EventSubject> = Static<(typeof EVENTS)[S]['payload']>;
/** An envelope whose subject and payload agree (a union over `S`). */
export type EventOf<S extends EventSubject = EventSubject> = S extends EventSubject
  ? EventEnvelope<EventPayload<S>> & { subject: S }
  : never;

export function isEventSubject(subject: string): subject is EventSubject {
  return Object.hasOwn(EVENTS, subject);
}

/** JetStream stream that holds a producer's events. */
export function streamOf(service: ServiceName): string {
  return service.toUpperCase();
}

export function producerOf(subject: string): ServiceName {
  if (!isEventSubject(subject)) throw new Error(`Unknown event subject: ${subject}`);
  return EVENTS[subject].producer;
}

/**
 * How long each stream keeps its events. Consumers that keep a copy (the email service's
 * blog posts and settings, the settings service's activity projection) rebuild it from the
 * stream on a fresh database, so streams keep everything by age; a size cap per stream
 * drops the oldest events first. 0 = no age limit.
 */
export const STREAM_LIMITS: Record<ServiceName, { maxAgeDays: number; maxBytes: number }> =
  Object.fromEntries(SERVICE_NAMES.map((s) => [s, { maxAgeDays: 0, maxBytes: 1024 ** 3 }])) as Record<
    ServiceName,
    { maxAgeDays: number; maxBytes: number }
  >;

/** The aggregate key of an event (ordering), from the catalogue. */
export function eventKey<S extends EventSubject>(subject: S, payload: EventPayload<S>): string {
  return (EVENTS[subject].key as (p: EventPayload<S>) => string)(payload);
}

const checkers = new Map<string, ReturnType<typeof Compile>>();

/**
 * Checks a payload against its subject's schema. Returns null when it conforms, else a
 * sentence naming the subject and the first problem (unknown subjects are problems too).
 */
export function eventPayloadProblem(subject: string, payload: unknown): string | null {
  if (!isEventSubject(subject)) return `unknown event subject ${subject}`;
  let check = checkers.get(subject);
  if (!check) {
    check = Compile(EVENTS[subject].payload);
    checkers.set(subject, check);
  }
  if (check.Check(payload)) return null;
  const first = [...check.Errors(payload)][0] as { instancePath?: string; message?: string } | undefined;
  return `${subject} payload does not match the catalogue at ${first?.instancePath || '/'}: ${first?.message ?? 'invalid'}`;
}

// ── Request/reply: synchronous questions between services (NATS request/reply) ─────────

export const DIAGNOSTIC_STATUSES = ['success', 'warning', 'error'] as const;
export type DiagnosticStatus = (typeof DIAGNOSTIC_STATUSES)[number];

/** Asks a service to run one of its own checks (its database, its mail transport, ...). */
export const DiagnosticRequest = Type.Object({ check: Type.String({ minLength: 1, maxLength: 100 }) });
export type DiagnosticRequest = Static<typeof DiagnosticRequest>;

export const DiagnosticResult = Type.Object({
  status: literalUnion(DIAGNOSTIC_STATUSES),
  result: Type.String(),
  details: Type.String(),
  /** Milliseconds the check took inside the service. */
  duration: Type.Number({ minimum: 0 }),
});
export type DiagnosticResult = Static<typeof DiagnosticResult>;

/** The subject on which `service` answers diagnostic requests (any replica answers). */
export const diagnosticsSubject = (service: ServiceName) => `diagnostics.${service}`;

/** A dead letter of a service, as its `deadLettersSubject` answers (diagnostics lists them). */
export const DeadLetterInfo = Type.Object({
  /** consumer = an event this service failed to handle; outbox = an event it could not publish. */
  kind: literalUnion(['consumer', 'outbox'] as const),
  id: Type.String(),
  consumer: Type.Union([Type.String(), Type.Null()]),
  eventId: Type.String(),
  subject: Type.String(),
  error: Type.String(),
  deliveries: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  replayRequested: Type.Boolean(),
});
export type DeadLetterInfo = Static<typeof DeadLetterInfo>;

/**
 * Request/reply subjects of every service's dead letters: `list` answers DeadLetterInfo[];
 * `replay` takes `{ ids: string[] | 'all' }` and answers `{ queued: number }`.
 */
export const deadLettersSubject = (service: ServiceName, verb: 'list' | 'replay') =>
  `deadletters.${service}.${verb}`;

/**
 * Services that keep a copy of the settings (built from `settings.setting.changed`) and must
 * have applied a save before it answers "saved": read-your-writes for what the copy decides
 * (test mode, test addresses, the SMTP transport). The settings service asks each of them on
 * `settingsApplySubject` right after the save commits; a consumer of settings.setting.changed
 * not listed here would serve stale values after a save (a test in services/settings checks
 * the list against every service's CONSUMES).
 */
export const SETTINGS_COPY_HOLDERS = ['email'] as const satisfies readonly ServiceName[];

/**
 * Request/reply: the settings service hands `service` the settings a save just committed,
 * each the payload of its `settings.setting.changed` event (the copy keeps the highest
 * version per key, so this and the event, in either order, leave the same copy). The service
 * applies them to its copy before answering `SettingsApplyReply`. Not under `settings.>`: that
 * is the SETTINGS stream's, which would store the request and answer it with its own ack.
 */
export const settingsApplySubject = (service: ServiceName) => `apply-settings.${service}`;

export const SettingsApplyRequest = Type.Object({
  changes: Type.Array(SettingChangedEvent, { minItems: 1, maxItems: 100 }),
});
export type SettingsApplyRequest = Static<typeof SettingsApplyRequest>;

export const SettingsApplyReply = Type.Object({
  /** How many of the changes were newer than the copy (0: it had them already). */
  applied: Type.Integer({ minimum: 0 }),
});
export type SettingsApplyReply = Static<typeof SettingsApplyReply>;

/**
 * Request/reply, BEFORE a save: whether `service` can act on the values (a setting whose
 * validity depends on that service's own configuration: `mail_transport` = ses needs the email
 * service's SES_REGION). A problem refuses the save (400) and nothing is stored. Not under
 * `settings.>` for the reason given above.
 */
export const settingsCheckSubject = (service: ServiceName) => `check-settings.${service}`;

export const SettingsCheckRequest = Type.Object({
  changes: Type.Array(Type.Object({ key: Type.String(), value: Type.String() }), {
    minItems: 1,
    maxItems: 100,
  }),
});
export type SettingsCheckRequest = Static<typeof SettingsCheckRequest>;

export const SettingsCheckReply = Type.Object({
  problems: Type.Array(Type.Object({ key: Type.String(), message: Type.String() })),
});
export type SettingsCheckReply = Static<typeof SettingsCheckReply>;
