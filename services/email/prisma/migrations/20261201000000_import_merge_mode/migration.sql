-- What an import does with contacts already in the book: fill their empty fields only (the
-- default, which never loses a value), overwrite them with the file's values, or skip them.
-- Imports before this one overwrote.
ALTER TABLE "email_imports" ADD COLUMN "merge_mode" TEXT NOT NULL DEFAULT 'fill';
UPDATE "email_imports" SET "merge_mode" = 'overwrite';
