-- The email service's copy of the blog's posts, kept from blog.post.* events (newsletters are
-- made from it without asking the blog service). Per post the newest event wins (version_at =
-- the event's occurredAt); a deleted post stays as a tombstone so an older event cannot bring
-- it back.
-- CreateTable
CREATE TABLE "newsletter_blog_posts" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "excerpt" TEXT,
    "content" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "featured_image" TEXT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" TEXT NOT NULL,
    "published_at" TIMESTAMPTZ(3),
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "version_at" TIMESTAMPTZ(3) NOT NULL,
    "copied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "newsletter_blog_posts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "newsletter_blog_posts_published_at_idx" ON "newsletter_blog_posts"("published_at" DESC);

-- CreateTable
CREATE TABLE "email_copy_state" (
    "id" SMALLINT NOT NULL DEFAULT 1,
    "generation" UUID NOT NULL DEFAULT gen_random_uuid(),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_copy_state_pkey" PRIMARY KEY ("id")
);

-- What Prisma cannot express: the generation table holds one row. The durables of the copies
-- kept from other services' events (settings, blog posts) carry it: a fresh database gets a
-- new generation, hence new durables that read the streams from their beginning.
ALTER TABLE "email_copy_state" ADD CONSTRAINT "email_copy_state_one_row" CHECK ("id" = 1);
