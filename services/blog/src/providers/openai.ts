import { BLOG_LIMITS } from '@parley/contracts';
import OpenAI from 'openai';
import type { Article, ContentGenerator, ImageData } from './types.ts';

/** OpenAI adapter (official SDK): JSON-mode article writing and image generation. */
export function openAiGenerator(opts: {
  apiKey: string;
  model: string;
  imageModel: string;
}): ContentGenerator {
  const client = new OpenAI({ apiKey: opts.apiKey, timeout: 120_000, maxRetries: 1 });
  return {
    provider: 'openai',
    model: opts.model,
    async writeArticle(topic) {
      const res = await client.chat.completions.create({
        model: opts.model,
        response_format: { type: 'json_object' },
        messages: [
          {
            role: 'system',
            content:
              'You write blog articles for Parley, which sells AI voice agents that answer business phone calls and book appointments (healthcare, real estate, legal, finance, hospitality). Write plain text: paragraphs separated by blank lines, section headings on their own line, no markdown symbols, no HTML. Answer with JSON: {"title","excerpt","content","metaTitle","metaDescription","tags"} where tags is 3 to 5 short strings, metaTitle at most 60 characters, metaDescription at most 155.',
          },
          { role: 'user', content: `Write an article of about 900 words on: ${topic}` },
        ],
      });
      const raw = JSON.parse(res.choices[0]?.message?.content ?? '{}') as Partial<
        Record<keyof Article, unknown>
      >;
      const str = (v: unknown, max: number) => (typeof v === 'string' ? v.trim().slice(0, max) : '');
      const article: Article = {
        title: str(raw.title, BLOG_LIMITS.title),
        excerpt: str(raw.excerpt, BLOG_LIMITS.excerpt),
        content: str(raw.content, BLOG_LIMITS.content),
        metaTitle: str(raw.metaTitle, 60),
        metaDescription: str(raw.metaDescription, 155),
        tags: Array.isArray(raw.tags)
          ? raw.tags.filter((t): t is string => typeof t === 'string').slice(0, 5)
          : [],
      };
      if (!article.title || !article.content) throw new Error('The model returned an incomplete article');
      return article;
    },
    async makeImage(prompt): Promise<ImageData> {
      const res = await client.images.generate({ model: opts.imageModel, prompt, size: '1536x1024', n: 1 });
      const b64 = res.data?.[0]?.b64_json;
      if (!b64) throw new Error('The image model returned no image');
      return { bytes: Buffer.from(b64, 'base64'), type: 'png' };
    },
  };
}
