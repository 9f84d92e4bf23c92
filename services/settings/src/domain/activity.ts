import type { ActivityKind, EventOf, RecentAction } from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import type { CONSUMES } from '../events.ts';

/**
 * The activity projection's pure half: event versions (how a late event is told from a new
 * one), what the log keeps of each event, and how a logged event reads to an admin.
 */

export type ActivitySubject = (typeof CONSUMES)[number];
export type ActivityEvent = EventOf<ActivitySubject>;

/**
 * Rank of an event's kind among events of one aggregate at the same instant: a status change
 * outranks the creation it follows, a deletion outranks everything (it is final).
 */
const RANK: Record<ActivitySubject, number> = {
  'booking.booking.created': 0,
  'booking.booking.status_changed': 1,
  'voice.call.completed': 1,
  'blog.post.published': 1,
  'blog.post.unpublished': 1,
  'blog.post.deleted': 2,
  'email.address_book.created': 0,
  'email.import.completed': 1,
  'email.address_book.deleted': 2,
  'email.campaign.sent': 1,
  'email.newsletter.sent': 1,
};

/**
 * The version of a fact taken from `event`: occurredAt (normalised to ISO, so text order is
 * time order), then the rank, then the event id (a fixed tie-break). Text comparison of two
 * versions orders them, so "newer wins" is one comparison in SQL and needs no clock.
 */
export function versionOf(event: Pick<ActivityEvent, 'id' | 'subject' | 'occurredAt'>): string {
  const at = new Date(event.occurredAt);
  if (Number.isNaN(at.getTime())) throw new Error(`event ${event.id} has no valid occurredAt`);
  return `${at.toISOString()}~${RANK[event.subject as ActivitySubject]}~${event.id}`;
}

/** What the log keeps of an event to word it later (no personal data). */
export type LogData =
  | { subject: 'booking.booking.created'; status: string }
  | { subject: 'booking.booking.status_changed'; status: string; previousStatus: string }
  | { subject: 'voice.call.completed'; kind: string; status: string; durationSeconds: number }
  | { subject: 'blog.post.published' | 'blog.post.unpublished'; title: string }
  | { subject: 'blog.post.deleted'; slug: string }
  | { subject: 'email.address_book.created' | 'email.address_book.deleted'; name: string }
  | { subject: 'email.import.completed'; bookId: number; imported: number; updated: number }
  | { subject: 'email.campaign.sent'; name: string; sent: number; failed: number; test: boolean }
  | { subject: 'email.newsletter.sent'; name: string; sent: number; failed: number; test?: boolean };

export function logDataOf(event: ActivityEvent): LogData {
  switch (event.subject) {
    case 'booking.booking.created':
      return { subject: event.subject, status: event.payload.status };
    case 'booking.booking.status_changed':
      return {
        subject: event.subject,
        status: event.payload.booking.status,
        previousStatus: event.payload.previousStatus,
      };
    case 'voice.call.completed': {
      const c = event.payload.conversation;
      return { subject: event.subject, kind: c.kind, status: c.status, durationSeconds: c.duration };
    }
    case 'blog.post.published':
    case 'blog.post.unpublished':
      return { subject: event.subject, title: event.payload.post.title };
    case 'blog.post.deleted':
      return { subject: event.subject, slug: event.payload.slug };
    case 'email.address_book.created':
    case 'email.address_book.deleted':
      return { subject: event.subject, name: event.payload.name };
    case 'email.import.completed':
      return {
        subject: event.subject,
        bookId: event.payload.addressBookId,
        imported: event.payload.imported,
        updated: event.payload.updated,
      };
    case 'email.campaign.sent':
      return {
        subject: event.subject,
        name: event.payload.name,
        sent: event.payload.sent,
        failed: event.payload.failed,
        test: event.payload.test,
      };
    case 'email.newsletter.sent':
      return {
        subject: event.subject,
        name: event.payload.name,
        sent: event.payload.sent,
        failed: event.payload.failed,
        test: event.payload.test ?? false,
      };
  }
}

const STATUS_WORDS: Record<string, string> = {
  confirmed: 'confirmed',
  completed: 'completed',
  cancelled: 'cancelled',
  no_show: 'no-show',
  qualified_lead: 'qualified lead',
  client: 'client',
};
const statusWord = (s: string) => STATUS_WORDS[s] ?? s.replaceAll('_', ' ');

/** "1 contact", "1,240 contacts": the product's one rule (@parley/contracts/plural). */
export { plural };

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return s ? `${m} min ${s} s` : `${m} min`;
}

/**
 * A logged event in words, for "recent actions". `bookNames` names address books for imports
 * (the import event carries only the book's id); an unknown book reads "an address book".
 */
export function describeAction(
  entry: { data: LogData; occurredAt: Date },
  bookNames: ReadonlyMap<number, string>,
): RecentAction {
  const d = entry.data;
  const at = entry.occurredAt.toISOString();
  const of = (kind: ActivityKind, description: string): RecentAction => ({
    kind,
    description,
    occurredAt: at,
  });
  switch (d.subject) {
    case 'booking.booking.created':
      return of('booking', 'New demo booking');
    case 'booking.booking.status_changed':
      return of('booking', `Booking marked ${statusWord(d.status)} (was ${statusWord(d.previousStatus)})`);
    case 'voice.call.completed': {
      const who = d.kind === 'demo' ? 'Demo call' : 'Outbound AI call';
      return of(
        'call',
        d.status === 'completed'
          ? `${who} completed (${duration(d.durationSeconds)})`
          : `${who} ended: ${d.status.replaceAll('-', ' ')}`,
      );
    }
    case 'blog.post.published':
      return of('post', `Post “${d.title}” published`);
    case 'blog.post.unpublished':
      return of('post', `Post “${d.title}” unpublished`);
    case 'blog.post.deleted':
      return of('post', `Post /${d.slug} deleted`);
    case 'email.address_book.created':
      return of('address_book', `Address book “${d.name}” created`);
    case 'email.address_book.deleted':
      return of('address_book', `Address book “${d.name}” deleted`);
    case 'email.import.completed': {
      const book = bookNames.get(d.bookId);
      const into = book ? `“${book}”` : 'an address book';
      const updated = d.updated ? `, ${plural(d.updated, 'contact')} updated` : '';
      return of('import', `Imported ${plural(d.imported, 'new contact')} into ${into}${updated}`);
    }
    case 'email.campaign.sent': {
      const failed = d.failed ? ` (${d.failed.toLocaleString('en-US')} failed)` : '';
      return of(
        'campaign',
        `Campaign “${d.name}” sent${d.test ? ' in test mode' : ''} to ${plural(d.sent, 'recipient')}${failed}`,
      );
    }
    case 'email.newsletter.sent': {
      const failed = d.failed ? ` (${d.failed.toLocaleString('en-US')} failed)` : '';
      // A test-mode send says so, as a campaign's does: it is no newsletter "gone out" (issue 35).
      return of(
        'newsletter',
        `Newsletter “${d.name}” sent${d.test ? ' in test mode' : ''} to ${plural(d.sent, 'recipient')}${failed}`,
      );
    }
  }
}
