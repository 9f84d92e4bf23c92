import { claimEvent, inTransaction, pgExecutor } from '@parley/kit';
import type pg from 'pg';
import type { LogData } from '../domain/activity.ts';
import type { ActivityFacts } from '../domain/feature-facts.ts';

/**
 * All SQL of the activity projection (feature discovery). Writes are per-aggregate facts with
 * the version of the event they came from (domain/activity.ts versionOf): a fact changes only
 * when the incoming version is newer, so events applied late or out of order leave the same
 * state as events applied in order. Counters only grow, and the inbox (claimEvent, in the same
 * transaction) makes sure each event adds once. Versions are compared in the C collation
 * (byte order), never a locale's.
 */

/** Keeps "recent actions" small: the newest entries are kept, older ones pruned. */
export const LOG_KEEP = 200;
/** One pruner at a time (others skip: the next event prunes again). */
const PRUNE_LOCK = 7_401_001;

const newer = (current: string, incoming: string) =>
  `(${current} IS NULL OR ${current} COLLATE "C" < ${incoming} COLLATE "C")`;
const newest = (a: string, b: string) => `GREATEST(${a} COLLATE "C", ${b} COLLATE "C")`;

/** The writes of one event, inside its transaction. */
export class ActivityWriter {
  constructor(private readonly client: pg.ClientBase) {}

  async booking(b: { id: string; status: string; timeSlot: string; bookedAt: string; version: string }) {
    await this.client.query(
      `INSERT INTO "activity_bookings" AS t ("booking_id", "status", "time_slot", "booked_at", "version")
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("booking_id") DO UPDATE SET "status" = EXCLUDED."status",
         "time_slot" = EXCLUDED."time_slot", "booked_at" = EXCLUDED."booked_at", "version" = EXCLUDED."version"
       WHERE ${newer('t."version"', 'EXCLUDED."version"')}`,
      [b.id, b.status, b.timeSlot, b.bookedAt, b.version],
    );
  }

  async call(c: {
    id: string;
    kind: string;
    status: string;
    durationSeconds: number;
    startedAt: string;
    version: string;
  }) {
    await this.client.query(
      `INSERT INTO "activity_calls" AS t ("call_id", "kind", "status", "duration_seconds", "started_at", "version")
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ("call_id") DO UPDATE SET "kind" = EXCLUDED."kind", "status" = EXCLUDED."status",
         "duration_seconds" = EXCLUDED."duration_seconds", "started_at" = EXCLUDED."started_at",
         "version" = EXCLUDED."version"
       WHERE ${newer('t."version"', 'EXCLUDED."version"')}`,
      [c.id, c.kind, c.status, c.durationSeconds, c.startedAt, c.version],
    );
  }

  /**
   * A post's status (`deleted` for a deletion) and, when the event carries them, its title
   * and publication date: each facet keeps the newest version it has seen.
   */
  async post(p: {
    id: string;
    status: string;
    version: string;
    title: string | null;
    publishedAt: string | null;
  }) {
    const titleNewer = `(EXCLUDED."title_version" IS NOT NULL AND ${newer('t."title_version"', 'EXCLUDED."title_version"')})`;
    await this.client.query(
      `INSERT INTO "activity_posts" AS t ("post_id", "status", "version", "title", "published_at", "title_version")
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $4::text IS NULL THEN NULL ELSE $3 END)
       ON CONFLICT ("post_id") DO UPDATE SET
         "status" = CASE WHEN ${newer('t."version"', 'EXCLUDED."version"')} THEN EXCLUDED."status" ELSE t."status" END,
         "version" = ${newest('t."version"', 'EXCLUDED."version"')},
         "title" = CASE WHEN ${titleNewer} THEN EXCLUDED."title" ELSE t."title" END,
         "published_at" = CASE WHEN ${titleNewer} THEN EXCLUDED."published_at" ELSE t."published_at" END,
         "title_version" = CASE WHEN ${titleNewer} THEN EXCLUDED."title_version" ELSE t."title_version" END`,
      [p.id, p.status, p.version, p.title, p.publishedAt],
    );
  }

  /** A book was created (its name, whether it is the default). */
  async bookCreated(b: { id: number; name: string; isDefault: boolean; createdAt: string; version: string }) {
    await this.client.query(
      `INSERT INTO "activity_address_books" AS t ("book_id", "name", "name_version", "is_default", "created_at")
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("book_id") DO UPDATE SET
         "name" = CASE WHEN ${newer('t."name_version"', 'EXCLUDED."name_version"')} THEN EXCLUDED."name" ELSE t."name" END,
         "name_version" = ${newest('t."name_version"', 'EXCLUDED."name_version"')},
         "is_default" = EXCLUDED."is_default", "created_at" = EXCLUDED."created_at"`,
      [b.id, b.name, b.version, b.isDefault, b.createdAt],
    );
  }

  /** A book was deleted: for good (ids are never reused), whatever arrives later. */
  async bookDeleted(b: { id: number; name: string; deletedAt: string; version: string }) {
    await this.client.query(
      `INSERT INTO "activity_address_books" AS t ("book_id", "name", "name_version", "deleted_at")
       VALUES ($1, $2, $3, $4)
       ON CONFLICT ("book_id") DO UPDATE SET
         "name" = CASE WHEN ${newer('t."name_version"', 'EXCLUDED."name_version"')} THEN EXCLUDED."name" ELSE t."name" END,
         "name_version" = ${newest('t."name_version"', 'EXCLUDED."name_version"')},
         "deleted_at" = COALESCE(t."deleted_at", EXCLUDED."deleted_at")`,
      [b.id, b.name, b.version, b.deletedAt],
    );
  }

  /** An import finished: the book's count after it (newest import wins), and one more import. */
  async importCompleted(i: {
    bookId: number;
    contactCount: number;
    imported: number;
    completedAt: string;
    version: string;
  }) {
    await this.client.query(
      `INSERT INTO "activity_address_books" AS t ("book_id", "contact_count", "count_version", "imports",
         "imported_contacts", "last_import_at")
       VALUES ($1, $2, $3, 1, $4, $5)
       ON CONFLICT ("book_id") DO UPDATE SET
         "contact_count" = CASE WHEN ${newer('t."count_version"', 'EXCLUDED."count_version"')}
                           THEN EXCLUDED."contact_count" ELSE t."contact_count" END,
         "count_version" = ${newest('t."count_version"', 'EXCLUDED."count_version"')},
         "imports" = t."imports" + 1,
         "imported_contacts" = t."imported_contacts" + EXCLUDED."imported_contacts",
         "last_import_at" = GREATEST(t."last_import_at", EXCLUDED."last_import_at")`,
      [i.bookId, i.contactCount, i.version, i.imported, i.completedAt],
    );
  }

  /** One send of a campaign or newsletter; a test-mode send counts apart and mails nobody real. */
  async mailingSent(m: {
    kind: 'campaign' | 'newsletter';
    id: string;
    name: string;
    blogPostId: string | null;
    test: boolean;
    recipients: number;
    sent: number;
    failed: number;
    sentAt: string;
    version: string;
  }) {
    const live = !m.test;
    await this.client.query(
      `INSERT INTO "activity_mailings" AS t ("kind", "mailing_id", "name", "name_version", "blog_post_id",
         "live_sends", "test_sends", "recipients", "sent", "failed", "last_sent_at", "last_test_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT ("kind", "mailing_id") DO UPDATE SET
         "name" = CASE WHEN ${newer('t."name_version"', 'EXCLUDED."name_version"')} THEN EXCLUDED."name" ELSE t."name" END,
         "blog_post_id" = CASE WHEN ${newer('t."name_version"', 'EXCLUDED."name_version"')}
                          THEN COALESCE(EXCLUDED."blog_post_id", t."blog_post_id")
                          ELSE COALESCE(t."blog_post_id", EXCLUDED."blog_post_id") END,
         "name_version" = ${newest('t."name_version"', 'EXCLUDED."name_version"')},
         "live_sends" = t."live_sends" + EXCLUDED."live_sends",
         "test_sends" = t."test_sends" + EXCLUDED."test_sends",
         "recipients" = t."recipients" + EXCLUDED."recipients",
         "sent" = t."sent" + EXCLUDED."sent",
         "failed" = t."failed" + EXCLUDED."failed",
         "last_sent_at" = GREATEST(t."last_sent_at", EXCLUDED."last_sent_at"),
         "last_test_at" = GREATEST(t."last_test_at", EXCLUDED."last_test_at")`,
      [
        m.kind,
        m.id,
        m.name,
        m.version,
        m.blogPostId,
        live ? 1 : 0,
        live ? 0 : 1,
        live ? m.recipients : 0,
        live ? m.sent : 0,
        live ? m.failed : 0,
        live ? m.sentAt : null,
        live ? null : m.sentAt,
      ],
    );
  }

  /** The event in the log of recent actions; the oldest beyond LOG_KEEP are pruned. */
  async log(e: { eventId: string; subject: string; occurredAt: string; data: LogData }) {
    await this.client.query(
      `INSERT INTO "activity_log" ("event_id", "subject", "occurred_at", "data")
       VALUES ($1::uuid, $2, $3, $4::jsonb) ON CONFLICT DO NOTHING`,
      [e.eventId, e.subject, e.occurredAt, JSON.stringify(e.data)],
    );
    const { rows } = await this.client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [
      PRUNE_LOCK,
    ]);
    if (!rows[0]?.ok) return;
    await this.client.query(
      `DELETE FROM "activity_log" WHERE ("occurred_at", "event_id") < (
         SELECT "occurred_at", "event_id" FROM "activity_log"
          ORDER BY "occurred_at" DESC, "event_id" DESC OFFSET $1 LIMIT 1)`,
      [LOG_KEEP - 1],
    );
  }
}

interface FactsRow {
  bookings_total: number;
  bookings_recent: number;
  bookings_awaiting: number;
  calls_demo: number;
  calls_admin: number;
  last_call_at: Date | null;
  posts_published: number;
  posts_recent: number;
  last_published_at: Date | null;
  posts_without_newsletter: number;
  books: number;
  contacts: number;
  last_import_at: Date | null;
  campaigns_live: number;
  campaigns_test_only: number;
  last_campaign_at: Date | null;
  campaigns_recent: number;
  newsletters_sent: number;
  newsletters_test_only: number;
  last_newsletter_at: Date | null;
  website_saved: boolean;
  last_analysis_at: Date | null;
}

/** Every fact the rules read, in one statement (one round trip, one snapshot). */
const FACTS_SQL = `SELECT
  (SELECT count(*)::int FROM "activity_bookings") AS bookings_total,
  (SELECT count(*)::int FROM "activity_bookings" WHERE "booked_at" >= $1) AS bookings_recent,
  (SELECT count(*)::int FROM "activity_bookings" WHERE "status" = 'confirmed' AND "time_slot" < $2) AS bookings_awaiting,
  (SELECT count(*)::int FROM "activity_calls" WHERE "kind" = 'demo') AS calls_demo,
  (SELECT count(*)::int FROM "activity_calls" WHERE "kind" <> 'demo') AS calls_admin,
  (SELECT max("started_at") FROM "activity_calls") AS last_call_at,
  (SELECT count(*)::int FROM "activity_posts" WHERE "status" = 'published') AS posts_published,
  (SELECT count(*)::int FROM "activity_posts" WHERE "status" = 'published' AND "published_at" >= $1) AS posts_recent,
  (SELECT max("published_at") FROM "activity_posts" WHERE "status" = 'published') AS last_published_at,
  (SELECT count(*)::int FROM "activity_posts" p WHERE p."status" = 'published' AND NOT EXISTS (
     SELECT 1 FROM "activity_mailings" m
      WHERE m."kind" = 'newsletter' AND m."blog_post_id" = p."post_id" AND m."live_sends" > 0)) AS posts_without_newsletter,
  (SELECT count(*)::int FROM "activity_address_books" WHERE "deleted_at" IS NULL) AS books,
  (SELECT coalesce(sum("contact_count"), 0)::int FROM "activity_address_books" WHERE "deleted_at" IS NULL) AS contacts,
  (SELECT max("last_import_at") FROM "activity_address_books") AS last_import_at,
  (SELECT count(*)::int FROM "activity_mailings" WHERE "kind" = 'campaign' AND "live_sends" > 0) AS campaigns_live,
  (SELECT count(*)::int FROM "activity_mailings" WHERE "kind" = 'campaign' AND "live_sends" = 0 AND "test_sends" > 0) AS campaigns_test_only,
  (SELECT max("last_sent_at") FROM "activity_mailings" WHERE "kind" = 'campaign') AS last_campaign_at,
  (SELECT count(*)::int FROM "activity_mailings" WHERE "kind" = 'campaign' AND "last_sent_at" >= $1) AS campaigns_recent,
  (SELECT count(*)::int FROM "activity_mailings" WHERE "kind" = 'newsletter' AND "live_sends" > 0) AS newsletters_sent,
  (SELECT count(*)::int FROM "activity_mailings" WHERE "kind" = 'newsletter' AND "live_sends" = 0 AND "test_sends" > 0) AS newsletters_test_only,
  (SELECT max("last_sent_at") FROM "activity_mailings" WHERE "kind" = 'newsletter') AS last_newsletter_at,
  EXISTS (SELECT 1 FROM "settings" WHERE "key" = 'website_url' AND NOT "secret" AND btrim("value") <> '') AS website_saved,
  (SELECT max("created_at") FROM "brand_analyses") AS last_analysis_at`;

/** A logged event, newest first. */
export interface LogEntry {
  eventId: string;
  subject: string;
  occurredAt: Date;
  data: LogData;
}

export class ActivityRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * The projection's generation: made once per database (the first start), the same for every
   * replica on it.
   */
  async generation(): Promise<string> {
    await this.pool.query(`INSERT INTO "activity_projection" ("id") VALUES (1) ON CONFLICT DO NOTHING`);
    const { rows } = await this.pool.query<{ generation: string }>(
      `SELECT "generation" FROM "activity_projection" WHERE "id" = 1`,
    );
    const generation = rows[0]?.generation;
    if (!generation) throw new Error('activity projection has no generation');
    return generation;
  }

  /**
   * Runs `apply` and records the event in the inbox, in one transaction; a redelivered event
   * finds its id and does nothing. Resolves false for a redelivery.
   */
  async applyOnce(
    consumer: string,
    eventId: string,
    apply: (writer: ActivityWriter) => Promise<void>,
  ): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const first = await claimEvent(pgExecutor(client), consumer, eventId);
      if (first) await apply(new ActivityWriter(client));
      return first;
    });
  }

  /** The facts as of `recentSince` (the window of "recent") and `followUpBefore` (slots passed). */
  async facts(windows: { recentSince: Date; followUpBefore: Date }): Promise<ActivityFacts> {
    const { rows } = await this.pool.query<FactsRow>({
      name: 'activity_facts',
      text: FACTS_SQL,
      values: [windows.recentSince, windows.followUpBefore],
    });
    const r = rows[0] as FactsRow;
    return {
      bookings: { total: r.bookings_total, recent: r.bookings_recent, awaitingFollowUp: r.bookings_awaiting },
      calls: { demo: r.calls_demo, admin: r.calls_admin, lastCallAt: r.last_call_at },
      posts: {
        published: r.posts_published,
        publishedRecently: r.posts_recent,
        lastPublishedAt: r.last_published_at,
        withoutNewsletter: r.posts_without_newsletter,
      },
      audience: { addressBooks: r.books, contacts: r.contacts, lastImportAt: r.last_import_at },
      campaigns: {
        sentLive: r.campaigns_live,
        testOnly: r.campaigns_test_only,
        lastSentAt: r.last_campaign_at,
        sentRecently: r.campaigns_recent,
      },
      newsletters: {
        sent: r.newsletters_sent,
        testOnly: r.newsletters_test_only,
        lastSentAt: r.last_newsletter_at,
      },
      brand: { websiteSaved: r.website_saved, lastAnalysisAt: r.last_analysis_at },
    };
  }

  /** The newest `limit` logged events, and the names of the address books they mention. */
  async recent(limit: number): Promise<{ entries: LogEntry[]; bookNames: Map<number, string> }> {
    const { rows } = await this.pool.query<{
      event_id: string;
      subject: string;
      occurred_at: Date;
      data: LogData;
    }>({
      name: 'activity_recent',
      text: `SELECT "event_id", "subject", "occurred_at", "data" FROM "activity_log"
              ORDER BY "occurred_at" DESC, "event_id" DESC LIMIT $1`,
      values: [limit],
    });
    const bookIds = [
      ...new Set(rows.flatMap((r) => (r.data.subject === 'email.import.completed' ? [r.data.bookId] : []))),
    ];
    const bookNames = new Map<number, string>();
    if (bookIds.length) {
      const names = await this.pool.query<{ book_id: number; name: string }>(
        `SELECT "book_id", "name" FROM "activity_address_books" WHERE "book_id" = ANY($1::int[]) AND "name" IS NOT NULL`,
        [bookIds],
      );
      for (const n of names.rows) bookNames.set(n.book_id, n.name);
    }
    return {
      entries: rows.map((r) => ({
        eventId: r.event_id,
        subject: r.subject,
        occurredAt: r.occurred_at,
        data: r.data,
      })),
      bookNames,
    };
  }

  /**
   * Everything the projection holds, in a fixed order: what a rebuild from the streams must
   * reproduce exactly (the tests compare two databases with it).
   */
  async snapshot(): Promise<Record<string, unknown[]>> {
    const tables: Array<[string, string]> = [
      ['activity_bookings', '"booking_id"'],
      ['activity_calls', '"call_id"'],
      ['activity_posts', '"post_id"'],
      ['activity_address_books', '"book_id"'],
      ['activity_mailings', '"kind", "mailing_id"'],
      ['activity_log', '"occurred_at" DESC, "event_id" DESC'],
    ];
    const out: Record<string, unknown[]> = {};
    for (const [table, order] of tables) {
      const { rows } = await this.pool.query(`SELECT * FROM "${table}" ORDER BY ${order}`);
      out[table] = rows;
    }
    return out;
  }
}
