import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { buildIcs, localStamp, sequenceOf } from '../src/domain/ics.ts';

const base = {
  bookingId: '7d1f8f8e-3c1a-4c9b-9f5e-0a1b2c3d4e5f',
  minutes: 30,
  timeZone: 'America/New_York',
  summary: 'Parley demo; with, commas\\and a backslash',
  description:
    'Line one\nLine two — a long description that certainly needs folding because it is longer than seventy-five octets ✓✓✓',
  location: 'Phone call to (555) 123-4567',
  organizer: { name: 'Parley "Sales"', email: 'sales@parley.test' },
  attendees: [
    { name: 'Ada', email: 'ada@example.com' },
    { name: 'Charles', email: 'charles@example.com' },
  ],
  stamp: new Date('2026-11-23T12:00:00Z'),
  uidDomain: 'parley',
};

function parse(text: string) {
  const comp = new ICAL.Component(ICAL.parse(text));
  const tz = comp.getFirstSubcomponent('vtimezone')!;
  ICAL.TimezoneService.register(tz);
  return { comp, event: new ICAL.Event(comp.getFirstSubcomponent('vevent')!) };
}

describe('buildIcs', () => {
  it('writes a REQUEST in America/New_York that calendars read back to the same instant (summer and winter)', () => {
    for (const [iso, local] of [
      ['2027-01-12T15:30:00.000Z', '2027-01-12T10:30:00'],
      ['2027-07-13T13:00:00.000Z', '2027-07-13T09:00:00'],
    ] as const) {
      const text = buildIcs({ ...base, method: 'REQUEST', sequence: 0, start: new Date(iso) });
      const { comp, event } = parse(text);
      expect(comp.getFirstPropertyValue('method')).toBe('REQUEST');
      expect(event.uid).toBe(`booking-${base.bookingId}@parley`);
      expect(event.sequence).toBe(0);
      expect(event.startDate.toString()).toBe(local);
      expect(event.startDate.toJSDate().toISOString()).toBe(iso);
      expect(event.endDate.toJSDate().getTime() - new Date(iso).getTime()).toBe(30 * 60_000);
      expect(event.summary).toBe(base.summary);
      expect(event.description).toBe(base.description);
      expect(event.organizer).toBe('mailto:sales@parley.test');
      expect(event.attendees).toHaveLength(2);
      expect(event.component.getFirstSubcomponent('valarm')).not.toBeNull();
      // RFC 5545: CRLF line ends, no line longer than 75 octets.
      expect(text.endsWith('\r\n')).toBe(true);
      for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    }
  });

  it('writes a CANCEL with the same UID, a higher SEQUENCE and STATUS:CANCELLED', () => {
    const created = new Date('2026-11-20T10:00:00Z');
    const seq = sequenceOf(created, new Date('2026-11-21T10:00:00Z'));
    expect(seq).toBe(86_400);
    expect(sequenceOf(created, null)).toBe(0);
    expect(sequenceOf(created, created)).toBe(1);
    const { comp, event } = parse(
      buildIcs({ ...base, method: 'CANCEL', sequence: seq, start: new Date('2027-01-12T15:30:00Z') }),
    );
    expect(comp.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(event.uid).toBe(`booking-${base.bookingId}@parley`);
    expect(event.sequence).toBe(86_400);
    expect(event.component.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(event.component.getFirstSubcomponent('valarm')).toBeNull();
  });

  it('formats local wall time across the DST change', () => {
    expect(localStamp(new Date('2026-03-08T06:59:59Z'), 'America/New_York')).toBe('20260308T015959');
    expect(localStamp(new Date('2026-03-08T07:00:00Z'), 'America/New_York')).toBe('20260308T030000');
  });
});
