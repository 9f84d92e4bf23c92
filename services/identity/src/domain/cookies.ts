import {
  parseCookies,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
  SESSION_COOKIE_MAX_AGE_SECONDS,
} from '@parley/contracts';

/**
 * The admin session cookie (ARCHITECTURE §4): HttpOnly, SameSite=Lax, Path=/, and over
 * https `Secure` with the `__Host-` prefix (no Domain, so only this host gets it). Pure.
 */

export const sessionCookieName = (secure: boolean) => (secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

export function buildSessionCookie(
  token: string,
  secure: boolean,
  maxAgeSeconds = SESSION_COOKIE_MAX_AGE_SECONDS,
) {
  return [
    `${sessionCookieName(secure)}=${token}`,
    'HttpOnly',
    'SameSite=Lax',
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** Set-Cookie values that remove the session cookie (both names when the request had both). */
export function clearSessionCookies(secure: boolean, cookieHeader?: string): string[] {
  const present = parseCookies(cookieHeader);
  const names = new Set([sessionCookieName(secure)]);
  if (present.has(SESSION_COOKIE)) names.add(SESSION_COOKIE);
  if (present.has(SECURE_SESSION_COOKIE)) names.add(SECURE_SESSION_COOKIE);
  return [...names].map((name) =>
    [
      `${name}=`,
      'HttpOnly',
      'SameSite=Lax',
      'Path=/',
      'Max-Age=0',
      ...(name === SECURE_SESSION_COOKIE ? ['Secure'] : []),
    ].join('; '),
  );
}

export { parseCookies, readSessionToken } from '@parley/contracts';
