import { articleSlug, GENERATED_SLUG_MAX, parseTags, readingMinutes, slugify } from '@parley/contracts';
import { Resvg } from '@resvg/resvg-js';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { renderRss, renderSitemap } from '../src/domain/feeds.ts';
import { sniffImage } from '../src/domain/images.ts';
import { applyPostInput, eventOf, isAcceptableImageUrl } from '../src/domain/post-rules.ts';
import { renderCard } from '../src/providers/local-image.ts';
import { writeLocalArticle } from '../src/providers/local-writer.ts';
import { RENDER_OPTIONS, svgToPng } from '../src/social-image.ts';

const now = new Date('2026-11-22T12:00:00Z');

describe('post rules', () => {
  it('requires title, slug and content, and a well-formed slug', () => {
    expect(applyPostInput({ title: 'T', slug: 's' }, null, now)).toEqual({
      ok: false,
      message: 'Title, slug and content are required',
    });
    const bad = applyPostInput({ title: 'T', slug: 'Not A Slug', content: 'x' }, null, now);
    expect(bad.ok).toBe(false);
    expect(applyPostInput({ title: 'T', slug: 'a--b', content: 'x' }, null, now).ok).toBe(false);
  });

  it('defaults author and status, parses comma-separated tags, sets publishedAt on publish', () => {
    const draft = applyPostInput(
      { title: ' Hello ', slug: 'hello', content: 'Body', tags: ' a, b ,, A,c ' },
      null,
      now,
    );
    expect(draft).toMatchObject({
      ok: true,
      value: {
        title: 'Hello',
        author: 'Parley Team',
        status: 'draft',
        tags: ['a', 'b', 'c'],
        publishedAt: null,
      },
    });
    const published = applyPostInput({ status: 'published' }, draft.ok ? draft.value : null, now);
    expect(published.ok && published.value.publishedAt?.toISOString()).toBe(now.toISOString());
    // Unpublishing keeps the original date; republishing does not move it.
    const unpublished = applyPostInput(
      { status: 'draft' },
      published.ok ? published.value : null,
      new Date(),
    );
    expect(unpublished.ok && unpublished.value.publishedAt?.toISOString()).toBe(now.toISOString());
  });

  it('accepts the form’s 16-character local date-time and refuses nonsense', () => {
    const ok = applyPostInput(
      { title: 'T', slug: 't', content: 'c', status: 'published', publishedAt: '2026-11-20T09:30' },
      null,
      now,
    );
    expect(ok.ok).toBe(true);
    expect(applyPostInput({ title: 'T', slug: 't', content: 'c', publishedAt: 'soon' }, null, now).ok).toBe(
      false,
    );
  });

  it('accepts only http(s) or stored featured images', () => {
    expect(isAcceptableImageUrl('https://cdn.example.com/a.png')).toBe(true);
    expect(isAcceptableImageUrl(`/api/blog/images/${'a'.repeat(64)}.png`)).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      'data:image/svg+xml,<svg onload=alert(1)>',
      '//evil.example/x.png',
      'https://u:p@x.example/',
    ]) {
      expect(isAcceptableImageUrl(bad), bad).toBe(false);
    }
  });

  it('names the event of a change', () => {
    expect(eventOf(null, { status: 'published' })).toBe('blog.post.published');
    expect(eventOf({ status: 'published' }, { status: 'draft' })).toBe('blog.post.unpublished');
    expect(eventOf({ status: 'published' }, { status: 'published' })).toBe('blog.post.updated');
    expect(eventOf(null, { status: 'draft' })).toBe('blog.post.updated');
  });
});

describe('spec helpers', () => {
  it('slugifies like the form’s Generate button', () => {
    expect(slugify('  Hello, World!  AI  Voice -- Agents ')).toBe('hello-world-ai-voice-agents');
    expect(slugify('Café Déjà Vu')).toBe('cafe-deja-vu');
  });
  it('splits tags on commas and computes reading time as words / 200 rounded up', () => {
    expect(parseTags('a, ,b')).toEqual(['a', 'b']);
    expect(readingMinutes('word '.repeat(200))).toBe(1);
    expect(readingMinutes('word '.repeat(201))).toBe(2);
  });
});

describe('images', () => {
  it('judges uploads by their bytes', () => {
    expect(sniffImage(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe('png');
    expect(sniffImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpg');
    expect(sniffImage(new TextEncoder().encode('GIF89a....'))).toBe('gif');
    expect(sniffImage(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
    expect(sniffImage(new TextEncoder().encode('<svg onload="alert(1)"></svg>'))).toBeNull();
    expect(sniffImage(new TextEncoder().encode('not an image at all'))).toBeNull();
  });

  it('renders a featured card with the prompt escaped', () => {
    const card = renderCard('<script>alert(1)</script> & friends');
    const svg = new TextDecoder().decode(card.bytes);
    expect(card.type).toBe('svg');
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;');
    expect(XMLValidator.validate(svg)).toBe(true);
  });
});

describe('featured card', () => {
  /** Columns where the card's words are: pixels that change when the text is taken out. */
  function textColumns(svg: string): { min: number; max: number } {
    const render = (markup: string) => new Resvg(markup, RENDER_OPTIONS).render().pixels;
    const withText = render(svg);
    const without = render(svg.replace(/<text[^>]*>[^<]*<\/text>/g, ''));
    let min = Number.POSITIVE_INFINITY;
    let max = -1;
    for (let i = 0; i < withText.length; i += 4) {
      if (withText[i] === without[i] && withText[i + 1] === without[i + 1]) continue;
      const x = (i / 4) % 1200;
      min = Math.min(min, x);
      max = Math.max(max, x);
    }
    return { min, max };
  }

  it.each([
    'AI receptionists for dental clinics',
    'CRM integrations for real estate brokers who miss calls after hours, with examples',
    'WWWWWWWWWWWWWWWWWWWWWWWW MMMMMMMMMMMMMMMMMMMMMMMM',
  ])('keeps every word inside the part a 3:2 thumbnail shows: %s', (prompt) => {
    const svg = new TextDecoder().decode(renderCard(prompt).bytes);
    const { min, max } = textColumns(svg);
    expect(max).toBeGreaterThan(min);
    // A 3:2 crop of 1200×630 shows x 127–1072.
    expect(min).toBeGreaterThanOrEqual(128);
    expect(max).toBeLessThanOrEqual(1072);
  });

  it('renders a stored SVG card as a 1200×630 PNG for share previews', async () => {
    const png = await svgToPng('test-card', Buffer.from(renderCard('Share me').bytes));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(630);
  });
});

describe('local writer', () => {
  it('writes a structured article with sections, tags and meta for the topic', () => {
    const a = writeLocalArticle('AI receptionists for dental clinics');
    expect(a.title).toMatch(/Dental Clinics/i);
    expect(a.content.split('\n\n').length).toBeGreaterThanOrEqual(12);
    expect(a.content).toMatch(/Why it matters now/);
    expect(a.content.toLowerCase()).toContain('patients');
    expect(a.tags).toContain('Healthcare');
    expect(a.metaTitle.length).toBeLessThanOrEqual(60);
    expect(a.metaDescription.length).toBeLessThanOrEqual(155);
    expect(readingMinutes(a.content)).toBeGreaterThanOrEqual(3);
  });

  it('varies by topic and industry', () => {
    const legal = writeLocalArticle('Client intake for law firms');
    const hotel = writeLocalArticle('Handling hotel reservations after hours');
    expect(legal.tags).toContain('Legal');
    expect(hotel.tags).toContain('Hospitality');
    expect(legal.content).not.toEqual(hotel.content);
    expect(writeLocalArticle('Client intake for law firms')).toEqual(legal);
  });

  // Topics as admins type them: lower case, acronyms in any case, long, with filler words.
  const TOPICS = [
    'answering calls with ai phone agents',
    'How dental clinics cut no-shows with AI reminders',
    'crm integrations for real estate brokers who miss calls after hours',
    'why small law firms should automate client intake and conflict checks before the first consultation',
    'hipaa compliance for ai receptionists',
    'Hotel front desk automation',
  ];

  it.each(TOPICS)('reads like an editor wrote it: %s', (topic) => {
    const a = writeLocalArticle(topic);
    // Acronyms in capitals wherever the topic appears, in the title and in sentences.
    for (const text of [a.title, a.content, a.excerpt]) expect(text).not.toMatch(/\b(ai|crm|hipaa)\b/);
    // The topic mid-sentence does not start with a stray capital, and a title word starts with one.
    expect(a.title.charAt(0)).toMatch(/[A-Z]/);
    // Tags come from the vocabulary (industry, 'AI Voice Agents', themes), each Title Case.
    expect(a.tags[1]).toBe('AI Voice Agents');
    expect(a.tags.length).toBeLessThanOrEqual(5);
    for (const tag of a.tags) expect(tag).toMatch(/^[A-Z][A-Za-z-]*( [A-Z][A-Za-z-]*)*$/);
    // The slug: at most 60 characters, whole words of the title only.
    const slug = articleSlug(a.title);
    expect(slug.length).toBeGreaterThan(0);
    expect(slug.length).toBeLessThanOrEqual(GENERATED_SLUG_MAX);
    expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const titleWords = new Set(slugify(a.title).split('-'));
    for (const w of slug.split('-')) expect(titleWords.has(w), w).toBe(true);
  });

  it('files posts under themes, never under a stray word of the topic', () => {
    expect(writeLocalArticle('How dental clinics cut no-shows with AI reminders').tags).toEqual([
      'Healthcare',
      'AI Voice Agents',
      'Reminders',
    ]);
    expect(writeLocalArticle('answering calls with ai phone agents').excerpt).toMatch(
      /^This (guide|article) (covers|looks at) answering calls with AI phone agents\./,
    );
    expect(
      articleSlug(
        'Why Small Law Firms Should Automate Client Intake and Conflict Checks Before the First Consultation',
      ),
    ).toBe('why-small-law-firms-should-automate-client-intake-conflict');
  });
});

describe('feeds', () => {
  const post = {
    id: '1',
    title: 'Ünïcode & <tags> "quoted"',
    slug: 'unicode',
    excerpt: 'Excerpt with ]]> and \u0001 control',
    content: 'Body',
    author: 'Team',
    featuredImage: null,
    tags: ['A&B'],
    status: 'published' as const,
    metaTitle: null,
    metaDescription: null,
    publishedAt: now.toISOString(),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };

  it('renders valid RSS 2.0 whatever the text', () => {
    const rss = renderRss([post], { baseUrl: 'https://parley.example', name: 'Parley' });
    expect(XMLValidator.validate(rss)).toBe(true);
    expect(rss).toContain('<rss version="2.0"');
    expect(rss).toContain('<link>https://parley.example/blog/unicode</link>');
    expect(rss).toContain('&lt;tags&gt;');
    expect(rss).toContain(`<pubDate>${now.toUTCString()}</pubDate>`);
  });

  it('renders a valid sitemap with the public pages and posts', () => {
    const xml = renderSitemap([post], 'https://parley.example');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<loc>https://parley.example/blog/unicode</loc>');
    expect(xml).toContain('<loc>https://parley.example/</loc>');
  });
});
