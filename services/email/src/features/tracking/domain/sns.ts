import { createVerify } from 'node:crypto';

/**
 * Amazon SNS message verification (HTTP/S endpoint subscriptions). Every message carries a
 * signature over a canonical string of its fields, made with the key of a certificate that
 * SNS serves from SigningCertURL. We accept SignatureVersion 1 (SHA1withRSA) and 2
 * (SHA256withRSA), fetch certificates only over https from sns.<region>.amazonaws.com (a
 * forged message could otherwise point us at its own certificate), and refuse stale
 * messages (replays). A valid signature proves only that SNS sent the message, and anyone
 * with an AWS account can have SNS send to us from a topic of their own: so only the topics
 * we were configured with (SNS_TOPIC_ARNS) are accepted, none when none are configured, and
 * that is checked, with the other cheap checks, before any certificate is fetched.
 */

export interface SnsMessage {
  Type: 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  SubscribeURL?: string;
  Token?: string;
}

const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;
/** A message older than this is refused as a replay (SNS retries within an hour by default). */
export const SNS_MAX_AGE_MS = 60 * 60_000;

export class SnsVerificationError extends Error {
  override name = 'SnsVerificationError';
}

/**
 * The signing certificate could not be fetched (network, timeout, SNS answering 5xx): nothing
 * is known about the message yet, and SNS delivers it again after a non-2xx answer.
 */
export class SnsCertificateUnavailable extends Error {
  override name = 'SnsCertificateUnavailable';
}

export function parseSnsMessage(body: unknown): SnsMessage {
  const obj = typeof body === 'string' ? safeJson(body) : body;
  if (!obj || typeof obj !== 'object') throw new SnsVerificationError('the body is not an SNS message');
  const m = obj as Record<string, unknown>;
  for (const k of [
    'Type',
    'MessageId',
    'TopicArn',
    'Timestamp',
    'SignatureVersion',
    'Signature',
    'SigningCertURL',
  ])
    if (typeof m[k] !== 'string') throw new SnsVerificationError(`the SNS message lacks ${k}`);
  if (!['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation'].includes(m.Type as string))
    throw new SnsVerificationError(`unknown SNS message type ${String(m.Type)}`);
  if (typeof m.Message !== 'string') throw new SnsVerificationError('the SNS message lacks Message');
  return m as unknown as SnsMessage;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

/** The canonical string SNS signs (field order fixed by AWS's documentation). */
export function stringToSign(m: SnsMessage): string {
  const fields =
    m.Type === 'Notification'
      ? [
          'Message',
          'MessageId',
          ...(m.Subject !== undefined ? ['Subject'] : []),
          'Timestamp',
          'TopicArn',
          'Type',
        ]
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  return fields.map((f) => `${f}\n${(m as unknown as Record<string, string>)[f] ?? ''}\n`).join('');
}

/**
 * True when `url` may be fetched for SNS: https on an SNS host, or one of the test-only
 * origins (SNS_TEST_CERT_ORIGINS, empty in production).
 */
export function isTrustedSnsUrl(url: string, testOrigins: readonly string[] = []): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (testOrigins.includes(u.origin)) return true;
  return u.protocol === 'https:' && SNS_HOST.test(u.hostname) && (u.port === '' || u.port === '443');
}

export interface VerifyOptions {
  /**
   * PEM of a certificate URL (cached by the caller). Throws SnsCertificateUnavailable when it
   * cannot be had for now, SnsVerificationError when what it got is no certificate.
   */
  certificate(url: string): Promise<string>;
  testOrigins?: readonly string[];
  /** The topics whose messages are accepted; empty or absent = none. */
  topicArns?: readonly string[];
  now?: Date;
}

/**
 * The checks that need nothing fetched: the topic, the signature version, the age and the
 * certificate's URL. A message that fails them costs us no request to anyone.
 */
export function precheckSnsMessage(m: SnsMessage, opts: Omit<VerifyOptions, 'certificate'>): void {
  if (!opts.topicArns?.length)
    throw new SnsVerificationError('no SNS topic is configured (SNS_TOPIC_ARNS): every message is refused');
  if (!opts.topicArns.includes(m.TopicArn))
    throw new SnsVerificationError('the topic is not one we subscribed to');
  if (m.SignatureVersion !== '1' && m.SignatureVersion !== '2')
    throw new SnsVerificationError(`unsupported SignatureVersion ${m.SignatureVersion}`);
  const at = Date.parse(m.Timestamp);
  const now = (opts.now ?? new Date()).getTime();
  if (!Number.isFinite(at) || now - at > SNS_MAX_AGE_MS || at - now > 5 * 60_000)
    throw new SnsVerificationError('the message is too old or from the future (replay?)');
  if (!isTrustedSnsUrl(m.SigningCertURL, opts.testOrigins))
    throw new SnsVerificationError('SigningCertURL is not an https URL of an SNS host');
}

export async function verifySnsMessage(m: SnsMessage, opts: VerifyOptions): Promise<void> {
  precheckSnsMessage(m, opts);
  const pem = await opts.certificate(m.SigningCertURL);
  let ok: boolean;
  try {
    ok = createVerify(m.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
      .update(stringToSign(m), 'utf8')
      .verify(pem, Buffer.from(m.Signature, 'base64'));
  } catch {
    // A PEM block that is no readable certificate (crypto throws rather than answering false).
    throw new SnsVerificationError('the signing certificate is unreadable');
  }
  if (!ok) throw new SnsVerificationError('the signature does not match');
}

/** What an SES notification (the SNS Message) says happened to which recipients. */
export interface SesOutcome {
  kind: 'bounce' | 'soft_bounce' | 'complaint' | 'delivery';
  sesMessageId: string;
  recipients: string[];
  reason: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function sesOutcomeOf(message: string): SesOutcome | null {
  const n = obj(safeJson(message));
  // SES notifications say notificationType; SES event publishing says eventType.
  const type = str(n.notificationType) ?? str(n.eventType);
  const sesMessageId = str(obj(n.mail).messageId);
  if (!type || !sesMessageId) return null;
  const list = (v: unknown) => (Array.isArray(v) ? v.map(obj) : []);
  const emails = (v: unknown) =>
    list(v)
      .map((r) => str(r.emailAddress) ?? '')
      .filter((e) => e.includes('@'));
  if (type === 'Bounce') {
    const b = obj(n.bounce);
    const diag = str(list(b.bouncedRecipients)[0]?.diagnosticCode);
    return {
      kind: b.bounceType === 'Permanent' ? 'bounce' : 'soft_bounce',
      sesMessageId,
      recipients: emails(b.bouncedRecipients),
      reason: [str(b.bounceType), str(b.bounceSubType), diag].filter(Boolean).join(': ').slice(0, 500),
    };
  }
  if (type === 'Complaint') {
    const c = obj(n.complaint);
    return {
      kind: 'complaint',
      sesMessageId,
      recipients: emails(c.complainedRecipients),
      reason: str(c.complaintFeedbackType) ?? 'complaint',
    };
  }
  if (type === 'Delivery') {
    const d = obj(n.delivery);
    return {
      kind: 'delivery',
      sesMessageId,
      recipients: Array.isArray(d.recipients) ? d.recipients.map(String) : [],
      reason: (str(d.smtpResponse) ?? 'delivered').slice(0, 500),
    };
  }
  return null;
}
