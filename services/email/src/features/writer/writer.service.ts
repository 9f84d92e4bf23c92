import type { EmailAiProvider, OptimizeField, OptimizeGoal } from '@parley/contracts';
import type { EmailConfig } from '../../config.ts';
import { type CampaignCopy, type CopyBrief, planCopy } from './domain/campaign-writer.ts';
import type { OptimizeContext, Optimized } from './domain/content-optimizer.ts';
import { optimizeHtml } from './domain/html-optimizer.ts';
import { optimizeSubject } from './domain/subject-optimizer.ts';

export interface OptimizeRequest {
  field: OptimizeField;
  goal: OptimizeGoal;
  /** The field's current content. */
  content: string;
  context: OptimizeContext;
}

/**
 * Writes campaign copy and optimizes a subject or body: OpenAI when OPENAI_API_KEY is set,
 * the local writer otherwise. Either way the copy is rendered by the same e-mail layout
 * (domain/campaign-renderer.ts) and every HTML result is sanitised by the routes.
 */
export interface CampaignWriter {
  readonly provider: EmailAiProvider;
  /** Model or engine name, for the admin screens. */
  readonly model: string;
  writeCopy(brief: CopyBrief): Promise<CampaignCopy>;
  optimize(request: OptimizeRequest): Promise<Optimized>;
}

export const localWriter: CampaignWriter = {
  provider: 'local',
  model: 'parley-local-writer',
  async writeCopy(brief) {
    return planCopy(brief);
  },
  async optimize({ field, goal, content, context }) {
    return field === 'subject'
      ? optimizeSubject(content, goal, context)
      : optimizeHtml(content, goal, context);
  },
};

/**
 * OpenAI when configured, the local writer otherwise. The adapter (and the SDK) is loaded only
 * when chosen: a start without a key does not pay for loading it.
 */
export async function writerFrom(
  config: Pick<EmailConfig, 'OPENAI_API_KEY' | 'EMAIL_AI_MODEL'>,
  opts: { baseURL?: string } = {},
): Promise<CampaignWriter> {
  if (!config.OPENAI_API_KEY) return localWriter;
  const { openAiCampaignWriter } = await import('./openai-writer.ts');
  return openAiCampaignWriter({
    apiKey: config.OPENAI_API_KEY,
    model: config.EMAIL_AI_MODEL ?? 'gpt-4o-mini',
    ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
  });
}
