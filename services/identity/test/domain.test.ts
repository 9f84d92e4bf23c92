import { describe, expect, it } from 'vitest';
import {
  buildSessionCookie,
  clearSessionCookies,
  readSessionToken,
  sessionCookieName,
} from '../src/domain/cookies.ts';
import { scopeDecision, throttleDecision, throttleMessage } from '../src/domain/throttle.ts';
import {
  changePasswordProblem,
  isValidEmail,
  loginInputProblem,
  newPasswordProblem,
  parseNewAdmin,
  removesLastSuperAdmin,
} from '../src/domain/validation.ts';

const MIN = 60_000;
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

describe('password policy', () => {
  it('requires 8 to 256 characters', () => {
    expect(newPasswordProblem('short')).toBe('Password must be at least 8 characters');
    expect(newPasswordProblem('')).toBe('Password must be at least 8 characters');
    expect(newPasswordProblem(undefined)).toBe('Password must be at least 8 characters');
    expect(newPasswordProblem('        ')).toBe('Password must be at least 8 characters');
    expect(newPasswordProblem('12345678')).toBeNull();
    expect(newPasswordProblem('x'.repeat(257))).toMatch(/at most 256/);
  });

  it('checks a change-password body in the spec order', () => {
    expect(changePasswordProblem({ currentPassword: '', newPassword: 'longenough' })).toBe(
      'Current password is required',
    );
    expect(changePasswordProblem({ newPassword: 'longenough' })).toBe('Current password is required');
    expect(changePasswordProblem({ currentPassword: 'old-secret', newPassword: 'short' })).toBe(
      'Password must be at least 8 characters',
    );
    expect(changePasswordProblem({ currentPassword: 'same-secret', newPassword: 'same-secret' })).toMatch(
      /different/,
    );
    expect(changePasswordProblem({ currentPassword: 'old-secret', newPassword: 'new-secret' })).toBeNull();
  });
});

describe('login and create-admin input', () => {
  it('validates email and password with the spec messages', () => {
    expect(loginInputProblem({ email: 'nope', password: 'x' })).toBe('Please enter a valid email');
    expect(loginInputProblem({ password: 'x' })).toBe('Please enter a valid email');
    expect(loginInputProblem(undefined)).toBe('Please enter a valid email');
    expect(loginInputProblem({ email: 'a@b.co', password: '' })).toBe('Password is required');
    expect(loginInputProblem({ email: ' A@B.co ', password: 'x' })).toBeNull();
    expect(isValidEmail('a b@c.de')).toBe(false);
  });

  it('parses a new admin: trims, lower-cases, defaults the role', () => {
    expect(parseNewAdmin({ email: ' Ada@Example.COM ', firstName: ' Ada ', lastName: 'L' })).toEqual({
      ok: true,
      value: { email: 'ada@example.com', firstName: 'Ada', lastName: 'L', role: 'admin' },
    });
    expect(parseNewAdmin({ email: 'a@b.co', firstName: ' ', lastName: 'L' })).toEqual({
      ok: false,
      message: 'Missing required fields',
    });
    expect(parseNewAdmin({})).toMatchObject({ ok: false, message: 'Missing required fields' });
    expect(parseNewAdmin({ email: 'bad', firstName: 'A', lastName: 'L' })).toMatchObject({ ok: false });
    expect(parseNewAdmin({ email: 'a@b.co', firstName: 'A', lastName: 'L', role: 'root' })).toMatchObject({
      ok: false,
    });
    expect(
      parseNewAdmin({ email: 'a@b.co', firstName: 'A', lastName: 'L', role: 'super_admin' }),
    ).toMatchObject({
      ok: true,
      value: { role: 'super_admin' },
    });
  });

  it('protects the last active super admin', () => {
    const superActive = { role: 'super_admin' as const, isActive: true };
    expect(removesLastSuperAdmin({ target: superActive, after: 'deleted', otherActiveSuperAdmins: 0 })).toBe(
      true,
    );
    expect(removesLastSuperAdmin({ target: superActive, after: 'deleted', otherActiveSuperAdmins: 1 })).toBe(
      false,
    );
    expect(
      removesLastSuperAdmin({
        target: superActive,
        after: { role: 'admin', isActive: true },
        otherActiveSuperAdmins: 0,
      }),
    ).toBe(true);
    expect(
      removesLastSuperAdmin({
        target: superActive,
        after: { role: 'super_admin', isActive: false },
        otherActiveSuperAdmins: 0,
      }),
    ).toBe(true);
    expect(
      removesLastSuperAdmin({
        target: superActive,
        after: { role: 'super_admin', isActive: true },
        otherActiveSuperAdmins: 0,
      }),
    ).toBe(false);
    expect(
      removesLastSuperAdmin({
        target: { role: 'admin', isActive: true },
        after: 'deleted',
        otherActiveSuperAdmins: 0,
      }),
    ).toBe(false);
  });
});

describe('sign-in throttle window', () => {
  const rule = { limit: 3, windowMs: 15 * MIN };

  it('blocks at the limit and lifts when enough attempts age out', () => {
    const now = at(20 * MIN);
    expect(scopeDecision([at(10 * MIN), at(11 * MIN)], now, rule)).toEqual({ blocked: false });
    // Three in the window: lifts when the oldest (10 min) leaves the window at 25 min.
    expect(scopeDecision([at(12 * MIN), at(10 * MIN), at(11 * MIN)], now, rule)).toEqual({
      blocked: true,
      retryAfterSeconds: 5 * 60,
    });
    // Five in the window: three must remain below the limit, so the third oldest (12) decides.
    expect(
      scopeDecision([at(10 * MIN), at(11 * MIN), at(12 * MIN), at(13 * MIN), at(14 * MIN)], now, rule),
    ).toEqual({
      blocked: true,
      retryAfterSeconds: 7 * 60,
    });
    // Attempts older than the window do not count.
    expect(scopeDecision([at(1 * MIN), at(2 * MIN), at(19 * MIN)], now, rule)).toEqual({ blocked: false });
  });

  it('never answers less than one second', () => {
    const now = at(15 * MIN - 1);
    expect(scopeDecision([at(0), at(1), at(2)], now, rule)).toEqual({ blocked: true, retryAfterSeconds: 1 });
  });

  it('combines account and IP scopes with the default limits (10 / 30 in 15 min)', () => {
    const now = at(60 * MIN);
    const times = (n: number) => Array.from({ length: n }, (_, i) => at(50 * MIN + i * 1000));
    expect(throttleDecision({ account: times(9), ip: times(29) }, now)).toEqual({ blocked: false });
    expect(throttleDecision({ account: times(10), ip: [] }, now)).toEqual({
      blocked: true,
      retryAfterSeconds: 5 * 60,
    });
    expect(throttleDecision({ account: [], ip: times(30) }, now)).toEqual({
      blocked: true,
      retryAfterSeconds: 5 * 60,
    });
  });

  it('says how many minutes to wait', () => {
    expect(throttleMessage(900)).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
    expect(throttleMessage(61)).toBe('Too many failed sign-in attempts. Try again in 2 minutes.');
    expect(throttleMessage(5)).toBe('Too many failed sign-in attempts. Try again in 1 minute.');
  });
});

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/, one day, Secure with __Host- over https', () => {
    expect(buildSessionCookie('tok', false)).toBe(
      'parley_session=tok; HttpOnly; SameSite=Lax; Path=/; Max-Age=86400',
    );
    expect(buildSessionCookie('tok', true)).toBe(
      '__Host-parley_session=tok; HttpOnly; SameSite=Lax; Path=/; Max-Age=86400; Secure',
    );
    expect(sessionCookieName(true)).toBe('__Host-parley_session');
  });

  it('reads the token from a Cookie header and clears it', () => {
    const token = 'a'.repeat(43);
    expect(readSessionToken(`theme=dark; parley_session=${token}`)).toBe(token);
    expect(readSessionToken(`__Host-parley_session=${token}; parley_session=${'b'.repeat(43)}`)).toBe(token);
    expect(readSessionToken('parley_session=bad token')).toBeNull();
    expect(readSessionToken(undefined)).toBeNull();
    expect(clearSessionCookies(false)).toEqual([
      'parley_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0',
    ]);
    expect(clearSessionCookies(false, `__Host-parley_session=${token}`)).toHaveLength(2);
  });
});
