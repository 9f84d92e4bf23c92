import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { normalizeEmailHtml } from '../src/features/newsletters/domain/html-fix.ts';
import {
  buildNewsletter,
  mailImageUrl,
  type NewsletterPost,
  shorten,
  summaryOf,
  withPreheader,
} from '../src/features/newsletters/domain/newsletter-template.ts';

/** The 'standard' newsletter template (pure): what a converted post's mail holds. */

const ORIGIN = 'https://parley.example';
const ALL = { includeImage: true, includeReadMore: true, includeShare: true };
const post = (over: Partial<NewsletterPost> = {}): NewsletterPost => ({
  id: 'p1',
  slug: 'voice agents/2026',
  title: 'Voice <script>alert(1)</script> & "agents"',
  excerpt: 'Why callers stay on the line.',
  content: '<p>First <b>bold</b> paragraph<script>x()</script>.</p><p>Second.</p>',
  author: 'Parley Team',
  featuredImage: '/api/blog/images/cover.jpg',
  publishedAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

describe('image URLs', () => {
  it('keeps absolute PNG/JPEG, makes relative ones absolute, renders the stored SVG as PNG, drops the rest', () => {
    const id = 'c'.repeat(64);
    expect(mailImageUrl('/api/blog/images/a.png', ORIGIN)).toBe(`${ORIGIN}/api/blog/images/a.png`);
    expect(mailImageUrl('https://cdn.example/x.JPEG?v=2', ORIGIN)).toBe('https://cdn.example/x.JPEG?v=2');
    expect(mailImageUrl('//cdn.example/x.jpg', ORIGIN)).toBe('https://cdn.example/x.jpg');
    expect(mailImageUrl(`/api/blog/images/${id}.svg`, ORIGIN)).toBe(`${ORIGIN}/api/blog/images/${id}.png`);
    for (const src of [
      'https://cdn.example/x.svg',
      '/images/logo.svg',
      'https://cdn.example/x.gif',
      'https://cdn.example/x',
      'data:image/png;base64,AAAA',
      'javascript:alert(1)',
      '',
      null,
    ])
      expect(mailImageUrl(src, ORIGIN)).toBeNull();
  });
});

describe('text helpers', () => {
  it('shortens on a word boundary with an ellipsis', () => {
    expect(shorten('short', 150)).toBe('short');
    const s = shorten('word '.repeat(60), 150);
    expect(s.length).toBeLessThanOrEqual(150);
    expect(s.endsWith('word…')).toBe(true);
  });

  it('reads the excerpt, else the first paragraph of the sanitised content', () => {
    expect(summaryOf({ excerpt: '  An   excerpt ', content: '' })).toBe('An excerpt');
    expect(summaryOf({ excerpt: null, content: post().content })).toBe('First bold paragraph.');
  });

  it('puts one hidden preheader right after <body>', () => {
    const html = withPreheader('<html><body class="x"><p>a</p></body></html>', 'One <two>');
    expect(html).toMatch(
      /^<html><body class="x"><div class="parley-preheader" style="display:none;[^"]*">One &lt;two&gt;<\/div><p>a<\/p>/,
    );
    const again = withPreheader(html, 'Three');
    expect(again.match(/parley-preheader/g)).toHaveLength(1);
    expect(again).toContain('>Three</div>');
    expect(withPreheader(again, null)).toBe('<html><body class="x"><p>a</p></body></html>');
  });
});

describe('buildNewsletter', () => {
  it('writes a mail with absolute links, the image, read more, share links, preheader and text part', async () => {
    const n = await buildNewsletter(post(), { origin: ORIGIN, brand: 'Parley', customizations: ALL });
    const url = `${ORIGIN}/blog/voice%20agents%2F2026`;
    expect(n.postUrl).toBe(url);
    expect(n.preheader).toBe('Why callers stay on the line.');
    const $ = load(n.html);
    expect($('script').length).toBe(0);
    expect($('title').text()).toBe('Voice <script>alert(1)</script> & "agents"');
    expect(
      $('img')
        .toArray()
        .map((i) => $(i).attr('src')),
    ).toEqual([`${ORIGIN}/api/blog/images/cover.jpg`]);
    for (const a of $('a[href]').toArray())
      expect($(a).attr('href')).toMatch(/^(https:\/\/|mailto:\?|\{\{unsubscribeUrl\}\}$)/);
    expect($('a:contains("Read more")').attr('href')).toBe(url);
    expect(n.shareLinks.map((s) => s.network)).toEqual(['LinkedIn', 'X', 'Facebook', 'Email']);
    for (const s of n.shareLinks) {
      expect(s.url).toContain(encodeURIComponent(url));
      expect($(`a[href="${s.url}"]`).length).toBe(1);
    }
    expect($('.parley-preheader').text()).toBe(n.preheader);
    expect($('a[href="{{unsubscribeUrl}}"]').attr('data-no-track')).toBe('');
    // Responsive (media queries kept) with the rest inlined.
    expect($('style').text()).toMatch(/@media only screen and \(max-width: ?480px\)/);
    expect($('style').text()).not.toMatch(/^\s*p\s*\{/m);
    expect(n.text).toContain('Voice <script>alert(1)</script> & "agents"\nParley Team · 20 November 2026');
    expect(n.text).toContain(`Read more: ${url}`);
    expect(n.text).toContain('Share this post:\nLinkedIn: https://www.linkedin.com/');
    expect(n.text).toContain('Unsubscribe: {{unsubscribeUrl}}');
  });

  it('leaves out what the customisations turn off', async () => {
    const n = await buildNewsletter(post(), {
      origin: ORIGIN,
      brand: 'Parley',
      customizations: { includeImage: false, includeReadMore: false, includeShare: false },
      preheader: 'Chosen',
    });
    const $ = load(n.html);
    expect($('img').length).toBe(0);
    expect(n.imageUrl).toBeNull();
    expect(n.shareLinks).toEqual([]);
    expect(n.html).not.toMatch(/Read more|linkedin|facebook|mailto:/);
    expect(n.text).not.toMatch(/Read more|Share/);
    expect(n.preheader).toBe('Chosen');
  });

  it('falls back to the newsletter banner for an SVG or missing image', async () => {
    for (const featuredImage of [null, 'https://cdn.example/a.svg']) {
      const n = await buildNewsletter(post({ featuredImage }), {
        origin: ORIGIN,
        brand: 'Parley',
        customizations: ALL,
      });
      expect(n.imageUrl).toBe(`${ORIGIN}/email/headers/newsletter.png`);
    }
  });

  it('is already what Fix HTML Issues would make of it', async () => {
    const n = await buildNewsletter(post(), { origin: ORIGIN, brand: 'Parley', customizations: ALL });
    expect(normalizeEmailHtml(n.html, { origin: ORIGIN, text: n.text }).changes).toEqual([]);
  });
});
