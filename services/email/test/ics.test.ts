import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { buildIcs, localStamp, sequenceOf } from '../src/features/delivery/domain/ics.ts';
import { offsetMinutes } from '../src/features/delivery/domain/vtimezone.ts';

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
  const tz = comp.getFirstSubcomponent('vtimezone');
  if (tz) ICAL.TimezoneService.register(tz);
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

  // The UTC offset Intl gives the zone at an instant, in minutes.
  const intlOffset = (d: Date, timeZone: string) => {
    const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(d)
      .find((p) => p.type === 'timeZoneName')!.value;
    const m = /GMT(?:([+-])(\d\d):(\d\d))?/.exec(name)!;
    return m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  };

  // Each instant: mid-winter, mid-summer, either side of the spring change and the hours
  // before and after the repeated one of the autumn change.
  const zones: Array<[string, string[]]> = [
    [
      'America/New_York',
      [
        '2027-01-12T15:30:00Z',
        '2027-07-13T13:00:00Z',
        '2027-03-14T06:59:00Z',
        '2027-03-14T07:00:00Z',
        '2027-11-07T04:00:00Z',
        '2027-11-07T07:00:00Z',
      ],
    ],
    [
      'Europe/London',
      [
        '2027-01-12T09:00:00Z',
        '2027-07-13T09:00:00Z',
        '2027-03-28T00:59:00Z',
        '2027-03-28T01:00:00Z',
        '2027-10-30T23:00:00Z',
        '2027-10-31T02:00:00Z',
      ],
    ],
    [
      'Australia/Sydney',
      [
        '2027-01-12T23:00:00Z',
        '2027-07-13T23:00:00Z',
        '2027-04-03T14:00:00Z',
        '2027-04-03T17:00:00Z',
        '2027-10-02T15:59:00Z',
        '2027-10-02T16:00:00Z',
      ],
    ],
    ['Asia/Tokyo', ['2027-01-12T00:30:00Z', '2027-07-13T00:30:00Z']],
    ['Asia/Kolkata', ['2027-01-12T04:30:00Z', '2027-07-13T04:30:00Z']],
  ];

  it.each(zones)(
    'writes %s from the zone rules: the offsets calendars compute at the event are those of Intl',
    (timeZone, instants) => {
      for (const iso of instants) {
        const start = new Date(iso);
        const text = buildIcs({ ...base, timeZone, method: 'REQUEST', sequence: 0, start });
        const { comp, event } = parse(text);
        const vtz = comp.getFirstSubcomponent('vtimezone')!;
        expect(vtz.getFirstPropertyValue('tzid')).toBe(timeZone);
        expect(vtz.getAllSubcomponents().length).toBeGreaterThan(0);
        for (const obs of vtz.getAllSubcomponents()) {
          expect(['standard', 'daylight']).toContain(obs.name);
          for (const prop of ['dtstart', 'tzoffsetfrom', 'tzoffsetto'])
            expect(obs.getFirstProperty(prop)).not.toBeNull();
        }
        expect(event.startDate.zone?.tzid).toBe(timeZone);
        expect(event.startDate.toString().replace(/[-:]/g, '')).toBe(localStamp(start, timeZone));
        expect(event.startDate.toJSDate().toISOString()).toBe(start.toISOString());
        expect(event.startDate.utcOffset() / 60).toBe(intlOffset(start, timeZone));
        expect(offsetMinutes(start.getTime(), timeZone)).toBe(intlOffset(start, timeZone));
        const end = new Date(start.getTime() + 30 * 60_000);
        expect(event.endDate.toJSDate().toISOString()).toBe(end.toISOString());
        expect(event.endDate.utcOffset() / 60).toBe(intlOffset(end, timeZone));
        expect(text).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
        for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      }
    },
  );

  it('writes a zone with DST as two yearly rules, as calendar programs do', () => {
    const text = buildIcs({
      ...base,
      method: 'REQUEST',
      sequence: 0,
      start: new Date('2027-01-12T15:30:00Z'),
    });
    expect(text).toContain(
      'BEGIN:DAYLIGHT\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\nTZNAME:EDT\r\nDTSTART:20260308T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r\nEND:DAYLIGHT',
    );
    expect(text).toContain(
      'BEGIN:STANDARD\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\nTZNAME:EST\r\nDTSTART:20261101T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r\nEND:STANDARD',
    );
    const london = buildIcs({
      ...base,
      timeZone: 'Europe/London',
      method: 'REQUEST',
      sequence: 0,
      start: new Date('2027-01-12T09:00:00Z'),
    });
    expect(london).toContain('RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU');
    expect(london).toContain('RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU');
  });

  it('writes UTC times, without VTIMEZONE, for a start or end in the hour repeated when clocks go back', () => {
    for (const [timeZone, iso] of [
      ['America/New_York', '2027-11-07T05:59:00Z'],
      ['America/New_York', '2027-11-07T06:00:00Z'],
      ['America/New_York', '2027-11-07T04:45:00Z'], // ends in it
      ['Europe/London', '2027-10-31T00:59:00Z'],
      ['Europe/London', '2027-10-31T01:00:00Z'],
      ['Australia/Sydney', '2027-04-03T15:59:00Z'],
      ['Australia/Sydney', '2027-04-03T16:00:00Z'],
    ] as const) {
      const start = new Date(iso);
      const text = buildIcs({ ...base, timeZone, method: 'REQUEST', sequence: 0, start });
      expect(text).not.toContain('VTIMEZONE');
      expect(text).toContain(`DTSTART:${iso.replace(/[-:]/g, '')}\r\n`);
      expect(parse(text).event.startDate.toJSDate().toISOString()).toBe(start.toISOString());
    }
  });

  it('writes UTC times, without VTIMEZONE, for UTC and for a zone the platform does not know', () => {
    for (const timeZone of ['UTC', 'Etc/UTC', 'Not/AZone']) {
      const text = buildIcs({
        ...base,
        timeZone,
        method: 'REQUEST',
        sequence: 0,
        start: new Date('2027-01-12T15:30:00Z'),
      });
      expect(text).not.toContain('VTIMEZONE');
      expect(text).toContain('DTSTART:20270112T153000Z\r\n');
      expect(parse(text).event.startDate.toJSDate().toISOString()).toBe('2027-01-12T15:30:00.000Z');
    }
  });
});
