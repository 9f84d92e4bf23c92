import { publicOriginOf, ServiceEnv } from '@parley/kit/config';
import { type Static, Type } from 'typebox';

export const BlogEnv = Type.Object({
  ...ServiceEnv,
  /** OpenAI writes articles and images when set; the local writer and card renderer otherwise. */
  OPENAI_API_KEY: Type.Optional(Type.String({ minLength: 10 })),
  /** Chat model for articles (default gpt-4o-mini). */
  BLOG_AI_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  /** Image model (default gpt-image-1). */
  BLOG_IMAGE_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  /** Largest accepted upload in bytes (default 5 MiB). */
  BLOG_IMAGE_MAX_BYTES: Type.Optional(Type.Integer({ minimum: 1024, maximum: 50 * 1024 * 1024 })),
  /** Site name shown in the feed (default Parley). */
  BLOG_SITE_NAME: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
export type BlogConfig = Static<typeof BlogEnv>;

export interface BlogSettings {
  imageMaxBytes: number;
  publicBaseUrl: string;
  siteName: string;
}

export function settingsFrom(config: BlogConfig): BlogSettings {
  return {
    imageMaxBytes: config.BLOG_IMAGE_MAX_BYTES ?? 5 * 1024 * 1024,
    publicBaseUrl: publicOriginOf(config),
    siteName: config.BLOG_SITE_NAME ?? 'Parley',
  };
}
