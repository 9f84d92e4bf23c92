-- Sent mail lists every message, campaign and newsletter mail too, whatever the transport,
-- for SENT_MAIL_RETENTION_DAYS (docs/decisions.md, "Sent mail: every message, kept for a
-- stated time"). Campaign mail is listed from its recipient rows (one a mail, kept with the
-- campaign): a send writes no row more for it. The message is rendered again on view from the
-- content its send used, kept once per send here.
ALTER TABLE "email_campaign_sends"
  ADD COLUMN "subject" TEXT,
  ADD COLUMN "from_name" TEXT,
  ADD COLUMN "from_email" TEXT,
  ADD COLUMN "html_content" TEXT,
  ADD COLUMN "text_content" TEXT;
UPDATE "email_campaign_sends" s SET "subject" = c."subject", "from_name" = c."from_name",
  "from_email" = c."from_email", "html_content" = c."html_content", "text_content" = c."text_content"
FROM "email_campaigns" c WHERE c."id" = s."campaign_id";

-- A recipient row says when its mail was composed (its Date header: set by the claim), through
-- which transport and, for SES, under which id (its notifications name it). Rows of sends before
-- this have none, and are not in Sent mail (the local mailbox's copies of them stay, and age out).
ALTER TABLE "email_campaign_recipients"
  ADD COLUMN "sending_at" TIMESTAMPTZ(3),
  ADD COLUMN "transport" TEXT,
  ADD COLUMN "provider_message_id" TEXT;

-- Sent mail pages a send's mails newest first by outcome: the (send_id, status) index every
-- claim and settle already writes an entry in gains the time and the id, so no entry more a mail.
DROP INDEX "email_campaign_recipients_send_id_status_idx";
CREATE INDEX "email_campaign_recipients_send_id_status_sending_at_id_idx"
  ON "email_campaign_recipients" ("send_id", "status", "sending_at", "id");
-- Only SES mail has a provider id worth finding (its notifications): other rows add no entry.
CREATE INDEX "email_campaign_recipients_provider_message_id_idx" ON "email_campaign_recipients" ("provider_message_id")
  WHERE "provider_message_id" IS NOT NULL;

-- Sent mail's filters over the other messages: recipient (address or its beginning), campaign
-- (the local mailbox's earlier copies), kind; newest first.
CREATE INDEX "mail_messages_to_idx" ON "mail_messages" (lower("to_address") text_pattern_ops, "created_at" DESC);
CREATE INDEX "mail_messages_campaign_idx" ON "mail_messages" ("campaign_id", "created_at" DESC)
  WHERE "campaign_id" IS NOT NULL;
CREATE INDEX "mail_messages_kind_idx" ON "mail_messages" ("kind", "created_at" DESC);

-- A campaign's delivery log pages a send's recipients in address order on its unique
-- (send_id, email_key) index and finds an address by its beginning there: in the "C" collation
-- (as email_contacts.email_key, migration audience_collation: addresses are lower-cased ASCII,
-- so the order is the same; LIKE 'abc%' can use the index only under "C"). Sent mail finds a
-- recipient's campaign mail the same way, send by send.
ALTER TABLE "email_campaign_recipients" ALTER COLUMN "email_key" TYPE text COLLATE "C";

-- A campaign's delivery log filters and counts its rare outcomes through the tracking rows of
-- the campaign that have them (their updates are rare, so the other updates stay in place: HOT).
CREATE INDEX "email_tracking_bounced_idx" ON "email_tracking" ("campaign_id") WHERE "bounced_at" IS NOT NULL;
CREATE INDEX "email_tracking_complained_idx" ON "email_tracking" ("campaign_id") WHERE "complained_at" IS NOT NULL;
CREATE INDEX "email_tracking_unsubscribed_idx" ON "email_tracking" ("campaign_id") WHERE "unsubscribed_at" IS NOT NULL;
