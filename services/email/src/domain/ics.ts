import { multiLine, oneLine } from '@parley/kit/text';

/**
 * iCalendar (RFC 5545) invitations for demo bookings. One UID per booking, so a calendar
 * that received the REQUEST replaces the same event on a CANCEL (or a later REQUEST) whose
 * SEQUENCE is higher. Times are written in the booking's zone with its VTIMEZONE, so
 * calendars show the slot as the sales team booked it (America/New_York).
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

/** The VTIMEZONE of America/New_York (US rules since 2007). */
const NEW_YORK = [
  'BEGIN:VTIMEZONE',
  'TZID:America/New_York',
  'X-LIC-LOCATION:America/New_York',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'TZNAME:EDT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'TZNAME:EST',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];
const ZONES: Record<string, string[]> = { 'America/New_York': NEW_YORK };

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
  const zone = ZONES[invite.timeZone];
  const end = new Date(invite.start.getTime() + invite.minutes * 60_000);
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

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Local wall time in `timeZone` as YYYYMMDDTHHMMSS. */
export function localStamp(d: Date, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}${p.month}${p.day}T${p.hour}${p.minute}${p.second}`;
}
