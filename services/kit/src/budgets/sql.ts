/**
 * The one source of the per-client budget table in a service's database. Every service's
 * migrations carry a `<ts>_rate_limits` migration byte for byte `RATE_LIMIT_MIGRATION`, and its
 * schema.prisma the model `RATE_LIMIT_PRISMA_MODEL`; the migration suite
 * (services/kit/src/testing/migration-suite.ts) checks both.
 */
export const RATE_LIMIT_MIGRATION = `-- Per-client request budgets (generated from services/kit/src/budgets/sql.ts; keep identical in every service).
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
`;

/** The Prisma model every service's schema.prisma carries for the table. */
export const RATE_LIMIT_PRISMA_MODEL = `
// Per-client request budgets shared by the replicas (services/kit/src/budgets/sql.ts).
model RateLimitWindow {
  key     String   @id
  hits    Int
  resetAt DateTime @map("reset_at") @db.Timestamptz(3)

  @@index([resetAt])
  @@map("rate_limit_windows")
}
`;
