-- Per-client request budgets (generated from services/kit/src/budgets/sql.ts; keep identical in every service).
-- One row per budget key (route and client): hits in the current window and when it ends, so a
-- budget holds across every replica of the service (and for the gateway's route budgets, which
-- it keeps here). UNLOGGED: a counter needs no WAL; a crash only starts every window afresh.
CREATE UNLOGGED TABLE "rate_limit_windows" (
    "key" TEXT NOT NULL,
    "hits" INTEGER NOT NULL,
    "reset_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("key")
);

CREATE INDEX "rate_limit_windows_reset_at_idx" ON "rate_limit_windows"("reset_at");
