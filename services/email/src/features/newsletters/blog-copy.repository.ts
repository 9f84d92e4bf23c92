import type { BlogPost } from '@parley/contracts';
import type pg from 'pg';

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
    const { rowCount } = await this.pool.query({
      name: 'blog_copy_upsert',
      text: `INSERT INTO "newsletter_blog_posts" AS p
         ("id", "slug", "title", "excerpt", "content", "author", "featured_image", "tags", "status",
          "published_at", "deleted", "version_at", "copied_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, false, $11, now())
       ON CONFLICT ("id") DO UPDATE SET
         "slug" = EXCLUDED."slug", "title" = EXCLUDED."title", "excerpt" = EXCLUDED."excerpt",
         "content" = EXCLUDED."content", "author" = EXCLUDED."author",
         "featured_image" = EXCLUDED."featured_image", "tags" = EXCLUDED."tags",
         "status" = EXCLUDED."status", "published_at" = EXCLUDED."published_at",
         "deleted" = false, "version_at" = EXCLUDED."version_at", "copied_at" = now()
       WHERE p."version_at" <= EXCLUDED."version_at"`,
      values: [
        post.id,
        post.slug,
        post.title,
        post.excerpt,
        post.content,
        post.author,
        post.featuredImage,
        post.tags,
        post.status,
        post.publishedAt,
        versionAt,
      ],
    });
    return (rowCount ?? 0) > 0;
  }

  /** Applies a deletion: a tombstone (kept, so no older event brings the post back). */
  async remove(id: string, slug: string, versionAt: string): Promise<boolean> {
    const { rowCount } = await this.pool.query({
      name: 'blog_copy_remove',
      text: `INSERT INTO "newsletter_blog_posts" AS p
         ("id", "slug", "title", "content", "author", "status", "deleted", "version_at", "copied_at")
       VALUES ($1, $2, '', '', '', 'deleted', true, $3, now())
       ON CONFLICT ("id") DO UPDATE SET "deleted" = true, "version_at" = EXCLUDED."version_at", "copied_at" = now()
       WHERE p."version_at" <= EXCLUDED."version_at"`,
      values: [id, slug, versionAt],
    });
    return (rowCount ?? 0) > 0;
  }

  /** A post that is not deleted, or null. */
  async get(id: string): Promise<CopiedPost | null> {
    const { rows } = await this.pool.query<CopiedPostRow>({
      name: 'blog_copy_get',
      text: `SELECT ${COLUMNS} FROM "newsletter_blog_posts" WHERE "id" = $1 AND NOT "deleted"`,
      values: [id],
    });
    return rows[0] ? toPost(rows[0]) : null;
  }

  /** Published posts, newest first (what can become a newsletter). */
  async published(limit = 100): Promise<CopiedPost[]> {
    const { rows } = await this.pool.query<CopiedPostRow>({
      name: 'blog_copy_published',
      text: `SELECT ${COLUMNS} FROM "newsletter_blog_posts"
       WHERE NOT "deleted" AND "status" = 'published' ORDER BY "published_at" DESC NULLS LAST LIMIT $1`,
      values: [limit],
    });
    return rows.map(toPost);
  }
}

const COLUMNS = `"id", "slug", "title", "excerpt", "content", "author", "featured_image", "tags", "status", "published_at"`;

interface CopiedPostRow {
  id: string;
  slug: string;
  title: string;
  excerpt: string | null;
  content: string;
  author: string;
  featured_image: string | null;
  tags: string[] | null;
  status: string;
  published_at: Date | null;
}

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
