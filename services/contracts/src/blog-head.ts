import type { BlogPost } from './blog.ts';
import { SITE_NAME } from './web.ts';

/**
 * The search and sharing metadata of a blog post page, computed once for both places that
 * write it: the web app (React hoists it into <head>) and the gateway, which puts it into
 * the HTML of `/blog/{slug}` so crawlers and link previews that run no JavaScript (Slack,
 * LinkedIn, Facebook) see the post, not the site's shell. Plain data, no dependencies.
 */

/** The site's name, defined in services/contracts/src/web.ts with what the web build and the gateway share. */
export { SITE_NAME };

const DESCRIPTION_MAX = 160;

/** One <meta>: `name="…"` (description, twitter:*) or `property="…"` (og:*, article:*). */
export interface HeadMeta {
  attr: 'name' | 'property';
  key: string;
  content: string;
}

export interface PostHead {
  /** The document title (the SEO title names the tab and the search result). */
  title: string;
  canonical: string;
  meta: HeadMeta[];
  /** Article structured data (schema.org), for an application/ld+json script. */
  jsonLd: Record<string, unknown>;
}

/** The title of the page a missing or unpublished post leaves. */
export const POST_NOT_FOUND_TITLE = `Blog Post Not Found · ${SITE_NAME}`;

/** `pathOrUrl` made absolute against the site's origin (image URLs may already be absolute). */
export function absoluteUrl(pathOrUrl: string, origin: string): string {
  try {
    return new URL(pathOrUrl, origin).href;
  } catch {
    return pathOrUrl;
  }
}

/**
 * The image a share preview shows: a post's stored SVG card as its PNG rendering (same name,
 * `.png`), since Slack, LinkedIn, Facebook and X ignore SVG; any other image as it is.
 */
export function socialImageUrl(featuredImage: string, origin: string): string {
  const png = featuredImage.replace(/^(\/api\/blog\/images\/[a-f0-9]{64})\.svg$/, '$1.png');
  return absoluteUrl(png, origin);
}

/** First sentence-ish stretch of the body, for posts saved without an excerpt or meta description. */
function summaryOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= DESCRIPTION_MAX ? flat : `${flat.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…`;
}

export function postDescription(post: Pick<BlogPost, 'metaDescription' | 'excerpt' | 'content'>): string {
  return post.metaDescription?.trim() || post.excerpt?.trim() || summaryOf(post.content);
}

export function postUrl(slug: string, origin: string): string {
  return absoluteUrl(`/blog/${encodeURIComponent(slug)}`, origin);
}

/** Article structured data (schema.org) of a post. */
export function articleJsonLd(post: BlogPost, origin: string): Record<string, unknown> {
  const url = postUrl(post.slug, origin);
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: post.title,
    description: postDescription(post),
    ...(post.featuredImage ? { image: [socialImageUrl(post.featuredImage, origin)] } : {}),
    datePublished: post.publishedAt ?? post.createdAt,
    dateModified: post.updatedAt,
    author: { '@type': 'Person', name: post.author },
    publisher: {
      '@type': 'Organization',
      name: SITE_NAME,
      logo: { '@type': 'ImageObject', url: absoluteUrl('/favicon.svg', origin) },
    },
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    url,
    ...(post.tags.length ? { keywords: post.tags.join(', ') } : {}),
  };
}

/** <title>, description, canonical link, Open Graph / Twitter tags and JSON-LD of a post page. */
export function postHead(post: BlogPost, origin: string): PostHead {
  const title = post.metaTitle?.trim() || post.title;
  const description = postDescription(post);
  const image = post.featuredImage ? socialImageUrl(post.featuredImage, origin) : null;
  const name = (key: string, content: string): HeadMeta => ({ attr: 'name', key, content });
  const property = (key: string, content: string): HeadMeta => ({ attr: 'property', key, content });
  return {
    title: `${title} · ${SITE_NAME} Blog`,
    canonical: postUrl(post.slug, origin),
    meta: [
      name('description', description),
      property('og:type', 'article'),
      property('og:site_name', SITE_NAME),
      // Shares show the full headline.
      property('og:title', post.title),
      property('og:description', description),
      property('og:url', postUrl(post.slug, origin)),
      ...(image
        ? [
            property('og:image', image),
            // The rendering of a generated card has the card's size.
            ...(post.featuredImage?.endsWith('.svg') && image.endsWith('.png')
              ? [property('og:image:width', '1200'), property('og:image:height', '630')]
              : []),
          ]
        : []),
      property('article:published_time', post.publishedAt ?? post.createdAt),
      property('article:modified_time', post.updatedAt),
      property('article:author', post.author),
      ...post.tags.map((t) => property('article:tag', t)),
      name('twitter:card', image ? 'summary_large_image' : 'summary'),
      name('twitter:title', post.title),
      name('twitter:description', description),
      ...(image ? [name('twitter:image', image)] : []),
    ],
    jsonLd: articleJsonLd(post, origin),
  };
}

/**
 * JSON for an inline <script type="application/ld+json">: `<`, `>` and `&` become \u escapes
 * so no string in it (a post title containing `</script>`, say) can end the script element or
 * open a comment; U+2028/2029 are escaped for old JavaScript parsers. JSON.parse reads it back
 * unchanged.
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
