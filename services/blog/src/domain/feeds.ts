import type { BlogPost } from '@parley/contracts';
import { escapeMarkup } from '@parley/kit';

const xml = (s: string) =>
  escapeMarkup(
    s
      // Characters XML 1.0 forbids would make the whole feed invalid.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing the control characters XML 1.0 forbids is the point
      .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, ''),
  );

const rfc822 = (iso: string) => new Date(iso).toUTCString();

/** RSS 2.0 of the newest published posts (text only; links absolute). */
export function renderRss(posts: BlogPost[], site: { baseUrl: string; name: string }): string {
  const blogUrl = `${site.baseUrl}/blog`;
  const newest = posts[0]?.publishedAt ?? posts[0]?.updatedAt;
  const items = posts
    .map((p) => {
      const link = `${blogUrl}/${p.slug}`;
      return [
        '    <item>',
        `      <title>${xml(p.title)}</title>`,
        `      <link>${xml(link)}</link>`,
        `      <guid isPermaLink="true">${xml(link)}</guid>`,
        `      <pubDate>${rfc822(p.publishedAt ?? p.createdAt)}</pubDate>`,
        `      <dc:creator>${xml(p.author)}</dc:creator>`,
        ...p.tags.map((t) => `      <category>${xml(t)}</category>`),
        `      <description>${xml(p.excerpt ?? p.content.slice(0, 300))}</description>`,
        '    </item>',
      ].join('\n');
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${xml(`${site.name} Blog`)}</title>
    <link>${xml(blogUrl)}</link>
    <description>${xml(`News and guides about AI voice agents from ${site.name}`)}</description>
    <language>en-us</language>
    <atom:link href="${xml(`${site.baseUrl}/rss.xml`)}" rel="self" type="application/rss+xml"/>
${newest ? `    <lastBuildDate>${rfc822(newest)}</lastBuildDate>\n` : ''}${items}
  </channel>
</rss>
`;
}

/** Public pages of the site, for the sitemap (the web app's public routes). */
export const STATIC_PAGES = [
  '/',
  '/blog',
  '/book-demo',
  '/use-cases',
  '/voice-agent-preview',
  '/voice-wave-demo',
  '/simulated-call-demo',
  '/privacy-policy',
  '/terms-conditions',
  '/app-privacy',
];

export function renderSitemap(posts: BlogPost[], baseUrl: string): string {
  const urls = [
    ...STATIC_PAGES.map((path) => `  <url><loc>${xml(baseUrl + path)}</loc></url>`),
    ...posts.map(
      (p) =>
        `  <url><loc>${xml(`${baseUrl}/blog/${p.slug}`)}</loc><lastmod>${p.updatedAt.slice(0, 10)}</lastmod></url>`,
    ),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.join('\n')}
</urlset>
`;
}
