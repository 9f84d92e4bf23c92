import type { CampaignGoal } from '@parley/contracts';
import { escapeMarkup as esc } from '@parley/kit/markup';
import { GOAL_PALETTES } from '../../../shared/header-banner.ts';
import type { CampaignCopy } from './campaign-writer.ts';
import type { Company } from './company.ts';

/**
 * The e-mail layout every writer's {@link CampaignCopy} goes through: responsive HTML (tables
 * and inline styles, a bulletproof button, the footer with the address and the
 * {{unsubscribeUrl}} link) and the matching text part.
 */

// ── rendering ────────────────────────────────────────────────────────────────────

export interface RenderOptions {
  company: Company;
  goal: CampaignGoal;
  /** An absolute PNG/JPEG URL for the header image, or null for a coloured band with the name. */
  headerImageUrl: string | null;
}

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const DARK_TEXT = '#111827';

/** The text colour with the higher contrast on the colour: white or near-black. */
export function textOn(hex: string): string {
  const l = luminance(hex);
  const white = 1.05 / (l + 0.05);
  const dark = (l + 0.05) / (luminance(DARK_TEXT) + 0.05);
  return white >= dark ? '#ffffff' : DARK_TEXT;
}

const FONT = 'Arial, Helvetica, sans-serif';
const P = `margin:0 0 16px;font-family:${FONT};font-size:16px;line-height:24px;color:#1f2937;`;
const hostOf = (url: string) => {
  try {
    return new URL(/^https?:\/\//i.test(url) ? url : `https://${url}`).host;
  } catch {
    return url;
  }
};
const linkOf = (url: string) => (/^https?:\/\//i.test(url) ? url : `https://${url}`);

/** Responsive e-mail HTML and the matching text part of a campaign's copy. */
export function renderCampaign(copy: CampaignCopy, opts: RenderOptions): { html: string; text: string } {
  const { company, goal } = opts;
  const accent = company.brandColor ?? GOAL_PALETTES[goal].accent;
  const onAccent = textOn(accent);
  const co = esc(company.name);
  const para = (s: string) => `<p style="${P}">${esc(s)}</p>`;
  const header = opts.headerImageUrl
    ? `<tr><td style="padding:16px 32px;font-family:${FONT};font-size:15px;font-weight:bold;color:#111827;" class="px">${co}</td></tr>
<tr><td style="padding:0;"><img src="${esc(opts.headerImageUrl)}" width="600" alt="" style="display:block;width:100%;max-width:600px;height:auto;border:0;outline:none;text-decoration:none;"></td></tr>`
    : `<tr><td bgcolor="${accent}" class="px" style="background-color:${accent};padding:20px 32px;font-family:${FONT};font-size:18px;font-weight:bold;color:${onAccent};">${co}</td></tr>`;
  const highlight = copy.highlight
    ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;"><tr><td style="border-left:4px solid ${accent};background-color:#f3f4f6;padding:12px 16px;font-family:${FONT};font-size:16px;line-height:24px;font-weight:bold;color:#111827;">${esc(copy.highlight)}</td></tr></table>`
    : '';
  const list = copy.bullets.length
    ? `${copy.listTitle ? `<p style="margin:0 0 8px;font-family:${FONT};font-size:16px;line-height:24px;font-weight:bold;color:#111827;">${esc(copy.listTitle)}</p>` : ''}<ul style="margin:0 0 16px;padding:0 0 0 22px;font-family:${FONT};font-size:16px;line-height:24px;color:#1f2937;">${copy.bullets.map((b) => `<li style="margin:0 0 6px;">${esc(b)}</li>`).join('')}</ul>`
    : '';
  const button = `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;"><tr><td align="center" bgcolor="${accent}" style="border-radius:6px;background-color:${accent};"><a href="${esc(copy.cta.url)}" target="_blank" style="display:inline-block;padding:14px 28px;font-family:${FONT};font-size:16px;font-weight:bold;line-height:20px;color:${onAccent};text-decoration:none;border-radius:6px;">${esc(copy.cta.label)}</a></td></tr></table>`;
  const [lead, team] = copy.signOff.split('\n');
  const footerLines = [
    [co, company.address ? esc(company.address) : null].filter(Boolean).join(' · '),
    `You are receiving this email because you are in touch with ${co}.`,
    `<a href="{{unsubscribeUrl}}" data-no-track style="color:#6b7280;text-decoration:underline;">Unsubscribe</a>${company.website ? ` · <a href="${esc(linkOf(company.website))}" style="color:#6b7280;text-decoration:underline;">${esc(hostOf(company.website))}</a>` : ''}`,
  ];
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<title>${esc(copy.subject)}</title>
<style>
@media only screen and (max-width:620px){.container{width:100% !important;}.px{padding-left:20px !important;padding-right:20px !important;}.h1{font-size:24px !important;line-height:30px !important;}}
</style>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;">
<div class="parley-preheader" style="display:none;max-height:0;overflow:hidden;mso-hide:all;font-size:1px;line-height:1px;color:#f3f4f6;opacity:0;">${esc(copy.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#f3f4f6" style="background-color:#f3f4f6;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" class="container" width="600" cellpadding="0" cellspacing="0" border="0" bgcolor="#ffffff" style="width:600px;max-width:600px;background-color:#ffffff;border-radius:8px;">
${header}
<tr><td class="px" style="padding:32px;font-family:${FONT};font-size:16px;line-height:24px;color:#1f2937;">
<h1 class="h1" style="margin:0 0 20px;font-family:${FONT};font-size:28px;line-height:34px;font-weight:bold;color:#111827;">${esc(copy.headline)}</h1>
${para(copy.greeting)}
${copy.paragraphs.map(para).join('\n')}
${highlight}
${list}
${button}
${copy.closing.map(para).join('\n')}
<p style="margin:24px 0 0;font-family:${FONT};font-size:16px;line-height:24px;color:#1f2937;">${esc(lead ?? '')}<br>${esc(team ?? '')}</p>
</td></tr>
<tr><td class="px" align="center" style="padding:20px 32px;background-color:#f9fafb;border-top:1px solid #e5e7eb;font-family:${FONT};font-size:12px;line-height:18px;color:#6b7280;text-align:center;">${footerLines.join('<br>')}</td></tr>
</table>
</td></tr></table>
</body>
</html>`;

  const text = [
    copy.headline,
    '',
    copy.greeting,
    '',
    ...copy.paragraphs.flatMap((p) => [p, '']),
    ...(copy.highlight ? [copy.highlight, ''] : []),
    ...(copy.bullets.length
      ? [...(copy.listTitle ? [copy.listTitle] : []), ...copy.bullets.map((b) => `- ${b}`), '']
      : []),
    `${copy.cta.label}: ${copy.cta.url}`,
    '',
    ...copy.closing.flatMap((p) => [p, '']),
    copy.signOff,
    '',
    '--',
    [company.name, company.address].filter(Boolean).join(' · '),
    ...(company.website ? [linkOf(company.website)] : []),
    'Unsubscribe: {{unsubscribeUrl}}',
  ].join('\n');
  return { html, text: `${text}\n` };
}
