/**
 * The one source of the backbone's tables in a service's database: the outbox, the inbox and
 * the dead letters. A service's migrations carry copies (its init migration holds the first
 * version, `<ts>_event_backbone` the second, byte for byte `EVENT_BACKBONE_MIGRATION`);
 * each service's migrations test (services/kit/src/testing/migration-suite.ts) proves they agree.
 * `pnpm exec tsx scripts/migration-sql.ts --backbone` prints the migration for a new service.
 */

/** Version 1, as the services' init migrations create it (Prisma's formatting). */
export const OUTBOX_INBOX_V1_SQL = `
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "inbox_events" (
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbox_events_pkey" PRIMARY KEY ("consumer","event_id")
);

CREATE INDEX "outbox_events_unpublished_idx" ON "outbox_events"("created_at");

-- Wake the outbox relay as soon as an event row commits (LISTEN parley_outbox).
CREATE FUNCTION "parley_outbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('parley_outbox', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER "outbox_events_notify" AFTER INSERT ON "outbox_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "parley_outbox_notify"();
`;

/** Version 2: per-row backoff and dead letters in the outbox, aggregate order, consumer dead letters. */
export const EVENT_BACKBONE_MIGRATION = `-- Event backbone v2 (generated from services/kit/src/bus/sql.ts; keep identical in every service).
-- Outbox: per-row backoff (attempts, next_attempt_at), a dead letter after repeated failures
-- (dead_at, last_error), and the aggregate whose events keep their order (aggregate_key).
ALTER TABLE "outbox_events" ADD COLUMN "aggregate_key" TEXT;
ALTER TABLE "outbox_events" ADD COLUMN "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
ALTER TABLE "outbox_events" ADD COLUMN "last_error" TEXT;
ALTER TABLE "outbox_events" ADD COLUMN "dead_at" TIMESTAMPTZ(3);
CREATE INDEX "outbox_events_pending_idx" ON "outbox_events"("created_at", "id")
  WHERE "published_at" IS NULL AND "dead_at" IS NULL;
CREATE INDEX "outbox_events_aggregate_pending_idx" ON "outbox_events"("aggregate_key", "created_at")
  WHERE "published_at" IS NULL AND "dead_at" IS NULL;

-- Inbox: ids are dropped after the retention window (see docs/architecture.md, Events).
CREATE INDEX "inbox_events_processed_at_idx" ON "inbox_events"("processed_at");

-- Dead letters of this service's consumers: events that still failed after the retry policy,
-- kept with the error until replayed (\`events replay\`) or discarded.
CREATE TABLE "dead_letters" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "envelope" JSONB NOT NULL,
    "error" TEXT NOT NULL,
    "deliveries" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "replay_requested_at" TIMESTAMPTZ(3),
    "replay_lease_until" TIMESTAMPTZ(3),
    "replayed_at" TIMESTAMPTZ(3),

    CONSTRAINT "dead_letters_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "dead_letters_consumer_event_id_key" ON "dead_letters"("consumer", "event_id");
`;

/** The whole backbone schema of a service database (kit tests create it directly). */
export const BACKBONE_SCHEMA_SQL = OUTBOX_INBOX_V1_SQL + EVENT_BACKBONE_MIGRATION;

/** The Prisma models every service's schema.prisma carries for these tables. */
export const BACKBONE_PRISMA_MODELS = `
// Event backbone tables (services/kit/src/bus/sql.ts): transactional outbox, idempotent
// consumers' inbox and the consumers' dead letters. Partial indexes live in the migration.
model OutboxEvent {
  id            String    @id @db.Uuid
  subject       String
  payload       Json
  headers       Json      @default("{}")
  createdAt     DateTime  @default(now()) @map("created_at") @db.Timestamptz(3)
  publishedAt   DateTime? @map("published_at") @db.Timestamptz(3)
  attempts      Int       @default(0)
  aggregateKey  String?   @map("aggregate_key")
  nextAttemptAt DateTime  @default(now()) @map("next_attempt_at") @db.Timestamptz(3)
  lastError     String?   @map("last_error")
  deadAt        DateTime? @map("dead_at") @db.Timestamptz(3)

  @@index([createdAt], map: "outbox_events_unpublished_idx")
  @@map("outbox_events")
}

model InboxEvent {
  consumer    String
  eventId     String   @map("event_id") @db.Uuid
  processedAt DateTime @default(now()) @map("processed_at") @db.Timestamptz(3)

  @@id([consumer, eventId])
  @@index([processedAt])
  @@map("inbox_events")
}

model DeadLetter {
  id                String    @id @default(dbgenerated("gen_random_uuid()")) @db.Uuid
  consumer          String
  eventId           String    @map("event_id") @db.Uuid
  subject           String
  envelope          Json
  error             String
  deliveries        Int
  createdAt         DateTime  @default(now()) @map("created_at") @db.Timestamptz(3)
  replayRequestedAt DateTime? @map("replay_requested_at") @db.Timestamptz(3)
  replayLeaseUntil  DateTime? @map("replay_lease_until") @db.Timestamptz(3)
  replayedAt        DateTime? @map("replayed_at") @db.Timestamptz(3)

  @@unique([consumer, eventId])
  @@map("dead_letters")
}
`;

/** Objects of the backbone that schema.prisma cannot express (the migration tests allow them). */
export const BACKBONE_MIGRATION_EXTRAS = [
  'index outbox_events_aggregate_pending_idx',
  'index outbox_events_pending_idx',
];
