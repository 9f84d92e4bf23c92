import { describe, expect, it } from 'vitest';
import {
  callablePhone,
  formatPhone,
  isValidUsPhone,
  normalizePhone,
  PHONE_DISPLAY_MAX_LENGTH,
  phoneDigits,
} from '../src/phone.ts';

describe('phone helpers', () => {
  it('keeps at most 10 national digits (a leading 1 is the country code)', () => {
    expect(phoneDigits('(555) 123-4567 ext 9')).toBe('5551234567');
    expect(phoneDigits('+1 (555) 123-4567 ext 9')).toBe('5551234567');
    expect(formatPhone('+1 312 555 0110')).toBe('(312) 555-0110');
  });
  it('formats as the number grows', () => {
    expect(formatPhone('5')).toBe('(5');
    expect(formatPhone('5551')).toBe('(555) 1');
    expect(formatPhone('5551234')).toBe('(555) 123-4');
    expect(formatPhone('5551234567')).toBe('(555) 123-4567');
    expect(formatPhone('5551234567').length).toBe(PHONE_DISPLAY_MAX_LENGTH);
    expect(formatPhone('abc')).toBe('');
  });
  it('is valid with exactly 10 digits, or 11 starting with the country code 1', () => {
    expect(isValidUsPhone('(555) 123-4567')).toBe(true);
    expect(isValidUsPhone('+1 312 555 0110')).toBe(true);
    expect(isValidUsPhone('1-312-555-0110')).toBe(true);
    expect(isValidUsPhone('555-1234')).toBe(false);
    expect(isValidUsPhone('25551234567')).toBe(false);
    expect(isValidUsPhone('123')).toBe(false);
  });
  it('an outbound call goes to a US number or an international one written with +', () => {
    expect(callablePhone('(312) 555-0110')).toBe('+13125550110');
    expect(callablePhone('+1 312 555 0110')).toBe('+13125550110');
    expect(callablePhone('+44 20 7946 0958')).toBe('+442079460958');
    expect(callablePhone('12')).toBeNull();
    expect(callablePhone('+12')).toBeNull();
    expect(callablePhone('44 20 7946 0958')).toBeNull();
    expect(callablePhone('+0 1234 5678')).toBeNull();
  });
  it('normalises to E.164 like the spec', () => {
    expect(normalizePhone('(555) 123-4567')).toBe('+15551234567');
    expect(normalizePhone('1 555 123 4567')).toBe('+15551234567');
    expect(normalizePhone('44 20 7946 0958')).toBe('+442079460958');
  });
});
