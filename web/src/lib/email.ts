/**
 * The web's one email check: something@domain.tld without spaces, as every form here asks.
 * The server validates again (format "email" in the contracts); this only spares a round trip.
 */
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isEmail = (value: string): boolean => EMAIL_RE.test(value);
