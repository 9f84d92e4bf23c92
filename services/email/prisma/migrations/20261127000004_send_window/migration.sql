-- The sliding window shared by every replica's campaign sender (CAMPAIGN_WINDOW_MESSAGES per
-- CAMPAIGN_WINDOW_SECONDS): a row per claimed batch, read and written under an advisory lock.
-- CreateTable
CREATE TABLE "email_send_ledger" (
    "id" BIGSERIAL NOT NULL,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "messages" INTEGER NOT NULL,

    CONSTRAINT "email_send_ledger_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "email_send_ledger_claimed_at_idx" ON "email_send_ledger"("claimed_at");
