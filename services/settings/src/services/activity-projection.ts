import type { ServiceDeps } from '@parley/kit';
import { type ActivityEvent, logDataOf, versionOf } from '../domain/activity.ts';
import { ACTIVITY_DURABLE_PREFIX, CONSUMES } from '../events.ts';
import type { ActivityRepository, ActivityWriter } from '../repo/activity.repository.ts';

/**
 * The activity projection of feature discovery: every event of CONSUMES is applied once (its
 * facts and its log entry, with the inbox claim, in one transaction), in any order.
 */

/** The durable of a projection generation (the repository's `generation()`). */
export const activityDurable = (generation: string) =>
  `${ACTIVITY_DURABLE_PREFIX}-${generation.replaceAll('-', '').slice(0, 12)}`;

/** Writes the facts `event` carries. */
export async function applyActivity(w: ActivityWriter, event: ActivityEvent): Promise<void> {
  const version = versionOf(event);
  switch (event.subject) {
    case 'booking.booking.created':
    case 'booking.booking.status_changed': {
      const b = event.subject === 'booking.booking.created' ? event.payload : event.payload.booking;
      await w.booking({ id: b.id, status: b.status, timeSlot: b.timeSlot, bookedAt: b.createdAt, version });
      return;
    }
    case 'voice.call.completed': {
      const c = event.payload.conversation;
      await w.call({
        id: c.id,
        kind: c.kind,
        status: c.status,
        durationSeconds: c.duration,
        startedAt: c.createdAt,
        version,
      });
      return;
    }
    case 'blog.post.published':
    case 'blog.post.unpublished': {
      const p = event.payload.post;
      const published = event.subject === 'blog.post.published';
      await w.post({
        id: p.id,
        // An unpublished post may be a draft or archived: the payload says which.
        status: published ? 'published' : p.status === 'published' ? 'draft' : p.status,
        version,
        title: p.title,
        publishedAt: p.publishedAt ?? (published ? event.occurredAt : null),
      });
      return;
    }
    case 'blog.post.deleted':
      await w.post({ id: event.payload.id, status: 'deleted', version, title: null, publishedAt: null });
      return;
    case 'email.address_book.created': {
      const b = event.payload;
      await w.bookCreated({
        id: b.id,
        name: b.name,
        isDefault: b.isDefault,
        createdAt: b.createdAt,
        version,
      });
      return;
    }
    case 'email.address_book.deleted': {
      const b = event.payload;
      await w.bookDeleted({ id: b.id, name: b.name, deletedAt: b.deletedAt, version });
      return;
    }
    case 'email.import.completed': {
      const i = event.payload;
      await w.importCompleted({
        bookId: i.addressBookId,
        contactCount: i.contactCount,
        imported: i.imported,
        completedAt: i.completedAt,
        version,
      });
      return;
    }
    case 'email.campaign.sent': {
      const c = event.payload;
      await w.mailingSent({
        kind: 'campaign',
        id: c.campaignId,
        name: c.name,
        blogPostId: null,
        test: c.test,
        recipients: c.recipients,
        sent: c.sent,
        failed: c.failed,
        sentAt: c.sentAt,
        version,
      });
      return;
    }
    case 'email.newsletter.sent': {
      const n = event.payload;
      await w.mailingSent({
        kind: 'newsletter',
        id: n.newsletterId,
        name: n.name,
        blogPostId: n.blogPostId,
        test: n.test ?? false,
        recipients: n.recipients,
        sent: n.sent,
        failed: n.failed,
        sentAt: n.sentAt,
        version,
      });
      return;
    }
  }
}

/**
 * Subscribes the projection's durable to CONSUMES. The durable is named after the database's
 * generation, so a fresh database (new generation) starts a new durable at the beginning of
 * every stream and rebuilds the projection; replicas on one database share one durable.
 */
export async function startActivityProjection(deps: ServiceDeps, repo: ActivityRepository): Promise<string> {
  const durable = activityDurable(await repo.generation());
  await deps.consume({
    durable,
    subjects: CONSUMES,
    handler: async (event) => {
      await repo.applyOnce(durable, event.id, async (w) => {
        await applyActivity(w, event);
        await w.log({
          eventId: event.id,
          subject: event.subject,
          occurredAt: event.occurredAt,
          data: logDataOf(event),
        });
      });
    },
  });
  deps.logger.info({ durable, subjects: CONSUMES.length }, 'activity projection consuming');
  return durable;
}
