-- Sent mail lists every message, campaign and newsletter mail too, whatever the transport,
-- for SENT_MAIL_RETENTION_DAYS (docs/decisions.md, "Sent mail: every message, kept for a
-- stated time"). A campaign mail's row holds its metadata only (raw NULL): the message is
-- re-rendered on view from the content its send used, kept once per send here.
ALTER TABLE "email_campaign_sends"
  ADD COLUMN "subject" TEXT,
  ADD COLUMN "from_name" TEXT,
  ADD COLUMN "from_email" TEXT,
  ADD COLUMN "html_content" TEXT,
  ADD COLUMN "text_content" TEXT;
UPDATE "email_campaign_sends" s SET "subject" = c."subject", "from_name" = c."from_name",
  "from_email" = c."from_email", "html_content" = c."html_content", "text_content" = c."text_content"
FROM "email_campaigns" c WHERE c."id" = s."campaign_id";

ALTER TABLE "mail_messages"
  ALTER COLUMN "raw" DROP NOT NULL,
  ADD COLUMN "send_id" INTEGER,
  ADD COLUMN "tracking_id" TEXT;

-- (The full copies the local transport kept of earlier campaign mail stay, and age out.)

-- Sent mail's filters: recipient (address or its beginning), campaign, kind; newest first.
CREATE INDEX "mail_messages_to_idx" ON "mail_messages" (lower("to_address") text_pattern_ops, "created_at" DESC);
CREATE INDEX "mail_messages_campaign_idx" ON "mail_messages" ("campaign_id", "created_at" DESC)
  WHERE "campaign_id" IS NOT NULL;
CREATE INDEX "mail_messages_kind_idx" ON "mail_messages" ("kind", "created_at" DESC);

-- Campaign rows carry none of these: partial indexes hold no entry for them (a campaign of
-- 100,000 mails would otherwise add 300,000 NULL entries).
DROP INDEX "mail_messages_event_id_idx";
CREATE INDEX "mail_messages_event_id_idx" ON "mail_messages" ("event_id") WHERE "event_id" IS NOT NULL;
DROP INDEX "mail_messages_provider_message_id_idx";
CREATE INDEX "mail_messages_provider_message_id_idx" ON "mail_messages" ("provider_message_id")
  WHERE "provider_message_id" IS NOT NULL;
DROP INDEX "mail_messages_dedupe_key_key";
CREATE UNIQUE INDEX "mail_messages_dedupe_key_key" ON "mail_messages" ("dedupe_key") WHERE "dedupe_key" IS NOT NULL;

-- A campaign's delivery log pages a send's recipients in address order on its unique
-- (send_id, email_key) index and finds an address by its beginning there: in the "C" collation
-- (as email_contacts.email_key, migration audience_collation: addresses are lower-cased ASCII,
-- so the order is the same; LIKE 'abc%' can use the index only under "C").
ALTER TABLE "email_campaign_recipients" ALTER COLUMN "email_key" TYPE text COLLATE "C";

-- A campaign's delivery log filters its rare outcomes through the tracking rows of the
-- campaign that have them (their updates are rare, so the other updates stay in place: HOT).
CREATE INDEX "email_tracking_bounced_idx" ON "email_tracking" ("campaign_id") WHERE "bounced_at" IS NOT NULL;
CREATE INDEX "email_tracking_complained_idx" ON "email_tracking" ("campaign_id") WHERE "complained_at" IS NOT NULL;
CREATE INDEX "email_tracking_unsubscribed_idx" ON "email_tracking" ("campaign_id") WHERE "unsubscribed_at" IS NOT NULL;
