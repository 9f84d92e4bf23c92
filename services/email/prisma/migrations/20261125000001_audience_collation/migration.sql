-- Audience: the address key and the search text compare byte-wise. Both are lower-cased
-- already (addresses are ASCII once normalised), so the "C" collation gives the same answers
-- and spares every comparison of the unique index and of an import's sort the locale's rules.
ALTER TABLE "email_contacts" ALTER COLUMN "email_key" TYPE text COLLATE "C";
ALTER TABLE "email_contacts" ALTER COLUMN "search_text" TYPE text COLLATE "C";
