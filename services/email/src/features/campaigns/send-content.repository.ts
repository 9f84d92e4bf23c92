import type pg from 'pg';
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

export async function readSendContent(
  pool: pg.Pool | pg.PoolClient,
  sendId: number,
): Promise<SendContent | null> {
  const { rows } = await pool.query<{
    campaign_id: number;
    newsletter_id: number | null;
    subject: string;
    from_name: string;
    from_email: string;
    html_content: string;
    text_content: string | null;
    test_mode: boolean;
    original_recipients: number;
  }>(
    `SELECT c."id" AS campaign_id, c."newsletter_id",
            coalesce(s."subject", c."subject") AS subject, coalesce(s."from_name", c."from_name") AS from_name,
            coalesce(s."from_email", c."from_email") AS from_email,
            coalesce(s."html_content", c."html_content") AS html_content,
            CASE WHEN s."html_content" IS NULL THEN c."text_content" ELSE s."text_content" END AS text_content,
            s."test_mode", s."original_recipients"
     FROM "email_campaign_sends" s JOIN "email_campaigns" c ON c."id" = s."campaign_id" WHERE s."id" = $1`,
    [sendId],
  );
  const r = rows[0];
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
  await client.query(
    `UPDATE "email_campaign_sends" s SET "subject" = c."subject", "from_name" = c."from_name",
       "from_email" = c."from_email", "html_content" = c."html_content", "text_content" = c."text_content"
     FROM "email_campaigns" c WHERE s."id" = $1 AND c."id" = s."campaign_id"`,
    [sendId],
  );
}
