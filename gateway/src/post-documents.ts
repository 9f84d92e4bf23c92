import { BlogPost, SLUG_PATTERN } from '@parley/contracts/blog';
import { jsonLdText, POST_NOT_FOUND_TITLE, type PostHead, postHead } from '@parley/contracts/blog-head';
import { escapeMarkup } from '@parley/kit';
import type { Logger } from 'pino';
import { Compile } from 'typebox/compile';

/**
 * The HTML of `/blog/{slug}` carries the post's own title, description, Open Graph and
 * JSON-LD (the same tags the app declares, from @parley/contracts/blog-head), so link
 * previews and crawlers that run no JavaScript see the post; a missing post answers 404.
 * The tags are marked `data-server-head`: the app drops them before it renders its own.
 */

const SLUG = new RegExp(SLUG_PATTERN);
const LOOKUP_TIMEOUT_MS = 1500;
const isBlogPost = Compile(BlogPost);

export type PostLookup =
  | { kind: 'found'; post: BlogPost }
  | { kind: 'missing' }
  /** The blog service did not answer: serve the plain shell, the app will retry. */
  | { kind: 'unknown' };

/** The slug of a post page path (`/blog/{slug}`), or undefined for any other path. */
export function postSlugOf(path: string): string | undefined {
  const m = /^\/blog\/([^/]+)\/?$/.exec(path);
  if (!m?.[1]) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

/** Looks a published post up through the blog service (which caches its public reads). */
export function blogPostLookup(blogBase: string, logger: Logger) {
  return async (slug: string): Promise<PostLookup> => {
    if (!SLUG.test(slug)) return { kind: 'missing' };
    try {
      const res = await fetch(`${blogBase}/api/blog/${encodeURIComponent(slug)}`, {
        signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
      });
      if (res.status === 404) return { kind: 'missing' };
      if (!res.ok) throw new Error(`blog answered ${res.status}`);
      const post: unknown = await res.json();
      if (!isBlogPost.Check(post)) throw new Error('blog answered something that is not a post');
      return { kind: 'found', post };
    } catch (err) {
      logger.warn({ err, slug }, 'post page served without its metadata');
      return { kind: 'unknown' };
    }
  };
}

const MARK = 'data-server-head';

/** The head tags of a post, as HTML. */
export function postHeadHtml(head: PostHead): string {
  const lines = [
    `<title ${MARK}>${escapeMarkup(head.title)}</title>`,
    `<link ${MARK} rel="canonical" href="${escapeMarkup(head.canonical)}" />`,
    ...head.meta.map(
      (m) => `<meta ${MARK} ${m.attr}="${escapeMarkup(m.key)}" content="${escapeMarkup(m.content)}" />`,
    ),
    `<script ${MARK} type="application/ld+json">${jsonLdText(head.jsonLd)}</script>`,
  ];
  return lines.join('\n    ');
}

/** The shell with its title replaced by the given head tags. */
function withHead(shell: string, tags: string): string {
  // Replacer functions: a `$&` or `$'` in a post's title must stay text, not a pattern.
  const title = /<title>[^<]*<\/title>/;
  if (title.test(shell)) return shell.replace(title, () => tags);
  return shell.replace('</head>', () => `  ${tags}\n  </head>`);
}

/** The document of a post page: the shell with the post's head, or the not-found head. */
export function postDocument(
  shell: string,
  lookup: PostLookup,
  origin: string,
): { html: string; status: number } {
  if (lookup.kind === 'found')
    return { html: withHead(shell, postHeadHtml(postHead(lookup.post, origin))), status: 200 };
  if (lookup.kind === 'missing') {
    const tags = [
      `<title ${MARK}>${escapeMarkup(POST_NOT_FOUND_TITLE)}</title>`,
      `<meta ${MARK} name="robots" content="noindex" />`,
    ].join('\n    ');
    return { html: withHead(shell, tags), status: 404 };
  }
  return { html: shell, status: 200 };
}
