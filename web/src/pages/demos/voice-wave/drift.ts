/** Voice wave demo constants (spec §4, §5, §9). */
export const DRIFT_INTERVAL_MS = 300;
export const DRIFT_MAX_STEP = 0.15;
export const DRIFT_MIN = 0.2;
export const DRIFT_MAX = 1;
export const INTENSITY_MIN = 0.1;
export const INTENSITY_MAX = 1;
export const INTENSITY_STEP = 0.1;
export const INITIAL_INTENSITY = 0.5;

export const WAVE_SIZES = ['sm', 'md', 'lg'] as const;
export type WaveSize = (typeof WAVE_SIZES)[number];
export const WAVE_VARIANTS = ['primary', 'accent', 'mono'] as const;
export type WaveVariant = (typeof WAVE_VARIANTS)[number];

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * One drift tick while the demo is active: a step of up to ±0.15 chosen by `random` (a number
 * in [0, 1), as from Math.random: 0 → -0.15, 0.5 → 0, →1 → +0.15), clamped to 0.2–1. Rounded to
 * hundredths so the displayed figure is exactly the state.
 */
export function nextIntensity(current: number, random: number): number {
  const step = (clamp(random, 0, 1) * 2 - 1) * DRIFT_MAX_STEP;
  return Math.round(clamp(current + step, DRIFT_MIN, DRIFT_MAX) * 100) / 100;
}

/** A slider value kept to the slider's range (0.1–1) and its 0.1 grid. */
export function sliderIntensity(value: number): number {
  if (!Number.isFinite(value)) return INITIAL_INTENSITY;
  return Math.round(clamp(value, INTENSITY_MIN, INTENSITY_MAX) * 10) / 10;
}
