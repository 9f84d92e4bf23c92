import type { ServiceInstance } from '@parley/kit';
import type { EmailContext } from '../../context.ts';
import { copyDurable } from '../../shared/copy-state.repository.ts';
import { BlogCopyRepository } from './blog-copy.repository.ts';

/**
 * The copy of the blog's posts that newsletters are made from, kept from the blog's events.
 * The durable's name carries this database's generation (copyDurable): a fresh database gets
 * a new durable that reads the stream from its beginning, rebuilding the whole copy. Each event applies once in effect (versioned by its
 * occurredAt, see the repository).
 */
export async function registerBlogCopy(
  _app: ServiceInstance,
  ctx: EmailContext,
): Promise<BlogCopyRepository> {
  const { deps } = ctx;
  const repo = new BlogCopyRepository(deps.pool);
  const logger = deps.logger.child({ component: 'blog-copy' });
  await deps.consume({
    durable: await copyDurable(deps.pool, 'email-blog-copy'),
    subjects: ['blog.post.published', 'blog.post.updated', 'blog.post.unpublished', 'blog.post.deleted'],
    handler: async (event) => {
      const changed =
        event.subject === 'blog.post.deleted'
          ? await repo.remove(event.payload.id, event.payload.slug, event.occurredAt)
          : await repo.upsert(event.payload.post, event.occurredAt);
      if (changed) logger.debug({ subject: event.subject, eventId: event.id }, 'blog post copied');
    },
  });
  return repo;
}
