import { createHash, createVerify, type KeyObject } from 'node:crypto';

/**
 * A strict reader of mail as it crossed the wire, written independently of what composes and
 * signs it (nodemailer, the campaign composer): the DATA of each SMTP transaction cut out of a
 * connection's bytes, RFC 5321/5322 line rules, and a DKIM (RFC 6376) verifier on node:crypto
 * (relaxed/relaxed, rsa-sha256).
 */

/**
 * The DATA payloads of one connection's bytes, in order, as sent (dot-stuffed, up to and with
 * the CRLF before the terminating dot). A DATA command is the last of its pipelined group
 * (RFC 2920), so the message starts right after it and ends at the first CRLF.CRLF.
 */
export function dataOfWire(wire: Buffer): Buffer[] {
  const s = wire.toString('latin1');
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const d = s.indexOf('DATA\r\n', at);
    if (d < 0) break;
    if (d > 0 && s[d - 1] !== '\n') {
      at = d + 1;
      continue;
    }
    const start = d + 'DATA\r\n'.length;
    const end = s.indexOf('\r\n.\r\n', start - 2);
    if (end < 0) break;
    out.push(Buffer.from(s.slice(start, end + 2), 'latin1'));
    at = end + 5;
  }
  return out;
}

/** The message a receiver stores: the DATA with its dot-stuffing undone. */
export const unstuffed = (data: Buffer): Buffer =>
  Buffer.from(data.toString('latin1').replace(/(^|\r\n)\.\./g, '$1.'), 'latin1');

export interface Field {
  name: string;
  /** The whole field as written, continuation lines included (CRLF between them). */
  raw: string;
  /** Unfolded value (RFC 5322 §2.2.3: the CRLFs removed), leading whitespace trimmed. */
  value: string;
}

export function fieldsOf(message: Buffer | string): { fields: Field[]; body: string } {
  const s = typeof message === 'string' ? message : message.toString('latin1');
  const end = s.indexOf('\r\n\r\n');
  const head = end < 0 ? s : s.slice(0, end);
  const body = end < 0 ? '' : s.slice(end + 4);
  const fields: Field[] = [];
  for (const line of head.split('\r\n')) {
    const last = fields[fields.length - 1];
    if (/^[ \t]/.test(line) && last) {
      last.raw += `\r\n${line}`;
      continue;
    }
    const colon = line.indexOf(':');
    fields.push({ name: colon > 0 ? line.slice(0, colon) : line, raw: line, value: '' });
  }
  for (const f of fields)
    f.value = f.raw
      .slice(f.name.length + 1)
      .replace(/\r\n/g, '')
      .trimStart();
  return { fields, body };
}

export const header = (message: Buffer | string, name: string): string | undefined =>
  fieldsOf(message).fields.find((f) => f.name.toLowerCase() === name.toLowerCase())?.value;

/**
 * What is wrong with a message as sent (its DATA, dot-stuffed): bare CR or LF anywhere (RFC
 * 5321 §2.3.8), NUL, 8-bit or control bytes in the header, a header that is not `name: value`,
 * a line over 998 octets (RFC 5322 §2.1.1), a header line over 78 octets that could have been
 * folded (§2.2.3: a line that still has whitespace between two words could be cut there).
 */
export function conformanceProblems(data: Buffer): string[] {
  const problems: string[] = [];
  const s = data.toString('latin1');
  const bareCr = (s.match(/\r(?!\n)/g) ?? []).length;
  const bareLf = (s.match(/(?<!\r)\n/g) ?? []).length;
  if (bareCr) problems.push(`${bareCr} bare CR`);
  if (bareLf) problems.push(`${bareLf} bare LF`);
  if (s.includes('\0')) problems.push('NUL in the message');
  if (!s.endsWith('\r\n')) problems.push('the message does not end with CRLF');
  const end = s.indexOf('\r\n\r\n');
  if (end < 0) problems.push('no blank line after the header');
  const head = end < 0 ? s : s.slice(0, end);
  const lines = head.split('\r\n');
  for (const [i, line] of lines.entries()) {
    const where = `header line ${i + 1} (${line.slice(0, 40)}…)`;
    if (/[^\x20-\x7e\t]/.test(line)) problems.push(`${where}: 8-bit or control byte`);
    if (line.length > 998) problems.push(`${where}: ${line.length} octets, over 998`);
    const continuation = /^[ \t]/.test(line);
    if (!continuation && !/^[\x21-\x39\x3b-\x7e]+:/.test(line)) problems.push(`${where}: not a header field`);
    if (line.length > 78) {
      // Where it could be cut: whitespace with a word on each side. A first line can also be
      // cut right after the colon.
      const rest = continuation ? line.trimStart() : line.slice(line.indexOf(':') + 1);
      const foldable = continuation ? /\S[ \t]+\S/.test(rest) : /[ \t]+\S/.test(rest);
      if (foldable) problems.push(`${where}: ${line.length} octets and foldable`);
    }
  }
  if (end >= 0)
    for (const line of s.slice(end + 4).split('\r\n'))
      if (line.length > 998) problems.push(`a body line of ${line.length} octets, over 998`);
  return problems;
}

/** The tags of a DKIM-Signature value. */
export function dkimTags(value: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    tags.set(part.slice(0, eq).trim(), part.slice(eq + 1).replace(/[ \t\r\n]+/g, ''));
  }
  return tags;
}

const relaxedField = (f: Field) =>
  `${f.name.trim().toLowerCase()}:${f.raw
    .slice(f.name.length + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim()}`;

function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((l) => l.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.length ? `${lines.join('\r\n')}\r\n` : '';
}

/**
 * Verifies the message's DKIM-Signature (the first one; relaxed/relaxed, rsa-sha256) with the
 * public key; answers the signed header names (h=, lower case). Throws what fails.
 */
export function verifyDkim(message: Buffer, publicKey: KeyObject): { signed: string[]; domain: string } {
  const { fields, body } = fieldsOf(message);
  const sig = fields.find((f) => f.name.toLowerCase() === 'dkim-signature');
  if (!sig) throw new Error('no DKIM-Signature');
  const tags = dkimTags(sig.value);
  if (tags.get('v') !== '1') throw new Error('DKIM v is not 1');
  if (tags.get('a') !== 'rsa-sha256') throw new Error(`DKIM a=${tags.get('a')}`);
  if (tags.get('c') !== 'relaxed/relaxed') throw new Error(`DKIM c=${tags.get('c')}`);
  if (tags.has('l')) throw new Error('DKIM l= (a partial body) is not accepted');
  const bh = createHash('sha256').update(relaxedBody(body), 'latin1').digest('base64');
  if (bh !== tags.get('bh')) throw new Error('DKIM body hash does not match: the body changed');
  const signed = (tags.get('h') ?? '').split(':').map((h) => h.trim().toLowerCase());
  if (!signed.includes('from')) throw new Error('DKIM h= does not cover From');
  // Each name takes the last instance not used yet, bottom up (RFC 6376 §5.4.2).
  const used = new Set<Field>();
  const lines: string[] = [];
  for (const name of signed) {
    const f = [...fields].reverse().find((x) => x.name.toLowerCase() === name && !used.has(x));
    if (!f) continue;
    used.add(f);
    lines.push(`${relaxedField(f)}\r\n`);
  }
  const withoutB = { ...sig, raw: sig.raw.replace(/(^|;)([ \t\r\n]*b[ \t\r\n]*=)[^;]*/, '$1$2') };
  const data = lines.join('') + relaxedField(withoutB);
  const ok = createVerify('RSA-SHA256')
    .update(data, 'latin1')
    .verify(publicKey, tags.get('b') ?? '', 'base64');
  if (!ok) throw new Error('DKIM signature does not verify: a signed header changed or the key differs');
  return { signed, domain: tags.get('d') ?? '' };
}
