import { SAMPLE_CONTACT } from '@parley/contracts';

/**
 * Preview personalisation (email marketing §2): {{firstName}}, {{lastName}} and {{company}}
 * (and the service's {{email}} and {{unsubscribeUrl}}) filled from the chosen preview contact,
 * or from the sample contact when none is chosen, escaped in HTML as the service does when it
 * sends; and the preview's figures (HTML size, text size, word count).
 */

export interface PreviewContact {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  email?: string;
}

/** Who the preview shows when no contact is chosen: the one the service's test sends use. */
export const SAMPLE: PreviewContact = SAMPLE_CONTACT;

const FIELD = /\{\{\s*(firstName|lastName|company|email|unsubscribeUrl)\s*\}\}/g;
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** The content with every merge field replaced (an empty field becomes empty text). */
export function personalize(content: string, contact: PreviewContact, html = false): string {
  return content.replace(FIELD, (_m, key: keyof PreviewContact | 'unsubscribeUrl') => {
    const value = key === 'unsubscribeUrl' ? '#unsubscribe' : (contact[key] ?? '');
    return html ? escapeHtml(value) : value;
  });
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
        .replace(/<(style|script)[\s\S]*?<\/\1>/gi, ' ')
        .replace(/<[^>]+>/g, ' ')
        .replace(/&[a-z#0-9]+;/gi, ' ');
  return source.split(/\s+/).filter(Boolean).length;
}
