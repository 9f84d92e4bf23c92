import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshIp, type Harness, SUPER_EMAIL, SUPER_PASSWORD, startHarness } from './harness.ts';

const HOUR = 3_600_000;
let h: Harness;
let superId: string;

/** Invites an admin (as the super admin) and accepts the invitation with `password`. */
async function newAdmin(email: string, password: string, role: 'admin' | 'super_admin' = 'admin') {
  const created = await h.call('POST', '/api/admin/users', {
    body: { email, firstName: 'Test', lastName: 'Admin', role },
    headers: await h.as({ adminId: superId, role: 'super_admin' }),
  });
  expect(created.status).toBe(201);
  const token = new URL(created.body.invitationUrl, 'http://x').searchParams.get('invite');
  const accepted = await h.call('POST', '/api/admin/invitations/accept', { body: { token, password } });
  expect(accepted.status).toBe(200);
  return created.body.user.id as string;
}

beforeAll(async () => {
  h = await startHarness('identity_session');
  const [row] = await h.sql('SELECT id FROM admin_users WHERE email = $1', [SUPER_EMAIL]);
  superId = row.id;
});
afterAll(async () => h?.stop());

describe('POST /api/admin/login', () => {
  it('signs in with an HttpOnly cookie and a new token every time', async () => {
    const a = await h.login(SUPER_EMAIL, SUPER_PASSWORD);
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      admin: { firstName: 'Parley', lastName: 'Admin', role: 'super_admin', mustChangePassword: false },
    });
    expect(a.cookie).toMatch(
      /^parley_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Lax; Path=\/; Max-Age=86400$/,
    );
    const b = await h.login(SUPER_EMAIL.toUpperCase(), SUPER_PASSWORD);
    expect(b.status).toBe(200);
    expect(b.token).not.toBe(a.token);
    // Only hashes are stored.
    const stored = await h.sql('SELECT token_hash FROM admin_sessions');
    expect(stored.some((r) => r.token_hash === a.token)).toBe(false);
    const [user] = await h.sql('SELECT last_login FROM admin_users WHERE id = $1', [superId]);
    expect(user.last_login).toBeInstanceOf(Date);
  });

  it('uses the __Host- Secure cookie behind https', async () => {
    const r = await h.login(SUPER_EMAIL, SUPER_PASSWORD, { https: true });
    expect(r.cookie).toMatch(
      /^__Host-parley_session=[^;]+; HttpOnly; SameSite=Lax; Path=\/; Max-Age=86400; Secure$/,
    );
    expect((await h.resolve(r.token!)).status).toBe(200);
  });

  it('answers the same 401 for a wrong password and an unknown email', async () => {
    const wrong = await h.login(SUPER_EMAIL, 'not the password');
    const unknown = await h.login('nobody@parley.test', SUPER_PASSWORD);
    for (const r of [wrong, unknown]) {
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'Unauthorized', message: 'Invalid email or password' });
      expect(r.cookie).toBeNull();
    }
  });

  it('validates the body with the spec messages', async () => {
    const bad = await h.call('POST', '/api/admin/login', { body: { email: 'nope', password: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Please enter a valid email');
    const empty = await h.call('POST', '/api/admin/login', { body: { email: SUPER_EMAIL, password: '' } });
    expect(empty.body).toMatchObject({ error: 'Bad Request', message: 'Password is required' });
    expect((await h.call('POST', '/api/admin/login', { body: {} })).status).toBe(400);
  });

  it('locks an account after 10 failures with 429 and Retry-After, then lifts', async () => {
    const email = 'locked@parley.test';
    await newAdmin(email, 'right-password');
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await h.login(email, `wrong-${i}`, { ip })).status).toBe(401);
    // Even the right password is refused now, from any IP.
    const locked = await h.login(email, 'right-password', { ip: freshIp() });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({
      error: 'Too Many Requests',
      message: 'Too many failed sign-in attempts. Try again in 15 minutes.',
    });
    expect(Number(locked.headers.get('retry-after'))).toBe(900);
    h.clock.advance(10 * 60_000);
    const later = await h.login(email, 'right-password');
    expect(later.status).toBe(429);
    expect(later.body.message).toBe('Too many failed sign-in attempts. Try again in 5 minutes.');
    h.clock.advance(5 * 60_000 + 1000);
    expect((await h.login(email, 'right-password')).status).toBe(200);
  });

  it('resets the account counter on success', async () => {
    const email = 'reset@parley.test';
    await newAdmin(email, 'right-password');
    for (let i = 0; i < 9; i++) expect((await h.login(email, 'wrong')).status).toBe(401);
    expect((await h.login(email, 'right-password')).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await h.login(email, 'wrong')).status).toBe(401);
    expect((await h.login(email, 'right-password')).status).toBe(429);
  });

  it('cannot be beaten by a parallel burst', async () => {
    const email = 'burst@parley.test';
    await newAdmin(email, 'right-password');
    const results = await Promise.all(Array.from({ length: 25 }, () => h.login(email, 'wrong')));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);
  });

  it('locks a client IP after 30 failures across accounts', async () => {
    const ip = freshIp();
    for (let i = 0; i < 30; i++)
      expect((await h.login(`spray${i}@parley.test`, 'guess', { ip })).status).toBe(401);
    const blocked = await h.login(SUPER_EMAIL, SUPER_PASSWORD, { ip });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await h.login(SUPER_EMAIL, SUPER_PASSWORD, { ip: freshIp() })).status).toBe(200);
  });
});

describe('sessions', () => {
  it('resolves a live session, expires after 24 h idle, and is renewed by use', async () => {
    const used = await h.login(SUPER_EMAIL, SUPER_PASSWORD);
    const idle = await h.login(SUPER_EMAIL, SUPER_PASSWORD);
    const r = await h.resolve(used.token!);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      adminId: superId,
      role: 'super_admin',
      email: SUPER_EMAIL,
      mustChangePassword: false,
    });

    h.clock.advance(23 * HOUR);
    expect((await h.resolve(used.token!)).status).toBe(200); // renews to now + 24 h
    h.clock.advance(2 * HOUR);
    expect((await h.resolve(idle.token!)).status).toBe(401); // 25 h idle
    expect((await h.resolve(used.token!)).status).toBe(200); // 2 h idle
    h.clock.advance(24 * HOUR + 60_000);
    expect((await h.resolve(used.token!)).status).toBe(401);
  });

  it('refuses resolution without the internal token or with an unknown token', async () => {
    const s = await h.login(SUPER_EMAIL, SUPER_PASSWORD);
    const noAuth = await h.call('POST', '/internal/sessions/resolve', { body: { token: s.token } });
    expect(noAuth.status).toBe(401);
    expect((await h.resolve('A'.repeat(43))).status).toBe(401);
  });

  it('answers /me for the asserted admin only while it exists and is active', async () => {
    expect((await h.call('GET', '/api/admin/me')).status).toBe(401);
    const me = await h.call('GET', '/api/admin/me', {
      headers: await h.as({ adminId: superId, role: 'super_admin' }),
    });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: superId,
      email: SUPER_EMAIL,
      firstName: 'Parley',
      lastName: 'Admin',
      role: 'super_admin',
    });
    const ghost = await h.call('GET', '/api/admin/me', {
      headers: await h.as({ adminId: '00000000-0000-4000-8000-000000000000', role: 'admin' }),
    });
    expect(ghost.status).toBe(401);
  });

  it('answers /session 200 whether signed in or not, never a 401', async () => {
    const none = await h.call('GET', '/api/admin/session');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ signedIn: false });
    expect(none.headers.get('cache-control')).toBe('no-store');
    const unknown = await h.call('GET', '/api/admin/session', {
      headers: { cookie: `parley_session=${'A'.repeat(43)}` },
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ signedIn: false });
    const s = await h.login(SUPER_EMAIL, SUPER_PASSWORD);
    const live = await h.call('GET', '/api/admin/session', { headers: { cookie: s.cookie!.split(';')[0]! } });
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ signedIn: true });
    // Signed out: the same cookie no longer counts.
    await h.call('POST', '/api/admin/logout', {
      headers: await h.as({ adminId: superId, role: 'super_admin' }, s.token),
    });
    const after = await h.call('GET', '/api/admin/session', {
      headers: { cookie: s.cookie!.split(';')[0]! },
    });
    expect(after.body).toEqual({ signedIn: false });
  });

  it('logout ends the current session and clears the cookie', async () => {
    const s = await h.login(SUPER_EMAIL, SUPER_PASSWORD);
    const other = await h.login(SUPER_EMAIL, SUPER_PASSWORD);
    const out = await h.call('POST', '/api/admin/logout', {
      headers: await h.as({ adminId: superId, role: 'super_admin' }, s.token),
    });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect(out.headers.get('set-cookie')).toMatch(/^parley_session=; .*Max-Age=0/);
    expect((await h.resolve(s.token!)).status).toBe(401);
    expect((await h.resolve(other.token!)).status).toBe(200);
    const events = await h.sql(
      "SELECT payload FROM outbox_events WHERE subject = 'identity.session.revoked'",
    );
    expect(events.some((e) => e.payload.reason === 'logout' && e.payload.adminId === superId)).toBe(true);
  });
});

describe('GET /api/admin/sessions/active', () => {
  it('counts live sessions: sign-ins add one, a sign-out and idle expiry remove them', async () => {
    const headers = await h.as({ adminId: superId, role: 'super_admin' });
    const count = async () =>
      (await h.call('GET', '/api/admin/sessions/active', { headers })).body.count as number;
    expect((await h.call('GET', '/api/admin/sessions/active')).status).toBe(401);
    const before = await count();
    const s = await h.login(SUPER_EMAIL, SUPER_PASSWORD);
    await h.login(SUPER_EMAIL, SUPER_PASSWORD);
    expect(await count()).toBe(before + 2);
    await h.call('POST', '/api/admin/logout', {
      headers: await h.as({ adminId: superId, role: 'super_admin' }, s.token),
    });
    expect(await count()).toBe(before + 1);
    h.clock.advance(25 * 3_600_000);
    expect(await count()).toBe(0);
  });
});

describe('POST /api/admin/change-password', () => {
  it('enforces the rules, keeps the current session and ends the others', async () => {
    const email = 'changer@parley.test';
    const id = await newAdmin(email, 'first-password');
    const current = await h.login(email, 'first-password');
    const other = await h.login(email, 'first-password');
    const headers = await h.as({ adminId: id, role: 'admin' }, current.token);
    const change = (body: unknown) => h.call('POST', '/api/admin/change-password', { body, headers });

    expect((await change({ currentPassword: 'first-password', newPassword: 'short' })).body).toMatchObject({
      error: 'Bad Request',
      message: 'Password must be at least 8 characters',
    });
    expect((await change({ currentPassword: '', newPassword: 'second-password' })).body.message).toBe(
      'Current password is required',
    );
    const wrong = await change({ currentPassword: 'not-it-at-all', newPassword: 'second-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Current password is incorrect');

    const ok = await change({ currentPassword: 'first-password', newPassword: 'second-password' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true });
    expect((await h.resolve(current.token!)).status).toBe(200);
    expect((await h.resolve(other.token!)).status).toBe(401);
    expect((await h.login(email, 'first-password')).status).toBe(401);
    expect((await h.login(email, 'second-password')).status).toBe(200);
    expect((await h.call('POST', '/api/admin/change-password', { body: {} })).status).toBe(401);
  });
});
