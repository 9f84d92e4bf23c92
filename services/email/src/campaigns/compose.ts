import { escapeMarkup as esc } from '@parley/kit/markup';
import { convert } from 'html-to-text';
import { type Address, composeMime, newMessageId } from '../domain/mime.ts';
import type { TokenSigner } from '../domain/tokens.ts';
import { addTracking } from '../domain/tracking.ts';

/**
 * A campaign's message for one recipient: the admin's HTML and text with {{firstName}},
 * {{lastName}} and {{company}} filled in (escaped in the HTML), every link through the click
 * route and the open pixel, the visible unsubscribe link (where the admin put
 * {{unsubscribeUrl}}, else in a footer) and List-Unsubscribe with one-click (RFC 8058).
 * What is the same for every recipient (the text part when none was written) is made once.
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
}

const FIELD_RE = /\{\{\s*(firstName|lastName|company|email|unsubscribeUrl)\s*\}\}/g;

export function personalise(template: string, p: Personal, asHtml: boolean, unsubscribeUrl = ''): string {
  return template.replace(FIELD_RE, (_m, name: string) => {
    const v =
      name === 'unsubscribeUrl'
        ? unsubscribeUrl
        : ((p as unknown as Record<string, string | null>)[name] ?? '');
    return asHtml ? esc(v) : v;
  });
}

export interface ComposedCampaignMail {
  messageId: string;
  subject: string;
  html: string;
  text: string;
  raw: Buffer;
}

export class CampaignComposer {
  private readonly text: string;
  private readonly unsubInHtml: boolean;
  private readonly unsubInText: boolean;

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
    this.text =
      content.textContent?.trim() ||
      convert(content.htmlContent, { wordwrap: 78, selectors: [{ selector: 'img', format: 'skip' }] });
    this.unsubInHtml = /\{\{\s*unsubscribeUrl\s*\}\}/.test(content.htmlContent);
    this.unsubInText = /\{\{\s*unsubscribeUrl\s*\}\}/.test(this.text);
  }

  get from(): Address {
    return { name: this.content.fromName, address: this.content.fromEmail };
  }

  async compose(p: Personal, trackingId: string): Promise<ComposedCampaignMail> {
    const { origin, signer } = this.opts;
    const unsubscribeUrl = `${origin}/api/unsubscribe/${signer.sign('unsubscribe', trackingId)}`;
    let html = personalise(this.content.htmlContent, p, true, unsubscribeUrl);
    if (!this.unsubInHtml) {
      const footer = `<p style="font-size:12px;color:#6b7280;text-align:center;margin:24px 0 0"><a href="${esc(unsubscribeUrl)}" data-no-track style="color:#6b7280">Unsubscribe</a></p>`;
      html = /<\/body>/i.test(html) ? html.replace(/<\/body>/i, `${footer}</body>`) : html + footer;
    }
    if (this.opts.track !== false) html = addTracking(html, { origin, trackingId, signer }).html;
    let text = personalise(this.text, p, false, unsubscribeUrl);
    if (!this.unsubInText) text = `${text.trimEnd()}\n\n--\nUnsubscribe: ${unsubscribeUrl}\n`;
    const subject = `${this.opts.test ? '[TEST] ' : ''}${personalise(this.content.subject, p, false)}`;
    const messageId = newMessageId(this.content.fromEmail);
    const domain = this.content.fromEmail.split('@')[1] ?? 'parley.local';
    const raw = await composeMime({
      from: this.from,
      to: { address: p.email },
      subject,
      html,
      text,
      messageId,
      listUnsubscribe: {
        url: unsubscribeUrl,
        mailto: `mailto:unsubscribe@${domain}?subject=unsubscribe%20${trackingId}`,
      },
      ...(this.opts.testMode ? { testMode: this.opts.testMode } : {}),
      ...(this.opts.test ? { test: true } : {}),
    });
    return { messageId, subject, html, text, raw };
  }
}
