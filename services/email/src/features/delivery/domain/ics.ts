import { multiLine, oneLine } from '@parley/kit/text';
import { localStamp, repeatedWallTime, vtimezone } from './vtimezone.ts';

export { localStamp };

/**
 * iCalendar (RFC 5545) invitations for demo bookings. One UID per booking, so a calendar
 * that received the REQUEST replaces the same event on a CANCEL (or a later REQUEST) whose
 * SEQUENCE is higher. Times are written in the booking's zone (the booking service's
 * BOOKING_TIME_ZONE) with a VTIMEZONE made from the platform's zone rules (vtimezone.ts),
 * so calendars show the slot as the sales team booked it.
 */

export type IcsMethod = 'REQUEST' | 'CANCEL';

export interface IcsInvite {
  method: IcsMethod;
  bookingId: string;
  /** Grows with every change the attendees must see (see sequenceOf). */
  sequence: number;
  start: Date;
  minutes: number;
  timeZone: string;
  summary: string;
  description: string;
  location: string;
  organizer: { name: string; email: string };
  attendees: Array<{ name: string; email: string }>;
  /** DTSTAMP: when this version of the event was made. */
  stamp: Date;
  /** The host part of the UID (a domain we own). */
  uidDomain: string;
}

export const bookingUid = (bookingId: string, domain: string) => `booking-${bookingId}@${domain}`;

/**
 * SEQUENCE of a booking's invitation: 0 when it is created; for a later change, the seconds
 * since the booking was made (at least 1). That grows with every change without keeping a
 * counter, and every consumer replica computes the same number for the same event.
 */
export function sequenceOf(createdAt: Date, changedAt: Date | null): number {
  if (!changedAt) return 0;
  return Math.max(1, Math.floor((changedAt.getTime() - createdAt.getTime()) / 1000));
}

export function buildIcs(invite: IcsInvite): string {
  const end = new Date(invite.start.getTime() + invite.minutes * 60_000);
  // Times are written in UTC, without VTIMEZONE, for UTC itself, a zone the platform does
  // not know, and a start or end in the hour repeated when clocks go back (ambiguous).
  const zone = [invite.start, end].some((d) => repeatedWallTime(d, invite.timeZone))
    ? null
    : vtimezone(invite.timeZone, invite.start, end);
  const when = (d: Date) =>
    zone ? `;TZID=${invite.timeZone}:${localStamp(d, invite.timeZone)}` : `:${utcStamp(d)}`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Parley//Demo bookings//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${invite.method}`,
    ...(zone ?? []),
    'BEGIN:VEVENT',
    `UID:${bookingUid(invite.bookingId, invite.uidDomain)}`,
    `SEQUENCE:${invite.sequence}`,
    `DTSTAMP:${utcStamp(invite.stamp)}`,
    `DTSTART${when(invite.start)}`,
    `DTEND${when(end)}`,
    `SUMMARY:${text(invite.summary)}`,
    `DESCRIPTION:${text(invite.description)}`,
    `LOCATION:${text(invite.location)}`,
    `ORGANIZER;CN=${param(invite.organizer.name)}:${mailto(invite.organizer.email)}`,
    ...invite.attendees.map(
      (a) =>
        `ATTENDEE;CN=${param(a.name || a.email)};ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:${mailto(a.email)}`,
    ),
    `STATUS:${invite.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    ...(invite.method === 'REQUEST'
      ? ['BEGIN:VALARM', 'ACTION:DISPLAY', 'DESCRIPTION:Reminder', 'TRIGGER:-PT15M', 'END:VALARM']
      : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/**
 * Escapes a TEXT value (RFC 5545 §3.3.11): every line break (CRLF, a bare CR or LF) is the
 * escaped `\\n`, and other control characters go (RFC 5545 §3.1 excludes them).
 */
function text(s: string): string {
  return multiLine(s).replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');
}

/** A parameter value: one line, quoted, without the characters a quoted value cannot hold. */
function param(s: string): string {
  return `"${oneLine(s).replace(/"/g, '')}"`;
}

/** A calendar address: one line, no space or control character. */
const mailto = (email: string) => `mailto:${oneLine(email).replace(/\s/g, '')}`;

/** Folds a content line at 75 octets (continuations start with a space), never inside a UTF-8 character. */
function fold(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  let limit = 75;
  for (const ch of line) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (size + n > limit) {
      parts.push(current);
      current = '';
      size = 0;
      limit = 74; // the leading space counts
    }
    current += ch;
    size += n;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

function utcStamp(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}
