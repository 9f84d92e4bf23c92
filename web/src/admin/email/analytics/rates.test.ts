import { describe, expect, it } from 'vitest';
import { changeText, changeTrend, rateTone } from './rates.ts';

describe('rate colours (email marketing §2)', () => {
  it('open rate: above 20 green, above 10 yellow, otherwise red', () => {
    expect(rateTone('open', 20.1)).toBe('green');
    expect(rateTone('open', 20)).toBe('yellow');
    expect(rateTone('open', 10.1)).toBe('yellow');
    expect(rateTone('open', 10)).toBe('red');
    expect(rateTone('open', 0)).toBe('red');
  });

  it('click rate: above 5 green, above 2 yellow, otherwise red', () => {
    expect(rateTone('click', 5.1)).toBe('green');
    expect(rateTone('click', 5)).toBe('yellow');
    expect(rateTone('click', 2.1)).toBe('yellow');
    expect(rateTone('click', 2)).toBe('red');
    expect(rateTone('click', 100)).toBe('green');
  });
});

describe('change figures', () => {
  it('a rise is good for opens, bad for bounces; nothing to compare with says so', () => {
    expect(changeTrend('opened', { current: 4, previous: 2, change: 100 })).toBe('better');
    expect(changeTrend('bounced', { current: 4, previous: 2, change: 100 })).toBe('worse');
    expect(changeTrend('bounceRate', { current: 1, previous: 2, change: -50, pointChange: -1 })).toBe(
      'better',
    );
    expect(changeTrend('openRate', { current: 0, previous: 0, change: null, pointChange: null })).toBe(
      'none',
    );
    expect(changeTrend('sent', { current: 2, previous: 2, change: 0 })).toBe('same');
  });

  it('counts read in percent, rates in points', () => {
    expect(changeText({ current: 4, previous: 2, change: 100 }, false)).toBe('+100.0%');
    expect(changeText({ current: 1, previous: 3, change: -66.7 }, false)).toBe('−66.7%');
    expect(changeText({ current: 3, previous: 0, change: null }, false)).toBe('New (none before)');
    expect(changeText({ current: 0, previous: 0, change: null }, false)).toBe('No previous data');
    expect(changeText({ current: 50, previous: 40, change: 25, pointChange: 10 }, true)).toBe('+10.0 pts');
    expect(changeText({ current: 50, previous: 0, change: null, pointChange: null }, true)).toBe(
      'No previous data',
    );
  });
});
