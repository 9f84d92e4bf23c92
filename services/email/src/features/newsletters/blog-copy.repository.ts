import type { BlogPost } from '@parley/contracts';
import { type Selectable, sql } from 'kysely';
import type pg from 'pg';
import type { NewsletterBlogPost } from '../../generated/kysely/database.ts';
import { db, execute, firstRow, rows } from '../../shared/sql.ts';

/** A post of the copy, as newsletters read it. */
export interface CopiedPost {
  id: string;
  slug: string;
  title: string;
  excerpt: string | null;
  content: string;
  author: string;
  featuredImage: string | null;
  tags: string[];
  status: string;
  publishedAt: string | null;
}

/**
 * The email service's copy of the blog's posts (newsletters are converted from it, never by
 * calling the blog service). Each event is applied with its occurredAt as the version: a row
 * changes only for an event at least as new as the one it reflects, so a redelivery changes
 * nothing and an older event arriving late cannot undo a newer one; a deletion leaves a
 * tombstone for the same reason.
 */
export class BlogCopyRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Applies a published / updated / unpublished post. True when the row changed. */
  async upsert(post: BlogPost, versionAt: string): Promise<boolean> {
    const row = {
      id: post.id,
      slug: post.slug,
      title: post.title,
      excerpt: post.excerpt,
      content: post.content,
      author: post.author,
      featured_image: post.featuredImage,
      tags: post.tags,
      status: post.status,
      published_at: post.publishedAt,
    };
    const changed = await execute(
      this.pool,
      db
        .insertInto('newsletter_blog_posts')
        .values({ ...row, deleted: false, version_at: versionAt, copied_at: sql`now()` })
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet((eb) => ({
              slug: eb.ref('excluded.slug'),
              title: eb.ref('excluded.title'),
              excerpt: eb.ref('excluded.excerpt'),
              content: eb.ref('excluded.content'),
              author: eb.ref('excluded.author'),
              featured_image: eb.ref('excluded.featured_image'),
              tags: eb.ref('excluded.tags'),
              status: eb.ref('excluded.status'),
              published_at: eb.ref('excluded.published_at'),
              deleted: false,
              version_at: eb.ref('excluded.version_at'),
              copied_at: sql`now()`,
            }))
            .whereRef('newsletter_blog_posts.version_at', '<=', 'excluded.version_at'),
        ),
      'blog_copy_upsert',
    );
    return changed > 0;
  }

  /** Applies a deletion: a tombstone (kept, so no older event brings the post back). */
  async remove(id: string, slug: string, versionAt: string): Promise<boolean> {
    const changed = await execute(
      this.pool,
      db
        .insertInto('newsletter_blog_posts')
        .values({
          id,
          slug,
          title: '',
          content: '',
          author: '',
          status: 'deleted',
          deleted: true,
          version_at: versionAt,
          copied_at: sql`now()`,
        })
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet((eb) => ({
              deleted: true,
              version_at: eb.ref('excluded.version_at'),
              copied_at: sql`now()`,
            }))
            .whereRef('newsletter_blog_posts.version_at', '<=', 'excluded.version_at'),
        ),
      'blog_copy_remove',
    );
    return changed > 0;
  }

  /** A post that is not deleted, or null. */
  async get(id: string): Promise<CopiedPost | null> {
    const row = await firstRow(
      this.pool,
      db
        .selectFrom('newsletter_blog_posts')
        .select(COLUMNS)
        .where('id', '=', id)
        .where('deleted', '=', false),
      'blog_copy_get',
    );
    return row ? toPost(row) : null;
  }

  /** Published posts, newest first (what can become a newsletter). */
  async published(limit = 100): Promise<CopiedPost[]> {
    const found = await rows(
      this.pool,
      db
        .selectFrom('newsletter_blog_posts')
        .select(COLUMNS)
        .where('deleted', '=', false)
        .where('status', '=', 'published')
        .orderBy('published_at', (o) => o.desc().nullsLast())
        .limit(limit),
      'blog_copy_published',
    );
    return found.map(toPost);
  }
}

const COLUMNS = [
  'id',
  'slug',
  'title',
  'excerpt',
  'content',
  'author',
  'featured_image',
  'tags',
  'status',
  'published_at',
] as const;

type CopiedPostRow = Pick<Selectable<NewsletterBlogPost>, (typeof COLUMNS)[number]>;

const toPost = (r: CopiedPostRow): CopiedPost => ({
  id: r.id,
  slug: r.slug,
  title: r.title,
  excerpt: r.excerpt,
  content: r.content,
  author: r.author,
  featuredImage: r.featured_image,
  tags: r.tags ?? [],
  status: r.status,
  publishedAt: r.published_at?.toISOString() ?? null,
});
