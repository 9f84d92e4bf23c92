-- Campaigns: email_campaigns (spec schema), each send of a campaign, the recipients of a send
-- with their delivery state (claimed by the sender workers with FOR UPDATE SKIP LOCKED) and the
-- cooling periods after connection failures (see schema.prisma, "campaigns", and docs/decisions.md).
-- CreateEnum
CREATE TYPE "campaign_status" AS ENUM ('draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled');

-- CreateEnum
CREATE TYPE "campaign_send_status" AS ENUM ('scheduled', 'sending', 'paused', 'done', 'cancelled');

-- CreateTable
CREATE TABLE "email_campaigns" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "from_name" TEXT NOT NULL,
    "from_email" TEXT NOT NULL,
    "html_content" TEXT NOT NULL DEFAULT '',
    "text_content" TEXT,
    "status" "campaign_status" NOT NULL DEFAULT 'draft',
    "scheduled_at" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),
    "total_recipients" INTEGER NOT NULL DEFAULT 0,
    "sent_count" INTEGER NOT NULL DEFAULT 0,
    "delivered_count" INTEGER NOT NULL DEFAULT 0,
    "open_count" INTEGER NOT NULL DEFAULT 0,
    "click_count" INTEGER NOT NULL DEFAULT 0,
    "bounce_count" INTEGER NOT NULL DEFAULT 0,
    "unsubscribe_count" INTEGER NOT NULL DEFAULT 0,
    "target_address_books" TEXT NOT NULL DEFAULT '[]',
    "target_contacts" TEXT NOT NULL DEFAULT '[]',
    "tracking_id" TEXT NOT NULL,
    "current_send_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_campaigns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_campaign_sends" (
    "id" SERIAL NOT NULL,
    "campaign_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "status" "campaign_send_status" NOT NULL,
    "test_mode" BOOLEAN NOT NULL DEFAULT false,
    "live" BOOLEAN NOT NULL,
    "address_book_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "contact_ids" BIGINT[] DEFAULT ARRAY[]::BIGINT[],
    "total" INTEGER NOT NULL DEFAULT 0,
    "original_recipients" INTEGER NOT NULL DEFAULT 0,
    "sent_count" INTEGER NOT NULL DEFAULT 0,
    "failed_count" INTEGER NOT NULL DEFAULT 0,
    "unknown_count" INTEGER NOT NULL DEFAULT 0,
    "scheduled_at" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_campaign_sends_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_campaign_recipients" (
    "id" BIGSERIAL NOT NULL,
    "send_id" INTEGER NOT NULL,
    "contact_id" BIGINT,
    "email" TEXT NOT NULL,
    "email_key" TEXT NOT NULL,
    "first_name" TEXT,
    "last_name" TEXT,
    "company" TEXT,
    "tracking_id" TEXT NOT NULL,
    "status" "mail_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(3),
    "worker" TEXT,
    "last_error" TEXT,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "email_campaign_recipients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_send_blocks" (
    "id" SERIAL NOT NULL,
    "reason" TEXT NOT NULL,
    "blocked_until" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_send_blocks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "email_campaigns_tracking_id_key" ON "email_campaigns"("tracking_id");

-- CreateIndex
CREATE INDEX "email_campaigns_created_at_idx" ON "email_campaigns"("created_at" DESC);

-- CreateIndex
CREATE INDEX "email_campaign_sends_campaign_id_idx" ON "email_campaign_sends"("campaign_id");

-- CreateIndex
CREATE INDEX "email_campaign_sends_created_at_idx" ON "email_campaign_sends"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "email_campaign_recipients_tracking_id_key" ON "email_campaign_recipients"("tracking_id");

-- CreateIndex
CREATE INDEX "email_campaign_recipients_send_id_status_idx" ON "email_campaign_recipients"("send_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "email_campaign_recipients_send_id_email_key_key" ON "email_campaign_recipients"("send_id", "email_key");

-- CreateIndex
CREATE INDEX "email_send_blocks_blocked_until_idx" ON "email_send_blocks"("blocked_until");

-- AddForeignKey
ALTER TABLE "email_campaign_sends" ADD CONSTRAINT "email_campaign_sends_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "email_campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_campaign_recipients" ADD CONSTRAINT "email_campaign_recipients_send_id_fkey" FOREIGN KEY ("send_id") REFERENCES "email_campaign_sends"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The workers' claim: pending rows of a send in id order (partial, so finished rows cost nothing).
CREATE INDEX "email_campaign_recipients_pending_idx" ON "email_campaign_recipients"("send_id", "id") WHERE "status" = 'pending';
-- The reaper: rows being sent, by lease.
CREATE INDEX "email_campaign_recipients_sending_idx" ON "email_campaign_recipients"("lease_until") WHERE "status" = 'sending';
-- The scheduler: due scheduled sends.
CREATE INDEX "email_campaign_sends_due_idx" ON "email_campaign_sends"("scheduled_at") WHERE "status" = 'scheduled';
-- The hourly limit: live sends of the last hour.
CREATE INDEX "email_campaign_sends_live_idx" ON "email_campaign_sends"("created_at") WHERE "live";
