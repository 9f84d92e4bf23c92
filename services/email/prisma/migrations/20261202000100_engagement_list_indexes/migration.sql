-- The engagement report's lists (the newest openers, clickers and proxy fetches of a campaign,
-- at most 1,000 each) read a campaign's rows in that order from these, instead of sorting all
-- its mails: at 400,000 mails a campaign, 24 s became a few milliseconds a list (`pnpm bench
-- analytics`, docs/benchmarks.md). Each is partial, so a mail enters it once, on its first open,
-- click or proxy fetch (that update is not HOT; the later ones stay HOT, ADR 0067).
CREATE INDEX "email_tracking_opened_idx" ON "email_tracking" ("campaign_id", "test_mode", "opened_at" DESC, "id")
  WHERE "opened_at" IS NOT NULL;
CREATE INDEX "email_tracking_clicked_idx" ON "email_tracking" ("campaign_id", "test_mode", "clicked_at" DESC, "id")
  WHERE "clicked_at" IS NOT NULL;
CREATE INDEX "email_tracking_proxy_opened_idx" ON "email_tracking" ("campaign_id", "test_mode", "proxy_opened_at" DESC, "id")
  WHERE "proxy_opened_at" IS NOT NULL;
