import { describe, expect, it } from 'vitest';
import {
  formatPhone,
  isValidUsPhone,
  normalizePhone,
  PHONE_DISPLAY_MAX_LENGTH,
  phoneDigits,
} from '../src/phone.ts';

describe('phone helpers', () => {
  it('keeps at most 10 digits', () => {
    expect(phoneDigits('+1 (555) 123-4567 ext 9')).toBe('1555123456');
  });
  it('formats as the number grows', () => {
    expect(formatPhone('5')).toBe('(5');
    expect(formatPhone('5551')).toBe('(555) 1');
    expect(formatPhone('5551234')).toBe('(555) 123-4');
    expect(formatPhone('5551234567')).toBe('(555) 123-4567');
    expect(formatPhone('5551234567').length).toBe(PHONE_DISPLAY_MAX_LENGTH);
    expect(formatPhone('abc')).toBe('');
  });
  it('is valid only with exactly 10 digits', () => {
    expect(isValidUsPhone('(555) 123-4567')).toBe(true);
    expect(isValidUsPhone('555-1234')).toBe(false);
    expect(isValidUsPhone('15551234567')).toBe(false);
  });
  it('normalises to E.164 like the spec', () => {
    expect(normalizePhone('(555) 123-4567')).toBe('+15551234567');
    expect(normalizePhone('1 555 123 4567')).toBe('+15551234567');
    expect(normalizePhone('44 20 7946 0958')).toBe('+442079460958');
  });
});
