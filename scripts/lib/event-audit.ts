/**
 * The event audit trail, on with PARLEY_EVENT_AUDIT=true: a durable consumer of every subject
 * of the catalogue that records each event ONCE (the kit's inbox) in its own database
 * (`parley_audit`), with the delivery that applied it and how many redeliveries followed. For
 * an operator asking "did every event arrive, and how often was it delivered", and the evidence
 * of the fault tests (scripts/test/faults.int.test.ts). It uses the same consumer machinery as
 * the services: retries with backoff, dead letters.
 *
 * PARLEY_EVENT_AUDIT_FAIL_FILE names a file whose existence makes its handler fail: the fault
 * tests' "a consumer whose dependency is down" switch.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENTS, type EventSubject } from '@parley/contracts';
import {
  busConsumer,
  claimEvent,
  createPool,
  DeadLetterReplayer,
  DeadLetters,
  type EventBus,
  ensureDatabase,
  type Logger,
  migrate,
  pgExecutor,
  retryPolicyFrom,
} from '@parley/kit';
import { withDatabase } from '@parley/kit/local';

const MIGRATIONS = fileURLToPath(new URL('./audit-migrations', import.meta.url));
const DURABLE = 'audit-trail';

export async function startEventAudit(opts: {
  bus: EventBus;
  adminUrl: string;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
}): Promise<{ stop(): Promise<void> }> {
  const env = opts.env ?? process.env;
  await ensureDatabase(opts.adminUrl, 'parley_audit');
  const url = withDatabase(opts.adminUrl, 'parley_audit');
  await migrate(url, MIGRATIONS);
  const pool = createPool(url, 4);
  const failFile = env.PARLEY_EVENT_AUDIT_FAIL_FILE;
  const deadLetters = new DeadLetters(pool);
  const replayer = new DeadLetterReplayer(deadLetters, opts.logger);
  const policy = retryPolicyFrom({
    ...(env.EVENT_RETRY_HOURS ? { EVENT_RETRY_HOURS: Number(env.EVENT_RETRY_HOURS) } : {}),
    ...(env.EVENT_RETRY_MAX_DELAY_SECONDS
      ? { EVENT_RETRY_MAX_DELAY_SECONDS: Number(env.EVENT_RETRY_MAX_DELAY_SECONDS) }
      : {}),
  });
  const sub = await opts.bus.subscribe(
    busConsumer(
      {
        durable: DURABLE,
        subjects: Object.keys(EVENTS) as EventSubject[],
        handler: async (event, { deliveryCount }) => {
          if (failFile && existsSync(failFile))
            throw new Error('the audit trail is switched to failing (fault test)');
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            if (await claimEvent(pgExecutor(client), DURABLE, event.id)) {
              await client.query(
                `INSERT INTO audit_events (event_id, subject, key, occurred_at, first_delivery, payload)
                 VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
                [
                  event.id,
                  event.subject,
                  event.key ?? null,
                  event.occurredAt,
                  deliveryCount,
                  JSON.stringify(event.payload),
                ],
              );
            } else {
              await client.query(
                'UPDATE audit_events SET redeliveries = redeliveries + 1 WHERE event_id = $1',
                [event.id],
              );
            }
            await client.query('COMMIT');
          } catch (err) {
            await client.query('ROLLBACK').catch(() => {});
            throw err;
          } finally {
            client.release();
          }
        },
      },
      { logger: opts.logger, policy, deadLetters, replayer },
    ),
  );
  replayer.start();
  opts.logger.info('event audit trail on (database parley_audit)');
  return {
    async stop() {
      await sub.stop();
      await replayer.stop();
      await pool.end();
    },
  };
}
