-- What segments read (docs/adr/0070-segments.md): a narrow copy of each contact's segmentable
-- facts, kept by statement triggers on email_contacts in the writer's transaction. A count at a
-- million contacts scans this (about 180 MB) instead of the contacts (about 390 MB with their
-- phone, address, website, description and search text), and reads engagement from a column
-- instead of joining it. Text is stored as conditions compare it: trimmed, lower-cased, '' for none.
-- email_shared_addresses lists the addresses held by contacts of two books or more (an import
-- may put one address in several books): a count is one per address without grouping a million
-- rows, only those few.
CREATE TABLE "email_contact_facts" (
    "contact_id" BIGINT NOT NULL,
    "address_book_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "email_key" TEXT NOT NULL,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "company" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "tags" TEXT[],
    "attributes" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "engaged_rank" INTEGER,
    CONSTRAINT "email_contact_facts_pkey" PRIMARY KEY ("contact_id")
);

-- One SELECT list for the triggers and the backfill: a contact (c) and its address's engagement
-- (e), as a plain INSERT (new contacts) or as an upsert (changed ones).
CREATE FUNCTION "email_contact_facts_sql"(source text, upsert boolean) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format($q$INSERT INTO "email_contact_facts" AS f ("contact_id", "address_book_id", "status", "email_key",
      "first_name", "last_name", "company", "category", "source", "tags", "attributes",
      "created_at", "engaged_rank")
    SELECT c."id", c."address_book_id", c."status"::text, c."email_key",
      lower(btrim(coalesce(c."first_name", ''))), lower(btrim(coalesce(c."last_name", ''))),
      lower(btrim(coalesce(c."company", ''))), lower(btrim(coalesce(c."category", ''))),
      lower(btrim(coalesce(c."source", ''))), coalesce(c."tags", '{}'), nullif(c."custom_fields", '{}'::jsonb),
      c."created_at", e."engaged_rank"
    FROM (%s) c LEFT JOIN "email_address_engagement" e ON e."address" = c."email_key" %s$q$, source,
    CASE WHEN upsert THEN $u$ON CONFLICT ("contact_id") DO UPDATE SET
      "address_book_id" = excluded."address_book_id", "status" = excluded."status",
      "email_key" = excluded."email_key",
      "first_name" = excluded."first_name", "last_name" = excluded."last_name",
      "company" = excluded."company", "category" = excluded."category", "source" = excluded."source",
      "tags" = excluded."tags", "attributes" = excluded."attributes", "created_at" = excluded."created_at",
      "engaged_rank" = excluded."engaged_rank"$u$ ELSE '' END)
$$;

CREATE TABLE "email_shared_addresses" (
    "address" TEXT NOT NULL,
    CONSTRAINT "email_shared_addresses_pkey" PRIMARY KEY ("address")
);

-- The addresses of these contacts that contacts of another book hold too (the new rows are
-- visible: two books' rows in one statement count), found through the contacts' (email_key,
-- address_book_id) index.
CREATE FUNCTION "email_shared_addresses_add"(keys text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "email_shared_addresses" ("address")
  SELECT k.key FROM (SELECT DISTINCT unnest(keys) AS key) k
  WHERE (SELECT count(DISTINCT c."address_book_id") FROM "email_contacts" c WHERE c."email_key" = k.key) > 1
  ORDER BY 1
  ON CONFLICT DO NOTHING
$$;
-- Of these addresses, those no longer in two books.
CREATE FUNCTION "email_shared_addresses_drop"(keys text[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM "email_shared_addresses" s
  WHERE s."address" = ANY(keys)
    AND (SELECT count(DISTINCT c."address_book_id") FROM "email_contacts" c WHERE c."email_key" = s."address") < 2
$$;

CREATE FUNCTION "email_contact_facts_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE "email_contact_facts_sql"('SELECT * FROM new_rows', false);
  -- An address already in another book: a probe of the contacts' (email_key, address_book_id)
  -- index per new contact, as two ranges (books below, books above) so the index alone rules
  -- out the contact's own row: "<>" is not an index condition, and filtering on it read the
  -- table for every new contact (an import's million random reads).
  PERFORM "email_shared_addresses_add"(array_agg(n."email_key")) FROM new_rows n
  WHERE EXISTS (SELECT 1 FROM "email_contacts" c
                WHERE c."email_key" = n."email_key" AND c."address_book_id" < n."address_book_id")
     OR EXISTS (SELECT 1 FROM "email_contacts" c
                WHERE c."email_key" = n."email_key" AND c."address_book_id" > n."address_book_id");
  RETURN NULL;
END $$;

-- Only the contacts whose segmentable columns changed (an import's touch of other columns, or
-- the count compaction, writes nothing here).
CREATE FUNCTION "email_contact_facts_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE "email_contact_facts_sql"($s$SELECT n.* FROM new_rows n JOIN old_rows o ON o."id" = n."id"
    WHERE (n."address_book_id", n."status", n."email_key", n."first_name", n."last_name", n."company",
           n."category", n."source", n."tags", n."custom_fields", n."created_at")
      IS DISTINCT FROM (o."address_book_id", o."status", o."email_key", o."first_name", o."last_name",
           o."company", o."category", o."source", o."tags", o."custom_fields", o."created_at")$s$, true);
  -- A contact moved to another address or book: its old address may be in one book now, its
  -- new one in two.
  PERFORM "email_shared_addresses_drop"(array_agg(o."email_key")), "email_shared_addresses_add"(array_agg(n."email_key"))
  FROM new_rows n JOIN old_rows o ON o."id" = n."id"
  WHERE (n."email_key", n."address_book_id") IS DISTINCT FROM (o."email_key", o."address_book_id");
  RETURN NULL;
END $$;

CREATE FUNCTION "email_contact_facts_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "email_contact_facts" f USING old_rows o WHERE f."contact_id" = o."id";
  PERFORM "email_shared_addresses_drop"(array_agg(o."email_key")) FROM old_rows o
  WHERE o."email_key" IN (SELECT "address" FROM "email_shared_addresses");
  RETURN NULL;
END $$;

CREATE TRIGGER "email_contact_facts_insert" AFTER INSERT ON "email_contacts"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "email_contact_facts_insert"();
CREATE TRIGGER "email_contact_facts_update" AFTER UPDATE ON "email_contacts"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "email_contact_facts_update"();
CREATE TRIGGER "email_contact_facts_delete" AFTER DELETE ON "email_contacts"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "email_contact_facts_delete"();

DO $$ BEGIN EXECUTE "email_contact_facts_sql"('SELECT * FROM "email_contacts"', false); END $$;
INSERT INTO "email_shared_addresses" ("address")
SELECT "email_key" FROM "email_contacts" GROUP BY 1 HAVING count(DISTINCT "address_book_id") > 1;

CREATE OR REPLACE FUNCTION "email_tracking_engagement"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One row per address, in address order (two writers lock the same rows in the same order).
  WITH engaged AS (
    INSERT INTO "email_address_engagement" AS e ("address", "engaged_rank", "first_engaged_at", "last_engaged_at")
    SELECT n."email", max(r.rank), min(least(n."opened_at", n."clicked_at")), max(greatest(n."opened_at", n."clicked_at"))
    FROM new_rows n
    JOIN old_rows o ON o."id" = n."id"
    CROSS JOIN LATERAL (SELECT "email_campaign_rank"(n."campaign_id"::integer) AS rank) r
    WHERE NOT n."test_mode" AND n."campaign_id" ~ '^[0-9]{1,9}$' AND r.rank IS NOT NULL
      AND ((n."opened_at" IS NOT NULL AND o."opened_at" IS NULL)
        OR (n."clicked_at" IS NOT NULL AND o."clicked_at" IS NULL))
    GROUP BY n."email"
    ORDER BY n."email"
    ON CONFLICT ("address") DO UPDATE SET
      "engaged_rank" = greatest(e."engaged_rank", excluded."engaged_rank"),
      "first_engaged_at" = least(e."first_engaged_at", excluded."first_engaged_at"),
      "last_engaged_at" = greatest(e."last_engaged_at", excluded."last_engaged_at")
    RETURNING e."address", e."engaged_rank"
  )
  -- The address's contacts through the contacts' (email_key, address_book_id) index: the facts
  -- need no index of their own on the address (each would cost every import).
  UPDATE "email_contact_facts" f SET "engaged_rank" = engaged."engaged_rank"
  FROM engaged JOIN "email_contacts" c ON c."email_key" = engaged."address"
  WHERE f."contact_id" = c."id" AND f."engaged_rank" IS DISTINCT FROM engaged."engaged_rank";
  RETURN NULL;
END $$;
