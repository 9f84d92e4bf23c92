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
