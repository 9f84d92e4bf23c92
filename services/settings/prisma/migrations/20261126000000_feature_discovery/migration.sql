-- Feature discovery: the projection of the platform's activity (spec §2 "Feature-discovery panel").
CREATE TABLE "activity_projection" (
    "id" SMALLINT NOT NULL DEFAULT 1,
    "generation" UUID NOT NULL DEFAULT gen_random_uuid(),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_projection_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "activity_bookings" (
    "booking_id" TEXT NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "time_slot" TIMESTAMPTZ(3) NOT NULL,
    "booked_at" TIMESTAMPTZ(3) NOT NULL,
    "version" TEXT NOT NULL,

    CONSTRAINT "activity_bookings_pkey" PRIMARY KEY ("booking_id")
);

CREATE TABLE "activity_calls" (
    "call_id" TEXT NOT NULL,
    "kind" VARCHAR(10) NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "duration_seconds" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "version" TEXT NOT NULL,

    CONSTRAINT "activity_calls_pkey" PRIMARY KEY ("call_id")
);

CREATE TABLE "activity_posts" (
    "post_id" TEXT NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "version" TEXT NOT NULL,
    "title" TEXT,
    "published_at" TIMESTAMPTZ(3),
    "title_version" TEXT,

    CONSTRAINT "activity_posts_pkey" PRIMARY KEY ("post_id")
);

CREATE TABLE "activity_address_books" (
    "book_id" INTEGER NOT NULL,
    "name" TEXT,
    "name_version" TEXT,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),
    "contact_count" INTEGER NOT NULL DEFAULT 0,
    "count_version" TEXT,
    "imports" INTEGER NOT NULL DEFAULT 0,
    "imported_contacts" INTEGER NOT NULL DEFAULT 0,
    "last_import_at" TIMESTAMPTZ(3),

    CONSTRAINT "activity_address_books_pkey" PRIMARY KEY ("book_id")
);

CREATE TABLE "activity_mailings" (
    "kind" VARCHAR(20) NOT NULL,
    "mailing_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "name_version" TEXT NOT NULL,
    "blog_post_id" TEXT,
    "live_sends" INTEGER NOT NULL DEFAULT 0,
    "test_sends" INTEGER NOT NULL DEFAULT 0,
    "recipients" INTEGER NOT NULL DEFAULT 0,
    "sent" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "last_sent_at" TIMESTAMPTZ(3),
    "last_test_at" TIMESTAMPTZ(3),

    CONSTRAINT "activity_mailings_pkey" PRIMARY KEY ("kind","mailing_id")
);

CREATE TABLE "activity_log" (
    "event_id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "data" JSONB NOT NULL,

    CONSTRAINT "activity_log_pkey" PRIMARY KEY ("event_id")
);

CREATE INDEX "activity_bookings_status_time_slot_idx" ON "activity_bookings"("status", "time_slot");
CREATE INDEX "activity_log_occurred_at_idx" ON "activity_log"("occurred_at");

-- What Prisma cannot express: the generation table holds one row.
ALTER TABLE "activity_projection" ADD CONSTRAINT "activity_projection_one_row" CHECK ("id" = 1);
