import {
  type CreateBookingBody,
  formatPhone,
  isOfferedSlot,
  isValidUsPhone,
  type ScheduleConfig,
} from '@parley/contracts';
import { badRequest } from '@parley/kit/errors';

export interface NewBooking {
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  timeSlot: Date;
  notes: string | null;
  guests: Array<{ name: string; email: string }>;
}

const clean = (v: string | null | undefined): string | null => {
  const t = v?.trim();
  return t ? t : null;
};

/**
 * Validates a visitor's booking request beyond its schema and normalises it. Throws a
 * 400 with a message the booking modal can show as is.
 */
export function parseNewBooking(body: CreateBookingBody, now: Date, schedule: ScheduleConfig): NewBooking {
  const name = body.name.trim();
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
    name: g.name.trim(),
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
    notes: clean(body.notes),
    guests,
  };
}
