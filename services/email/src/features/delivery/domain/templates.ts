import { escapeMarkup as esc } from '@parley/kit/markup';

/**
 * Transactional mail templates, written in MJML (which compiles to the table layouts and
 * inline styles Gmail and Outlook need) from one structured description, so the HTML and the
 * text part always say the same thing. Every value is escaped; nothing from a payload
 * reaches the markup raw.
 */

export interface MailContent {
  subject: string;
  /** Inbox preview line. */
  preheader: string;
  heading: string;
  paragraphs: string[];
  details?: Array<[label: string, value: string]>;
  button?: { label: string; url: string };
  /** Small print under the content (why you got this mail). */
  footer: string;
  brand: string;
  /** Marketing mail: the visible unsubscribe link (also in List-Unsubscribe). */
  unsubscribeUrl?: string;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

const BRAND_COLOR = '#0891b2';

export async function renderMail(content: MailContent): Promise<RenderedMail> {
  const details = content.details?.length
    ? `<mj-table cellpadding="6px" font-size="15px" color="#1f2937">
        ${content.details
          .map(
            ([k, v]) =>
              `<tr><td style="color:#6b7280;width:35%;vertical-align:top">${esc(k)}</td><td style="vertical-align:top">${esc(v).replace(/\n/g, '<br />')}</td></tr>`,
          )
          .join('')}
      </mj-table>`
    : '';
  const button = content.button
    ? `<mj-button href="${esc(content.button.url)}" background-color="${BRAND_COLOR}" color="#ffffff" font-size="16px" font-weight="600" border-radius="6px" inner-padding="12px 24px">${esc(content.button.label)}</mj-button>`
    : '';
  const unsubscribe = content.unsubscribeUrl
    ? `<mj-text align="center" font-size="12px" color="#6b7280"><a href="${esc(content.unsubscribeUrl)}" data-no-track style="color:#6b7280">Unsubscribe</a></mj-text>`
    : '';
  const source = `<mjml lang="en">
  <mj-head>
    <mj-title>${esc(content.subject)}</mj-title>
    <mj-preview>${esc(content.preheader)}</mj-preview>
    <mj-attributes>
      <mj-all font-family="-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" />
      <mj-text font-size="16px" line-height="1.55" color="#1f2937" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f3f4f6" width="600px">
    <mj-section padding="24px 0 8px">
      <mj-column><mj-text font-size="20px" font-weight="700" color="${BRAND_COLOR}">${esc(content.brand)}</mj-text></mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" border-radius="8px" padding="24px 16px">
      <mj-column>
        <mj-text font-size="22px" font-weight="700" color="#111827">${esc(content.heading)}</mj-text>
        ${content.paragraphs.map((p) => `<mj-text>${esc(p)}</mj-text>`).join('\n')}
        ${details}
        ${button}
      </mj-column>
    </mj-section>
    <mj-section padding="16px 0">
      <mj-column>
        <mj-text align="center" font-size="12px" color="#6b7280">${esc(content.footer)}</mj-text>
        ${unsubscribe}
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
  // MJML (half a second of module loading) loads with the first mail, not at start.
  const { default: mjml2html } = await import('mjml');
  const result = await mjml2html(source, { validationLevel: 'strict', minify: false });
  if (result.errors.length) throw new Error(`mail template: ${result.errors[0]?.formattedMessage}`);
  return { subject: content.subject, html: result.html, text: textOf(content) };
}

function textOf(c: MailContent): string {
  const parts = [c.heading, '', ...c.paragraphs.flatMap((p) => [p, ''])];
  if (c.details?.length) {
    for (const [k, v] of c.details) parts.push(`${k}: ${v.replace(/\n/g, '\n  ')}`);
    parts.push('');
  }
  if (c.button) parts.push(`${c.button.label}: ${c.button.url}`, '');
  parts.push('--', c.footer);
  if (c.unsubscribeUrl) parts.push(`Unsubscribe: ${c.unsubscribeUrl}`);
  return `${parts.join('\n')}\n`;
}
