-- Audience: address books, contacts, the suppression list and import jobs (schema.prisma,
-- "audience"). Generated from schema.prisma, plus what Prisma cannot express (after the line).
-- pg_trgm is a trusted extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateEnum
CREATE TYPE "ContactStatus" AS ENUM ('active', 'unsubscribed', 'bounced');

-- CreateEnum
CREATE TYPE "SuppressionReason" AS ENUM ('unsubscribed', 'bounced', 'complained');

-- CreateEnum
CREATE TYPE "ImportStatus" AS ENUM ('running', 'completed', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "ImportKind" AS ENUM ('csv', 'xlsx', 'manual');

-- CreateEnum
CREATE TYPE "ImportPhase" AS ENUM ('receiving', 'saving', 'done');

-- CreateTable
CREATE TABLE "address_books" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "color" TEXT NOT NULL DEFAULT '#06b6d4',
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "contact_count" INTEGER NOT NULL DEFAULT 0,
    "unsubscribed_count" INTEGER NOT NULL DEFAULT 0,
    "bounced_count" INTEGER NOT NULL DEFAULT 0,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "keywords" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "searchable_text" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "address_books_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "address_book_count_deltas" (
    "id" BIGSERIAL NOT NULL,
    "address_book_id" INTEGER NOT NULL,
    "contacts" INTEGER NOT NULL,
    "unsubscribed" INTEGER NOT NULL,
    "bounced" INTEGER NOT NULL,

    CONSTRAINT "address_book_count_deltas_pkey" PRIMARY KEY ("id")
);

-- CreateTable (email_key and search_text are generated: see below the line)
CREATE TABLE "email_contacts" (
    "id" BIGSERIAL NOT NULL,
    "address_book_id" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "email_key" TEXT NOT NULL GENERATED ALWAYS AS (lower("email")) STORED,
    "first_name" TEXT,
    "last_name" TEXT,
    "company" TEXT,
    "phone" TEXT,
    "website" TEXT,
    "address" TEXT,
    "category" TEXT,
    "rating" REAL,
    "review_count" INTEGER,
    "description" TEXT,
    "source" TEXT NOT NULL DEFAULT 'manual',
    "status" "ContactStatus" NOT NULL DEFAULT 'active',
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "custom_fields" JSONB NOT NULL DEFAULT '{}',
    "subscribed_at" TIMESTAMPTZ(3),
    "unsubscribed_at" TIMESTAMPTZ(3),
    "last_contacted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "search_text" TEXT NOT NULL GENERATED ALWAYS AS (
        lower(coalesce("first_name", '') || ' ' || coalesce("last_name", '') || ' ' || "email" || ' ' || coalesce("company", ''))
    ) STORED,

    CONSTRAINT "email_contacts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_suppressions" (
    "address" TEXT NOT NULL,
    "reason" "SuppressionReason" NOT NULL,
    "source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_suppressions_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "email_imports" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "address_book_id" INTEGER NOT NULL,
    "kind" "ImportKind" NOT NULL,
    "file_name" TEXT,
    "status" "ImportStatus" NOT NULL DEFAULT 'running',
    "phase" "ImportPhase" NOT NULL DEFAULT 'receiving',
    "bytes_received" BIGINT NOT NULL DEFAULT 0,
    "bytes_total" BIGINT,
    "rows_read" INTEGER NOT NULL DEFAULT 0,
    "imported" INTEGER NOT NULL DEFAULT 0,
    "updated" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "error_count" INTEGER NOT NULL DEFAULT 0,
    "errors" JSONB NOT NULL DEFAULT '[]',
    "message" TEXT,
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "created_by" TEXT,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "email_imports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "address_book_count_deltas_address_book_id_idx" ON "address_book_count_deltas"("address_book_id");

-- CreateIndex
CREATE INDEX "email_contacts_address_book_id_id_idx" ON "email_contacts"("address_book_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "email_contacts_email_key_address_book_id_key" ON "email_contacts"("email_key", "address_book_id");

-- CreateIndex
CREATE INDEX "email_imports_address_book_id_started_at_idx" ON "email_imports"("address_book_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "email_imports_status_heartbeat_at_idx" ON "email_imports"("status", "heartbeat_at");

-- AddForeignKey
ALTER TABLE "email_imports" ADD CONSTRAINT "email_imports_address_book_id_fkey" FOREIGN KEY ("address_book_id") REFERENCES "address_books"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Parley: what Prisma cannot express -----------------------------------------------

ALTER TABLE "address_books" ADD CONSTRAINT "address_books_name_not_blank" CHECK (length(btrim("name")) > 0);
ALTER TABLE "address_books" ADD CONSTRAINT "address_books_color_hex" CHECK ("color" ~ '^#[0-9a-f]{6}$');
-- One default book (created at the service's first start), and names unique whatever their case.
CREATE UNIQUE INDEX "address_books_one_default_key" ON "address_books"("is_default") WHERE "is_default";
CREATE UNIQUE INDEX "address_books_name_key" ON "address_books"(lower("name"));

ALTER TABLE "email_contacts" ADD CONSTRAINT "email_contacts_email_not_blank" CHECK (length(btrim("email")) > 0);
ALTER TABLE "email_suppressions" ADD CONSTRAINT "email_suppressions_address_lower" CHECK ("address" = lower("address"));

-- Contains-search over name, email and company (LIKE '%…%' on search_text).
CREATE INDEX "email_contacts_search_trgm_idx" ON "email_contacts" USING GIN ("search_text" gin_trgm_ops);
-- The few contacts that are not active, newest first (the status filter).
CREATE INDEX "email_contacts_inactive_idx" ON "email_contacts"("status", "id") WHERE "status" <> 'active';

-- One running import per book, whatever the number of replicas.
CREATE UNIQUE INDEX "email_imports_one_running_key" ON "email_imports"("address_book_id") WHERE "status" = 'running';

-- The default book is never deleted, and stays the default.
CREATE FUNCTION "address_books_keep_default"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'Default address book cannot be deleted'
      USING ERRCODE = 'restrict_violation', TABLE = 'address_books', CONSTRAINT = 'address_books_keep_default';
  END IF;
  RAISE EXCEPTION 'The default address book stays the default'
    USING ERRCODE = 'restrict_violation', TABLE = 'address_books', CONSTRAINT = 'address_books_keep_default';
END;
$$;
CREATE TRIGGER "address_books_keep_default_delete" BEFORE DELETE ON "address_books"
  FOR EACH ROW WHEN (OLD."is_default") EXECUTE FUNCTION "address_books_keep_default"();
CREATE TRIGGER "address_books_keep_default_update" BEFORE UPDATE OF "is_default" ON "address_books"
  FOR EACH ROW WHEN (OLD."is_default" IS DISTINCT FROM NEW."is_default") EXECUTE FUNCTION "address_books_keep_default"();

-- Contacts and their book, set-based (statement triggers over transition tables), so a
-- million-row import pays once per statement what a foreign key and a counter pay per row:
--  * every book a statement adds contacts to must exist; FOR KEY SHARE then holds it against
--    deletion until the transaction ends (what a foreign key does, once per book);
--  * each statement records the change of each book's counts as one row of
--    address_book_count_deltas (never an UPDATE of the book, so writers never queue on a
--    book's row, not even behind a long import); compaction folds them into address_books.
--    A book's exact count = its column + its deltas.
CREATE FUNCTION "email_contacts_check_books"(books integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  book integer;
BEGIN
  FOREACH book IN ARRAY books LOOP
    PERFORM 1 FROM "address_books" WHERE "id" = book FOR KEY SHARE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'address book % does not exist', book
        USING ERRCODE = 'foreign_key_violation', TABLE = 'email_contacts', CONSTRAINT = 'email_contacts_address_book_id_check';
    END IF;
  END LOOP;
END;
$$;

CREATE FUNCTION "email_contacts_count_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "email_contacts_check_books"(ARRAY(SELECT DISTINCT "address_book_id" FROM new_rows ORDER BY 1));
  INSERT INTO "address_book_count_deltas" ("address_book_id", "contacts", "unsubscribed", "bounced")
    SELECT "address_book_id", count(*),
           count(*) FILTER (WHERE "status" = 'unsubscribed'), count(*) FILTER (WHERE "status" = 'bounced')
    FROM new_rows GROUP BY "address_book_id";
  RETURN NULL;
END;
$$;

CREATE FUNCTION "email_contacts_count_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT "address_book_id" AS book, sum(n) AS contacts,
           coalesce(sum(n) FILTER (WHERE "status" = 'unsubscribed'), 0) AS unsubscribed,
           coalesce(sum(n) FILTER (WHERE "status" = 'bounced'), 0) AS bounced
    FROM (
      SELECT "address_book_id", "status", count(*) AS n FROM new_rows GROUP BY 1, 2
      UNION ALL
      SELECT "address_book_id", "status", -count(*) FROM old_rows GROUP BY 1, 2
    ) AS x
    GROUP BY "address_book_id" ORDER BY "address_book_id"
  LOOP
    -- Contacts moved into a book: it must exist, as on insert.
    IF r.contacts > 0 THEN
      PERFORM "email_contacts_check_books"(ARRAY[r.book]);
    END IF;
    IF r.contacts <> 0 OR r.unsubscribed <> 0 OR r.bounced <> 0 THEN
      INSERT INTO "address_book_count_deltas" ("address_book_id", "contacts", "unsubscribed", "bounced")
        SELECT r.book, r.contacts, r.unsubscribed, r.bounced
        WHERE EXISTS (SELECT 1 FROM "address_books" b WHERE b."id" = r.book);
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$;

CREATE FUNCTION "email_contacts_count_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Contacts deleted with their book (the cascade below) leave no delta behind.
  INSERT INTO "address_book_count_deltas" ("address_book_id", "contacts", "unsubscribed", "bounced")
    SELECT o."address_book_id", -count(*),
           -count(*) FILTER (WHERE o."status" = 'unsubscribed'), -count(*) FILTER (WHERE o."status" = 'bounced')
    FROM old_rows o
    WHERE EXISTS (SELECT 1 FROM "address_books" b WHERE b."id" = o."address_book_id")
    GROUP BY o."address_book_id";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "email_contacts_count_insert" AFTER INSERT ON "email_contacts"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "email_contacts_count_insert"();
CREATE TRIGGER "email_contacts_count_update" AFTER UPDATE ON "email_contacts"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "email_contacts_count_update"();
CREATE TRIGGER "email_contacts_count_delete" AFTER DELETE ON "email_contacts"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "email_contacts_count_delete"();

-- Deleting a book deletes its contacts and pending counts, set-based (the cascade).
CREATE FUNCTION "address_books_cascade_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "email_contacts" c USING old_rows o WHERE c."address_book_id" = o."id";
  DELETE FROM "address_book_count_deltas" d USING old_rows o WHERE d."address_book_id" = o."id";
  RETURN NULL;
END;
$$;
CREATE TRIGGER "address_books_cascade_delete" AFTER DELETE ON "address_books"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "address_books_cascade_delete"();
