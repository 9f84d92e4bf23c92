-- Mail delivery: every message sent (the local mailbox and the record of each send), tracking,
-- tracking events, per-address bounce state and the copy of the settings (see schema.prisma, "mail").
-- CreateEnum
CREATE TYPE "mail_status" AS ENUM ('pending', 'sending', 'sent', 'failed', 'unknown');

-- CreateTable
CREATE TABLE "mail_messages" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "message_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "dedupe_key" TEXT,
    "event_id" UUID,
    "campaign_id" TEXT,
    "from_address" TEXT NOT NULL,
    "to_address" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "html" TEXT,
    "text" TEXT,
    "raw" BYTEA NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "has_calendar" BOOLEAN NOT NULL DEFAULT false,
    "marketing" BOOLEAN NOT NULL DEFAULT false,
    "test_mode" BOOLEAN NOT NULL DEFAULT false,
    "transport" TEXT,
    "status" "mail_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "provider_message_id" TEXT,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sending_at" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "mail_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_tracking" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tracking_id" TEXT NOT NULL,
    "mail_message_id" UUID,
    "campaign_id" TEXT,
    "contact_id" TEXT,
    "email" TEXT NOT NULL,
    "sent_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "opened_at" TIMESTAMPTZ(3),
    "last_opened_at" TIMESTAMPTZ(3),
    "clicked_at" TIMESTAMPTZ(3),
    "last_clicked_at" TIMESTAMPTZ(3),
    "bounced_at" TIMESTAMPTZ(3),
    "complained_at" TIMESTAMPTZ(3),
    "unsubscribed_at" TIMESTAMPTZ(3),
    "open_count" INTEGER NOT NULL DEFAULT 0,
    "proxy_open_count" INTEGER NOT NULL DEFAULT 0,
    "click_count" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "error_message" TEXT,
    "bounce_reason" TEXT,
    "user_agent" TEXT,
    "ip_address" TEXT,
    "device_type" TEXT,
    "browser_type" TEXT,
    "last_click_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_tracking_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_events" (
    "id" BIGSERIAL NOT NULL,
    "tracking_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "event_data" JSONB,
    "user_agent" TEXT,
    "ip_address" TEXT,
    "click_url" TEXT,
    "proxy" TEXT,
    "timestamp" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mail_address_states" (
    "address" TEXT NOT NULL,
    "soft_bounces" INTEGER NOT NULL DEFAULT 0,
    "hard_bounced_at" TIMESTAMPTZ(3),
    "complained_at" TIMESTAMPTZ(3),
    "unsubscribed_at" TIMESTAMPTZ(3),
    "last_reason" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mail_address_states_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "mail_settings" (
    "key" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "value" TEXT,
    "sealed_value" TEXT,
    "secret" BOOLEAN NOT NULL DEFAULT false,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mail_settings_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "mail_messages_message_id_key" ON "mail_messages"("message_id");

-- CreateIndex
CREATE UNIQUE INDEX "mail_messages_dedupe_key_key" ON "mail_messages"("dedupe_key");

-- CreateIndex
CREATE INDEX "mail_messages_created_at_idx" ON "mail_messages"("created_at" DESC);

-- CreateIndex
CREATE INDEX "mail_messages_event_id_idx" ON "mail_messages"("event_id");

-- CreateIndex
CREATE INDEX "mail_messages_provider_message_id_idx" ON "mail_messages"("provider_message_id");

-- CreateIndex
CREATE UNIQUE INDEX "email_tracking_tracking_id_key" ON "email_tracking"("tracking_id");

-- CreateIndex
CREATE UNIQUE INDEX "email_tracking_mail_message_id_key" ON "email_tracking"("mail_message_id");

-- CreateIndex
CREATE INDEX "email_tracking_campaign_id_idx" ON "email_tracking"("campaign_id");

-- CreateIndex
CREATE INDEX "email_tracking_email_idx" ON "email_tracking"("email");

-- CreateIndex
CREATE INDEX "email_events_tracking_id_timestamp_idx" ON "email_events"("tracking_id", "timestamp");

-- CreateIndex
CREATE INDEX "email_events_timestamp_idx" ON "email_events"("timestamp");

-- AddForeignKey
ALTER TABLE "email_tracking" ADD CONSTRAINT "email_tracking_mail_message_id_fkey" FOREIGN KEY ("mail_message_id") REFERENCES "mail_messages"("id") ON DELETE SET NULL ON UPDATE CASCADE;
