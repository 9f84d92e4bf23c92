-- The embedded platform's durable event log (services/kit/src/bus/local.ts): the role
-- JetStream plays in the distributed mode, in the embedded PostgreSQL.

-- Every published event, in publish order; the id makes a second publish a no-op.
CREATE TABLE "bus_events" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "stream" TEXT NOT NULL,
    "envelope" JSONB NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bus_events_pkey" PRIMARY KEY ("seq")
);
CREATE UNIQUE INDEX "bus_events_id_key" ON "bus_events"("id");
CREATE INDEX "bus_events_subject_seq_idx" ON "bus_events"("subject", "seq");

-- Durable consumers ever registered, with the subjects they take.
CREATE TABLE "bus_consumers" (
    "durable" TEXT NOT NULL,
    "subjects" TEXT[] NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bus_consumers_pkey" PRIMARY KEY ("durable")
);

-- One row per (durable, event) not yet acknowledged: the durable's queue.
CREATE TABLE "bus_pending" (
    "durable" TEXT NOT NULL REFERENCES "bus_consumers"("durable") ON DELETE CASCADE,
    "seq" BIGINT NOT NULL REFERENCES "bus_events"("seq") ON DELETE CASCADE,
    "deliveries" INTEGER NOT NULL DEFAULT 0,
    "due_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leased_until" TIMESTAMPTZ(3),

    CONSTRAINT "bus_pending_pkey" PRIMARY KEY ("durable", "seq")
);
CREATE INDEX "bus_pending_due_idx" ON "bus_pending"("durable", "due_at");
CREATE INDEX "bus_pending_seq_idx" ON "bus_pending"("seq");
