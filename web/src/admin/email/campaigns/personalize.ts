import { fillMergeFields, SAMPLE_CONTACT } from '@parley/contracts';

/**
 * Preview personalisation (email marketing §2): {{firstName}}, {{lastName}} and {{company}}
 * (and the service's {{email}} and {{unsubscribeUrl}}; `{{firstName|there}}` for a fallback;
 * a chosen contact's `{{attr.key}}`)
 * filled from the chosen preview contact,
 * or from the sample contact when none is chosen, escaped in HTML as the service does when it
 * sends; and the preview's figures (HTML size, text size, word count).
 */

export interface PreviewContact {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  email?: string;
  /** A chosen contact's attributes ({{attr.key}}); the sample contact has none. */
  attributes?: Readonly<Record<string, string | number | boolean>>;
}

/** Who the preview shows when no contact is chosen: the one the service's test sends use. */
export const SAMPLE: PreviewContact = SAMPLE_CONTACT;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** The content with every merge field replaced by the service's rule (fallbacks included). */
export function personalize(content: string, contact: PreviewContact, html = false): string {
  return fillMergeFields(
    content,
    { ...contact, unsubscribeUrl: '#unsubscribe' },
    html ? escapeHtml : undefined,
  );
}

/** Size in bytes as sent (UTF-8), shown as B or KB. */
export function formatSize(text: string): string {
  const bytes = new TextEncoder().encode(text).length;
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** Words of the text version, or of the HTML's visible text when there is no text version. */
export function wordCount(text: string, html: string): number {
  const source = text.trim()
    ? text
    : html
        .replace(/<(style|script|title)[\s\S]*?<\/\1>/gi, ' ')
        .replace(/<[^>]+>/g, ' ')
        .replace(/&[a-z#0-9]+;/gi, ' ');
  return source.split(/\s+/).filter(Boolean).length;
}
