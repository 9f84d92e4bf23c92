import { describe, expect, it } from 'vitest';
import { formatDate, formatShortDateTime, formatTimeOfDay } from './time.ts';

describe('time formats', () => {
  it('write dates and times the same way everywhere (US English)', () => {
    // Midday UTC: the same calendar day in every zone a test machine may use.
    const iso = '2025-01-15T12:00:00.000Z';
    expect(formatDate(iso)).toBe('Jan 15, 2025');
    expect(formatShortDateTime(iso)).toMatch(/^Jan 15, 2025, \d{1,2}:00\s(AM|PM)$/);
    expect(formatTimeOfDay(iso)).toMatch(/^\d{1,2}:00:00\s(AM|PM)$/);
  });
});
