-- Deleting tracking rows failed: "relation new_rows does not exist". The insert-only early exit
-- of 20261202000200 named new_rows in an expression PL/pgSQL plans whatever the operation, and a
-- DELETE trigger has no new rows. The test is now nested, so only an INSERT plans it. Nothing in
-- the service deleted tracking rows, so no figure was ever wrong; an operator's retention
-- DELETE was refused (the segments test deletes its rows and caught it).
CREATE OR REPLACE FUNCTION "email_tracking_rollups"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  source text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS s, n.* FROM new_rows n'
    WHEN 'DELETE' THEN 'SELECT -1 AS s, o.* FROM old_rows o'
    ELSE 'SELECT 1 AS s, n.* FROM new_rows n UNION ALL SELECT -1, o.* FROM old_rows o' END;
  q text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (
      SELECT 1 FROM new_rows n
      WHERE n."sent_at" IS NOT NULL OR n."bounced_at" IS NOT NULL OR n."status" = 'failed'
         OR n."opened_at" IS NOT NULL OR n."proxy_opened_at" IS NOT NULL OR n."clicked_at" IS NOT NULL
         OR n."unsubscribed_at" IS NOT NULL
    ) THEN
      RETURN NULL;
    END IF;
  END IF;
  FOREACH q IN ARRAY "email_rollups_sql"(source, false) LOOP
    EXECUTE q;
  END LOOP;
  RETURN NULL;
END $$;
