/**
 * Phone helpers of the spec (public site §5): digits are extracted and at most 10
 * kept; the display grows as (XXX) XXX-XXXX; valid only with exactly 10 digits.
 * Shared by the web forms and the services so both sides agree.
 */

export const PHONE_DISPLAY_MAX_LENGTH = 14;

export function phoneDigits(input: string): string {
  return input.replace(/\D/g, '').slice(0, 10);
}

export function formatPhone(input: string): string {
  const d = phoneDigits(input);
  if (d.length === 0) return '';
  if (d.length < 4) return `(${d}`;
  if (d.length < 7) return `(${d.slice(0, 3)}) ${d.slice(3)}`;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

export function isValidUsPhone(input: string): boolean {
  return input.replace(/\D/g, '').length === 10;
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
