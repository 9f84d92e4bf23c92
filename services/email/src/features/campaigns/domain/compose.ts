import { fillMergeFields, hasMergeField } from '@parley/contracts';
import { escapeMarkup as esc } from '@parley/kit/markup';
import { oneLine } from '@parley/kit/text';
import { convert } from 'html-to-text';
import { sanitizeEmailHtml } from '../../../shared/email-html.ts';
import type { TokenSigner } from '../../../shared/tokens.ts';
import { type Address, foldField, unsubscribeFields } from '../../delivery/domain/mime.ts';
import { addTracking } from '../../tracking/domain/tracking.ts';

/**
 * A campaign's message for one recipient: the admin's HTML and text with {{firstName}},
 * {{lastName}} and {{company}} filled in (escaped in the HTML; `{{company|your team}}` gives
 * a fallback), every link through the click
 * route and the open pixel, the visible unsubscribe link (where the admin put
 * {{unsubscribeUrl}}, else in a footer) and List-Unsubscribe with one-click (RFC 8058).
 * What is the same for every recipient (the HTML made safe by the e-mail allowlist, the text
 * part when none was written) is made once.
 */

export interface CampaignContent {
  subject: string;
  fromName: string;
  fromEmail: string;
  htmlContent: string;
  textContent: string | null;
}

export interface Personal {
  email: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  /** The contact's attributes ({{attr.key}}); absent or null when it has none. */
  attributes?: Readonly<Record<string, string | number | boolean>> | null;
}

/** The recipient's merge fields filled in (escaped in HTML); the rule is the contracts' one. */
export function personalise(template: string, p: Personal, asHtml: boolean, unsubscribeUrl = ''): string {
  return fillMergeFields(template, { ...p, unsubscribeUrl }, asHtml ? esc : undefined);
}

export interface ComposedCampaignMail {
  messageId: string;
  subject: string;
  html: string;
  text: string;
  raw: Buffer;
  /** When it was composed (its Date field, to the second). */
  date: Date;
}

/**
 * A campaign mail's Message-ID: its tracking id (unique per recipient and send, already in its
 * links and MIME boundary) at the sender's domain. The same for each attempt of one mail, and
 * known without the mail, so Sent mail can name a mail whose sender stopped mid-send.
 */
export function campaignMessageId(trackingId: string, fromEmail: string): string {
  const domain = fromEmail.split('@')[1]?.toLowerCase() || 'parley.local';
  return `${trackingId}@${domain}`;
}

export class CampaignComposer {
  private readonly text: string;
  private readonly unsubInHtml: boolean;
  private readonly unsubInText: boolean;

  private readonly html: string;

  constructor(
    private readonly content: CampaignContent,
    private readonly opts: {
      origin: string;
      signer: TokenSigner;
      /** Test-mode send: the header names test mode and the live send's recipient count. */
      testMode?: { originalRecipients: number };
      /** An admin's test send: "[TEST] " subject prefix and the X-Parley-Test header. */
      test?: boolean;
      track?: boolean;
    },
  ) {
    // Saved content is already sanitised; a test send's body and older rows may not be. What
    // is sent is what the preview showed: the same allowlist (email-html.ts).
    this.html = sanitizeEmailHtml(content.htmlContent);
    this.text =
      content.textContent?.trim() ||
      convert(this.html, {
        wordwrap: 78,
        selectors: [
          { selector: 'img', format: 'skip' },
          ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => ({
            selector: h,
            options: { uppercase: false },
          })),
          { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
        ],
      });
    this.unsubInHtml = hasMergeField(this.html, 'unsubscribeUrl');
    this.unsubInText = hasMergeField(this.text, 'unsubscribeUrl');
  }

  private get fromHeader(): string {
    this.fromCache ??= `${headerText(this.content.fromName, true)} <${oneLine(this.content.fromEmail)}>`;
    return this.fromCache;
  }
  private fromCache: string | undefined;

  get from(): Address {
    return { name: this.content.fromName, address: this.content.fromEmail };
  }

  /** The subject a recipient gets (also what Sent mail lists). */
  subjectFor(p: Personal): string {
    return `${this.opts.test ? '[TEST] ' : ''}${personalise(this.content.subject, p, false)}`;
  }

  /**
   * One recipient's message. `date` re-renders a mail as it was sent (Sent mail keeps campaign
   * mail as metadata and renders it again on view: the same bytes, given the same content,
   * recipient fields, tracking id, origin and signing secret).
   */
  async compose(p: Personal, trackingId: string, date = new Date()): Promise<ComposedCampaignMail> {
    const { origin, signer } = this.opts;
    const unsubscribeUrl = `${origin}/api/unsubscribe/${signer.sign('unsubscribe', trackingId)}`;
    let html = personalise(this.html, p, true, unsubscribeUrl);
    if (!this.unsubInHtml) {
      const footer = `<p style="font-size:12px;color:#6b7280;text-align:center;margin:24px 0 0"><a href="${esc(unsubscribeUrl)}" data-no-track style="color:#6b7280">Unsubscribe</a></p>`;
      html = /<\/body>/i.test(html) ? html.replace(/<\/body>/i, `${footer}</body>`) : html + footer;
    }
    if (this.opts.track !== false) html = addTracking(html, { origin, trackingId, signer }).html;
    let text = personalise(this.text, p, false, unsubscribeUrl).replace(/\r\n?/g, '\n');
    if (!this.unsubInText) text = `${text.trimEnd()}\n\n--\nUnsubscribe: ${unsubscribeUrl}\n`;
    const subject = this.subjectFor(p);
    const messageId = campaignMessageId(trackingId, this.content.fromEmail);
    const boundary = `----=_parley_${trackingId}`;
    const fields: Array<[string, string]> = [
      ['From', this.fromHeader],
      ['To', `<${oneLine(p.email)}>`],
      ['Subject', headerText(subject)],
      ['Message-ID', `<${messageId}>`],
      ['Date', date.toUTCString().replace('GMT', '+0000')],
      ['MIME-Version', '1.0'],
      ...unsubscribeFields(unsubscribeUrl),
    ];
    if (this.opts.testMode)
      fields.push(['X-Parley-Test-Mode', `on; original-recipients=${this.opts.testMode.originalRecipients}`]);
    if (this.opts.test) fields.push(['X-Parley-Test', 'true']);
    fields.push(['Content-Type', `multipart/alternative; boundary="${boundary}"`]);
    const headers = fields.map(([name, value]) => foldField(name, value));
    const raw = Buffer.from(
      `${headers.join('\r\n')}\r\n\r\n--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(canonical(text))}\r\n--${boundary}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(canonical(html))}\r\n--${boundary}--\r\n`,
      'utf8',
    );
    return { messageId, subject, html, text, raw, date };
  }
}

/**
 * The message is written here rather than by nodemailer's MailComposer (a stream pipeline
 * that costs milliseconds per message, the whole budget of a fast send): headers are ASCII,
 * one line each before folding (foldField), with RFC 2047 encoded words for anything else;
 * both parts are base64 in 76-character lines. So no bare CR or LF can reach the message.
 */
/** Text in its canonical MIME form (RFC 2045 §2.10): every line break CRLF, also inside base64. */
const canonical = (s: string) => s.replace(/\r\n|\r|\n/g, '\r\n');

function base64Lines(s: string): string {
  const b = Buffer.from(s, 'utf8').toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b.length; i += 76) lines.push(b.slice(i, i + 76));
  return lines.join('\r\n');
}

/**
 * Header text: as it is when plain ASCII (a display name quoted), else UTF-8 encoded words
 * (RFC 2047) separated by spaces, where foldField may fold. A word holds at most 42 bytes:
 * 68 characters once encoded, so even the first fits on a line after `Subject: `.
 */
export function headerText(value: string, phrase = false): string {
  const clean = oneLine(value);
  if (/^[\x20-\x7e]*$/.test(clean)) {
    if (!phrase) return clean;
    return /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]*$/.test(clean) ? clean : `"${clean.replace(/["\\]/g, '\\$&')}"`;
  }
  const words: string[] = [];
  let chunk = '';
  for (const ch of clean) {
    if (Buffer.byteLength(chunk + ch) > 42) {
      words.push(chunk);
      chunk = '';
    }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, 'utf8').toString('base64')}?=`).join(' ');
}
