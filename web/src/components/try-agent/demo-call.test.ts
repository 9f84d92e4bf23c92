import { describe, expect, it } from 'vitest';
import { formatElapsed } from './demo-call.ts';

describe('formatElapsed', () => {
  it('shows minutes and zero-padded seconds', () => {
    expect(formatElapsed(0)).toBe('0:00');
    expect(formatElapsed(7_999)).toBe('0:07');
    expect(formatElapsed(60_000)).toBe('1:00');
    expect(formatElapsed(165_000)).toBe('2:45');
    expect(formatElapsed(723_000)).toBe('12:03');
  });

  it('never shows a negative time (a clock moved backwards)', () => {
    expect(formatElapsed(-1_500)).toBe('0:00');
  });
});
