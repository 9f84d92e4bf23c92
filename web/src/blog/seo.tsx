import type { BlogPost } from '@parley/contracts';
import { SITE_NAME } from '../components/seo/page-meta.tsx';
import { absoluteUrl } from './api.ts';

/**
 * Search and sharing metadata of the blog pages. React 19 hoists <title>, <meta> and <link>
 * rendered anywhere into <head> (and removes them when the page unmounts), so each page
 * declares its own.
 */

const DESCRIPTION_MAX = 160;

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

export function JsonLd({ data }: { data: unknown }) {
  // Text content, not innerHTML: React sets it as-is, and the escaping above keeps it inert in HTML too.
  return <script type="application/ld+json">{jsonLdText(data)}</script>;
}

/** First sentence-ish stretch of the body, for posts saved without an excerpt or meta description. */
function summaryOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= DESCRIPTION_MAX ? flat : `${flat.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…`;
}

export function postDescription(post: Pick<BlogPost, 'metaDescription' | 'excerpt' | 'content'>): string {
  return post.metaDescription?.trim() || post.excerpt?.trim() || summaryOf(post.content);
}

/** Article structured data (schema.org) of a post. */
export function articleJsonLd(post: BlogPost, url: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: post.title,
    description: postDescription(post),
    ...(post.featuredImage ? { image: [absoluteUrl(post.featuredImage)] } : {}),
    datePublished: post.publishedAt ?? post.createdAt,
    dateModified: post.updatedAt,
    author: { '@type': 'Person', name: post.author },
    publisher: {
      '@type': 'Organization',
      name: SITE_NAME,
      logo: { '@type': 'ImageObject', url: absoluteUrl('/favicon.svg') },
    },
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    url,
    ...(post.tags.length ? { keywords: post.tags.join(', ') } : {}),
  };
}

/** <title>, description, canonical link, Open Graph / Twitter tags and JSON-LD of a post page. */
export function PostMeta({ post }: { post: BlogPost }) {
  const url = absoluteUrl(`/blog/${encodeURIComponent(post.slug)}`);
  // The SEO title names the tab and search result; shares show the full headline.
  const title = post.metaTitle?.trim() || post.title;
  const description = postDescription(post);
  const image = post.featuredImage ? absoluteUrl(post.featuredImage) : null;
  return (
    <>
      <title>{`${title} · ${SITE_NAME} Blog`}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={url} />
      <meta property="og:type" content="article" />
      <meta property="og:site_name" content={SITE_NAME} />
      <meta property="og:title" content={post.title} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      {image ? <meta property="og:image" content={image} /> : null}
      <meta property="article:published_time" content={post.publishedAt ?? post.createdAt} />
      <meta property="article:modified_time" content={post.updatedAt} />
      <meta property="article:author" content={post.author} />
      {post.tags.map((t) => (
        <meta key={t} property="article:tag" content={t} />
      ))}
      <meta name="twitter:card" content={image ? 'summary_large_image' : 'summary'} />
      <meta name="twitter:title" content={post.title} />
      <meta name="twitter:description" content={description} />
      {image ? <meta name="twitter:image" content={image} /> : null}
      <JsonLd data={articleJsonLd(post, url)} />
    </>
  );
}
