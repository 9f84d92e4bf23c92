import {
  isKnownSettingKey,
  MAIL_TRANSPORTS,
  type SaveSettingBody,
  SETTING_CATEGORY_MAX,
  SETTING_CATEGORY_OF,
  SETTING_DESCRIPTION_MAX,
  SETTING_KEY_MAX,
  SETTING_KEY_PATTERN,
  SETTING_VALUE_MAX,
  TEST_EMAIL_MAX,
} from '@parley/contracts';
import { mailHostProblem } from '@parley/kit/mail-host';

/**
 * The rules of a setting (spec §3, §5 and issue #13): every key obeys the length and form
 * rules; the known keys are checked by type. Messages name the key and never repeat the value
 * (it may be a credential).
 */

const KEY_RE = new RegExp(SETTING_KEY_PATTERN);
// The usual practical address form (as ajv-formats' `email`): local part, @, dotted host.
const EMAIL_RE =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const PHONE_RE = /^\+?[0-9 ().-]{6,30}(?:\s*(?:x|ext\.?)\s*\d{1,6})?$/i;
// Control characters (CR/LF would inject mail headers through names and addresses).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL_RE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LINE_BREAK_RE = /[\r\n]/;

export const isValidEmail = (s: string) => s.length <= 254 && EMAIL_RE.test(s);

export function isHttpUrl(s: string): boolean {
  if (s.length > 2048) return false;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    !!url.hostname &&
    !url.username &&
    !url.password
  );
}

/** What is wrong with the value of a known key, or null. */
function knownValueProblem(key: string, value: string): string | null {
  const oneLine = (max: number, what: string): string | null =>
    value.length === 0
      ? `${key} must not be empty`
      : value.length > max
        ? `${key} must be at most ${max} characters`
        : LINE_BREAK_RE.test(value)
          ? `${key} must be ${what} on one line`
          : null;
  switch (key) {
    case 'smtp_host': {
      // Every spelling of an address is read as the connection would read it; the email
      // service checks the addresses a name resolves to again before it connects.
      const problem = mailHostProblem(value);
      if (problem === 'not a host name') return 'smtp_host must be a host name such as smtp.example.com';
      return problem
        ? `smtp_host must be a mail server: ${problem} is refused (loopback and private relays are allowed)`
        : null;
    }
    case 'smtp_port': {
      if (!/^\d{1,5}$/.test(value)) return 'smtp_port must be a whole number from 1 to 65535';
      const n = Number(value);
      return n >= 1 && n <= 65535 ? null : 'smtp_port must be a whole number from 1 to 65535';
    }
    case 'smtp_username':
      return oneLine(320, 'a user name');
    case 'smtp_password':
      return value.length === 0
        ? 'smtp_password must not be empty'
        : value.length > 1000
          ? 'smtp_password must be at most 1000 characters'
          : null;
    case 'smtp_from_name':
    case 'brand_name':
      return oneLine(200, 'a name');
    case 'smtp_from_email':
    case 'support_email':
      return isValidEmail(value) ? null : `${key} must be a valid email address`;
    case 'website_url':
      return isHttpUrl(value) ? null : 'website_url must be an http(s) URL such as https://example.com';
    case 'company_phone':
      return PHONE_RE.test(value) ? null : 'company_phone must be a phone number';
    case 'company_address':
      return value.length > 500 ? 'company_address must be at most 500 characters' : null;
    case 'brand_voice':
      return value.length > 2000 ? 'brand_voice must be at most 2000 characters' : null;
    case 'test_email_addresses': {
      let list: unknown;
      try {
        list = JSON.parse(value);
      } catch {
        return 'test_email_addresses must be a JSON array of email addresses';
      }
      if (!Array.isArray(list) || !list.every((e) => typeof e === 'string'))
        return 'test_email_addresses must be a JSON array of email addresses';
      if (list.length < 1 || list.length > TEST_EMAIL_MAX)
        return `test_email_addresses must hold 1 to ${TEST_EMAIL_MAX} addresses`;
      const bad = list.find((e) => !isValidEmail(e));
      return bad !== undefined ? 'test_email_addresses must hold only valid email addresses' : null;
    }
    case 'test_environment_enabled':
      return value === 'true' || value === 'false'
        ? null
        : "test_environment_enabled must be 'true' or 'false'";
    case 'mail_transport':
      return (MAIL_TRANSPORTS as readonly string[]).includes(value)
        ? null
        : `mail_transport must be one of ${MAIL_TRANSPORTS.join(', ')}`;
    default:
      return null;
  }
}

/** The first problem of a save, or null when it may be stored. */
export function settingProblem(body: SaveSettingBody): string | null {
  const { key, value } = body;
  if (key.length === 0 || key.length > SETTING_KEY_MAX)
    return `The setting key must be 1 to ${SETTING_KEY_MAX} characters`;
  if (!KEY_RE.test(key))
    return `The setting key ${JSON.stringify(key)} may hold only letters, digits and _ . : - (starting with a letter or digit)`;
  if (body.category !== undefined) {
    if (body.category.trim().length === 0 || body.category.length > SETTING_CATEGORY_MAX)
      return `The category of ${key} must be 1 to ${SETTING_CATEGORY_MAX} characters`;
    if (CONTROL_RE.test(body.category) || LINE_BREAK_RE.test(body.category))
      return `The category of ${key} must be plain text`;
  }
  if (typeof body.description === 'string') {
    if (body.description.length > SETTING_DESCRIPTION_MAX)
      return `The description of ${key} must be at most ${SETTING_DESCRIPTION_MAX} characters`;
    if (CONTROL_RE.test(body.description)) return `The description of ${key} must be plain text`;
  }
  if (value.length > SETTING_VALUE_MAX) return `${key} must be at most ${SETTING_VALUE_MAX} characters`;
  if (CONTROL_RE.test(value)) return `${key} must not contain control characters`;
  return isKnownSettingKey(key) ? knownValueProblem(key, value) : null;
}

/**
 * The stored form of a value, applied before the checks: known keys lose edge spaces (a
 * password never does; it is taken exactly as typed).
 */
export function normaliseValue(key: string, value: string): string {
  if (key === 'smtp_password' || !isKnownSettingKey(key)) return value;
  if (key === 'test_email_addresses') {
    try {
      const list: unknown = JSON.parse(value);
      if (Array.isArray(list) && list.every((e) => typeof e === 'string'))
        return JSON.stringify(list.map((e) => e.trim()));
    } catch {
      // not JSON: settingProblem says so
    }
    return value;
  }
  return value.trim();
}

/** The category a new setting is filed under when the caller names none. */
export function defaultCategory(key: string): string {
  return isKnownSettingKey(key) ? SETTING_CATEGORY_OF[key] : 'general';
}
