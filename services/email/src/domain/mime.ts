import { randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';

/**
 * One MIME composer for every transport: the message is built once (nodemailer's
 * MailComposer), stored byte for byte, and the same bytes go to SMTP, SES or the local
 * mailbox. A retry sends exactly what was recorded, with the same Message-ID.
 */

export interface Address {
  name?: string;
  address: string;
}

export interface OutgoingMail {
  from: Address;
  to: Address;
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  /** Marketing mail: RFC 2369 List-Unsubscribe (https + mailto) and RFC 8058 one-click. */
  listUnsubscribe?: { url: string; mailto: string };
  /** An iCalendar invitation: the text/calendar alternative plus an invite.ics attachment. */
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
  /** Transactional notifications are marked auto-generated (RFC 3834): no auto-replies. */
  autoSubmitted?: boolean;
  /** Test mode: marks the mail and says how many recipients the real send would have had. */
  testMode?: { originalRecipients: number };
  /** An admin's test send of a campaign (the subject says so too). */
  test?: boolean;
  date?: Date;
}

export function newMessageId(fromAddress: string): string {
  const domain = fromAddress.split('@')[1]?.toLowerCase() || 'parley.local';
  return `${randomUUID()}@${domain}`;
}

export async function composeMime(mail: OutgoingMail): Promise<Buffer> {
  const headers: Record<string, string> = {};
  if (mail.listUnsubscribe) {
    headers['List-Unsubscribe'] = `<${mail.listUnsubscribe.url}>, <${mail.listUnsubscribe.mailto}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  if (mail.autoSubmitted) headers['Auto-Submitted'] = 'auto-generated';
  if (mail.testMode) {
    headers['X-Parley-Test-Mode'] = `on; original-recipients=${mail.testMode.originalRecipients}`;
  }
  if (mail.test) headers['X-Parley-Test'] = 'true';
  const composer = new MailComposer({
    from: mail.from,
    to: mail.to,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: `<${mail.messageId}>`,
    date: mail.date ?? new Date(),
    headers,
    ...(mail.calendar
      ? {
          icalEvent: { method: mail.calendar.method, filename: 'invite.ics', content: mail.calendar.content },
        }
      : {}),
  });
  return composer.compile().build();
}

/** The header block of a raw message, unfolded, in order. */
export function headersOf(raw: Buffer | string): Array<{ name: string; value: string }> {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  const block = end === -1 ? text : text.slice(0, end);
  const out: Array<{ name: string; value: string }> = [];
  for (const line of block.split(/\r?\n/)) {
    const last = out[out.length - 1];
    if (/^[ \t]/.test(line) && last) {
      last.value = last.value ? `${last.value} ${line.trim()}` : line.trim();
      continue;
    }
    const i = line.indexOf(':');
    if (i > 0) out.push({ name: line.slice(0, i), value: line.slice(i + 1).trim() });
  }
  return out;
}

/**
 * The decoded body of the first part of `contentType` in a raw message (the calendar part
 * for the sent-mail view). Walks multipart boundaries; decodes base64, quoted-printable and
 * 7/8bit.
 */
export function partOf(raw: Buffer | string, contentType: string): string | null {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  return findPart(text, contentType.toLowerCase());
}

function findPart(entity: string, wanted: string): string | null {
  const split = entity.search(/\r?\n\r?\n/);
  if (split === -1) return null;
  const headers = headersOf(entity.slice(0, split));
  const body = entity.slice(split).replace(/^\r?\n\r?\n/, '');
  const type = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? 'text/plain';
  const lower = type.toLowerCase();
  if (lower.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (!boundary) return null;
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const found = findPart(part.replace(/^\r?\n/, ''), wanted);
      if (found !== null) return found;
    }
    return null;
  }
  if (!lower.startsWith(wanted)) return null;
  const encoding = (
    headers.find((h) => h.name.toLowerCase() === 'content-transfer-encoding')?.value ?? '7bit'
  ).toLowerCase();
  const trimmed = body.replace(/\r?\n$/, '');
  if (encoding === 'base64') return Buffer.from(trimmed.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = trimmed
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return trimmed;
}
