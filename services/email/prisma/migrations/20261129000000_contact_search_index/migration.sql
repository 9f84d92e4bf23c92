-- Contains-search gets its own table, kept up to date just behind the writes.
--
-- The trigram index made every write of a contact pay for about 60 index entries: most of a
-- 100,000-row import (2.9 s with it, 1.2 s without; docs/benchmarks.md "import"). Now a write
-- of a contact's name, address or company only queues its id (email_contact_search_pending,
-- in the same transaction, set-based by the triggers below), and the email service's indexer
-- copies queued contacts into email_contact_search, which holds the trigram index, in batches
-- shortly after. A search reads the index for the contacts indexed and checks the queued ones
-- directly, so every contact is found from the moment it is committed; only the speed of a
-- search waits for the indexer (services/email/src/repo/contacts.repository.ts).

CREATE TABLE "email_contact_search" (
    "contact_id" BIGINT NOT NULL,
    "search_text" TEXT COLLATE "C" NOT NULL,

    CONSTRAINT "email_contact_search_pkey" PRIMARY KEY ("contact_id")
);

-- A contact is queued once per write that changed its search text. No uniqueness on purpose: a
-- contact written again while the indexer holds its earlier entry gets a new entry, so the
-- indexer never removes an entry newer than the text it read.
CREATE TABLE "email_contact_search_pending" (
    "seq" BIGSERIAL NOT NULL,
    "contact_id" BIGINT NOT NULL,

    CONSTRAINT "email_contact_search_pending_pkey" PRIMARY KEY ("seq")
);

INSERT INTO "email_contact_search" ("contact_id", "search_text")
  SELECT "id", "search_text" FROM "email_contacts";
CREATE INDEX "email_contact_search_trgm_idx" ON "email_contact_search" USING GIN ("search_text" gin_trgm_ops);
DROP INDEX "email_contacts_search_trgm_idx";

CREATE FUNCTION "email_contacts_search_queue_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "email_contact_search_pending" ("contact_id") SELECT "id" FROM new_rows;
  RETURN NULL;
END;
$$;

CREATE FUNCTION "email_contacts_search_queue_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "email_contact_search_pending" ("contact_id")
    SELECT n."id" FROM new_rows n JOIN old_rows o ON o."id" = n."id"
    WHERE n."search_text" IS DISTINCT FROM o."search_text";
  RETURN NULL;
END;
$$;

-- A deleted contact leaves the index at once (its queued entries are dropped by the indexer,
-- which finds no contact for them).
CREATE FUNCTION "email_contacts_search_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "email_contact_search" s USING old_rows o WHERE s."contact_id" = o."id";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "email_contacts_search_queue_insert" AFTER INSERT ON "email_contacts"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "email_contacts_search_queue_insert"();
CREATE TRIGGER "email_contacts_search_queue_update" AFTER UPDATE ON "email_contacts"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "email_contacts_search_queue_update"();
CREATE TRIGGER "email_contacts_search_delete" AFTER DELETE ON "email_contacts"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "email_contacts_search_delete"();
