import { type Static, Type } from 'typebox';
import { PageOffset, UuidId } from './http.ts';
import { literalUnion } from './schema.ts';

/** API contracts of the blog service (public reading, admin authoring, AI help, images). */

export const BLOG_STATUSES = ['draft', 'published', 'archived'] as const;
export type BlogStatus = (typeof BLOG_STATUSES)[number];
export const BlogStatusSchema = literalUnion(BLOG_STATUSES);

/** Author of a post when none is given (spec: "a team name"). */
export const DEFAULT_BLOG_AUTHOR = 'Parley Team';
export const BLOG_LIMITS = {
  title: 200,
  slug: 120,
  excerpt: 500,
  content: 100_000,
  author: 100,
  tag: 40,
  tags: 12,
  metaTitle: 70,
  metaDescription: 200,
  topic: 300,
  prompt: 500,
} as const;
/** Lowercase words joined by single hyphens. */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
/** Words per minute of the reading-time rule (spec: words / 200, rounded up). */
export const READING_WORDS_PER_MINUTE = 200;

const IsoDateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const BlogPost = Type.Object({
  id: Type.String(),
  title: Type.String(),
  slug: Type.String(),
  excerpt: Nullable(Type.String()),
  content: Type.String(),
  author: Type.String(),
  featuredImage: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  status: BlogStatusSchema,
  metaTitle: Nullable(Type.String()),
  metaDescription: Nullable(Type.String()),
  publishedAt: Nullable(IsoDateTime),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type BlogPost = Static<typeof BlogPost>;
export const BlogPostList = Type.Array(BlogPost);
export type BlogPostList = Static<typeof BlogPostList>;

/**
 * A post in the public list: everything but the body (lists stay small and fast), plus the
 * reading time the cards and detail page show.
 */
export const BlogPostSummary = Type.Object({
  id: Type.String(),
  title: Type.String(),
  slug: Type.String(),
  excerpt: Nullable(Type.String()),
  author: Type.String(),
  featuredImage: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  publishedAt: Nullable(IsoDateTime),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
  readingMinutes: Type.Integer(),
});
export type BlogPostSummary = Static<typeof BlogPostSummary>;

export const BlogListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: PageOffset(),
  tag: Type.Optional(Type.String({ maxLength: BLOG_LIMITS.tag })),
});
export type BlogListQuery = Static<typeof BlogListQuery>;

export const BlogSlugParams = Type.Object({ slug: Type.String({ maxLength: 200 }) });
export const BlogIdParams = Type.Object({ id: UuidId() });

/**
 * Body of create (POST /api/blog) and update (PATCH /api/admin/blog/{id}, every field
 * optional). Rules beyond types (required title/slug/content, slug format, tag parsing)
 * are checked by the service so the messages are the spec's.
 */
export const BlogPostInput = Type.Object({
  title: Type.Optional(Type.String({ maxLength: BLOG_LIMITS.title })),
  slug: Type.Optional(Type.String({ maxLength: BLOG_LIMITS.slug })),
  excerpt: Type.Optional(Nullable(Type.String({ maxLength: BLOG_LIMITS.excerpt }))),
  content: Type.Optional(Type.String({ maxLength: BLOG_LIMITS.content })),
  author: Type.Optional(Nullable(Type.String({ maxLength: BLOG_LIMITS.author }))),
  featuredImage: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
  /** A list, or the form's comma-separated text. */
  tags: Type.Optional(
    Type.Union([
      Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 }),
      Type.String({ maxLength: 2000 }),
    ]),
  ),
  status: Type.Optional(BlogStatusSchema),
  metaTitle: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  metaDescription: Type.Optional(Nullable(Type.String({ maxLength: 400 }))),
  publishedAt: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
});
export type BlogPostInput = Static<typeof BlogPostInput>;

export const GenerateBlogBody = Type.Object({
  topic: Type.Optional(Type.String({ maxLength: BLOG_LIMITS.topic })),
  generateImage: Type.Optional(Type.Boolean()),
});
export type GenerateBlogBody = Static<typeof GenerateBlogBody>;

export const AI_PROVIDERS = ['openai', 'local'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];

export const GeneratedPost = Type.Object({
  title: Type.String(),
  excerpt: Type.String(),
  content: Type.String(),
  metaTitle: Type.String(),
  metaDescription: Type.String(),
  tags: Type.Array(Type.String()),
  slug: Type.String(),
  featuredImage: Nullable(Type.String()),
});
export type GeneratedPost = Static<typeof GeneratedPost>;

export const GenerateBlogResponse = Type.Object({
  success: Type.Literal(true),
  post: GeneratedPost,
  provider: literalUnion(AI_PROVIDERS),
});
export type GenerateBlogResponse = Static<typeof GenerateBlogResponse>;

export const GenerateImageBody = Type.Object({
  prompt: Type.Optional(Type.String({ maxLength: BLOG_LIMITS.prompt })),
  provider: Type.Optional(Type.String({ maxLength: 20 })),
});
export type GenerateImageBody = Static<typeof GenerateImageBody>;

export const GenerateImageResponse = Type.Object({
  success: Type.Literal(true),
  imageUrl: Type.String(),
  provider: literalUnion(AI_PROVIDERS),
});
export type GenerateImageResponse = Static<typeof GenerateImageResponse>;

export const UploadImageResponse = Type.Object({ imageUrl: Type.String() });
export type UploadImageResponse = Static<typeof UploadImageResponse>;

/** Event payloads: a post that changed, and a removed one. */
export const BlogPostEvent = Type.Object({ post: BlogPost });
export const BlogPostDeletedEvent = Type.Object({ id: Type.String(), slug: Type.String() });

/** The reading-time rule of the spec: words / 200, rounded up (at least one minute). */
export function readingMinutes(content: string): number {
  const words = content.trim().split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.ceil(words / READING_WORDS_PER_MINUTE));
}

/** The form's slug rule: lowercase, runs of non-alphanumerics become one hyphen, edges trimmed. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, BLOG_LIMITS.slug)
    .replace(/-+$/g, '');
}

/** Longest slug a generated post gets: short enough to read, share and type. */
export const GENERATED_SLUG_MAX = 60;

/**
 * A generated post's slug: the title's slug without its filler words, cut at a word boundary
 * to at most {@link GENERATED_SLUG_MAX} characters (never mid-word).
 */
export function articleSlug(title: string, max = GENERATED_SLUG_MAX): string {
  const filler = new Set(['a', 'an', 'the', 'and', 'of', 'for', 'to', 'in', 'on', 'with', 'your', 'how']);
  const words = slugify(title)
    .split('-')
    .filter((w, i) => w && (i === 0 || !filler.has(w)));
  let out = '';
  for (const w of words) {
    const next = out ? `${out}-${w}` : w;
    if (next.length > max) break;
    out = next;
  }
  return out || slugify(title).slice(0, max).replace(/-+$/g, '');
}

/** The form's tag rule: split on commas, trim, drop empties (and duplicates). */
export function parseTags(input: string | readonly string[]): string[] {
  // A list is split too: its items may be the form's text (and validators may wrap a string in a list).
  const parts = (typeof input === 'string' ? [input] : input).flatMap((t) => t.split(','));
  const out: string[] = [];
  for (const p of parts) {
    const t = p.trim();
    if (t && !out.some((x) => x.toLowerCase() === t.toLowerCase())) out.push(t);
  }
  return out;
}
