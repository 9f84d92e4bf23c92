-- The text encoding an import read its CSV in (detected, or chosen in the import dialog).
ALTER TABLE "email_imports" ADD COLUMN "encoding" TEXT;
