import type { DeliverabilityLabel } from '@parley/contracts';

/** The colour of each label (spec §9): green, amber, red. */
export const LABEL_TONE: Record<DeliverabilityLabel, { stroke: string; text: string; badge: string }> = {
  Excellent: {
    stroke: 'stroke-emerald-400',
    text: 'text-emerald-300',
    badge: 'border-emerald-400/40 bg-emerald-400/10 text-emerald-200',
  },
  Good: {
    stroke: 'stroke-amber-300',
    text: 'text-amber-200',
    badge: 'border-amber-300/40 bg-amber-300/10 text-amber-100',
  },
  'Needs Improvement': {
    stroke: 'stroke-red-400',
    text: 'text-red-300',
    badge: 'border-red-400/40 bg-red-400/10 text-red-200',
  },
};

// A half circle from the left end to the right end; pathLength 100 makes the dash the score.
const ARC = 'M 12 100 A 88 88 0 0 1 188 100';

/**
 * The score as a half-circle gauge: the arc fills to the score in the label's colour. Without
 * a score (nothing measured) the arc stays empty and says so; no number is invented.
 */
export function ScoreGauge({ score, label }: { score: number | null; label: DeliverabilityLabel | null }) {
  const tone = label ? LABEL_TONE[label] : null;
  return (
    <figure
      className="mx-auto w-full max-w-[15rem]"
      role="img"
      aria-label={
        score === null
          ? 'Deliverability score: not measured yet'
          : `Deliverability score ${score} of 100: ${label}`
      }
      data-testid="score-gauge"
    >
      <svg viewBox="0 0 200 112" className="w-full" aria-hidden="true">
        <path
          d={ARC}
          pathLength={100}
          fill="none"
          strokeWidth={16}
          strokeLinecap="round"
          className="stroke-navy-700"
        />
        {score !== null && tone ? (
          <path
            d={ARC}
            pathLength={100}
            fill="none"
            strokeWidth={16}
            strokeLinecap="round"
            strokeDasharray={`${Math.max(0.5, score)} 100`}
            className={`${tone.stroke} transition-[stroke-dasharray] duration-700`}
          />
        ) : null}
        {/* The 70 and 90 marks: where the labels change. */}
        {[70, 90].map((m) => {
          const a = Math.PI * (1 - m / 100);
          return (
            <line
              key={m}
              x1={100 + 70 * Math.cos(a)}
              y1={100 - 70 * Math.sin(a)}
              x2={100 + 80 * Math.cos(a)}
              y2={100 - 80 * Math.sin(a)}
              className="stroke-slate-500"
              strokeWidth={2}
            />
          );
        })}
      </svg>
      <figcaption className="-mt-14 text-center">
        <span className={`block text-4xl font-bold tabular-nums ${tone?.text ?? 'text-slate-400'}`}>
          {score ?? '—'}
        </span>
        <span className="text-xs text-slate-400">{score === null ? 'not measured yet' : 'of 100'}</span>
      </figcaption>
    </figure>
  );
}
