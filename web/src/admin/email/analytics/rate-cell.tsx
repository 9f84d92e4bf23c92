import clsx from 'clsx';
import { formatRate } from '../campaigns/api.ts';
import { rateTone, TONE_LABEL, TONE_TEXT } from './rates.ts';

/** An open or click rate in the spec's colour, with the colour's meaning for screen readers. */
export function RateValue({ kind, value }: { kind: 'open' | 'click'; value: number }) {
  const tone = rateTone(kind, value);
  return (
    <span className={clsx('font-semibold tabular-nums', TONE_TEXT[tone])} data-tone={tone}>
      {formatRate(value)}
      <span className="sr-only"> ({TONE_LABEL[tone]})</span>
    </span>
  );
}
