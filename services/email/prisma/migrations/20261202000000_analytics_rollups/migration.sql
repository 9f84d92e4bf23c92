-- Analytics from rollups (ADR 0067). Every campaign mail's tracking row adds to two rollups, by
-- quarter-hour (every time zone's midnight falls on one: all UTC offsets are whole quarters):
--  * email_rollup_mail, by the time the mail left (sent, or proved sent by a bounce, or failed):
--    the report counters (each mail once: sent, bounced, opened, proxy only, clicked, engaged,
--    unsubscribed, complained) per campaign, test mode and address book;
--  * email_rollup_activity, by the time a mail first did something (first human open, first
--    proxy fetch, first click, bounce, unsubscribe): the trend.
-- Statement triggers on email_tracking write each statement's change as delta rows (never an
-- UPDATE of a shared row, so writers never wait on one another), in the statement's transaction;
-- compaction folds them into one row per key. Readers sum both. `email_rollups_rebuild()`
-- writes both again from the raw rows.

-- A mail's address book when it was sent (segments by book), and its first proxy fetch.
ALTER TABLE "email_tracking"
  ADD COLUMN "address_book_id" INTEGER,
  ADD COLUMN "proxy_opened_at" TIMESTAMPTZ(3);
UPDATE "email_tracking" t SET "address_book_id" = c."address_book_id"
FROM "email_contacts" c
WHERE t."contact_id" ~ '^[0-9]{1,18}$' AND c."id" = t."contact_id"::bigint;
UPDATE "email_tracking" t SET "proxy_opened_at" = e.first_at
FROM (SELECT "tracking_id", min("timestamp") AS first_at FROM "email_events"
      WHERE "event_type" = 'open' AND "proxy" IS NOT NULL GROUP BY 1) e
WHERE t."tracking_id" = e."tracking_id" AND t."proxy_open_count" > 0;

CREATE TABLE "email_rollup_mail" (
    "id" BIGSERIAL NOT NULL,
    "campaign_id" INTEGER NOT NULL,
    "test_mode" BOOLEAN NOT NULL,
    "address_book_id" INTEGER NOT NULL,
    "quarter" TIMESTAMPTZ(3) NOT NULL,
    "folded" BOOLEAN NOT NULL DEFAULT false,
    "first_sent_at" TIMESTAMPTZ(3),
    "sent" INTEGER NOT NULL,
    "bounced" INTEGER NOT NULL,
    "opened" INTEGER NOT NULL,
    "proxy_only" INTEGER NOT NULL,
    "clicked" INTEGER NOT NULL,
    "engaged" INTEGER NOT NULL,
    "engaged_delivered" INTEGER NOT NULL,
    "unsubscribed" INTEGER NOT NULL,
    "complained" INTEGER NOT NULL,
    "unsent_bounced" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,
    CONSTRAINT "email_rollup_mail_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "email_rollup_mail_folded_key" ON "email_rollup_mail"
  ("campaign_id", "test_mode", "address_book_id", "quarter") WHERE "folded";

CREATE TABLE "email_rollup_activity" (
    "id" BIGSERIAL NOT NULL,
    "campaign_id" INTEGER NOT NULL,
    "test_mode" BOOLEAN NOT NULL,
    "quarter" TIMESTAMPTZ(3) NOT NULL,
    "folded" BOOLEAN NOT NULL DEFAULT false,
    "opens" INTEGER NOT NULL,
    "proxy_opens" INTEGER NOT NULL,
    "clicks" INTEGER NOT NULL,
    "bounces" INTEGER NOT NULL,
    "unsubscribes" INTEGER NOT NULL,
    CONSTRAINT "email_rollup_activity_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "email_rollup_activity_folded_key" ON "email_rollup_activity"
  ("campaign_id", "test_mode", "quarter") WHERE "folded";

-- The quarter-hour holding a moment.
CREATE FUNCTION "email_quarter"(at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN date_bin('15 minutes', at, timestamptz '2000-01-01 00:00:00+00');

-- The two statements that add the tracking rows of `source` (a query of email_tracking's
-- columns and s: 1 for a row added, -1 for a row taken away) to the rollups, as deltas or
-- (rebuild) as folded rows. Only a campaign's mail counts. In email_rollup_mail a mail counts
-- by the time it left (or, if it failed, when it did); in email_rollup_activity each first in
-- the quarter it happened. Keys whose counters all sum to zero (a statement that changed nothing
-- a report counts) write nothing.
CREATE FUNCTION "email_rollups_sql"(source text, folded boolean) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY[
    format($q$INSERT INTO "email_rollup_mail" ("campaign_id", "test_mode", "address_book_id", "quarter", "folded",
        "first_sent_at", "sent", "bounced", "opened", "proxy_only", "clicked", "engaged", "engaged_delivered",
        "unsubscribed", "complained", "unsent_bounced", "failed")
      SELECT * FROM (
        SELECT d."campaign_id"::integer, d."test_mode", coalesce(d."address_book_id", 0), "email_quarter"(k.at),
          %L::boolean, min(d."sent_at") FILTER (WHERE d.s > 0),
          sum(d.s * (d."sent_at" IS NOT NULL)::int)::int AS a,
          sum(d.s * (d."sent_at" IS NOT NULL AND d."bounced_at" IS NOT NULL)::int)::int AS b,
          sum(d.s * (d."sent_at" IS NOT NULL AND d."opened_at" IS NOT NULL)::int)::int AS c,
          sum(d.s * (d."sent_at" IS NOT NULL AND d."opened_at" IS NULL AND d."proxy_open_count" > 0)::int)::int AS e,
          sum(d.s * (d."sent_at" IS NOT NULL AND d."clicked_at" IS NOT NULL)::int)::int AS f,
          sum(d.s * (d."sent_at" IS NOT NULL AND (d."opened_at" IS NOT NULL OR d."clicked_at" IS NOT NULL))::int)::int AS g,
          sum(d.s * (d."sent_at" IS NOT NULL AND d."bounced_at" IS NULL
                     AND (d."opened_at" IS NOT NULL OR d."clicked_at" IS NOT NULL))::int)::int AS h,
          sum(d.s * (d."sent_at" IS NOT NULL AND d."unsubscribed_at" IS NOT NULL)::int)::int AS i,
          sum(d.s * (d."sent_at" IS NOT NULL AND d."complained_at" IS NOT NULL)::int)::int AS j,
          sum(d.s * (d."sent_at" IS NULL AND d."bounced_at" IS NOT NULL)::int)::int AS k,
          sum(d.s * (d."sent_at" IS NULL AND d."bounced_at" IS NULL AND d."status" = 'failed')::int)::int AS l
        FROM (%s) d
        CROSS JOIN LATERAL (SELECT coalesce(d."sent_at", d."bounced_at",
                                            CASE WHEN d."status" = 'failed' THEN d."updated_at" END) AS at) k
        WHERE k.at IS NOT NULL AND d."campaign_id" ~ '^[0-9]{1,9}$'
        GROUP BY 1, 2, 3, 4) x
      WHERE (a, b, c, e, f, g, h, i, j, k, l) <> (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)$q$, folded, source),
    format($q$INSERT INTO "email_rollup_activity" ("campaign_id", "test_mode", "quarter", "folded",
        "opens", "proxy_opens", "clicks", "bounces", "unsubscribes")
      SELECT * FROM (
        SELECT d."campaign_id"::integer, d."test_mode", "email_quarter"(f.at), %L::boolean,
          sum(d.s * (f.kind = 'o')::int)::int AS a, sum(d.s * (f.kind = 'p')::int)::int AS b,
          sum(d.s * (f.kind = 'c')::int)::int AS c, sum(d.s * (f.kind = 'b')::int)::int AS e,
          sum(d.s * (f.kind = 'u')::int)::int AS g
        FROM (%s) d
        CROSS JOIN LATERAL (VALUES ('o', d."opened_at"), ('p', d."proxy_opened_at"), ('c', d."clicked_at"),
                                   ('b', d."bounced_at"), ('u', d."unsubscribed_at")) f(kind, at)
        WHERE f.at IS NOT NULL AND d."campaign_id" ~ '^[0-9]{1,9}$'
        GROUP BY 1, 2, 3) x
      WHERE (a, b, c, e, g) <> (0, 0, 0, 0, 0)$q$, folded, source)
  ]
$$;

-- Each statement on email_tracking: what its new rows add less what its old rows took.
CREATE FUNCTION "email_tracking_rollups"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  source text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS s, n.* FROM new_rows n'
    WHEN 'DELETE' THEN 'SELECT -1 AS s, o.* FROM old_rows o'
    ELSE 'SELECT 1 AS s, n.* FROM new_rows n UNION ALL SELECT -1, o.* FROM old_rows o' END;
  q text;
BEGIN
  FOREACH q IN ARRAY "email_rollups_sql"(source, false) LOOP
    EXECUTE q;
  END LOOP;
  RETURN NULL;
END $$;
CREATE TRIGGER "email_tracking_rollups_insert" AFTER INSERT ON "email_tracking"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "email_tracking_rollups"();
CREATE TRIGGER "email_tracking_rollups_update" AFTER UPDATE ON "email_tracking"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "email_tracking_rollups"();
CREATE TRIGGER "email_tracking_rollups_delete" AFTER DELETE ON "email_tracking"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "email_tracking_rollups"();

-- Both rollups again from the raw rows, while the tracking rows are held still (writers wait).
CREATE FUNCTION "email_rollups_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
DECLARE q text;
BEGIN
  LOCK TABLE "email_tracking" IN SHARE MODE;
  LOCK TABLE "email_rollup_mail", "email_rollup_activity" IN EXCLUSIVE MODE;
  DELETE FROM "email_rollup_mail";
  DELETE FROM "email_rollup_activity";
  FOREACH q IN ARRAY "email_rollups_sql"('SELECT 1 AS s, t.* FROM "email_tracking" t', true) LOOP
    EXECUTE q;
  END LOOP;
END $$;

SELECT "email_rollups_rebuild"();
