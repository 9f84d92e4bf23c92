import type { ChangeMetric, MetricChange } from '@parley/contracts';

/**
 * The display rules of the analytics (email marketing §2): the colour of an open or click
 * rate, and how a change against the previous period reads. Pure, so they are unit tested.
 */

export type RateTone = 'green' | 'yellow' | 'red';

/** Spec §2: open rate above 20 green, above 10 yellow, else red; click rate above 5 green, above 2 yellow, else red. */
export function rateTone(kind: 'open' | 'click', percent: number): RateTone {
  const [good, fair] = kind === 'open' ? [20, 10] : [5, 2];
  return percent > good ? 'green' : percent > fair ? 'yellow' : 'red';
}

/** Text colours with at least 4.5:1 contrast on the navy cards. */
export const TONE_TEXT: Record<RateTone, string> = {
  green: 'text-emerald-300',
  yellow: 'text-amber-300',
  red: 'text-red-300',
};

/** The tone's name for screen readers and tests (colour alone says nothing to some readers). */
export const TONE_LABEL: Record<RateTone, string> = { green: 'good', yellow: 'fair', red: 'low' };

/** Metrics where a rise is bad news (shown red when they go up). */
const LOWER_IS_BETTER: ReadonlySet<ChangeMetric> = new Set([
  'bounced',
  'unsubscribed',
  'bounceRate',
  'unsubscribeRate',
]);

export type Trend = 'better' | 'worse' | 'same' | 'none';

/**
 * Whether a change is good news: up is better for sends, opens, clicks and engagement, worse
 * for bounces and unsubscribes; 'none' when there is nothing to compare with.
 */
export function changeTrend(metric: ChangeMetric, c: MetricChange): Trend {
  const delta = c.pointChange !== undefined ? c.pointChange : c.change;
  if (delta === null || delta === undefined) return 'none';
  if (delta === 0) return 'same';
  const up = delta > 0;
  return up !== LOWER_IS_BETTER.has(metric) ? 'better' : 'worse';
}

/** "+12.5%", "−3.0 pts", "No previous data": what the change figure says. */
export function changeText(c: MetricChange, isRate: boolean): string {
  if (isRate) {
    if (c.pointChange === null || c.pointChange === undefined) return 'No previous data';
    return `${signed(c.pointChange)} pts`;
  }
  if (c.change === null) return c.current > 0 ? 'New (none before)' : 'No previous data';
  return `${signed(c.change)}%`;
}

const signed = (n: number) => (n > 0 ? `+${n.toFixed(1)}` : n < 0 ? `−${Math.abs(n).toFixed(1)}` : '0.0');
