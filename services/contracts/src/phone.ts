/**
 * Phone helpers of the spec (public site §5, admin §5): digits are extracted and at most 10
 * kept; the display grows as (XXX) XXX-XXXX; a US number has exactly 10 digits. A leading 1
 * is the country code (a North American area code never starts with 0 or 1), so
 * '+1 312 555 0110' is the US number (312) 555-0110, as the spec's own normalisation rule
 * (11 digits starting with 1 → +1…) already says. Shared by the web forms and the services
 * so both sides agree.
 */

export const PHONE_DISPLAY_MAX_LENGTH = 14;

/** The national digits: the country code 1 dropped, at most 10 kept. */
export function phoneDigits(input: string): string {
  return input.replace(/\D/g, '').replace(/^1/, '').slice(0, 10);
}

export function formatPhone(input: string): string {
  const d = phoneDigits(input);
  if (d.length === 0) return '';
  if (d.length < 4) return `(${d}`;
  if (d.length < 7) return `(${d.slice(0, 3)}) ${d.slice(3)}`;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

/** Exactly 10 digits, or 11 starting with the country code 1. */
export function isValidUsPhone(input: string): boolean {
  const d = input.replace(/\D/g, '');
  return d.length === 10 || (d.length === 11 && d.startsWith('1'));
}

/**
 * E.164 normalisation of the spec: 10 digits get +1; 11 digits starting with 1 get +;
 * anything else gets a + prefix.
 */
export function normalizePhone(input: string): string {
  const d = input.replace(/\D/g, '');
  if (d.length === 10) return `+1${d}`;
  if (d.length === 11 && d.startsWith('1')) return `+${d}`;
  return `+${d}`;
}

/**
 * The number an admin's outbound call may go to (admin spec §5, default country code +1):
 * a US number (10 digits, or 11 starting with 1), or an international one written with its
 * + and country code (8 to 15 digits, E.164). Anything else is null: '12' is not a number.
 */
export function callablePhone(input: string): string | null {
  const trimmed = input.trim();
  if (isValidUsPhone(trimmed)) return normalizePhone(trimmed);
  const d = trimmed.replace(/\D/g, '');
  if (trimmed.startsWith('+') && /^[2-9]\d{7,14}$/.test(d)) return `+${d}`;
  return null;
}
