import { randomUUID } from 'node:crypto';
import { inTransaction, publicOriginOf, type ServiceDeps } from '@parley/kit';
import type pg from 'pg';

type Logger = ServiceDeps['logger'];

import {
  DEFAULT_FROM_EMAIL,
  DEFAULT_FROM_NAME,
  DEFAULT_SUPPORT_EMAIL,
  type EmailConfig,
} from '../../config.ts';
import type { EmailDb } from '../../db.ts';
import { newTrackingId, type TokenSigner } from '../../shared/tokens.ts';
import { addTracking } from '../tracking/domain/tracking.ts';
import { recordOutcome } from '../tracking/tracking.repository.ts';
import type { Brand } from './domain/messages.ts';
import { type Address, composeMime, newMessageId } from './domain/mime.ts';
import { type MailContent, renderMail } from './domain/templates.ts';
import type { MailRepository, NewMail } from './mail.repository.ts';
import { type SettingsCopy, testModeOf } from './settings-copy.repository.ts';
import type { Suppress } from './suppress.ts';
import type { Transports } from './transports/index.ts';
import { SendError } from './transports/transport.ts';

export interface MailRequest {
  kind: string;
  to: Address;
  content: Omit<MailContent, 'brand' | 'unsubscribeUrl'>;
  /** One message per key: a redelivered event finds it recorded and sends nothing new. */
  dedupeKey?: string;
  eventId?: string;
  campaignId?: string;
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
  /** Marketing mail: List-Unsubscribe (with one-click when https) and the visible link. */
  marketing?: boolean;
  /** Rewrites links to the click route and adds the open pixel. */
  track?: boolean;
  autoSubmitted?: boolean;
  replyTo?: string;
  testMode?: { originalRecipients: number };
}

export type DeliveryResult = 'sent' | 'failed' | 'deferred' | 'skipped';

/**
 * Composes, records and sends mail. Composing renders the template, signs the links and
 * builds the MIME once; recording stores it (the local mailbox and the record of the send);
 * delivering claims a recorded message and hands its bytes to the current transport.
 */
export class Mailer {
  constructor(
    private readonly deps: {
      db: EmailDb;
      pool: pg.Pool;
      config: EmailConfig;
      settings: SettingsCopy;
      transports: Transports;
      mail: MailRepository;
      signer: TokenSigner;
      suppress: Suppress;
      logger: Logger;
    },
  ) {}

  get origin(): string {
    return publicOriginOf(this.deps.config);
  }

  async brand(): Promise<Brand> {
    const view = await this.deps.settings.view();
    return {
      name: view.get('brand_name') ?? 'Parley',
      website: view.get('website_url') ?? this.origin,
    };
  }

  async sender(): Promise<Address> {
    const view = await this.deps.settings.view();
    return {
      name: view.get('smtp_from_name') ?? this.deps.config.MAIL_FROM_NAME ?? DEFAULT_FROM_NAME,
      address: view.get('smtp_from_email') ?? this.deps.config.MAIL_FROM_EMAIL ?? DEFAULT_FROM_EMAIL,
    };
  }

  /**
   * Test mode as the settings say (`test_environment_enabled`, `test_email_addresses`): when on,
   * campaign sends go to the test addresses only, marked with the original recipient count
   * (MailRequest.testMode). Transactional mail is never redirected.
   */
  async testMode(): Promise<{ enabled: boolean; addresses: string[] }> {
    return testModeOf(await this.deps.settings.view());
  }

  /** Where notifications for the team go: support_email, else SUPPORT_EMAIL, else the sales address. */
  async supportAddress(): Promise<string> {
    const view = await this.deps.settings.view();
    return view.get('support_email') ?? this.deps.config.SUPPORT_EMAIL ?? DEFAULT_SUPPORT_EMAIL;
  }

  async compose(req: MailRequest): Promise<NewMail> {
    const [from, brand] = await Promise.all([this.sender(), this.brand()]);
    const trackingId = newTrackingId();
    const messageId = newMessageId(from.address);
    const unsubscribeUrl = req.marketing
      ? `${this.origin}/api/unsubscribe/${this.deps.signer.sign('unsubscribe', trackingId)}`
      : undefined;
    const rendered = await renderMail({ ...req.content, brand: brand.name, unsubscribeUrl });
    const html = req.track
      ? addTracking(rendered.html, { origin: this.origin, trackingId, signer: this.deps.signer }).html
      : rendered.html;
    const raw = await composeMime({
      from,
      to: req.to,
      subject: rendered.subject,
      html,
      text: rendered.text,
      messageId,
      ...(req.replyTo ? { replyTo: req.replyTo } : {}),
      ...(unsubscribeUrl ? { listUnsubscribe: { url: unsubscribeUrl } } : {}),
      ...(req.calendar ? { calendar: req.calendar } : {}),
      ...(req.autoSubmitted ? { autoSubmitted: true } : {}),
      ...(req.testMode ? { testMode: req.testMode } : {}),
    });
    return {
      id: randomUUID(),
      messageId,
      kind: req.kind,
      dedupeKey: req.dedupeKey ?? null,
      eventId: req.eventId ?? null,
      campaignId: req.campaignId ?? null,
      fromAddress: from.address,
      toAddress: req.to.address,
      subject: rendered.subject,
      html,
      text: rendered.text,
      raw,
      hasCalendar: Boolean(req.calendar),
      marketing: Boolean(req.marketing),
      testMode: Boolean(req.testMode),
      trackingId,
    };
  }

  /**
   * Sends one recorded message if it is still pending; never throws for a send failure.
   * `retry: false` (an admin's test send, which nothing retries) records a temporary failure
   * as failed instead of leaving the message pending.
   */
  async deliver(
    id: string,
    opts: { retry?: boolean } = {},
  ): Promise<{ result: DeliveryResult; error?: string }> {
    // The transport first: if it cannot be had, the message stays pending (not claimed).
    const transport = await this.deps.transports.get();
    const claimed = await this.deps.mail.claim(id);
    if (!claimed) return { result: 'skipped' };
    try {
      const sent = await transport.send({ from: claimed.fromAddress, to: [claimed.toAddress] }, claimed.raw);
      await this.deps.mail.markSent(id, transport.name, sent.providerMessageId);
      return { result: 'sent' };
    } catch (err) {
      const e = err instanceof SendError ? err : new SendError((err as Error).message, false);
      if (!e.permanent && opts.retry === false) {
        await this.deps.mail.markFailed(id, transport.name, e.message, 'failed');
        return { result: 'failed', error: e.message };
      }
      if (!e.permanent) {
        await this.deps.mail.markDeferred(id, transport.name, e.message);
        this.deps.logger.warn(
          { mailId: id, transport: transport.name, code: e.responseCode, error: e.message },
          'send failed for now; will retry',
        );
        return { result: 'deferred', error: e.message };
      }
      if (!e.recipientRefused) {
        // Refused for the message or the sender (SES MessageRejected, a 554 after DATA): not
        // the recipient's fault, so no bounce against the address.
        await this.deps.mail.markFailed(id, transport.name, e.message, 'failed');
        this.deps.logger.warn(
          { mailId: id, transport: transport.name, error: e.message },
          'message refused permanently',
        );
        return { result: 'failed', error: e.message };
      }
      // A permanent refusal of the recipient at send time is this message's DSN: it bounced.
      await this.recordBounce(claimed.trackingId, claimed.toAddress, e.message, `${transport.name}-dsn`);
      await this.deps.mail.markFailed(id, transport.name, e.message, 'bounced');
      this.deps.logger.warn(
        { mailId: id, transport: transport.name, code: e.responseCode },
        'recipient refused permanently; recorded as bounced',
      );
      return { result: 'failed', error: e.message };
    }
  }

  async recordBounce(trackingId: string | null, address: string, reason: string, source: string) {
    await this.deps.suppress(address.toLowerCase(), 'bounced', source);
    await inTransaction(this.deps.pool, (client) =>
      recordOutcome(client, { trackingId, address, outcome: 'bounce', reason, source }),
    );
  }

  /** Sends every pending message of an event; throws while some could not be sent yet (retry). */
  async deliverEvent(eventId: string): Promise<{ sent: number; failed: number }> {
    const ids = await this.deps.mail.pendingOfEvent(eventId);
    let sent = 0;
    let failed = 0;
    const deferred: string[] = [];
    for (const id of ids) {
      const r = await this.deliver(id);
      if (r.result === 'sent') sent++;
      else if (r.result === 'failed') failed++;
      else if (r.result === 'deferred') deferred.push(r.error ?? 'temporary failure');
    }
    if (deferred.length)
      throw new Error(
        `${deferred.length} message(s) not sent yet (${deferred[0]}); the event will be retried`,
      );
    return { sent, failed };
  }

  /** Composes, records and sends at once (settings test mails); answers per message. */
  async sendNow(
    requests: MailRequest[],
  ): Promise<Array<{ id: string; to: string; result: DeliveryResult; error?: string; trackingId: string }>> {
    const mails = await Promise.all(requests.map((r) => this.compose(r)));
    await this.deps.db.$transaction((tx) => this.deps.mail.insert(tx, mails));
    return Promise.all(
      mails.map(async (m) => ({
        id: m.id,
        to: m.toAddress,
        trackingId: m.trackingId,
        ...(await this.deliver(m.id, { retry: false })),
      })),
    );
  }
}
