import {
  DEFAULT_SENT_MAIL_RETENTION_DAYS,
  type SettingsApplyReply,
  SettingsApplyRequest,
  type SettingsCheckReply,
  SettingsCheckRequest,
  settingsApplySubject,
  settingsCheckSubject,
} from '@parley/contracts';
import { parseSecretKey, type ServiceInstance } from '@parley/kit';
import { Value } from 'typebox/value';
import type { EmailContext } from '../../context.ts';
import { copyDurable } from '../../shared/copy-state.repository.ts';
import { TokenSigner } from '../../shared/tokens.ts';
import { MailRepository } from './mail.repository.ts';
import { Mailer } from './mailer.service.ts';
import { SentMailRepository } from './sent-mail.repository.ts';
import { type CampaignMailRenderer, outboxRoutes } from './sent-mail.routes.ts';
import { SettingsCopy } from './settings-copy.repository.ts';
import { audienceSuppress, type Suppress } from './suppress.ts';
import { testMailRoutes } from './test-mail.routes.ts';
import { registerTransactional } from './transactional.service.ts';
import { transportRoutes } from './transport.routes.ts';
import { Transports } from './transports/index.ts';

/** What the rest of the service (and tests) may use of delivery. */
export interface DeliveryHandle {
  mailer: Mailer;
  transports: Transports;
  settings: SettingsCopy;
  mail: MailRepository;
  signer: TokenSigner;
  suppress: Suppress;
}

/** Mail delivery (SMTP, SES, local mailbox), transactional mails, Sent mail and test mail. */
export async function registerDelivery(app: ServiceInstance, ctx: EmailContext): Promise<DeliveryHandle> {
  const { deps, db } = ctx;
  const config = deps.config;
  const logger = deps.logger.child({ component: 'mail' });
  const settings = new SettingsCopy(
    deps.pool,
    parseSecretKey(config.SETTINGS_ENCRYPTION_KEY, 'SETTINGS_ENCRYPTION_KEY'),
    (msg, key) => logger.warn({ key }, msg),
  );
  const transports = new Transports(config, settings);
  const mail = new MailRepository(deps.pool);
  const signer = new TokenSigner(config.EMAIL_SIGNING_SECRET);
  const suppress = audienceSuppress(ctx);
  const mailer = new Mailer({
    db,
    pool: deps.pool,
    config,
    settings,
    transports,
    mail,
    signer,
    suppress,
    logger,
  });
  // Sent mail's retention rule: every message is kept this many days, then pruned in batches.
  const retentionDays = sentMailRetentionDays(config);
  deps.job({
    name: 'sent-mail-retention',
    scope: 'one',
    everyMs: config.SENT_MAIL_PRUNE_MS ?? 600_000,
    run: async () => {
      const n = await mail.prune(retentionDays, config.SENT_MAIL_PRUNE_BATCH ?? 5000);
      if (n) logger.info({ deleted: n, retentionDays }, 'sent mail older than its retention pruned');
    },
  });
  deps.onShutdown(() => transports.close());

  // The settings copy: SMTP, sender, brand, support address, test mode. The durable carries the
  // database's generation (copyDurable): a new database reads the stream from its beginning
  // and rebuilds the copy, even where other replicas' durable has long passed it.
  await deps.consume({
    durable: await copyDurable(deps.pool, 'email-settings-copy'),
    subjects: ['settings.setting.changed'],
    handler: async (event) => {
      if (await settings.apply(event.payload))
        logger.info({ key: event.payload.key, version: event.payload.version }, 'setting copied');
    },
  });
  // Read-your-writes: the settings service hands each save to one replica here and answers
  // "saved" only once it is applied (docs/adr/0039-saved-means-in-force.md); the event that follows
  // finds the copy up to date. Other replicas read the shared table where a save must hold.
  await deps.respond(settingsApplySubject('email'), async (payload) => {
    if (!Value.Check(SettingsApplyRequest, payload))
      throw new Error('apply-settings: the request does not match SettingsApplyRequest');
    let applied = 0;
    for (const change of payload.changes)
      if (await settings.apply(change)) {
        applied++;
        logger.info({ key: change.key, version: change.version }, 'setting copied on save');
      }
    return { applied } satisfies SettingsApplyReply;
  });
  // A save whose value depends on this service's configuration is checked before it is
  // stored (the settings service refuses it with the problem): `mail_transport` = ses needs SES.
  await deps.respond(settingsCheckSubject('email'), async (payload) => {
    if (!Value.Check(SettingsCheckRequest, payload))
      throw new Error('check-settings: the request does not match SettingsCheckRequest');
    const problems: SettingsCheckReply['problems'] = [];
    for (const { key, value } of payload.changes) {
      const message = key === 'mail_transport' ? transports.checkChoice(value) : null;
      if (message) problems.push({ key, message });
    }
    return { problems } satisfies SettingsCheckReply;
  });
  await registerTransactional({ deps, db, mail, mailer });

  // The transport as saved now, not as this replica last cached it: a diagnostics run right
  // after an SMTP save checks the new server.
  deps.diagnostic('email-smtp', async () => {
    const transport = await transports.get({ fresh: true });
    try {
      return await transport.verify();
    } catch (err) {
      // The admin sees a coarse message (no port state); the log keeps what happened underneath.
      logger.warn({ err, transport: transport.description }, 'mail transport check failed');
      throw err;
    }
  });

  await app.register(async (scope) => {
    await testMailRoutes(scope, { deps, mailer, transports });
    await transportRoutes(scope, { deps, transports });
  });
  return { mailer, transports, settings, mail, signer, suppress };
}

/**
 * Sent mail (like Mailpit): every message sent, campaign mail rendered again by the campaigns
 * feature (registered after it, so delivery never imports campaigns).
 */
export async function registerSentMail(
  app: ServiceInstance,
  ctx: EmailContext,
  delivery: DeliveryHandle,
  campaignMail: CampaignMailRenderer,
) {
  const { transports } = delivery;
  const mail = new SentMailRepository(ctx.db, ctx.deps.pool);
  const retentionDays = sentMailRetentionDays(ctx.deps.config);
  await app.register(async (scope) =>
    outboxRoutes(scope, { deps: ctx.deps, mail, transports, campaignMail, retentionDays }),
  );
}

const sentMailRetentionDays = (config: EmailContext['deps']['config']) =>
  config.SENT_MAIL_RETENTION_DAYS ?? DEFAULT_SENT_MAIL_RETENTION_DAYS;
