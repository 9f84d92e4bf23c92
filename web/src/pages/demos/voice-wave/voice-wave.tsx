import clsx from 'clsx';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { WaveSize, WaveVariant } from './drift.ts';

const SIZES: Record<WaveSize, { bars: number; height: string; gap: string }> = {
  sm: { bars: 20, height: 'h-16', gap: 'gap-1' },
  md: { bars: 32, height: 'h-28', gap: 'gap-1.5' },
  lg: { bars: 44, height: 'h-44', gap: 'gap-1.5' },
};

const VARIANTS: Record<WaveVariant, string> = {
  primary: 'bg-gradient-to-t from-cyan-500 to-sky-300',
  accent: 'bg-gradient-to-t from-fuchsia-500 to-violet-300',
  mono: 'bg-slate-200',
};

/** Height of a resting bar, as a share of the full height. */
const IDLE_LEVEL = 0.06;

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
function subscribeReducedMotion(onChange: () => void) {
  const mq = window.matchMedia(REDUCED_MOTION);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
}

/** Louder in the middle, quieter at the edges, like a voice spectrum. */
const envelope = (i: number, n: number) => 0.35 + 0.65 * Math.sin((Math.PI * (i + 0.5)) / n);

/** The level (0–1) of bar i at time t (seconds) for an intensity; `t` null gives a still profile. */
function barLevel(i: number, n: number, intensity: number, t: number | null): number {
  const wave =
    t === null
      ? 0.5 + 0.5 * Math.cos(i * 0.9)
      : 0.5 + 0.5 * ((Math.sin(t * 5.1 + i * 0.6) + 0.6 * Math.sin(t * 3.3 - i * 0.37 + 1.7)) / 1.6);
  return Math.min(1, IDLE_LEVEL + (1 - IDLE_LEVEL) * envelope(i, n) * intensity * (0.3 + 0.7 * wave));
}

/**
 * An animated voice-wave: a row of bars whose heights move with `intensity` (0–1) while
 * `active`. Frames are drawn with requestAnimationFrame straight onto the bars (no React
 * render per frame); with prefers-reduced-motion the bars hold a still profile that only
 * follows the intensity. Inactive, the bars rest low (or hold the still profile).
 */
export function VoiceWave({
  active,
  intensity,
  size = 'md',
  variant = 'primary',
  label,
  restProfile = false,
  className,
}: {
  active: boolean;
  intensity: number;
  size?: WaveSize;
  variant?: WaveVariant;
  /** Accessible description; defaults to the state and intensity. */
  label?: string;
  /** Inactive, hold a still profile of `intensity` instead of resting flat. */
  restProfile?: boolean;
  className?: string;
}) {
  const { bars, height, gap } = SIZES[size];
  const barRefs = useRef<(HTMLSpanElement | null)[]>([]);
  const target = useRef(intensity);
  target.current = intensity;
  const reducedMotion = usePrefersReducedMotion();
  const animate = active && !reducedMotion;

  // Still frames: resting bars, or the still profile of the current intensity.
  const still = active || restProfile;
  useEffect(() => {
    if (animate) return;
    barRefs.current.forEach((el, i) => {
      if (el) el.style.height = `${(still ? barLevel(i, bars, intensity, null) : IDLE_LEVEL) * 100}%`;
    });
  }, [animate, still, intensity, bars]);

  useEffect(() => {
    if (!animate) return;
    let frame = 0;
    let level = target.current;
    let last = performance.now();
    const draw = (now: number) => {
      // Ease towards the target so drift steps look smooth rather than jumpy.
      const dt = Math.min(0.1, (now - last) / 1000);
      last = now;
      level += (target.current - level) * Math.min(1, dt * 6);
      const t = now / 1000;
      barRefs.current.forEach((el, i) => {
        if (el) el.style.height = `${barLevel(i, bars, level, t) * 100}%`;
      });
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(frame);
  }, [animate, bars]);

  return (
    <div
      role="img"
      aria-label={label ?? `Voice wave, ${active ? 'active' : 'inactive'}, intensity ${intensity.toFixed(2)}`}
      className={clsx('flex w-full items-center justify-center', height, gap, className)}
    >
      {Array.from({ length: bars }, (_, i) => (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: the bars are a fixed row; the index is their identity.
          key={i}
          ref={(el) => {
            barRefs.current[i] = el;
          }}
          className={clsx(
            'block max-w-2 min-w-0.5 flex-1 rounded-full',
            VARIANTS[variant],
            !animate && 'transition-[height] duration-300 ease-out',
          )}
          style={{ height: `${IDLE_LEVEL * 100}%` }}
        />
      ))}
    </div>
  );
}
