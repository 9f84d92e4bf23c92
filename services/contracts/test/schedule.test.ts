import { describe, expect, it } from 'vitest';
import {
  availableSlots,
  bookableDates,
  DEFAULT_SCHEDULE,
  isOfferedSlot,
  localDateOf,
  parseDate,
  slotsOfDate,
  zonedTimeToUtc,
} from '../src/schedule.ts';

const iso = (d: Date) => d.toISOString();

describe('slotsOfDate', () => {
  it('gives 30-minute slots 9:00–17:30 Eastern on a weekday (EDT, UTC-4)', () => {
    const slots = slotsOfDate('2026-06-10'); // a Wednesday
    expect(slots).toHaveLength(18);
    expect(iso(slots[0]!)).toBe('2026-06-10T13:00:00.000Z');
    expect(iso(slots.at(-1)!)).toBe('2026-06-10T21:30:00.000Z');
  });

  it('uses EST (UTC-5) in winter', () => {
    expect(iso(slotsOfDate('2026-12-02')[0]!)).toBe('2026-12-02T14:00:00.000Z');
  });

  it('has no slots on weekends', () => {
    expect(slotsOfDate('2026-06-13')).toEqual([]); // Saturday
    expect(slotsOfDate('2026-06-14')).toEqual([]); // Sunday
  });

  it('is DST-correct on the Monday after the spring change', () => {
    // 2027-03-14 is the spring-forward Sunday; the Friday before is EST, the Monday after EDT.
    expect(iso(slotsOfDate('2027-03-12')[0]!)).toBe('2027-03-12T14:00:00.000Z');
    expect(iso(slotsOfDate('2027-03-15')[0]!)).toBe('2027-03-15T13:00:00.000Z');
  });

  it('is DST-correct across the autumn change', () => {
    // 2026-11-01 is the fall-back Sunday.
    expect(iso(slotsOfDate('2026-10-30')[0]!)).toBe('2026-10-30T13:00:00.000Z');
    expect(iso(slotsOfDate('2026-11-02')[0]!)).toBe('2026-11-02T14:00:00.000Z');
  });

  it('handles a schedule whose slots cross the DST hour itself', () => {
    const cfg = {
      ...DEFAULT_SCHEDULE,
      weekdays: [0],
      firstSlotMinute: 0,
      lastSlotMinute: 4 * 60,
      slotMinutes: 60,
    };
    // Spring forward at 02:00 local on 2027-03-14: 00:00 EST, 01:00 EST, then EDT.
    const slots = slotsOfDate('2027-03-14', cfg).map(iso);
    expect(slots[0]).toBe('2027-03-14T05:00:00.000Z');
    expect(slots[1]).toBe('2027-03-14T06:00:00.000Z');
    expect(slots[3]).toBe('2027-03-14T07:00:00.000Z'); // 03:00 EDT
  });

  it('rejects malformed and impossible dates', () => {
    expect(parseDate('2026-02-30')).toBeNull();
    expect(parseDate('2026-2-3')).toBeNull();
    expect(parseDate('tomorrow')).toBeNull();
    expect(slotsOfDate('2026-13-01')).toEqual([]);
  });
});

describe('bookableDates (the 8 PM Eastern rule and the 14-day window)', () => {
  it('starts today before 8 PM Eastern', () => {
    const now = new Date('2026-06-10T23:59:00Z'); // 19:59 EDT
    const dates = bookableDates(now);
    expect(dates).toHaveLength(14);
    expect(dates[0]).toBe('2026-06-10');
    expect(dates[13]).toBe('2026-06-23');
  });

  it('starts tomorrow from 8 PM Eastern on', () => {
    const now = new Date('2026-06-11T00:00:00Z'); // 20:00 EDT on the 10th
    expect(bookableDates(now)[0]).toBe('2026-06-11');
  });

  it('uses the Eastern date, not UTC, late in the evening', () => {
    const now = new Date('2026-12-02T03:30:00Z'); // 22:30 EST on Dec 1
    expect(localDateOf(now)).toBe('2026-12-01');
    expect(bookableDates(now)[0]).toBe('2026-12-02');
  });
});

describe('availableSlots', () => {
  it('excludes past slots of today', () => {
    const now = new Date('2026-06-10T17:10:00Z'); // 13:10 EDT
    const slots = availableSlots('2026-06-10', now, new Set()).map(iso);
    expect(slots[0]).toBe('2026-06-10T17:30:00.000Z'); // 13:30 EDT
  });

  it('excludes taken slots', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    const taken = new Set([zonedTimeToUtc(2026, 6, 10, 9 * 60, 'America/New_York').getTime()]);
    const slots = availableSlots('2026-06-10', now, taken).map(iso);
    expect(slots).not.toContain('2026-06-10T13:00:00.000Z');
    expect(slots).toHaveLength(17);
  });

  it('offers nothing outside the 14-day window', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    expect(availableSlots('2026-06-15', now, new Set())).toHaveLength(0); // day 15
    expect(availableSlots('2026-05-29', now, new Set())).toHaveLength(0); // past
  });

  it('knows which instants are offered', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    expect(isOfferedSlot(new Date('2026-06-10T13:00:00Z'), now)).toBe(true);
    expect(isOfferedSlot(new Date('2026-06-10T13:15:00Z'), now)).toBe(false);
    expect(isOfferedSlot(new Date('2026-06-13T13:00:00Z'), now)).toBe(false);
  });
});
