import { CAMPAIGN_MESSAGES, MAX_CAMPAIGNS_PER_HOUR, plural, type SendSegment } from '@parley/contracts';
import { HttpError, inTransaction, type ServiceDeps } from '@parley/kit';
import type pg from 'pg';
import { type SettingsCopy, testModeOf } from '../delivery/settings-copy.repository.ts';
import { type Audience, countLive, missingFieldCounts, resolveRecipients } from './audience.repository.ts';
import { type MailContentParts, type MergeCheck, mergeCheckOf } from './domain/merge-check.ts';
import {
  blockedUntil,
  campaignForChange,
  campaignForLaunch,
  cancelCampaign,
  cancelEmptyDueSend,
  cancelSend,
  insertSend,
  liveSendsInLastHour,
  lockLaunches,
  lockSend,
  markCampaignLaunched,
  moveCampaignOnDispatch,
  nextDueSend,
  pauseCampaign,
  resumeCampaign,
  setSendTotals,
  startDueSend,
  unscheduleCampaign,
} from './launch.repository.ts';
import { keepSendContent } from './send-content.repository.ts';

type Logger = ServiceDeps['logger'];

/**
 * Launching campaign sends, on any replica (docs/adr/0051-campaign-sends-claim-rows.md):
 *
 * - launch: one transaction resolves the recipients set-based (audience.repository.ts) into
 *   email_campaign_recipients, with their tracking rows; the hourly limit and the cooling
 *   period are checked under a transaction-scoped advisory lock, so two replicas launching at
 *   once cannot both pass the limit.
 * - dispatch: the scheduler's due scheduled sends (row lock + status change in one
 *   transaction: exactly one dispatch, whatever the number of replicas), under the same lock.
 * - pause, resume, cancel.
 *
 * The workers (worker.ts) then claim and send the recipients (delivery.repository.ts). The
 * SQL of all this is in launch.repository.ts; the transactions are here.
 */

export interface LaunchRequest extends Audience {
  kind: 'send' | 'resend';
  testRequested: boolean;
}

export interface LaunchResult {
  sendId: number;
  scheduled: boolean;
  testMode: boolean;
  recipients: number;
  originalRecipients: number;
}

export class LaunchService {
  constructor(
    private readonly deps: {
      pool: pg.Pool;
      logger: Logger;
      settings: SettingsCopy;
      /** Live sends (send or resend) allowed per rolling hour, all replicas together (spec §9: 2). */
      liveSendsPerHour?: number;
      /** This replica's worker, named in the log of a dispatch. */
      workerId: string;
      /** Wakes this replica's workers (a launch, a dispatch, a resume). */
      kick: () => void;
      /** Completes the sends with nothing left to send (a resumed send whose last rows settled). */
      completeFinished: () => Promise<unknown>;
    },
  ) {}

  async launch(campaignId: number, req: LaunchRequest): Promise<LaunchResult> {
    // Test mode as saved now (not as this replica last cached it): it decides who gets mail.
    const testSettings = testModeOf(await this.deps.settings.fresh());
    const testMode = testSettings.enabled || req.testRequested;
    const result = await inTransaction(this.deps.pool, async (client) => {
      await lockLaunches(client);
      const c = await campaignForLaunch(client, campaignId);
      if (!c) throw new HttpError(404, 'Campaign not found');
      if (req.kind === 'send' && c.status !== 'draft')
        throw new HttpError(409, `${CAMPAIGN_MESSAGES.notDraft}: this campaign is ${c.status}`);
      if (req.kind === 'resend' && c.status !== 'sent' && c.status !== 'cancelled')
        throw new HttpError(409, `Only sent campaigns can be resent: this campaign is ${c.status}`);
      await assertNotBlocked(client);
      // A test send the admin asked for goes now; a launch of a scheduled draft waits for its
      // time (and test mode, as saved then, decides at dispatch).
      const scheduled =
        req.kind === 'send' &&
        !req.testRequested &&
        c.scheduled_at !== null &&
        c.scheduled_at.getTime() > Date.now();
      if (!scheduled && !testMode) await assertUnderHourlyLimit(client, this.deps.liveSendsPerHour);
      const sendId = await insertSend(client, {
        campaignId,
        kind: req.kind,
        status: scheduled ? 'scheduled' : 'sending',
        testMode,
        live: !testMode,
        addressBookIds: req.addressBookIds,
        contactIds: req.contactIds,
        scheduledAt: scheduled ? c.scheduled_at : null,
        startedAt: scheduled ? null : new Date(),
        allContacts: req.allContacts === true,
        companies: req.companies ?? [],
        segments: req.segments ?? [],
      });
      // Its mails are made from the content as it is now, whatever happens to the campaign later.
      await keepSendContent(client, sendId);
      let counts: { total: number; original: number };
      if (scheduled) {
        // Resolved at dispatch (contacts may change until then); checked now so the admin hears of it.
        const original = await countLive(client, req);
        counts = { total: testMode ? testSettings.addresses.length : original, original };
      } else {
        counts = await resolveRecipients(client, sendId, campaignId, req, testMode, testSettings.addresses);
      }
      if (counts.total === 0)
        throw testMode && counts.original > 0
          ? new HttpError(400, `${CAMPAIGN_MESSAGES.noContacts}: ${CAMPAIGN_MESSAGES.noTestAddresses}`)
          : noContacts(req.kind, testMode);
      await setSendTotals(client, sendId, counts);
      // A test-mode send leaves the campaign as it was (a draft stays a draft, editable and
      // launchable; a sent campaign stays sent): it is listed apart (testSends), never current.
      if (scheduled || !testMode)
        await markCampaignLaunched(client, campaignId, sendId, scheduled ? 'scheduled' : 'sending');
      return {
        sendId,
        scheduled,
        testMode,
        recipients: counts.total,
        originalRecipients: counts.original,
      };
    });
    this.deps.kick();
    return result;
  }

  /**
   * The pre-send check of merge fields for `content` and `audience`: which optional fields the
   * mail uses without a fallback and how many of the real recipients lack each; with test
   * mode as saved now (asked for, or the setting), what the test addresses will see.
   */
  async mergeCheck(
    content: MailContentParts,
    audience: Audience,
    testRequested: boolean,
  ): Promise<MergeCheck> {
    const test = testModeOf(await this.deps.settings.fresh());
    const counts = await missingFieldCounts(this.deps.pool, audience);
    return mergeCheckOf(content, counts, {
      testMode: test.enabled || testRequested,
      testAddresses: test.addresses.length,
    });
  }

  /** Dispatches due scheduled sends: each by exactly one replica. Answers how many went. */
  async dispatchDue(): Promise<number> {
    let dispatched = 0;
    for (;;) {
      const went = await inTransaction(this.deps.pool, async (client) => {
        await lockLaunches(client);
        const s = await nextDueSend(client);
        if (!s) return 'none' as const;
        try {
          await assertNotBlocked(client);
          if (!s.test_mode) await assertUnderHourlyLimit(client, this.deps.liveSendsPerHour);
        } catch (err) {
          this.deps.logger.warn(
            { sendId: s.id, campaignId: s.campaign_id, reason: (err as Error).message },
            'scheduled campaign is due but held back; retried on the next tick',
          );
          return 'held' as const;
        }
        const test = testModeOf(await this.deps.settings.fresh());
        const testMode = s.test_mode || test.enabled;
        const counts = await resolveRecipients(
          client,
          s.id,
          s.campaign_id,
          {
            addressBookIds: s.address_book_ids,
            contactIds: s.contact_ids.map(Number),
            allContacts: s.all_contacts,
            companies: s.companies ?? [],
            segments: s.segments as SendSegment[],
          },
          testMode,
          test.addresses,
        );
        if (counts.total === 0) {
          await cancelEmptyDueSend(client, s.id, s.campaign_id);
          this.deps.logger.warn(
            { campaignId: s.campaign_id },
            'scheduled campaign had no recipients; back to draft',
          );
          return 'went' as const;
        }
        await startDueSend(client, s.id, testMode, counts);
        // Dispatched in test mode, nothing reached the audience: the campaign is a draft again
        // (its time used up), to be launched for real later.
        await moveCampaignOnDispatch(client, s.campaign_id, s.id, testMode);
        this.deps.logger.info(
          { campaignId: s.campaign_id, sendId: s.id, recipients: counts.total, worker: this.deps.workerId },
          'scheduled campaign dispatched',
        );
        return 'went' as const;
      });
      if (went !== 'went') break;
      dispatched++;
    }
    if (dispatched) this.deps.kick();
    return dispatched;
  }

  // ── pause / resume / cancel ─────────────────────────────────────────────────

  async pause(campaignId: number): Promise<void> {
    await inTransaction(this.deps.pool, async (client) => {
      const c = await lockCampaign(client, campaignId);
      if (c.status !== 'sending')
        throw new HttpError(409, `Only a sending campaign can be paused: this campaign is ${c.status}`);
      await pauseCampaign(client, campaignId, c.current_send_id);
    });
  }

  async resume(campaignId: number): Promise<void> {
    await inTransaction(this.deps.pool, async (client) => {
      const c = await lockCampaign(client, campaignId);
      if (c.status !== 'paused')
        throw new HttpError(409, `Only a paused campaign can be resumed: this campaign is ${c.status}`);
      await assertNotBlocked(client);
      await resumeCampaign(client, campaignId, c.current_send_id);
    });
    this.deps.kick();
    // A send whose last rows settled while it was paused completes now.
    await this.deps.completeFinished();
  }

  /** Scheduled: back to draft, its time cleared. Sending or paused: cancelled; what went out stays sent. */
  async cancel(campaignId: number): Promise<void> {
    await inTransaction(this.deps.pool, async (client) => {
      const c = await lockCampaign(client, campaignId);
      if (!['scheduled', 'sending', 'paused'].includes(c.status))
        throw new HttpError(
          409,
          `Only a scheduled, sending or paused campaign can be cancelled: this campaign is ${c.status}`,
        );
      // The send's row first: a settle in flight holds it (share) until it commits, so the count
      // below sees what it settled; a settle after this sees the send cancelled and counts again.
      await lockSend(client, c.current_send_id);
      await cancelSend(client, c.current_send_id);
      if (c.status === 'scheduled') {
        // Unscheduled: a draft with no time left on it (a stale time read as still scheduled).
        await unscheduleCampaign(client, campaignId);
      } else {
        await cancelCampaign(client, campaignId, c.current_send_id);
      }
    });
  }
}

/** The campaign's row locked for a pause, a resume or a cancel; a 404 if there is none. */
async function lockCampaign(client: pg.PoolClient, id: number) {
  const c = await campaignForChange(client, id);
  if (!c) throw new HttpError(404, 'Campaign not found');
  return c;
}

async function assertNotBlocked(client: pg.PoolClient): Promise<void> {
  const until = await blockedUntil(client);
  if (until)
    throw new HttpError(429, `${CAMPAIGN_MESSAGES.blocked} (until ${until.toISOString()})`, {
      'retry-after': String(Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000))),
    });
}

async function assertUnderHourlyLimit(client: pg.PoolClient, limit = MAX_CAMPAIGNS_PER_HOUR): Promise<void> {
  const r = await liveSendsInLastHour(client);
  if (r && r.n >= limit) {
    const wait = r.first ? Math.max(1, Math.ceil((r.first.getTime() + 3600_000 - Date.now()) / 1000)) : 3600;
    throw new HttpError(
      429,
      // The spec's text at the spec's limit; an operator's other limit is named as it is.
      `${limit === MAX_CAMPAIGNS_PER_HOUR ? CAMPAIGN_MESSAGES.frequency : `Maximum ${limit} campaigns per hour`}: try again in ${plural(Math.ceil(wait / 60), 'minute')}`,
      { 'retry-after': String(wait) },
    );
  }
}

function noContacts(kind: 'send' | 'resend', testMode: boolean): HttpError {
  const detail =
    kind === 'resend'
      ? CAMPAIGN_MESSAGES.noContactsResend
      : testMode
        ? CAMPAIGN_MESSAGES.noContactsTest
        : CAMPAIGN_MESSAGES.noContactsLive;
  return new HttpError(400, `${CAMPAIGN_MESSAGES.noContacts}: ${detail}`);
}
