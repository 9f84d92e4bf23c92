-- The event audit trail (scripts/lib/event-audit.ts): every event once, with its deliveries.
CREATE TABLE "audit_events" (
    "event_id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "key" TEXT,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "first_delivery" INTEGER NOT NULL,
    "redeliveries" INTEGER NOT NULL DEFAULT 0,
    "payload" JSONB NOT NULL,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("event_id")
);
CREATE INDEX "audit_events_subject_idx" ON "audit_events"("subject", "received_at");

-- The kit's backbone tables (inbox, dead letters), as every consumer has them.

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
-- Event backbone v2 (generated from services/kit/src/bus/sql.ts; keep identical in every service).
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
-- kept with the error until replayed (`events replay`) or discarded.
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
