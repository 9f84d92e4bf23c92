-- Test-mode sends kept apart from live ones (issue 35, item 2).
--
-- A tracking row says whether its mail went to the saved test addresses; the reports count
-- live mail only unless asked. The flag is the second column of the campaign index, which every
-- report already reads by, so "live only" narrows the index scan itself. It is written once, at
-- insert: the updates of a mail's life (settle, opens, clicks) still change no indexed column and
-- stay HOT (see 20261128000000_tracking_fillfactor).
ALTER TABLE "email_tracking" ADD COLUMN "test_mode" BOOLEAN NOT NULL DEFAULT false;

UPDATE "email_tracking" t SET "test_mode" = true
FROM "email_campaign_recipients" r JOIN "email_campaign_sends" s ON s."id" = r."send_id"
WHERE s."test_mode" AND r."tracking_id" = t."tracking_id";

CREATE INDEX "email_tracking_campaign_id_test_mode_idx" ON "email_tracking"("campaign_id", "test_mode");
DROP INDEX "email_tracking_campaign_id_idx";

-- A test-mode send used to consume its campaign (marked sent, Launch and Edit gone) and to add
-- to its counts. Such campaigns become what they were before it: their counts lose the test
-- sends, the current send is the newest live one, and one with no live send is a draft again.
UPDATE "email_campaigns" c SET
  "sent_count" = greatest(0, c."sent_count" - x.sent),
  "total_recipients" = greatest(0, c."total_recipients" - x.total)
FROM (SELECT "campaign_id", sum("sent_count")::int AS sent, sum("total")::int AS total
      FROM "email_campaign_sends" WHERE "test_mode" AND "status" IN ('done', 'cancelled') GROUP BY 1) x
WHERE c."id" = x."campaign_id";

UPDATE "email_campaigns" c SET
  "current_send_id" = (SELECT max(s."id") FROM "email_campaign_sends" s WHERE s."campaign_id" = c."id" AND NOT s."test_mode"),
  "sent_at" = (SELECT s."finished_at" FROM "email_campaign_sends" s WHERE s."campaign_id" = c."id" AND NOT s."test_mode"
               ORDER BY s."id" DESC LIMIT 1)
WHERE c."current_send_id" IN (SELECT "id" FROM "email_campaign_sends" WHERE "test_mode" AND "status" IN ('done', 'cancelled'));

UPDATE "email_campaigns" c SET "status" = 'draft', "sent_at" = NULL, "scheduled_at" = NULL
WHERE c."status" IN ('sent', 'cancelled') AND c."current_send_id" IS NULL
  AND EXISTS (SELECT 1 FROM "email_campaign_sends" s WHERE s."campaign_id" = c."id" AND s."test_mode");
