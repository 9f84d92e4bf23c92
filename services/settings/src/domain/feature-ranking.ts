import type { FeatureNextStep, FeaturePage, FeatureRecommendation, UrgencyLevel } from '@parley/contracts';
import { plural } from './activity.ts';
import type { ActivityFacts } from './feature-facts.ts';
import { RULES } from './feature-rules.ts';
import { FEATURES, type Feature, type FeatureId } from './features.ts';

/**
 * Feature discovery's answer from the rules' conclusions (feature-rules.ts): every feature
 * ranked, most relevant first, and the local insights (a summary of the activity and the next
 * steps). Pure: the caller passes the facts and the time.
 */

/** A recommendation for the very screen the panel is open on gains this much relevance. */
export const PAGE_BOOST = 5;

const URGENCY_ORDER: Record<UrgencyLevel, number> = { high: 2, medium: 1, low: 0 };

export interface Ranked extends FeatureRecommendation {
  step: string;
}

/**
 * Every feature with its rule's conclusion, most relevant first (then the more urgent, then
 * by id, so the order is stable). A feature that lives on `page` (where the panel is open)
 * gains PAGE_BOOST relevance, capped at 100.
 */
export function recommend(facts: ActivityFacts, now: Date, page?: FeaturePage): Ranked[] {
  const out: Ranked[] = [];
  for (const [id, feature] of Object.entries(FEATURES) as Array<[FeatureId, Feature]>) {
    const r = RULES[id](facts, now);
    const score = Math.max(0, Math.min(100, Math.round(r.score + (page === feature.page ? PAGE_BOOST : 0))));
    out.push({
      id,
      featureId: id,
      title: feature.title,
      description: feature.description,
      reason: r.reason,
      icon: feature.icon,
      category: feature.category,
      relevanceScore: score,
      actionUrl: feature.actionUrl,
      benefits: [...feature.benefits],
      urgencyLevel: r.urgency,
      status: r.status,
      step: r.step,
    });
  }
  return out.sort(
    (a, b) =>
      b.relevanceScore - a.relevanceScore ||
      URGENCY_ORDER[b.urgencyLevel] - URGENCY_ORDER[a.urgencyLevel] ||
      a.id.localeCompare(b.id),
  );
}

/** The recommendation without the internal next step (the API's shape). */
export function toRecommendation({ step: _step, ...r }: Ranked): FeatureRecommendation {
  return r;
}

/** How many next steps the insights give (the panel shows the first 2). */
export const NEXT_STEPS = 3;

/**
 * The local insights: a summary of the activity in one or two sentences, and the next steps
 * of the most relevant recommendations that are not mere encouragement (low urgency last).
 */
export function localInsights(
  facts: ActivityFacts,
  ranked: readonly Ranked[],
): { summary: string; nextSteps: FeatureNextStep[] } {
  const parts: string[] = [];
  const b = facts.bookings;
  if (b.total)
    parts.push(
      `${plural(b.total, 'booking')}${b.awaitingFollowUp ? ` (${b.awaitingFollowUp.toLocaleString('en-US')} awaiting an outcome)` : ''}`,
    );
  const calls = facts.calls.demo + facts.calls.admin;
  if (calls) parts.push(plural(calls, 'call'));
  if (facts.posts.published) parts.push(plural(facts.posts.published, 'published post'));
  if (facts.audience.addressBooks)
    parts.push(
      `${plural(facts.audience.contacts, 'contact')} in ${plural(facts.audience.addressBooks, 'address book')}`,
    );
  if (facts.campaigns.sentLive) parts.push(`${plural(facts.campaigns.sentLive, 'campaign')} sent`);
  if (facts.newsletters.sent) parts.push(`${plural(facts.newsletters.sent, 'newsletter')} sent`);
  const top = ranked[0];
  const focus = top ? ` Most relevant now: ${top.title} — ${lowerFirst(top.reason)}` : '';
  const summary = parts.length
    ? `So far: ${joinWords(parts)}.${focus}`
    : `No activity recorded yet: bookings, calls, posts and contacts will shape these suggestions.${focus}`;
  const steps = [...ranked]
    .sort((x, y) => Number(x.urgencyLevel === 'low') - Number(y.urgencyLevel === 'low'))
    .slice(0, NEXT_STEPS)
    .map((r) => ({ step: r.step, featureId: r.id, actionUrl: r.actionUrl }));
  return { summary, nextSteps: steps };
}

function joinWords(parts: string[]): string {
  if (parts.length < 2) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s[0]?.toLowerCase() + s.slice(1) : s);
