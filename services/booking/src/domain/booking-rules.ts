import {
  type ContactBody,
  type CreateBookingBody,
  formatPhone,
  isOfferedSlot,
  isValidUsPhone,
  type ScheduleConfig,
} from '@parley/contracts';
import { badRequest } from '@parley/kit/errors';
import { multiLine, oneLine } from '@parley/kit/text';

export interface NewBooking {
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  timeSlot: Date;
  /** The schedule's zone (BOOKING_TIME_ZONE): mails and the .ics invitation show the slot in it. */
  timeZone: string;
  notes: string | null;
  guests: Array<{ name: string; email: string }>;
}

/** An optional one-line field: null when nothing is left. */
const clean = (v: string | null | undefined): string | null => (v ? oneLine(v) : '') || null;

/**
 * Validates a visitor's booking request beyond its schema and normalises it. Throws a
 * 400 with a message the booking modal can show as is. Names and the company are one line
 * with no control character; the notes keep their lines, as LF (they go into mail and the
 * invitation, where a bare CR breaks the message).
 */
export function parseNewBooking(body: CreateBookingBody, now: Date, schedule: ScheduleConfig): NewBooking {
  const name = oneLine(body.name);
  if (!name) throw badRequest('Name is required.');
  const phone = clean(body.phone);
  if (phone && !isValidUsPhone(phone)) {
    throw badRequest('Phone number must have exactly 10 digits (or 11 starting with the country code 1).');
  }
  const timeSlot = new Date(body.timeSlot);
  if (Number.isNaN(timeSlot.getTime())) throw badRequest('timeSlot must be an ISO date-time.');
  if (timeSlot.getTime() <= now.getTime()) {
    throw badRequest('This time slot is in the past. Please select a different time.');
  }
  if (!isOfferedSlot(timeSlot, now, schedule)) {
    throw badRequest('This time slot is not offered. Please select one of the available times.');
  }
  const guests = (body.guests ?? []).map((g) => ({
    name: oneLine(g.name),
    email: g.email.trim().toLowerCase(),
  }));
  const emails = new Set(guests.map((g) => g.email));
  if (emails.size !== guests.length) throw badRequest('Each guest must have a different email address.');
  return {
    name,
    email: body.email.trim(),
    phone: phone ? formatPhone(phone) : null,
    company: clean(body.company),
    timeSlot,
    timeZone: schedule.timeZone,
    notes: body.notes ? multiLine(body.notes) || null : null,
    guests,
  };
}

export interface NewContactRequest {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  message: string | null;
}

/** The contact form's text, normalised as a booking's is; 400 when a required field is left empty. */
export function parseContact(body: ContactBody): NewContactRequest {
  const out = {
    firstName: oneLine(body.firstName),
    lastName: oneLine(body.lastName),
    email: body.email.trim(),
    company: oneLine(body.company),
    message: body.message ? multiLine(body.message) || null : null,
  };
  if (!out.firstName || !out.lastName || !out.company)
    throw badRequest('First name, last name and company are required.');
  return out;
}
