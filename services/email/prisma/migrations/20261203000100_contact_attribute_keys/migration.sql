-- The attribute names in use (docs/adr/0069-contact-edit-and-attributes.md), for the editors'
-- merge-field menu: written by the contact edit in its own transaction, never scanned for.
-- A name stays listed after its last contact drops it (a known name, not a live count). Its
-- kind is one of text, number, boolean (the code writes typeof of the value; Prisma has no CHECK).
CREATE TABLE "email_contact_attribute_keys" (
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_contact_attribute_keys_pkey" PRIMARY KEY ("key")
);
