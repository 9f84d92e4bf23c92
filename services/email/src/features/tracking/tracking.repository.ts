import type { ServiceDeps } from '@parley/kit';
import { sql } from 'kysely';
import type pg from 'pg';
import { db, execute, firstRow } from '../../shared/sql.ts';

type Logger = ServiceDeps['logger'];

/** One open or click, as the tracking routes saw it. */
export interface TrackingHit {
  trackingId: string;
  type: 'open' | 'click';
  at: Date;
  userAgent: string | null;
  ip: string | null;
  clickUrl: string | null;
  proxy: string | null;
  deviceType: string;
  browserType: string;
}

/**
 * Write-behind buffer of tracking hits. A hit is answered at once and written with others:
 * one statement per batch inserts the events and updates the counters of every message hit
 * in it (first/last open and click, counts, user agent, device, browser). A batch is written
 * when it reaches `batchSize` or `flushMs` after its first hit; a failed write keeps the hits
 * for the next try; `close()` writes everything left (registered with deps.onShutdown).
 */
export class TrackingBuffer {
  private hits: TrackingHit[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private closed = false;
  /** Hits written since start (metrics and the benchmark's books). */
  written = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
    private readonly opts: { batchSize: number; flushMs: number },
  ) {}

  get pending(): number {
    return this.hits.length;
  }

  push(hit: TrackingHit): void {
    this.hits.push(hit);
    if (this.hits.length >= this.opts.batchSize) this.kick();
    else if (!this.timer && !this.closed) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.kick();
      }, this.opts.flushMs);
    }
  }

  private kick(): void {
    if (this.flushing) return;
    this.flushing = this.drain().finally(() => {
      this.flushing = null;
      // Hits that arrived during the write (or stayed after a failure) get their own turn.
      if (this.hits.length && !this.timer && !this.closed) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.kick();
        }, this.opts.flushMs);
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.hits.length) {
      const batch = this.hits.splice(0, this.opts.batchSize);
      try {
        this.written += await writeHits(this.pool, batch);
      } catch (err) {
        // Keep them, in order, for the next try.
        this.hits.unshift(...batch);
        this.logger.warn({ err, pending: this.hits.length }, 'tracking batch not written; will retry');
        return;
      }
      if (this.hits.length < this.opts.batchSize && !this.closed) return;
    }
  }

  /** Writes every buffered hit now (waits for a write under way). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    for (let attempt = 0; attempt < 5 && (this.flushing || this.hits.length); attempt++) {
      await this.flushing;
      if (!this.hits.length) break;
      this.flushing = this.drain().finally(() => {
        this.flushing = null;
      });
      await this.flushing;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    if (this.hits.length)
      this.logger.error({ lost: this.hits.length }, 'tracking hits could not be written at shutdown');
  }
}

/**
 * Inserts the events and updates the counters of a batch in one statement; returns events stored.
 * SQL text, not `db`: the hot path's hand-tuned batch write (unnest of column arrays, one plan).
 */
export async function writeHits(pool: pg.Pool, batch: TrackingHit[]): Promise<number> {
  if (!batch.length) return 0;
  const col = <K extends keyof TrackingHit>(k: K) => batch.map((h) => h[k]);
  const { rows } = await pool.query<{ inserted: string }>({
    name: 'email_tracking_write_hits',
    text: `WITH hits AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
        WITH ORDINALITY AS h(tracking_id, event_type, ts, user_agent, ip, click_url, proxy, device, browser, ord)
    ), known AS (
      SELECT h.* FROM hits h JOIN "email_tracking" t ON t."tracking_id" = h.tracking_id
    ), ins AS (
      INSERT INTO "email_events" ("tracking_id", "event_type", "user_agent", "ip_address", "click_url", "proxy", "timestamp")
      SELECT tracking_id, event_type, user_agent, ip, click_url, proxy, ts FROM known ORDER BY ord
      RETURNING 1
    ), agg AS (
      SELECT tracking_id,
        count(*) FILTER (WHERE event_type = 'open' AND proxy IS NULL) AS opens,
        count(*) FILTER (WHERE event_type = 'open' AND proxy IS NOT NULL) AS proxy_opens,
        count(*) FILTER (WHERE event_type = 'click') AS clicks,
        min(ts) FILTER (WHERE event_type = 'open' AND proxy IS NULL) AS first_open,
        max(ts) FILTER (WHERE event_type = 'open' AND proxy IS NULL) AS last_open,
        min(ts) FILTER (WHERE event_type = 'open' AND proxy IS NOT NULL) AS first_proxy_open,
        min(ts) FILTER (WHERE event_type = 'click') AS first_click,
        max(ts) FILTER (WHERE event_type = 'click') AS last_click,
        (array_agg(user_agent ORDER BY ts DESC) FILTER (WHERE proxy IS NULL))[1] AS user_agent,
        (array_agg(ip ORDER BY ts DESC) FILTER (WHERE proxy IS NULL))[1] AS ip,
        (array_agg(device ORDER BY ts DESC) FILTER (WHERE proxy IS NULL))[1] AS device,
        (array_agg(browser ORDER BY ts DESC) FILTER (WHERE proxy IS NULL))[1] AS browser,
        (array_agg(click_url ORDER BY ts DESC) FILTER (WHERE event_type = 'click'))[1] AS last_url
      FROM known GROUP BY tracking_id
    ), upd AS (
      UPDATE "email_tracking" t SET
        "open_count" = t."open_count" + a.opens,
        "proxy_open_count" = t."proxy_open_count" + a.proxy_opens,
        "click_count" = t."click_count" + a.clicks,
        "opened_at" = LEAST(t."opened_at", a.first_open),
        "last_opened_at" = GREATEST(t."last_opened_at", a.last_open),
        "proxy_opened_at" = LEAST(t."proxy_opened_at", a.first_proxy_open),
        "clicked_at" = LEAST(t."clicked_at", a.first_click),
        "last_clicked_at" = GREATEST(t."last_clicked_at", a.last_click),
        "user_agent" = COALESCE(a.user_agent, t."user_agent"),
        "ip_address" = COALESCE(a.ip, t."ip_address"),
        "device_type" = COALESCE(a.device, t."device_type"),
        "browser_type" = COALESCE(a.browser, t."browser_type"),
        "last_click_url" = COALESCE(a.last_url, t."last_click_url"),
        "status" = CASE
          WHEN t."status" IN ('bounced', 'complained', 'unsubscribed', 'failed') THEN t."status"
          WHEN a.clicks > 0 OR t."click_count" > 0 THEN 'clicked'
          WHEN a.opens > 0 OR t."open_count" > 0 THEN 'opened'
          ELSE t."status" END,
        "updated_at" = now()
      FROM agg a WHERE t."tracking_id" = a.tracking_id
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM ins) AS inserted, (SELECT count(*) FROM upd) AS updated`,
    values: [
      col('trackingId'),
      col('type'),
      batch.map((h) => h.at.toISOString()),
      col('userAgent'),
      col('ip'),
      col('clickUrl'),
      col('proxy'),
      col('deviceType'),
      col('browserType'),
    ],
  });
  return Number(rows[0]?.inserted ?? 0);
}

export type Outcome = 'bounce' | 'soft_bounce' | 'complaint' | 'delivery' | 'unsubscribe';

/** Soft bounces in a row after which an address counts as bounced. */
export const SOFT_BOUNCE_LIMIT = 3;

/**
 * What happened to a message after it left (bounces, complaints, deliveries) or what its
 * recipient did (unsubscribe): recorded on the message's tracking row, as an event, and on the
 * address. Returns what the address is now: `bounced` when it must be suppressed as bounced,
 * `unsubscribed` when as unsubscribed, else null.
 */
export async function recordOutcome(
  client: pg.PoolClient,
  input: {
    trackingId: string | null;
    address: string;
    outcome: Outcome;
    reason: string;
    source: string;
    data?: Record<string, unknown>;
    userAgent?: string | null;
    ip?: string | null;
  },
): Promise<'bounced' | 'unsubscribed' | null> {
  const address = input.address.toLowerCase();
  const now = sql<Date>`now()`;
  let suppressAs: 'bounced' | 'unsubscribed' | null = null;
  if (input.outcome === 'soft_bounce') {
    const state = await firstRow(
      client,
      db
        .insertInto('mail_address_states')
        .values({ address, soft_bounces: 1, last_reason: input.reason })
        .onConflict((oc) =>
          oc.column('address').doUpdateSet((eb) => ({
            soft_bounces: eb('mail_address_states.soft_bounces', '+', 1),
            last_reason: input.reason,
            updated_at: now,
          })),
        )
        .returning('soft_bounces'),
    );
    if ((state?.soft_bounces ?? 0) >= SOFT_BOUNCE_LIMIT) suppressAs = 'bounced';
  } else if (input.outcome === 'bounce') {
    suppressAs = 'bounced';
  } else if (input.outcome === 'complaint' || input.outcome === 'unsubscribe') {
    suppressAs = 'unsubscribed';
    const complaint = input.outcome === 'complaint';
    await execute(
      client,
      db
        .insertInto('mail_address_states')
        .values({
          address,
          unsubscribed_at: now,
          complained_at: complaint ? now : null,
          last_reason: input.reason,
        })
        .onConflict((oc) =>
          oc.column('address').doUpdateSet((eb) => ({
            unsubscribed_at: eb.fn.coalesce('mail_address_states.unsubscribed_at', now),
            ...(complaint ? { complained_at: eb.fn.coalesce('mail_address_states.complained_at', now) } : {}),
            last_reason: input.reason,
            updated_at: now,
          })),
        ),
    );
  } else if (input.outcome === 'delivery') {
    // A delivery ends a run of soft bounces.
    await execute(
      client,
      db
        .updateTable('mail_address_states')
        .set({ soft_bounces: 0, updated_at: now })
        .where('address', '=', address)
        .where('soft_bounces', '>', 0),
    );
  }
  if (suppressAs === 'bounced') {
    await execute(
      client,
      db
        .insertInto('mail_address_states')
        .values({ address, hard_bounced_at: now, last_reason: input.reason })
        .onConflict((oc) =>
          oc.column('address').doUpdateSet((eb) => ({
            hard_bounced_at: eb.fn.coalesce('mail_address_states.hard_bounced_at', now),
            last_reason: input.reason,
            updated_at: now,
          })),
        ),
    );
  }
  if (input.trackingId) {
    // bounced_at is set with the status, for hard bounces and the third soft bounce alike.
    const status = {
      bounce: 'bounced',
      soft_bounce: suppressAs === 'bounced' ? 'bounced' : null,
      complaint: 'complained',
      delivery: null,
      unsubscribe: 'unsubscribed',
    }[input.outcome];
    const delivery = input.outcome === 'delivery';
    await execute(
      client,
      db
        .updateTable('email_tracking')
        .set((eb) => ({
          ...(input.outcome === 'complaint' ? { complained_at: eb.fn.coalesce('complained_at', now) } : {}),
          ...(delivery ? { delivered_at: eb.fn.coalesce('delivered_at', now) } : {}),
          ...(input.outcome === 'unsubscribe'
            ? { unsubscribed_at: eb.fn.coalesce('unsubscribed_at', now) }
            : {}),
          ...(status !== null ? { status } : {}),
          // A delivery report moves a mail on from pending or sent only.
          ...(delivery
            ? {
                status: eb
                  .case()
                  .when('status', 'in', ['pending', 'sent'])
                  .then('delivered')
                  .else(eb.ref('status'))
                  .end(),
              }
            : {}),
          ...(status === 'bounced' ? { bounced_at: eb.fn.coalesce('bounced_at', now) } : {}),
          ...(input.outcome === 'bounce' || input.outcome === 'soft_bounce'
            ? { bounce_reason: input.reason }
            : {}),
          updated_at: now,
        }))
        .where('tracking_id', '=', input.trackingId),
    );
    await execute(
      client,
      db.insertInto('email_events').values({
        tracking_id: input.trackingId,
        event_type: input.outcome,
        event_data: JSON.stringify({ reason: input.reason, source: input.source, ...(input.data ?? {}) }),
        user_agent: input.userAgent ?? null,
        ip_address: input.ip ?? null,
      }),
    );
  }
  return suppressAs;
}

/** The recipient and state of a message by its tracking id. */
export async function trackingRow(
  pool: pg.Pool,
  trackingId: string,
): Promise<{ email: string; unsubscribedAt: Date | null; campaignId: string | null } | null> {
  const r = await firstRow(
    pool,
    db
      .selectFrom('email_tracking')
      .select(['email', 'unsubscribed_at', 'campaign_id'])
      .where('tracking_id', '=', trackingId),
  );
  return r ? { email: r.email, unsubscribedAt: r.unsubscribed_at, campaignId: r.campaign_id } : null;
}
