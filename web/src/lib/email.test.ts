import { describe, expect, it } from 'vitest';
import { isEmail } from './email.ts';

describe('isEmail', () => {
  it('takes an address with a dotted domain and refuses the rest', () => {
    expect(isEmail('ada@example.com')).toBe(true);
    expect(isEmail('a.b+tag@sub.example.co.uk')).toBe(true);
    for (const bad of ['', 'ada', 'ada@', '@example.com', 'ada@example', 'ada @example.com', 'a@b@c.com'])
      expect(isEmail(bad), bad).toBe(false);
  });
});
