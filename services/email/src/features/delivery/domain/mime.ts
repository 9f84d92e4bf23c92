import { randomUUID } from 'node:crypto';
import { oneLine } from '@parley/kit/text';
import MailComposer from 'nodemailer/lib/mail-composer';

/**
 * One MIME composer for every transport: the message is built once (nodemailer's
 * MailComposer), stored byte for byte, and the same bytes go to SMTP, SES or the local
 * mailbox. A retry sends exactly what was recorded, with the same Message-ID.
 *
 * Whatever it is given, it writes CRLF line ends only (RFC 5321 §2.3.8: a bare CR or LF makes
 * strict receivers drop the mail, and `\r.\r` is an SMTP-smuggling shape): header values are
 * one line without control characters, every line break of a body is made CRLF, and
 * crlfOnly() has the last word.
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
  /** Marketing mail: RFC 2369 List-Unsubscribe, with RFC 8058 one-click when the URI is https. */
  listUnsubscribe?: { url: string };
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

/**
 * The unsubscribe fields of bulk mail. Only the https link is offered: nothing reads a
 * mailbox for unsubscribe requests, and RFC 8058 one-click (List-Unsubscribe-Post, which the
 * DKIM signature must cover) is for an https URI only; any other URI is listed without it.
 */
export function unsubscribeFields(url: string): Array<[name: string, value: string]> {
  const fields: Array<[string, string]> = [['List-Unsubscribe', `<${url}>`]];
  if (/^https:\/\//i.test(url)) fields.push(['List-Unsubscribe-Post', 'List-Unsubscribe=One-Click']);
  return fields;
}

/**
 * A header field written `Name: value`, folded (RFC 5322 §2.2.3) before whitespace so that no
 * line is longer than 78 characters where it can be cut; a single word longer than that stays
 * whole on a line of its own. Unfolding gives the value back exactly.
 */
export function foldField(name: string, value: string): string {
  const line = `${name}: ${value}`;
  if (line.length <= 78) return line;
  const parts = line.split(/(?=[ \t])/);
  let out = '';
  let current = parts[0] ?? '';
  for (const part of parts.slice(1)) {
    if (current.length + part.length > 78 && current.trim()) {
      out += `${current}\r\n`;
      current = part;
    } else current += part;
  }
  return out + current;
}

/**
 * Body text in its canonical form (RFC 2045 §2.10, RFC 5545 §3.1): every line break CRLF,
 * whatever the encoding the part gets, and no NUL.
 */
const bodyText = (s: string) => s.replace(/\r\n|\r|\n/g, '\r\n').replace(/\0/g, '');

/**
 * The message with CRLF line ends only, whatever reached it: in the header a stray CR or LF
 * becomes a space (it must never start a field of its own), in the body a line break.
 */
export function crlfOnly(raw: Buffer): Buffer {
  const s = raw.toString('latin1');
  if (!/\r(?!\n)|(?<!\r)\n/.test(s)) return raw;
  const end = s.indexOf('\r\n\r\n');
  const head = (end < 0 ? s : s.slice(0, end)).replace(/\r(?!\n)|(?<!\r)\n/g, ' ');
  if (end < 0) return Buffer.from(head, 'latin1');
  const body = s.slice(end + 4).replace(/\r\n|\r|\n/g, '\r\n');
  return Buffer.from(`${head}\r\n\r\n${body}`, 'latin1');
}

const addressOf = (a: Address): Address => ({
  ...(a.name ? { name: oneLine(a.name) } : {}),
  address: oneLine(a.address),
});

export async function composeMime(mail: OutgoingMail): Promise<Buffer> {
  const headers: Record<string, string | { prepared: true; value: string }> = {};
  if (mail.listUnsubscribe)
    // Written as given (folded here): the URI must reach the receiver unencoded.
    for (const [name, value] of unsubscribeFields(oneLine(mail.listUnsubscribe.url)))
      headers[name] = {
        prepared: true,
        value: foldField(name, value)
          .slice(name.length + 1)
          .replace(/^ /, ''),
      };
  if (mail.autoSubmitted) headers['Auto-Submitted'] = 'auto-generated';
  if (mail.testMode) {
    headers['X-Parley-Test-Mode'] = `on; original-recipients=${mail.testMode.originalRecipients}`;
  }
  if (mail.test) headers['X-Parley-Test'] = 'true';
  const composer = new MailComposer({
    from: addressOf(mail.from),
    to: addressOf(mail.to),
    ...(mail.replyTo ? { replyTo: oneLine(mail.replyTo) } : {}),
    subject: oneLine(mail.subject),
    html: bodyText(mail.html),
    text: bodyText(mail.text),
    messageId: `<${oneLine(mail.messageId)}>`,
    date: mail.date ?? new Date(),
    headers,
    newline: 'windows',
    ...(mail.calendar
      ? {
          icalEvent: {
            method: mail.calendar.method,
            filename: 'invite.ics',
            content: bodyText(mail.calendar.content),
          },
        }
      : {}),
  });
  return crlfOnly(await composer.compile().build());
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
