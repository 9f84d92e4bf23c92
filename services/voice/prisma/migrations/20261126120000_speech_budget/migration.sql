-- The paid speech budget (TTS_PAID_CHARS_PER_MINUTE, TTS_PAID_CHARS_PER_DAY): characters sent to
-- a paid engine per UTC minute and per UTC day, counted in the database so the budget holds
-- across every replica.

-- CreateTable
CREATE TABLE "speech_budget" (
    "period" TEXT NOT NULL,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "chars" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "speech_budget_pkey" PRIMARY KEY ("period","starts_at")
);
