import { createHash } from 'node:crypto';
import type { BlogPost } from '@parley/contracts';
import { enqueueEvent, isUniqueViolation } from '@parley/kit';
import type pg from 'pg';
import type { BlogDb } from '../db.ts';
import { CONTENT_TYPES, type ImageType } from '../domain/images.ts';
import { eventOf, type PostFields } from '../domain/post-rules.ts';
import type { BlogPost as PostRow } from '../generated/prisma/client.ts';

export class DuplicateSlugError extends Error {
  override name = 'DuplicateSlugError';
}

export function toBlogPost(row: PostRow): BlogPost {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    content: row.content,
    author: row.author,
    featuredImage: row.featuredImage,
    tags: row.tags,
    status: row.status,
    metaTitle: row.metaTitle,
    metaDescription: row.metaDescription,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const fieldsOf = (row: PostRow): PostFields => ({
  title: row.title,
  slug: row.slug,
  excerpt: row.excerpt,
  content: row.content,
  author: row.author,
  featuredImage: row.featuredImage,
  tags: row.tags,
  status: row.status,
  metaTitle: row.metaTitle,
  metaDescription: row.metaDescription,
  publishedAt: row.publishedAt,
});

/** Published and already due (a future publishedAt schedules the post). */
const visible = (now: Date) => ({ status: 'published' as const, publishedAt: { lte: now } });

/** All database access of the blog service. */
export class BlogRepository {
  constructor(
    private readonly db: BlogDb,
    private readonly pool: pg.Pool,
  ) {}

  async listPublished(
    now: Date,
    limit: number,
    offset: number,
    tag?: string,
  ): Promise<{ items: BlogPost[]; total: number }> {
    const where = { ...visible(now), ...(tag ? { tags: { has: tag } } : {}) };
    const [rows, total] = await Promise.all([
      this.db.blogPost.findMany({
        where,
        orderBy: [{ publishedAt: 'desc' }, { createdAt: 'desc' }],
        take: limit,
        skip: offset,
      }),
      this.db.blogPost.count({ where }),
    ]);
    return { items: rows.map(toBlogPost), total };
  }

  async findPublishedBySlug(slug: string, now: Date): Promise<BlogPost | null> {
    const row = await this.db.blogPost.findFirst({ where: { slug, ...visible(now) } });
    return row ? toBlogPost(row) : null;
  }

  /** Every post, newest first (admin). */
  async listAll(): Promise<BlogPost[]> {
    const rows = await this.db.blogPost.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
    return rows.map(toBlogPost);
  }

  /** One post by id, whatever its status (admin). */
  async find(id: string): Promise<BlogPost | null> {
    const row = await this.db.blogPost.findUnique({ where: { id } });
    return row ? toBlogPost(row) : null;
  }

  /** Creates a post and its event in one transaction. */
  async create(fields: PostFields): Promise<BlogPost> {
    try {
      return await this.db.$transaction(async (tx) => {
        const post = toBlogPost(await tx.blogPost.create({ data: fields }));
        await enqueueEvent(tx, eventOf(null, fields), { post });
        return post;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateSlugError();
      throw err;
    }
  }

  /** Updates a post (null when it does not exist) and publishes what changed. */
  async update(
    id: string,
    next: (current: PostFields) => PostFields | Error,
  ): Promise<BlogPost | null | Error> {
    try {
      return await this.db.$transaction(async (tx) => {
        // Lock the row: concurrent edits apply one after another, so each event (published,
        // unpublished, updated) is chosen from the state it really changed.
        const locked = await tx.$queryRawUnsafe<Array<{ id: string }>>(
          'SELECT "id" FROM "blog_posts" WHERE "id" = $1::uuid FOR UPDATE',
          id,
        );
        if (!locked.length) return null;
        const row = await tx.blogPost.findUnique({ where: { id } });
        if (!row) return null;
        const before = fieldsOf(row);
        const fields = next(before);
        if (fields instanceof Error) return fields;
        const post = toBlogPost(await tx.blogPost.update({ where: { id }, data: fields }));
        await enqueueEvent(tx, eventOf(before, fields), { post });
        return post;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateSlugError();
      throw err;
    }
  }

  async delete(id: string): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      const row = await tx.blogPost.findUnique({ where: { id }, select: { id: true, slug: true } });
      if (!row) return false;
      await tx.blogPost.delete({ where: { id } });
      await enqueueEvent(tx, 'blog.post.deleted', { id: row.id, slug: row.slug });
      return true;
    });
  }

  /** Stores image bytes under their sha256 (idempotent); returns the id. */
  async saveImage(
    bytes: Uint8Array,
    type: ImageType,
    source: 'upload' | 'local' | 'openai',
  ): Promise<string> {
    const id = createHash('sha256').update(bytes).digest('hex');
    await this.pool.query(
      `INSERT INTO "blog_images" ("id", "content_type", "bytes", "size", "source") VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("id") DO NOTHING`,
      [id, CONTENT_TYPES[type], Buffer.from(bytes), bytes.length, source],
    );
    return id;
  }

  async findImage(id: string): Promise<{ contentType: string; bytes: Buffer } | null> {
    const { rows } = await this.pool.query<{ content_type: string; bytes: Buffer }>({
      name: 'blog_find_image',
      text: 'SELECT "content_type", "bytes" FROM "blog_images" WHERE "id" = $1',
      values: [id],
    });
    const row = rows[0];
    return row ? { contentType: row.content_type, bytes: row.bytes } : null;
  }
}
