import type { BlogPost, BlogPostSummary } from '@parley/contracts';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { errorStatus } from '../lib/api.ts';

/** Public reading of the blog (spec §7 "Public calls": GET /api/blog and GET /api/blog/{slug}). */

export const BLOG_PATH = '/api/blog';
/** Cards per request; the list shows a 'Load more' button while X-Total-Count says more exist. */
export const BLOG_PAGE_SIZE = 12;

export interface BlogPage {
  posts: BlogPostSummary[];
  total: number;
}

/**
 * The public list, page by page. The key starts with BLOG_PATH (so one invalidation after an
 * admin write refreshes list and posts) and ends in an object, which no post slug can collide with.
 */
export function useBlogPosts(tag: string | null) {
  return useInfiniteQuery({
    queryKey: [BLOG_PATH, { list: true, tag }],
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }): Promise<BlogPage> => {
      const params = new URLSearchParams({ limit: String(BLOG_PAGE_SIZE), offset: String(pageParam) });
      if (tag) params.set('tag', tag);
      const res = await fetch(`${BLOG_PATH}?${params}`, { credentials: 'include', signal });
      // The spec's thrown message for a failed list read.
      if (!res.ok) throw new Error('Failed to fetch blog posts');
      const posts = (await res.json()) as BlogPostSummary[];
      const total = Number(res.headers.get('x-total-count'));
      return { posts, total: Number.isFinite(total) ? total : pageParam + posts.length };
    },
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.posts.length, 0);
      return last.posts.length > 0 && loaded < last.total ? loaded : undefined;
    },
  });
}

/** One published post; the shared query function reads `/api/blog/{slug}` from the key. */
export function useBlogPost(slug: string) {
  return useQuery<BlogPost>({ queryKey: [BLOG_PATH, encodeURIComponent(slug)] });
}

/** The spec's texts for a failed post read: a 404 is 'Blog post not found', anything else generic. */
export const postErrorText = (err: unknown) =>
  errorStatus(err) === 404 ? 'Blog post not found' : 'Failed to fetch blog post';

/** The date a reader sees: when it was published, else when it was written. */
export const postDate = (p: Pick<BlogPost, 'publishedAt' | 'createdAt'>) => p.publishedAt ?? p.createdAt;

const longDate = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

export function formatPostDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : longDate.format(d);
}

/** Absolute URL of a stored image path or an outside URL (Open Graph and JSON-LD need absolute ones). */
export function absoluteUrl(pathOrUrl: string): string {
  try {
    return new URL(pathOrUrl, window.location.origin).href;
  } catch {
    return pathOrUrl;
  }
}
