import { DEFAULT_SCHEDULE } from '@parley/contracts';
import { HttpError } from '@parley/kit/errors';
import { describe, expect, it } from 'vitest';
import { parseContact, parseNewBooking } from '../src/domain/booking-rules.ts';

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
    expect(b.timeZone).toBe('America/New_York');
  });

  it("records the schedule's zone (BOOKING_TIME_ZONE), which the mails and the .ics show", () => {
    const london = { ...DEFAULT_SCHEDULE, timeZone: 'Europe/London' };
    const b = parseNewBooking({ ...base, timeSlot: '2026-06-10T08:00:00.000Z' }, now, london);
    expect(b.timeZone).toBe('Europe/London');
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

  it('keeps names on one line and the notes in LF lines: no bare CR, no control character', () => {
    const b = parseNewBooking(
      {
        ...base,
        name: ' Ada\r\nBcc: x@evil.test\u0000 ',
        company: 'Analytical\rEngines\t Ltd',
        notes: 'line one\r\nline two\r.\rline\u2028four\u0007',
        guests: [{ name: 'Bob\r\nTo: y@evil.test', email: 'bob@x.io' }],
      },
      now,
      DEFAULT_SCHEDULE,
    );
    expect(b.name).toBe('Ada Bcc: x@evil.test');
    expect(b.company).toBe('Analytical Engines Ltd');
    expect(b.notes).toBe('line one\nline two\n.\nline\nfour');
    expect(b.guests[0]?.name).toBe('Bob To: y@evil.test');
    expect(reason(() => parseNewBooking({ ...base, name: '\r\n\u0001' }, now, DEFAULT_SCHEDULE))).toMatch(
      /^400 Name/,
    );
    expect(parseNewBooking({ ...base, notes: ' \r\r ' }, now, DEFAULT_SCHEDULE).notes).toBeNull();
  });
});

describe('parseContact', () => {
  const contact = { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', company: 'Navy' };

  it('normalises the contact form as a booking: one-line names, LF lines in the message', () => {
    expect(
      parseContact({
        ...contact,
        firstName: 'Grace\r',
        company: 'Navy\r\n\u0000Inc',
        message: 'Hi\r.\r\r\nthere\u0085bye',
      }),
    ).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      company: 'Navy Inc',
      message: 'Hi\n.\n\nthere\nbye',
    });
    expect(parseContact({ ...contact, message: '\r\n' }).message).toBeNull();
  });

  it('answers 400 when a required field holds nothing but control characters', () => {
    expect(reason(() => parseContact({ ...contact, lastName: '\r\n' }))).toMatch(/^400 /);
    expect(reason(() => parseContact({ ...contact, company: '\u0000' }))).toMatch(/^400 /);
  });
});
