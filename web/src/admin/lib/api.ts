import type { LoginResponse, Me, SessionStatus } from '@parley/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { ApiError, apiErrorOf, errorMessage, errorStatus, getQueryFn } from '../../lib/api.ts';

/**
 * The admin side of the data layer. Reads go through the shared default query function
 * (the key is the path); writes go through `adminRequest`, which always satisfies the
 * gateway's CSRF rule for cookie-authenticated changes: a JSON body, or, for a call without
 * one (DELETE), the `X-Requested-With: parley` header.
 */

export const ME_PATH = '/api/admin/me';
export const ADMIN_USERS_PATH = '/api/admin/users';
export const BOOKINGS_PATH = '/api/bookings';
export const CONTACT_REQUESTS_PATH = '/api/contact-requests';

/** The gateway's answer to every admin call (but me, logout, change-password) until then. */
/** The `error` category of the gateway's 403 for an admin who must change the password. */
export const PASSWORD_CHANGE_REQUIRED = 'Password Change Required';

/** Whether the browser holds a live session: public, always 200 (no 401 in the console). */
export const SESSION_PATH = '/api/admin/session';

const meOrNull = getQueryFn<Me | null>({ on401: 'returnNull' });

/**
 * The current admin, or null when signed out (401). Never retried, never refetched on its own.
 * Signed out, the session question answers it: no 401 is asked for, so a visit to the login
 * screen logs no failed request (issue 35).
 */
export const meQuery = {
  queryKey: [ME_PATH] as [string],
  queryFn: async (context: Parameters<typeof meOrNull>[0]): Promise<Me | null> => {
    const res = await fetch(SESSION_PATH, { credentials: 'include', signal: context.signal });
    if (res.ok && ((await res.json()) as SessionStatus).signedIn === false) return null;
    return meOrNull(context);
  },
  retry: false,
} as const;

/** Sends a JSON request (or a marked body-less one) with credentials; throws an ApiError. */
export async function adminRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'X-Requested-With': 'parley' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(url, {
    method,
    headers,
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: 'include',
  });
  if (!res.ok) throw await apiErrorOf(res);
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('json') ? await res.json() : undefined) as T;
}

export const login = (email: string, password: string) =>
  adminRequest<LoginResponse>('POST', '/api/admin/login', { email, password });

export const logout = () => adminRequest<{ success: true }>('POST', '/api/admin/logout', {});

/** Where a fresh sign-in goes (spec §4). */
export const afterLoginPath = (res: LoginResponse) =>
  res.admin.mustChangePassword ? '/admin/change-password' : '/admin';

/**
 * After signing in or out, nothing read for the previous session may be shown again: every
 * cached read is dropped and the current-admin check starts over (refetched at once when a
 * screen is watching it).
 */
export async function resetSessionCache(queryClient: QueryClient): Promise<void> {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_PATH });
  await queryClient.resetQueries({ queryKey: [ME_PATH] });
}

/** The server's message of a failed call when it has one, else the caller's fallback. */
export const messageOr = (err: unknown, fallback: string) => errorMessage(err) ?? fallback;

export const isUnauthorized = (err: unknown) => errorStatus(err) === 401;
/** The gateway's refusal of an admin who must change the password first (by its category, not its wording). */
export const isPasswordChangeRequired = (err: unknown) =>
  err instanceof ApiError && err.status === 403 && err.category === PASSWORD_CHANGE_REQUIRED;

/**
 * The gateway reuses a session resolution for up to 3 s, so right after a password change
 * it may still answer 'Please change your password to continue.' for a moment. Admin reads
 * retry that answer (quietly, still loading) for a few seconds after a change instead of
 * sending the admin back to the change-password screen.
 */
const SESSION_CACHE_GRACE_MS = 6000;
let passwordChangedAt = Number.NEGATIVE_INFINITY;

export function notePasswordChanged(): void {
  passwordChangedAt = Date.now();
}

export const adminQueryRetry = {
  retry: (failures: number, err: unknown) =>
    failures < 5 && isPasswordChangeRequired(err) && Date.now() - passwordChangedAt < SESSION_CACHE_GRACE_MS,
  retryDelay: 1000,
};
