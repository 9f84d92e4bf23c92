/**
 * Events of the blog service (payload schemas live in @parley/contracts), all through the
 * outbox in the same transaction as the change (repo/blog.repository.ts): a post published
 * (or a scheduled one coming due), updated, unpublished or deleted. The email service keeps
 * its copy of posts for newsletters from them; settings counts them for feature discovery.
 * Consumes nothing.
 */
export const PUBLISHES = [
  'blog.post.published',
  'blog.post.updated',
  'blog.post.unpublished',
  'blog.post.deleted',
] as const;
export const CONSUMES = [] as const;
