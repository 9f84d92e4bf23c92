import { describe, expect, it } from 'vitest';
import { DRIFT_MAX, DRIFT_MAX_STEP, DRIFT_MIN, nextIntensity, sliderIntensity } from './drift.ts';

describe('nextIntensity', () => {
  it('moves by at most ±0.15, scaled by the random draw', () => {
    expect(nextIntensity(0.5, 0.5)).toBe(0.5);
    expect(nextIntensity(0.5, 0)).toBe(0.35);
    expect(nextIntensity(0.5, 0.999999)).toBe(0.65);
    expect(nextIntensity(0.5, 0.6)).toBe(0.53);
  });

  it('stays within 0.2–1', () => {
    expect(nextIntensity(0.25, 0)).toBe(DRIFT_MIN);
    expect(nextIntensity(0.95, 1)).toBe(DRIFT_MAX);
    // A slider value below the drift floor is pulled up on the first tick.
    expect(nextIntensity(0.1, 0.5)).toBe(DRIFT_MIN);
  });

  it('never leaves its bounds or exceeds its step over a long random walk', () => {
    let value = 0.5;
    for (let i = 0; i < 10_000; i++) {
      const next = nextIntensity(value, Math.random());
      expect(next).toBeGreaterThanOrEqual(DRIFT_MIN);
      expect(next).toBeLessThanOrEqual(DRIFT_MAX);
      // Rounding to hundredths may add at most half a hundredth.
      expect(Math.abs(next - value)).toBeLessThanOrEqual(DRIFT_MAX_STEP + 0.005);
      value = next;
    }
  });

  it('treats out-of-range draws as the extremes', () => {
    expect(nextIntensity(0.5, -3)).toBe(0.35);
    expect(nextIntensity(0.5, 7)).toBe(0.65);
  });
});

describe('sliderIntensity', () => {
  it('keeps the slider to 0.1–1 on a 0.1 grid', () => {
    expect(sliderIntensity(0.04)).toBe(0.1);
    expect(sliderIntensity(0.46)).toBe(0.5);
    expect(sliderIntensity(3)).toBe(1);
    expect(sliderIntensity(Number.NaN)).toBe(0.5);
  });
});
