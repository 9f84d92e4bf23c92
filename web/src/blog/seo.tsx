import type { BlogPost } from '@parley/contracts';
import { jsonLdText, postHead } from '@parley/contracts/blog-head';
import { siteOrigin } from '../lib/origin.ts';

/**
 * Search and sharing metadata of the blog pages. React 19 hoists <title>, <meta> and <link>
 * rendered anywhere into <head> (and removes them when the page unmounts), so each page
 * declares its own. What a post page declares is computed in @parley/contracts/blog-head,
 * which the gateway also uses to put the same tags into the HTML it serves for the post.
 */

export function JsonLd({ data }: { data: unknown }) {
  // Text content, not innerHTML: React sets it as-is, and jsonLdText keeps it inert in HTML too.
  return <script type="application/ld+json">{jsonLdText(data)}</script>;
}

/** <title>, description, canonical link, Open Graph / Twitter tags and JSON-LD of a post page. */
export function PostMeta({ post }: { post: BlogPost }) {
  const head = postHead(post, siteOrigin());
  return (
    <>
      <title>{head.title}</title>
      <link rel="canonical" href={head.canonical} />
      {head.meta.map((m) =>
        m.attr === 'name' ? (
          <meta key={`${m.key}=${m.content}`} name={m.key} content={m.content} />
        ) : (
          <meta key={`${m.key}=${m.content}`} property={m.key} content={m.content} />
        ),
      )}
      <JsonLd data={head.jsonLd} />
    </>
  );
}
