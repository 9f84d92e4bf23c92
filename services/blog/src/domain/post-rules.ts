import {
  BLOG_LIMITS,
  type BlogPostInput,
  type BlogStatus,
  DEFAULT_BLOG_AUTHOR,
  parseTags,
  SLUG_PATTERN,
} from '@parley/contracts';

/** The fields of a post as stored, after the authoring rules. */
export interface PostFields {
  title: string;
  slug: string;
  excerpt: string | null;
  content: string;
  author: string;
  featuredImage: string | null;
  tags: string[];
  status: BlogStatus;
  metaTitle: string | null;
  metaDescription: string | null;
  publishedAt: Date | null;
}

export type RuleResult<T> = { ok: true; value: T } | { ok: false; message: string };

const SLUG_RE = new RegExp(SLUG_PATTERN);
const blankToNull = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);

/**
 * A featured image is an http(s) URL or one of our stored images; anything else
 * (javascript:, data:, protocol-relative tricks) is refused.
 */
export function isAcceptableImageUrl(url: string): boolean {
  if (/^\/api\/blog\/images\/[a-f0-9]{64}\.(png|jpg|gif|webp|svg)$/.test(url)) return true;
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
  } catch {
    return false;
  }
}

/**
 * Merges an input over the current post (none when creating) and applies the rules:
 * title, slug and content required; slug format; tags parsed; publishing sets
 * publishedAt when missing; unpublishing returns to draft (the caller passes the status).
 */
export function applyPostInput(
  input: BlogPostInput,
  current: PostFields | null,
  now: Date,
): RuleResult<PostFields> {
  const pick = <K extends keyof BlogPostInput>(k: K) => (input[k] !== undefined ? input[k] : undefined);
  const title = (pick('title') ?? current?.title ?? '').trim();
  const slug = (pick('slug') ?? current?.slug ?? '').trim();
  const content = pick('content') ?? current?.content ?? '';
  if (!title || !slug || !content.trim())
    return { ok: false, message: 'Title, slug and content are required' };
  if (!SLUG_RE.test(slug)) {
    return {
      ok: false,
      message:
        'Slug may contain only lowercase letters, numbers and single hyphens (for example "my-first-post")',
    };
  }
  const tagsInput = pick('tags');
  const tags = tagsInput !== undefined ? parseTags(tagsInput) : (current?.tags ?? []);
  if (tags.length > BLOG_LIMITS.tags) return { ok: false, message: `At most ${BLOG_LIMITS.tags} tags` };
  if (tags.some((t) => t.length > BLOG_LIMITS.tag)) {
    return { ok: false, message: `Tags may be at most ${BLOG_LIMITS.tag} characters` };
  }
  const featuredImage =
    input.featuredImage !== undefined ? blankToNull(input.featuredImage) : (current?.featuredImage ?? null);
  if (featuredImage && !isAcceptableImageUrl(featuredImage)) {
    return { ok: false, message: 'Featured image must be an http(s) URL or an uploaded image' };
  }
  const status = input.status ?? current?.status ?? 'draft';
  let publishedAt = current?.publishedAt ?? null;
  if (input.publishedAt !== undefined) {
    if (input.publishedAt === null || input.publishedAt === '') publishedAt = null;
    else {
      // The form sends a 16-character local date-time (YYYY-MM-DDTHH:mm); ISO strings work too.
      const parsed = new Date(input.publishedAt);
      if (Number.isNaN(parsed.getTime())) return { ok: false, message: 'Published date is not a valid date' };
      publishedAt = parsed;
    }
  }
  if (status === 'published' && !publishedAt) publishedAt = now;
  const author =
    input.author !== undefined
      ? (blankToNull(input.author) ?? DEFAULT_BLOG_AUTHOR)
      : (current?.author ?? DEFAULT_BLOG_AUTHOR);
  return {
    ok: true,
    value: {
      title,
      slug,
      excerpt: input.excerpt !== undefined ? blankToNull(input.excerpt) : (current?.excerpt ?? null),
      content,
      author,
      featuredImage,
      tags,
      status,
      metaTitle: input.metaTitle !== undefined ? blankToNull(input.metaTitle) : (current?.metaTitle ?? null),
      metaDescription:
        input.metaDescription !== undefined
          ? blankToNull(input.metaDescription)
          : (current?.metaDescription ?? null),
      publishedAt,
    },
  };
}

/** The event of a change: entering or leaving `published`, else an update (drafts too). */
export function eventOf(
  before: Pick<PostFields, 'status'> | null,
  after: Pick<PostFields, 'status'>,
): 'blog.post.published' | 'blog.post.updated' | 'blog.post.unpublished' {
  const was = before?.status === 'published';
  const is = after.status === 'published';
  if (is && !was) return 'blog.post.published';
  if (!is && was) return 'blog.post.unpublished';
  return 'blog.post.updated';
}
