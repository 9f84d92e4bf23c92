import { DEFAULT_SCHEDULE } from '@parley/contracts';
import { HttpError } from '@parley/kit/errors';
import { describe, expect, it } from 'vitest';
import { parseNewBooking } from '../src/domain/booking-rules.ts';

const now = new Date('2026-06-01T12:00:00Z');
const base = { name: 'Ada Lovelace', email: 'ada@example.com', timeSlot: '2026-06-10T13:00:00.000Z' };

const reason = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(HttpError);
    return `${(e as HttpError).statusCode} ${(e as HttpError).message}`;
  }
  return 'no error';
};

describe('parseNewBooking', () => {
  it('normalises a valid request', () => {
    const b = parseNewBooking(
      {
        ...base,
        phone: '555.123.4567',
        company: '  ',
        notes: ' hi ',
        guests: [{ name: ' Bob ', email: 'BOB@x.io' }],
      },
      now,
      DEFAULT_SCHEDULE,
    );
    expect(b.phone).toBe('(555) 123-4567');
    expect(b.company).toBeNull();
    expect(b.notes).toBe('hi');
    expect(b.guests).toEqual([{ name: 'Bob', email: 'bob@x.io' }]);
    expect(b.timeSlot.toISOString()).toBe(base.timeSlot);
  });

  it('rejects a phone without exactly 10 digits', () => {
    expect(reason(() => parseNewBooking({ ...base, phone: '555-1234' }, now, DEFAULT_SCHEDULE))).toMatch(
      /^400 Phone/,
    );
  });

  it('accepts a US number written with its country code, stored as the 10-digit display', () => {
    expect(parseNewBooking({ ...base, phone: '+1 312 555 0110' }, now, DEFAULT_SCHEDULE).phone).toBe(
      '(312) 555-0110',
    );
    expect(
      reason(() => parseNewBooking({ ...base, phone: '+2 312 555 0110' }, now, DEFAULT_SCHEDULE)),
    ).toMatch(/^400 Phone/);
  });

  it('accepts an empty phone', () => {
    expect(parseNewBooking({ ...base, phone: '' }, now, DEFAULT_SCHEDULE).phone).toBeNull();
  });

  it('rejects past, unoffered and weekend slots', () => {
    expect(
      reason(() => parseNewBooking({ ...base, timeSlot: '2026-05-29T13:00:00Z' }, now, DEFAULT_SCHEDULE)),
    ).toMatch(/^400 .*past/);
    expect(
      reason(() => parseNewBooking({ ...base, timeSlot: '2026-06-10T13:10:00Z' }, now, DEFAULT_SCHEDULE)),
    ).toMatch(/^400 .*not offered/);
    expect(
      reason(() => parseNewBooking({ ...base, timeSlot: '2026-06-13T13:00:00Z' }, now, DEFAULT_SCHEDULE)),
    ).toMatch(/^400 .*not offered/);
    expect(
      reason(() => parseNewBooking({ ...base, timeSlot: '2026-06-30T13:00:00Z' }, now, DEFAULT_SCHEDULE)),
    ).toMatch(/^400 .*not offered/);
  });

  it('rejects duplicate guests and blank names', () => {
    const guests = [
      { name: 'A', email: 'a@x.io' },
      { name: 'B', email: 'A@x.io' },
    ];
    expect(reason(() => parseNewBooking({ ...base, guests }, now, DEFAULT_SCHEDULE))).toMatch(
      /^400 Each guest/,
    );
    expect(reason(() => parseNewBooking({ ...base, name: '   ' }, now, DEFAULT_SCHEDULE))).toMatch(
      /^400 Name/,
    );
  });
});
