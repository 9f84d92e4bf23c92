import { describe, expect, it } from 'vitest';
import type { BlogPost } from '../src/blog.ts';
import { postHead, socialImageUrl } from '../src/blog-head.ts';

const ORIGIN = 'https://parley.example.com';
const CARD = `/api/blog/images/${'a'.repeat(64)}.svg`;

const post = (featuredImage: string | null): BlogPost =>
  ({
    id: '1',
    title: 'Title',
    slug: 'title',
    excerpt: 'Excerpt',
    content: 'Body',
    author: 'Team',
    status: 'published',
    tags: [],
    featuredImage,
    metaTitle: null,
    metaDescription: null,
    publishedAt: '2026-11-20T10:00:00.000Z',
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
  }) as unknown as BlogPost;

const meta = (p: BlogPost, key: string) =>
  postHead(p, ORIGIN)
    .meta.filter((m) => m.key === key)
    .map((m) => m.content);

describe('share previews', () => {
  it('show a generated SVG card as its PNG rendering, with its size', () => {
    expect(socialImageUrl(CARD, ORIGIN)).toBe(`${ORIGIN}${CARD.replace(/\.svg$/, '.png')}`);
    const p = post(CARD);
    expect(meta(p, 'og:image')).toEqual([`${ORIGIN}${CARD.replace(/\.svg$/, '.png')}`]);
    expect(meta(p, 'twitter:image')).toEqual(meta(p, 'og:image'));
    expect(meta(p, 'og:image:width')).toEqual(['1200']);
    expect(meta(p, 'og:image:height')).toEqual(['630']);
  });

  it('show any other image as it is, without a guessed size', () => {
    const p = post('https://images.example.com/photo.jpg');
    expect(meta(p, 'og:image')).toEqual(['https://images.example.com/photo.jpg']);
    expect(meta(p, 'og:image:width')).toEqual([]);
    expect(meta(post(null), 'og:image')).toEqual([]);
  });
});
