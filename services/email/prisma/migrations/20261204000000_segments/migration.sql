-- Segments (docs/adr/0070-segments.md): saved rules over the contacts, a campaign's targets
-- among them, a send's segments as they were at launch, and each address's engagement.

CREATE TABLE "email_segments" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "rule" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "email_segments_pkey" PRIMARY KEY ("id")
);
-- Names are unique regardless of case (a picker lists them by name).
CREATE UNIQUE INDEX "email_segments_name_key" ON "email_segments" (lower("name"));

-- A campaign's target segments: JSON-encoded text of a list of ids, as its other targets.
ALTER TABLE "email_campaigns" ADD COLUMN "target_segments" TEXT NOT NULL DEFAULT '[]';
-- A send's segments, each {id, name, rule} as it was at launch: a scheduled send resolves the
-- rule at dispatch against the contacts then, whatever happens to the segment meanwhile.
ALTER TABLE "email_campaign_sends" ADD COLUMN "segments" JSONB NOT NULL DEFAULT '[]';

-- Engagement per address (lower-cased, as email_tracking.email): the newest campaign whose live
-- mail the address opened (a human open, not a privacy proxy's fetch) or clicked, as that
-- campaign's rank (the id of its first started live send: campaigns in the order they went out).
-- "Engaged in the last N campaigns" is engaged_rank >= the Nth newest rank; "never opened" is
-- no row. Written by a statement trigger on email_tracking in the tracking write's transaction.
CREATE TABLE "email_address_engagement" (
    "address" TEXT NOT NULL,
    "engaged_rank" INTEGER NOT NULL,
    "first_engaged_at" TIMESTAMPTZ(3) NOT NULL,
    "last_engaged_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "email_address_engagement_pkey" PRIMARY KEY ("address")
);

-- A campaign's rank: the id of its first started live send (null before one started).
CREATE FUNCTION "email_campaign_rank"(campaign integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT min(s."id") FROM "email_campaign_sends" s
  WHERE s."campaign_id" = campaign AND s."live" AND s."started_at" IS NOT NULL
$$;

CREATE FUNCTION "email_tracking_engagement"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One row per address, in address order (two writers lock the same rows in the same order).
  INSERT INTO "email_address_engagement" AS e ("address", "engaged_rank", "first_engaged_at", "last_engaged_at")
  SELECT n."email", max(r.rank), min(least(n."opened_at", n."clicked_at")), max(greatest(n."opened_at", n."clicked_at"))
  FROM new_rows n
  JOIN old_rows o ON o."id" = n."id"
  CROSS JOIN LATERAL (SELECT "email_campaign_rank"(n."campaign_id"::integer) AS rank) r
  WHERE NOT n."test_mode" AND n."campaign_id" ~ '^[0-9]{1,9}$' AND r.rank IS NOT NULL
    AND ((n."opened_at" IS NOT NULL AND o."opened_at" IS NULL)
      OR (n."clicked_at" IS NOT NULL AND o."clicked_at" IS NULL))
  GROUP BY n."email"
  ORDER BY n."email"
  ON CONFLICT ("address") DO UPDATE SET
    "engaged_rank" = greatest(e."engaged_rank", excluded."engaged_rank"),
    "first_engaged_at" = least(e."first_engaged_at", excluded."first_engaged_at"),
    "last_engaged_at" = greatest(e."last_engaged_at", excluded."last_engaged_at");
  RETURN NULL;
END $$;

CREATE TRIGGER "email_tracking_engagement_update" AFTER UPDATE ON "email_tracking"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION "email_tracking_engagement"();

-- The engagement of the mail sent before this migration.
INSERT INTO "email_address_engagement" ("address", "engaged_rank", "first_engaged_at", "last_engaged_at")
SELECT t."email", max(r.rank), min(least(t."opened_at", t."clicked_at")), max(greatest(t."last_opened_at", t."last_clicked_at"))
FROM "email_tracking" t
JOIN (SELECT "campaign_id", min("id") AS rank FROM "email_campaign_sends"
      WHERE "live" AND "started_at" IS NOT NULL GROUP BY 1) r ON r."campaign_id"::text = t."campaign_id"
WHERE NOT t."test_mode" AND (t."opened_at" IS NOT NULL OR t."clicked_at" IS NOT NULL)
GROUP BY t."email";
