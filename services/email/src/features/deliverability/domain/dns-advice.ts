import { createPublicKey } from 'node:crypto';
import type { DnsCheckKey, DnsRecordCheck, DnsRecordSuggestion } from '@parley/contracts';
import type { MailDomainCheck } from '../dns.ts';

/**
 * What to do about each record of a DNS check, for people: pure functions of the check and
 * of what the service knows about how it sends (the transport, the DKIM key it signs with).
 */

export interface SendingSetup {
  /** How mail leaves now: Amazon SES, an SMTP relay (its host) or the local mailbox. */
  transport: { kind: 'ses' } | { kind: 'smtp'; host: string } | { kind: 'local' };
  /** The key the service signs SMTP mail with (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY). */
  dkim: { domain: string; selector: string; privateKey: string } | null;
}

/** The SPF include a well-known sending service documents, by SMTP host. */
const PROVIDER_INCLUDES: [RegExp, string, string][] = [
  [/(^|\.)(gmail|googlemail)\.com$/, 'include:_spf.google.com', 'Google'],
  [/(^|\.)(office365|outlook)\.com$/, 'include:spf.protection.outlook.com', 'Microsoft 365'],
  [/(^|\.)sendgrid\.net$/, 'include:sendgrid.net', 'SendGrid'],
  [/(^|\.)mailgun\.org$/, 'include:mailgun.org', 'Mailgun'],
  [/(^|\.)amazonaws\.com$/, 'include:amazonses.com', 'Amazon SES'],
  [/(^|\.)postmarkapp\.com$/, 'include:spf.mtasv.net', 'Postmark'],
];

/** The SPF record to suggest for the current way of sending. */
export function suggestedSpf(setup: SendingSetup): { value: string; provider: string | null } {
  const t = setup.transport;
  if (t.kind === 'ses') return { value: 'v=spf1 include:amazonses.com ~all', provider: 'Amazon SES' };
  if (t.kind === 'smtp') {
    const host = t.host.toLowerCase();
    const known = PROVIDER_INCLUDES.find(([re]) => re.test(host));
    if (known) return { value: `v=spf1 ${known[1]} ~all`, provider: known[2] };
    return { value: `v=spf1 a:${host} ~all`, provider: null };
  }
  return { value: 'v=spf1 mx ~all', provider: null };
}

/** The DKIM record for the key the service signs with, or null when it has none (or it cannot be read). */
export function dkimRecordOf(privateKeyPem: string): string | null {
  try {
    const pub = createPublicKey(privateKeyPem.replace(/\\n/g, '\n'));
    const type = pub.asymmetricKeyType;
    const der = pub.export({ type: 'spki', format: 'der' });
    // RFC 8463: an Ed25519 key is published raw (the 32 bytes after the SPKI prefix).
    if (type === 'ed25519')
      return `v=DKIM1; k=ed25519; p=${der.subarray(der.length - 32).toString('base64')}`;
    if (type === 'rsa') return `v=DKIM1; k=rsa; p=${der.toString('base64')}`;
    return null;
  } catch {
    return null;
  }
}

const pOf = (record: string) => /(?:^|;)\s*p=([^;]*)/i.exec(record)?.[1]?.replace(/\s+/g, '') ?? '';

const dmarcTag = (record: string, tag: string) =>
  new RegExp(`(?:^|;)\\s*${tag}\\s*=\\s*([^;]*)`, 'i').exec(record)?.[1]?.trim().toLowerCase();

const LABELS: Record<DnsCheckKey, string> = { spf: 'SPF', dkim: 'DKIM', dmarc: 'DMARC', mx: 'MX' };

/** One entry per record (SPF, DKIM, DMARC, MX): status, what was found, what to do. */
export function adviseDns(check: MailDomainCheck, setup: SendingSetup): DnsRecordCheck[] {
  const d = check.domain;
  const entry = (
    key: DnsCheckKey,
    name: string,
    found: string[],
    status: DnsRecordCheck['status'],
    advice: string,
    suggestion: DnsRecordSuggestion | null = null,
  ): DnsRecordCheck => ({
    key,
    label: LABELS[key],
    ok: check[key],
    status,
    name,
    found,
    advice,
    suggestion,
    error: check.errors[key] ?? null,
  });
  const failed = (key: DnsCheckKey, name: string) =>
    entry(
      key,
      name,
      [],
      'error',
      `The lookup failed: ${check.errors[key]}. Nothing can be said about this record until it answers; run the check again.`,
    );

  // SPF
  const spfName = d;
  const spfSuggestion = suggestedSpf(setup);
  const spf = (() => {
    if (check.errors.spf) return failed('spf', spfName);
    const publishSpf = { type: 'TXT' as const, name: spfName, value: spfSuggestion.value };
    const via = spfSuggestion.provider ? ` (for ${spfSuggestion.provider})` : '';
    if (check.invalid.spf) return entry('spf', spfName, check.found.spf, 'invalid', `${check.invalid.spf}.`);
    const record = check.records.spf;
    if (!record)
      return entry(
        'spf',
        spfName,
        [],
        'missing',
        `No SPF record: receivers cannot tell which servers may send as ${d}, and Gmail and Yahoo require SPF or DKIM of every sender. Publish a TXT record at ${spfName}${via}.`,
        publishSpf,
      );
    const all = /(?:^|\s)([+?~-]?)all(?:\s|$)/i.exec(record);
    if (all && (all[1] === '' || all[1] === '+'))
      return entry(
        'spf',
        spfName,
        [record],
        'warning',
        `The record ends with "${all[0].trim()}": it lets any server on the internet send as ${d}. End it with ~all (soft fail) or -all (fail) instead.`,
      );
    if (all?.[1] === '?')
      return entry(
        'spf',
        spfName,
        [record],
        'warning',
        'The record ends with ?all (neutral): receivers learn nothing from it. End it with ~all or -all.',
      );
    if (!all && !/(?:^|\s)redirect=/i.test(record))
      return entry(
        'spf',
        spfName,
        [record],
        'warning',
        'The record has no "all" at the end, so mail from other servers is treated as neutral. End it with ~all or -all.',
      );
    return entry('spf', spfName, [record], 'pass', `SPF is published for ${d}.`);
  })();

  // DKIM
  const dkimName = `${check.selector}._domainkey.${d}`;
  const ours =
    setup.dkim &&
    setup.dkim.domain.toLowerCase() === d &&
    setup.dkim.selector.toLowerCase() === check.selector
      ? dkimRecordOf(setup.dkim.privateKey)
      : null;
  const publishDkim = ours ? { type: 'TXT' as const, name: dkimName, value: ours } : null;
  const dkim = (() => {
    if (check.errors.dkim) return failed('dkim', dkimName);
    const elsewhere = `If your mail provider signs with its own selector (Amazon SES Easy DKIM's tokens, Google's "google", Microsoft 365's "selector1"), set DKIM_SELECTOR to it so this check looks where the key is.`;
    if (check.invalid.dkim)
      return entry(
        'dkim',
        dkimName,
        check.found.dkim,
        'invalid',
        `A record is published at ${dkimName} but ${check.invalid.dkim}: mail signed with this selector fails DKIM. ${ours ? 'Publish the key the service signs with.' : 'Publish the current public key from your mail provider.'}`,
        publishDkim,
      );
    const record = check.records.dkim;
    if (!record)
      return entry(
        'dkim',
        dkimName,
        [],
        'missing',
        ours
          ? `No DKIM key at ${dkimName}: the service signs mail with selector "${check.selector}", but receivers cannot verify it. Publish this TXT record.`
          : `No DKIM key at ${dkimName}. DKIM signs each mail so receivers can verify it came from ${d}; Gmail and Yahoo require it of bulk senders. Publish the public key your mail provider gives you for selector "${check.selector}". ${elsewhere}`,
        publishDkim,
      );
    if (ours && pOf(record) !== pOf(ours))
      return entry(
        'dkim',
        dkimName,
        [record],
        'warning',
        `A key is published at ${dkimName}, but it is not the one the service signs with (DKIM_PRIVATE_KEY): signatures will fail. Publish this record instead.`,
        publishDkim,
      );
    return entry(
      'dkim',
      dkimName,
      [record],
      'pass',
      `A DKIM key is published for selector "${check.selector}".`,
    );
  })();

  // DMARC
  const dmarcName = `_dmarc.${check.dmarcDomain ?? d}`;
  const publishDmarc = {
    type: 'TXT' as const,
    name: `_dmarc.${d}`,
    value: `v=DMARC1; p=none; rua=mailto:dmarc-reports@${d}`,
  };
  const dmarc = (() => {
    if (check.errors.dmarc) return failed('dmarc', `_dmarc.${d}`);
    if (check.invalid.dmarc)
      return entry('dmarc', dmarcName, check.found.dmarc, 'invalid', `${check.invalid.dmarc}.`);
    const record = check.records.dmarc;
    if (!record)
      return entry(
        'dmarc',
        `_dmarc.${d}`,
        [],
        'missing',
        `No DMARC record for ${d}. Since February 2024 Gmail and Yahoo require one of bulk senders (5,000+ mails a day). Start with p=none and reports (rua) to see who sends as your domain; move to p=quarantine, then p=reject, once SPF and DKIM pass.`,
        publishDmarc,
      );
    const inherited =
      check.dmarcDomain && check.dmarcDomain !== d
        ? ` (the policy of ${check.dmarcDomain} applies to ${d})`
        : '';
    const policy =
      (check.dmarcDomain !== d ? (dmarcTag(record, 'sp') ?? dmarcTag(record, 'p')) : dmarcTag(record, 'p')) ??
      'none';
    if (policy === 'none')
      return entry(
        'dmarc',
        dmarcName,
        [record],
        'warning',
        `DMARC is published${inherited} with policy none: receivers report failures but still deliver mail that fails. Once the reports show your own mail passes SPF or DKIM, raise it to p=quarantine, then p=reject.`,
      );
    if (!dmarcTag(record, 'rua'))
      return entry(
        'dmarc',
        dmarcName,
        [record],
        'warning',
        `DMARC is published${inherited} with policy ${policy}, but without rua= you receive no reports of who sends as ${d}. Add rua=mailto:dmarc-reports@${d}.`,
      );
    return entry(
      'dmarc',
      dmarcName,
      [record],
      'pass',
      `DMARC is published${inherited} with policy ${policy}.`,
    );
  })();

  // MX
  const mx = (() => {
    if (check.errors.mx) return failed('mx', d);
    if (check.invalid.mx) return entry('mx', d, ['.'], 'invalid', `${check.invalid.mx}.`);
    if (!check.mx)
      return entry(
        'mx',
        d,
        [],
        'missing',
        `No MX record: replies and bounce reports sent to ${d} cannot be delivered, and some receivers refuse mail from a domain that cannot receive any. Publish an MX record pointing at your mailbox provider (for example "10 mail.${d}").`,
      );
    return entry(
      'mx',
      d,
      check.records.mx,
      'pass',
      `Mail for ${d} is received by ${check.records.mx.join(', ')}.`,
    );
  })();

  return [spf, dkim, dmarc, mx];
}
