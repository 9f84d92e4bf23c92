import type { FeatureNextStep } from '@parley/contracts';
import OpenAI from 'openai';
import type { ActivityFacts } from '../domain/feature-facts.ts';
import type { Ranked } from '../domain/feature-ranking.ts';

export interface Insights {
  summary: string;
  nextSteps: FeatureNextStep[];
}

/** Phrases the local insights; only OpenAI so far (the local rules' words stand alone otherwise). */
export interface InsightsWriter {
  readonly provider: 'openai';
  readonly model: string;
  phrase(local: Insights, facts: ActivityFacts, ranked: readonly Ranked[]): Promise<Insights>;
}

const str = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.trim() ? v.replace(/\s+/g, ' ').trim().slice(0, max) : null;

/**
 * OpenAI (official SDK, JSON mode) rewrites the summary and the next steps from the same
 * facts. It phrases, it does not decide: the steps stay the rules' steps, in their order, each
 * with its feature and screen, and a step the model leaves out keeps the local words.
 */
export function openAiInsightsWriter(opts: {
  apiKey: string;
  model: string;
  baseURL?: string;
}): InsightsWriter {
  const client = new OpenAI({
    apiKey: opts.apiKey,
    timeout: 20_000,
    maxRetries: 1,
    ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
  });
  return {
    provider: 'openai',
    model: opts.model,
    async phrase(local, facts, ranked) {
      const res = await client.chat.completions.create({
        model: opts.model,
        response_format: { type: 'json_object' },
        messages: [
          {
            role: 'system',
            content: `You coach the admin of a marketing platform for a voice-AI phone agent (bookings, demo calls, blog, email campaigns, newsletters). From the facts of their activity and a first draft, write a short summary (at most two sentences) and the next steps, friendly and concrete. Keep every number as given and invent no facts. Answer with JSON: {"summary": string, "nextSteps": [string]} with exactly ${local.nextSteps.length} next steps, in the order given, each one imperative sentence.`,
          },
          {
            role: 'user',
            content: JSON.stringify({
              facts,
              draft: { summary: local.summary, nextSteps: local.nextSteps.map((s) => s.step) },
              recommendations: ranked.slice(0, 6).map((r) => ({ feature: r.title, why: r.reason })),
            }),
          },
        ],
      });
      const raw = JSON.parse(res.choices[0]?.message?.content ?? '{}') as Record<string, unknown>;
      const steps = Array.isArray(raw.nextSteps) ? raw.nextSteps : [];
      return {
        summary: str(raw.summary, 600) ?? local.summary,
        nextSteps: local.nextSteps.map((s, i) => ({ ...s, step: str(steps[i], 300) ?? s.step })),
      };
    },
  };
}
