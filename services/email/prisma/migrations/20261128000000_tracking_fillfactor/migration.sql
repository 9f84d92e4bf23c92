-- A tracking row is written when its mail is queued, updated when the mail is settled (sent,
-- failed, bounced) and again on every open and click. None of those updates changes an indexed
-- column, so when the row's page has room PostgreSQL keeps the new version there (a HOT update)
-- and adds nothing to the table's five indexes. A sender settles a whole batch in one
-- transaction, so a page must take a second version of each of its rows: half of every page is
-- left free. Measured with `pnpm bench send` (docs/benchmarks.md): 0 of 50,000 settle updates
-- were HOT before, 46,792 after, and one worker sent 12–19 % more per second.
ALTER TABLE "email_tracking" SET (fillfactor = 50);
