import type pg from 'pg';
import { db, execute, firstRow, type Queryable } from '../../shared/sql.ts';
import type { TokenSigner } from '../../shared/tokens.ts';
import { CampaignComposer } from './domain/compose.ts';

/**
 * The content a send's mails are made from: kept on the send at launch (its campaign may be
 * edited afterwards, a draft again), the campaign's own for sends launched before that was
 * kept. The sender composes with it, and Sent mail renders a campaign mail again from it.
 */
export interface SendContent {
  sendId: number;
  campaignId: number;
  kind: 'campaign' | 'newsletter';
  testMode: boolean;
  originalRecipients: number;
  subject: string;
  fromName: string;
  fromEmail: string;
  htmlContent: string;
  textContent: string | null;
}

export async function readSendContent(pool: Queryable, sendId: number): Promise<SendContent | null> {
  const r = await firstRow(
    pool,
    db
      .selectFrom('email_campaign_sends as s')
      .innerJoin('email_campaigns as c', 'c.id', 's.campaign_id')
      .select((eb) => [
        'c.id as campaign_id',
        'c.newsletter_id',
        eb.fn.coalesce('s.subject', 'c.subject').as('subject'),
        eb.fn.coalesce('s.from_name', 'c.from_name').as('from_name'),
        eb.fn.coalesce('s.from_email', 'c.from_email').as('from_email'),
        eb.fn.coalesce('s.html_content', 'c.html_content').as('html_content'),
        // The send's text goes with the send's HTML: a send that kept its content keeps its (maybe null) text.
        eb
          .case()
          .when('s.html_content', 'is', null)
          .then(eb.ref('c.text_content'))
          .else(eb.ref('s.text_content'))
          .end()
          .as('text_content'),
        's.test_mode',
        's.original_recipients',
      ])
      .where('s.id', '=', sendId),
  );
  if (!r) return null;
  return {
    sendId,
    campaignId: r.campaign_id,
    kind: r.newsletter_id === null ? 'campaign' : 'newsletter',
    testMode: r.test_mode,
    originalRecipients: r.original_recipients,
    subject: r.subject,
    fromName: r.from_name,
    fromEmail: r.from_email,
    htmlContent: r.html_content,
    textContent: r.text_content,
  };
}

/** The composer of a send's mails (test-mode sends name the live recipient count in a header). */
export function composerFor(content: SendContent, opts: { origin: string; signer: TokenSigner }) {
  return new CampaignComposer(
    {
      subject: content.subject,
      fromName: content.fromName,
      fromEmail: content.fromEmail,
      htmlContent: content.htmlContent,
      textContent: content.textContent,
    },
    {
      origin: opts.origin,
      signer: opts.signer,
      ...(content.testMode ? { testMode: { originalRecipients: content.originalRecipients } } : {}),
    },
  );
}

/** Keeps the send's content on the send (in the launch's transaction). */
export async function keepSendContent(client: pg.PoolClient, sendId: number): Promise<void> {
  await execute(
    client,
    db
      .updateTable('email_campaign_sends as s')
      .from('email_campaigns as c')
      .set((eb) => ({
        subject: eb.ref('c.subject'),
        from_name: eb.ref('c.from_name'),
        from_email: eb.ref('c.from_email'),
        html_content: eb.ref('c.html_content'),
        text_content: eb.ref('c.text_content'),
      }))
      .where('s.id', '=', sendId)
      .whereRef('c.id', '=', 's.campaign_id'),
  );
}
