import type { AiProvider, GeneratedPost } from '@parley/contracts';
import type { ImageType } from '../domain/images.ts';

export type Article = Omit<GeneratedPost, 'featuredImage' | 'slug'>;

export interface ImageData {
  bytes: Uint8Array;
  type: ImageType;
}

/** Writes articles and featured images: OpenAI when configured, the local engine otherwise. */
export interface ContentGenerator {
  readonly provider: AiProvider;
  /** Model or engine name, for the admin screens. */
  readonly model: string;
  writeArticle(topic: string): Promise<Article>;
  makeImage(prompt: string): Promise<ImageData>;
}
