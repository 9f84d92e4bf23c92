/**
 * What the SMTP client (smtp-client.ts) says and hears, apart from any connection: the stages
 * of a transaction, a reply, the errors a send fails with, the guards that keep a command to
 * one line, and the message as DATA carries it (dot-stuffing).
 */

/** Where a transaction was when it failed. */
export type SmtpStage =
  | 'connect'
  | 'greeting'
  | 'ehlo'
  | 'starttls'
  | 'auth'
  | 'mail'
  | 'rcpt'
  | 'data'
  | 'message';

const HANDSHAKE: ReadonlySet<SmtpStage> = new Set(['connect', 'greeting', 'ehlo', 'starttls', 'auth']);

export interface SmtpReply {
  code: number;
  /** The reply's text lines joined with newlines (without the codes). */
  text: string;
}

/** The server answered with a refusal (`code` is its reply code). */
export class SmtpReplyError extends Error {
  override name = 'SmtpReplyError';
  constructor(
    readonly stage: SmtpStage,
    readonly code: number,
    text: string,
    /** For RCPT: the refused recipients. */
    readonly recipients: string[] = [],
  ) {
    super(`${code} ${text}`.slice(0, 500));
  }
  get handshake(): boolean {
    return HANDSHAKE.has(this.stage);
  }
}

/** The connection failed (refused, reset, timed out, TLS) with no reply to read. */
export class SmtpNetworkError extends Error {
  override name = 'SmtpNetworkError';
  constructor(
    readonly stage: SmtpStage,
    message: string,
    readonly code?: string,
    /** What happened underneath, for the logs (the message may be kept coarse on purpose). */
    readonly detail?: string,
  ) {
    super(message);
  }
  get handshake(): boolean {
    return HANDSHAKE.has(this.stage);
  }
}

/** A command would carry a line break or control character: refused before anything is sent. */
export class SmtpCommandError extends Error {
  override name = 'SmtpCommandError';
  constructor(
    readonly stage: SmtpStage,
    message: string,
  ) {
    super(message);
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const UNSAFE_IN_PATH = /[\u0000-\u001f\u007f<>]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
export const UNSAFE_IN_COMMAND = /[\u0000-\u001f\u007f]/;

/** The refusal of an envelope address that would break out of its MAIL FROM or RCPT TO line. */
export function envelopeProblem(from: string, to: readonly string[]): SmtpCommandError | null {
  if (UNSAFE_IN_PATH.test(from))
    return new SmtpCommandError('mail', 'the sender address holds a line break, control character or <>');
  if (to.some((t) => UNSAFE_IN_PATH.test(t)))
    return new SmtpCommandError('rcpt', 'a recipient address holds a line break, control character or <>');
  return null;
}

/**
 * The message as DATA needs it: CRLF line ends, and a dot doubled at the start of a line
 * (RFC 5321 §4.5.2). Untouched (no copy) when it needs neither, as composed messages do.
 */
export function dotStuffed(message: Buffer): Buffer {
  let bareLf = false;
  for (let i = message.indexOf(0x0a); i >= 0; i = message.indexOf(0x0a, i + 1)) {
    if (i === 0 || message[i - 1] !== 0x0d) {
      bareLf = true;
      break;
    }
  }
  const dotLine = message[0] === 0x2e || message.indexOf('\n.') >= 0;
  if (!bareLf && !dotLine) return message;
  const text = message.toString('latin1');
  const crlf = bareLf ? text.replace(/\r?\n/g, '\r\n') : text;
  return Buffer.from(crlf.replace(/(^|\n)\./g, '$1..'), 'latin1');
}
