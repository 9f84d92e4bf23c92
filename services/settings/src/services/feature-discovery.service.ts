import type { FeatureInsightsResponse, FeaturePage, FeatureRecommendationsResponse } from '@parley/contracts';
import type { ServiceDeps } from '@parley/kit';
import { describeAction } from '../domain/activity.ts';
import { type ActivityFacts, windowsAt } from '../domain/feature-facts.ts';
import { localInsights, recommend, toRecommendation } from '../domain/feature-ranking.ts';
import type { Insights, InsightsWriter } from '../providers/insights-ai.ts';
import type { ActivityRepository } from '../repo/activity.repository.ts';

/** Recent actions in the recommendations answer. */
export const RECENT_ACTIONS = 10;
/**
 * OpenAI's wording of the same facts is reused this long (the panel asks every 10 minutes,
 * and each open screen asks): facts that did not change are not phrased again.
 */
const PHRASING_TTL_MS = 10 * 60_000;

export interface FeatureDiscoveryOptions {
  repo: ActivityRepository;
  writer: InsightsWriter | null;
  logger: ServiceDeps['logger'];
  now: () => Date;
}

/** Feature discovery: the projection's facts through the rules, and the insights from them. */
export class FeatureDiscoveryService {
  private phrased: { key: string; at: number; insights: Promise<Insights> } | null = null;

  constructor(private readonly opts: FeatureDiscoveryOptions) {}

  private facts(now: Date): Promise<ActivityFacts> {
    return this.opts.repo.facts(windowsAt(now));
  }

  async recommendations(page?: FeaturePage): Promise<FeatureRecommendationsResponse> {
    const now = this.opts.now();
    const [facts, recent] = await Promise.all([this.facts(now), this.opts.repo.recent(RECENT_ACTIONS)]);
    return {
      recommendations: recommend(facts, now, page).map(toRecommendation),
      userActivity: {
        addressBooksCount: facts.audience.addressBooks,
        contactsCount: facts.audience.contacts,
        campaignsCount: facts.campaigns.sentLive,
        recentActions: recent.entries.map((e) => describeAction(e, recent.bookNames)),
      },
      generatedAt: now.toISOString(),
    };
  }

  async insights(): Promise<FeatureInsightsResponse> {
    const now = this.opts.now();
    const facts = await this.facts(now);
    const ranked = recommend(facts, now);
    const local = localInsights(facts, ranked);
    const generatedAt = now.toISOString();
    const writer = this.opts.writer;
    if (!writer) return { insights: local, provider: 'local', generatedAt };
    try {
      return { insights: await this.phrase(writer, local, facts, ranked), provider: 'openai', generatedAt };
    } catch (err) {
      // The local words stand, labelled as such; the reason is logged (never the key).
      this.opts.logger.warn(
        { err: { message: (err as Error).message }, model: writer.model },
        'OpenAI could not phrase the feature insights; answering with the local rules',
      );
      return { insights: local, provider: 'local', generatedAt };
    }
  }

  /** One phrasing per distinct draft at a time, kept PHRASING_TTL_MS; a failure is not kept. */
  private phrase(
    writer: InsightsWriter,
    local: Insights,
    facts: ActivityFacts,
    ranked: Parameters<InsightsWriter['phrase']>[2],
  ): Promise<Insights> {
    const key = JSON.stringify(local);
    const at = Date.now();
    if (this.phrased && this.phrased.key === key && at - this.phrased.at < PHRASING_TTL_MS)
      return this.phrased.insights;
    const insights = writer.phrase(local, facts, ranked);
    const entry = { key, at, insights };
    this.phrased = entry;
    insights.catch(() => {
      if (this.phrased === entry) this.phrased = null;
    });
    return insights;
  }
}
