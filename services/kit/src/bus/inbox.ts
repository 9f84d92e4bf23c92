import type { SqlExecutor } from './outbox.ts';

/**
 * Records that `consumer` handled `eventId`, in the transaction of the handler's
 * effects. Returns false when it was already handled: the redelivery must do nothing.
 */
export async function claimEvent(tx: SqlExecutor, consumer: string, eventId: string): Promise<boolean> {
  const inserted = await tx.$executeRawUnsafe(
    'INSERT INTO "inbox_events" ("consumer", "event_id") VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING',
    consumer,
    eventId,
  );
  return inserted === 1;
}

/**
 * Forgets inbox ids older than `days`. An event can come back only while it is being retried
 * (the retry policy, hours) or when a relay that crashed between publishing and marking
 * publishes it again after JetStream's 10-minute duplicate window; a week outlasts both.
 */
export async function pruneInbox(
  pool: { query(sql: string, values: unknown[]): Promise<{ rowCount: number | null }> },
  days: number,
): Promise<number> {
  const res = await pool.query(
    `DELETE FROM "inbox_events" WHERE "processed_at" < now() - $1 * interval '1 day'`,
    [days],
  );
  return res.rowCount ?? 0;
}
