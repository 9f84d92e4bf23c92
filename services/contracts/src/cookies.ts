import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from './identity.ts';

/** Cookie header parsing shared by identity (sign-in) and the gateway (session resolution). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name && !out.has(name)) out.set(name, value);
  }
  return out;
}

const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

/** The session token from a Cookie header (the secure name wins), or null. */
export function readSessionToken(cookieHeader: string | undefined): string | null {
  const cookies = parseCookies(cookieHeader);
  for (const name of [SECURE_SESSION_COOKIE, SESSION_COOKIE]) {
    const v = cookies.get(name);
    if (v && TOKEN.test(v)) return v;
  }
  return null;
}
