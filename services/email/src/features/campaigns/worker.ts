import { hostname } from 'node:os';
import { HttpError, type ServiceDeps } from '@parley/kit';
import type pg from 'pg';
import type { TokenSigner } from '../../shared/tokens.ts';
import type { Transports } from '../delivery/transports/index.ts';
import { SendError } from '../delivery/transports/transport.ts';
import type { Claimed, DeliveryRepository, Outcome, SendWindow } from './delivery.repository.ts';
import type { CampaignComposer, ComposedCampaignMail, Personal } from './domain/compose.ts';
import type { LaunchService } from './launch.service.ts';
import { composerFor, readSendContent } from './send-content.repository.ts';

type Logger = ServiceDeps['logger'];

/**
 * A replica's campaign sender: its work loops claim a batch of recipients (committed
 * 'sending' before the transport sees them), compose and send each at the configured rate,
 * and settle the batch (delivery.repository.ts); and the scheduler's tick, on every replica:
 * expired leases reaped, due scheduled sends dispatched (launch.service.ts), finished sends
 * completed. See docs/adr/0051-campaign-sends-claim-rows.md.
 */

export interface WorkerOptions {
  worker: boolean;
  ratePerSecond: number;
  batchSize: number;
  concurrency: number;
  leaseMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  pollMs: number;
  connectionFailures: number;
  /** The sliding window shared by all replicas (null: none). */
  window?: SendWindow | null;
}

/** What a send's messages are made with. */
interface SendContext {
  composer: CampaignComposer;
}

/** At most `perSecond` takes a second, spaced evenly (0: no limit). */
export class Throttle {
  private next = 0;
  constructor(private readonly perSecond: number) {}
  async take(): Promise<void> {
    if (!this.perSecond) return;
    const now = performance.now();
    const at = Math.max(now, this.next);
    this.next = at + 1000 / this.perSecond;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }
}

/** This replica's work loops (two, when CAMPAIGN_WORKER is on): claim, send, settle. */
export class SendWorker {
  readonly workerId = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  private halted = false;
  private loops: Promise<void>[] = [];
  /** Wakes the idle loops (a launch, a resume, a stop). */
  private readonly wakers = new Set<() => void>();
  private readonly throttle: Throttle;
  private readonly contexts = new Map<number, Promise<SendContext | null>>();
  /** Messages this replica handed to the transport (bench and tests). */
  handed = 0;
  private unusableLoggedAt = 0;

  constructor(
    private readonly deps: {
      pool: pg.Pool;
      logger: Logger;
      transports: Transports;
      signer: TokenSigner;
      origin: string;
      options: WorkerOptions;
      delivery: DeliveryRepository;
      /**
       * A recipient refused for good at send time (a 5xx to RCPT TO) bounced: the mail half
       * records the bounce on its tracking row and suppresses the address, as for any mail.
       */
      recordBounce?: (trackingId: string, address: string, reason: string, source: string) => Promise<void>;
    },
  ) {
    this.throttle = new Throttle(deps.options.ratePerSecond);
  }

  start(): void {
    // Two loops: while one claims or settles a batch in PostgreSQL, the other's messages keep
    // the transport busy (one loop alone left the SMTP connections idle between batches).
    if (this.deps.options.worker) this.loops.push(this.workLoop(), this.workLoop());
  }

  /** Set by stop(): the loops end after their batch, the scheduler's tick does nothing. */
  get stopped(): boolean {
    return this.halted;
  }

  async stop(): Promise<void> {
    this.halted = true;
    for (const wake of this.wakers) wake();
    await Promise.all(this.loops);
  }

  /** Wakes this replica's sender (a launch or a resume on this replica). */
  kick(): void {
    for (const wake of this.wakers) wake();
  }

  private async workLoop(): Promise<void> {
    while (!this.stopped) {
      let n = 0;
      try {
        n = await this.workOnce();
      } catch (err) {
        // A transport that cannot be used (the chosen one is not configured) fails every poll
        // until the admin fixes it: said once a minute, not twice a second.
        const unusable = err instanceof HttpError && err.statusCode === 503;
        if (!unusable || Date.now() - this.unusableLoggedAt > 60_000) {
          if (unusable) this.unusableLoggedAt = Date.now();
          this.deps.logger.warn({ err }, 'campaign batch failed');
        }
      }
      if (n === 0 && !this.stopped)
        await new Promise<void>((resolve) => {
          const wakers = this.wakers;
          const t = setTimeout(done, this.deps.options.pollMs);
          function done() {
            clearTimeout(t);
            wakers.delete(done);
            resolve();
          }
          wakers.add(done);
        });
    }
  }

  /** Claims one batch, sends it, settles it. Answers how many recipients it took. */
  async workOnce(): Promise<number> {
    const o = this.deps.options;
    // The transport first: if it cannot be had, nothing is claimed.
    const transport = await this.deps.transports.get();
    const batch = await this.deps.delivery.claim(this.workerId, o);
    if (!batch.length) return 0;
    // Committed: from here on, a crash leaves these rows 'sending' for the reaper (→ unknown).
    const outcomes: Outcome[] = [];
    const bounced: Array<{ trackingId: string; address: string; reason: string }> = [];
    let connectionFailures = 0;
    let next = 0;
    // Only SES's ids are looked up again (its notifications name them): others are not kept.
    const keepsId = transport.name === 'ses';
    const work = async () => {
      while (next < batch.length) {
        const r = batch[next++] as Claimed;
        const context = await this.sendContext(r.send_id);
        if (!context) {
          outcomes.push(outcome(r, 'failed', 'the campaign no longer exists', 0, 0));
          continue;
        }
        const { composer } = context;
        let mail: ComposedCampaignMail;
        try {
          // Dated by the claim, which the row keeps: Sent mail renders it again byte for byte.
          mail = await composer.compose(
            {
              email: r.email,
              firstName: r.first_name,
              lastName: r.last_name,
              company: r.company,
              attributes: r.attributes as Personal['attributes'],
            },
            r.tracking_id,
            r.sending_at,
          );
        } catch (err) {
          outcomes.push(outcome(r, 'failed', `could not compose: ${(err as Error).message}`, 0, 0));
          continue;
        }
        await this.throttle.take();
        try {
          this.handed++;
          const sent = await transport.send({ from: composer.from.address, to: [r.email] }, mail.raw);
          outcomes.push(outcome(r, 'sent', null, 0, 0, keepsId ? sent.providerMessageId : null));
        } catch (err) {
          const e = err instanceof SendError ? err : new SendError((err as Error).message, false);
          if (e.connection) {
            // Never handed over: back to pending, the attempt does not count.
            connectionFailures++;
            outcomes.push(outcome(r, 'pending', e.message, o.retryBaseMs, -1));
          } else if (e.permanent) {
            outcomes.push(outcome(r, 'failed', e.message, 0, 0));
            if (e.recipientRefused)
              bounced.push({ trackingId: r.tracking_id, address: r.email, reason: e.message });
          } else if (e.responseCode !== undefined && e.responseCode >= 400 && e.responseCode < 500) {
            // A temporary refusal: the server did not take it; retry later, a few times.
            if (r.attempts < o.maxAttempts)
              outcomes.push(outcome(r, 'pending', e.message, o.retryBaseMs * 2 ** (r.attempts - 1), 0));
            else outcomes.push(outcome(r, 'failed', `${e.message} (after ${r.attempts} attempts)`, 0, 0));
          } else {
            // No answer we can read (the connection dropped mid-message): it may have gone out.
            outcomes.push(outcome(r, 'unknown', `outcome unknown: ${e.message}`, 0, 0));
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(o.concurrency, batch.length) }, work));
    // Bounces first, while the rows are still 'sending' (so the send cannot complete before
    // they are recorded); the settle keeps a tracking row's 'bounced'.
    for (const b of bounced)
      await this.deps
        .recordBounce?.(b.trackingId, b.address, b.reason, `${transport.name}-dsn`)
        .catch((err) => this.deps.logger.warn({ err, trackingId: b.trackingId }, 'bounce not recorded'));
    await this.deps.delivery.settle(this.workerId, outcomes, transport.name);
    if (connectionFailures >= Math.min(o.connectionFailures, batch.length))
      await this.deps.delivery.block(
        `connection failure: ${outcomes.find((x) => x.status === 'pending')?.error ?? 'no connection'}`,
      );
    await this.completeFinished([...new Set(batch.map((b) => b.send_id))]);
    return batch.length;
  }

  /** A send's composer (from the content kept on the send). */
  private sendContext(sendId: number): Promise<SendContext | null> {
    let c = this.contexts.get(sendId);
    if (!c) {
      c = (async () => {
        const content = await readSendContent(this.deps.pool, sendId);
        if (!content) return null;
        return { composer: composerFor(content, { origin: this.deps.origin, signer: this.deps.signer }) };
      })();
      c.catch(() => this.contexts.delete(sendId));
      this.contexts.set(sendId, c);
      if (this.contexts.size > 100) this.contexts.delete(this.contexts.keys().next().value as number);
    }
    return c;
  }

  /** Completes finished sends (delivery.repository.ts), forgetting their composers. */
  completeFinished(sendIds?: number[]): Promise<number> {
    return this.deps.delivery.completeFinished(sendIds, (id) => this.contexts.delete(id));
  }
}

/**
 * The scheduler's pass (a job on every replica, every CAMPAIGN_TICK_MS): expired leases
 * reaped, due scheduled sends dispatched, finished sends completed. Each step is safe on
 * several replicas at once (row locks, conditional updates).
 */
export class CampaignScheduler {
  constructor(
    private readonly parts: {
      worker: SendWorker;
      delivery: DeliveryRepository;
      launches: Pick<LaunchService, 'dispatchDue'>;
    },
  ) {}

  async tick(): Promise<void> {
    if (this.parts.worker.stopped) return;
    await this.parts.delivery.reap();
    await this.parts.launches.dispatchDue();
    await this.parts.worker.completeFinished();
  }
}

function outcome(
  r: Claimed,
  status: Outcome['status'],
  error: string | null,
  delayMs: number,
  attemptAdj: number,
  providerId: string | null = null,
): Outcome {
  return {
    id: r.id,
    status,
    error,
    delayMs,
    attemptAdj,
    trackingId: r.tracking_id,
    sendId: r.send_id,
    providerId,
  };
}
