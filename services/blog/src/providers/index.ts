import type { BlogConfig } from '../config.ts';
import { renderCard } from './local-image.ts';
import { writeLocalArticle } from './local-writer.ts';
import type { ContentGenerator } from './types.ts';

export type { Article, ContentGenerator, ImageData } from './types.ts';

export const localGenerator: ContentGenerator = {
  provider: 'local',
  model: 'parley-local-writer',
  async writeArticle(topic) {
    return writeLocalArticle(topic);
  },
  async makeImage(prompt) {
    return renderCard(prompt);
  },
};

/**
 * OpenAI when OPENAI_API_KEY is set, the local engine otherwise. The OpenAI adapter (and its
 * SDK) is loaded only when chosen: a start without it does not pay for the module loading.
 */
export async function generatorFrom(config: BlogConfig): Promise<ContentGenerator> {
  if (!config.OPENAI_API_KEY) return localGenerator;
  const { openAiGenerator } = await import('./openai.ts');
  return openAiGenerator({
    apiKey: config.OPENAI_API_KEY,
    model: config.BLOG_AI_MODEL ?? 'gpt-4o-mini',
    imageModel: config.BLOG_IMAGE_MODEL ?? 'gpt-image-1',
  });
}
