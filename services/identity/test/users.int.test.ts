import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, SUPER_EMAIL, SUPER_PASSWORD, startHarness } from './harness.ts';

let h: Harness;
let superId: string;
let asSuper: Record<string, string>;

const inviteToken = (url: string) => new URL(url, 'http://x').searchParams.get('invite')!;

async function create(body: Record<string, unknown>) {
  return h.call('POST', '/api/admin/users', { body, headers: asSuper });
}

beforeAll(async () => {
  h = await startHarness('identity_users', { PUBLIC_ORIGIN: 'https://parley.example.com' });
  const [row] = await h.sql('SELECT id FROM admin_users WHERE email = $1', [SUPER_EMAIL]);
  superId = row.id;
  asSuper = await h.as({ adminId: superId, role: 'super_admin' });
});
afterAll(async () => h?.stop());

describe('admin users (super_admin only)', () => {
  it('refuses a plain admin with 403 on every users route and anyone unsigned with 401', async () => {
    const asAdmin = await h.as({ adminId: superId, role: 'admin' });
    const id = '00000000-0000-4000-8000-000000000001';
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/users'],
      ['POST', '/api/admin/users', { email: 'x@parley.test', firstName: 'X', lastName: 'Y' }],
      ['PATCH', `/api/admin/users/${id}`, { isActive: false }],
      ['DELETE', `/api/admin/users/${id}`],
    ];
    for (const [method, path, body] of calls) {
      const r = await h.call(method, path, { body, headers: asAdmin });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error).toBe('Forbidden');
      expect((await h.call(method, path, { body })).status).toBe(401);
    }
  });

  it('invites a new admin: 201, one-time link, event in the outbox, pending in the list', async () => {
    h.clock.advance(1000); // the clock is frozen: list order is by creation time
    const r = await create({ email: ' Grace@Parley.TEST ', firstName: 'Grace', lastName: 'Hopper' });
    expect(r.status).toBe(201);
    expect(r.body.user).toMatchObject({
      email: 'grace@parley.test',
      firstName: 'Grace',
      lastName: 'Hopper',
      role: 'admin',
      isActive: true,
      mustChangePassword: true,
      invitationPending: true,
      lastLogin: null,
    });
    expect(r.body.user).not.toHaveProperty('passwordHash');
    expect(r.body.invitationUrl).toMatch(
      /^https:\/\/parley\.example\.com\/admin\/login\?invite=[A-Za-z0-9_-]{43}$/,
    );
    const [event] = await h.sql("SELECT payload FROM outbox_events WHERE subject = 'identity.admin.invited'");
    expect(event.payload).toMatchObject({
      adminId: r.body.user.id,
      email: 'grace@parley.test',
      role: 'admin',
      invitationUrl: r.body.invitationUrl,
      invitedBy: superId,
    });
    const stored = await h.sql('SELECT token_hash FROM admin_invitations WHERE admin_user_id = $1', [
      r.body.user.id,
    ]);
    expect(stored[0].token_hash).not.toBe(inviteToken(r.body.invitationUrl));

    const list = await h.call('GET', '/api/admin/users', { headers: asSuper });
    expect(list.status).toBe(200);
    expect(list.body.map((u: { email: string }) => u.email)).toEqual([SUPER_EMAIL, 'grace@parley.test']);
    expect(JSON.stringify(list.body)).not.toMatch(/password_?hash|\$argon2/i);
  });

  it('redeems an invitation once: sets the password and signs in', async () => {
    const r = await create({
      email: 'ada@parley.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'super_admin',
    });
    const token = inviteToken(r.body.invitationUrl);
    const lookup = await h.call('POST', '/api/admin/invitations/lookup', { body: { token } });
    expect(lookup.body).toMatchObject({ email: 'ada@parley.test', firstName: 'Ada' });
    // Nobody can sign in before accepting.
    const short = await h.call('POST', '/api/admin/invitations/accept', {
      body: { token, password: 'short' },
    });
    expect(short.body.message).toBe('Password must be at least 8 characters');
    const ok = await h.call('POST', '/api/admin/invitations/accept', {
      body: { token, password: 'ada-password' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.admin).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'super_admin',
      mustChangePassword: false,
    });
    expect(ok.headers.get('set-cookie')).toMatch(/^parley_session=/);
    const again = await h.call('POST', '/api/admin/invitations/accept', {
      body: { token, password: 'other-password' },
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This invitation link is invalid or has expired');
    expect((await h.login('ada@parley.test', 'ada-password')).status).toBe(200);
  });

  it('expires invitations after 7 days', async () => {
    const r = await create({ email: 'late@parley.test', firstName: 'Late', lastName: 'Comer' });
    h.clock.advance(7 * 86_400_000 + 1000);
    const late = await h.call('POST', '/api/admin/invitations/accept', {
      body: { token: inviteToken(r.body.invitationUrl), password: 'late-password' },
    });
    expect(late.status).toBe(400);
  });

  it('rejects duplicates (any case) with 409 and blanks with 400', async () => {
    const dup = await create({ email: 'GRACE@parley.test', firstName: 'G', lastName: 'H' });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: 'Conflict', message: 'An admin with this email already exists' });
    for (const body of [
      { email: 'a@parley.test', firstName: '', lastName: 'L' },
      { firstName: 'A', lastName: 'L' },
      {},
    ]) {
      const r = await create(body);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('Missing required fields');
    }
    expect((await create({ email: 'nope', firstName: 'A', lastName: 'B' })).status).toBe(400);
    expect(
      (await create({ email: 'r@parley.test', firstName: 'A', lastName: 'B', role: 'root' })).status,
    ).toBe(400);
  });

  it('never deletes oneself, 404s unknown ids, protects the last super admin', async () => {
    const self = await h.call('DELETE', `/api/admin/users/${superId}`, { headers: asSuper });
    expect(self.status).toBe(400);
    expect(self.body.message).toBe('You cannot delete your own account');
    const unknown = await h.call('DELETE', '/api/admin/users/00000000-0000-4000-8000-000000000002', {
      headers: asSuper,
    });
    expect(unknown.status).toBe(404);

    // Ada (super admin, from the invitation test) is demoted: root is now the only one.
    const [ada] = await h.sql("SELECT id FROM admin_users WHERE email = 'ada@parley.test'");
    expect(
      (await h.call('PATCH', `/api/admin/users/${ada.id}`, { body: { role: 'admin' }, headers: asSuper }))
        .status,
    ).toBe(200);
    const demoteSelf = await h.call('PATCH', `/api/admin/users/${superId}`, {
      body: { role: 'admin' },
      headers: asSuper,
    });
    expect(demoteSelf.status).toBe(409);
    expect(demoteSelf.body.message).toBe('Cannot remove the last active super admin');
    // A super admin known only to the assertion (not in this database) cannot remove root either.
    const stranger = await h.as({ adminId: '00000000-0000-4000-8000-000000000003', role: 'super_admin' });
    const last = await h.call('DELETE', `/api/admin/users/${superId}`, { headers: stranger });
    expect(last.status).toBe(409);
    expect(last.body.message).toBe('Cannot remove the last active super admin');
    const deactivateSelf = await h.call('PATCH', `/api/admin/users/${superId}`, {
      body: { isActive: false },
      headers: asSuper,
    });
    expect(deactivateSelf.status).toBe(400);
  });

  it('deactivation revokes sessions and blocks sign-in with the usual 401', async () => {
    const r = await create({ email: 'temp@parley.test', firstName: 'Temp', lastName: 'Worker' });
    const token = inviteToken(r.body.invitationUrl);
    await h.call('POST', '/api/admin/invitations/accept', { body: { token, password: 'temp-password' } });
    const s = await h.login('temp@parley.test', 'temp-password');
    expect((await h.resolve(s.token!)).status).toBe(200);

    const off = await h.call('PATCH', `/api/admin/users/${r.body.user.id}`, {
      body: { isActive: false },
      headers: asSuper,
    });
    expect(off.status).toBe(200);
    expect(off.body.isActive).toBe(false);
    expect((await h.resolve(s.token!)).status).toBe(401);
    const inactive = await h.login('temp@parley.test', 'temp-password');
    expect(inactive.status).toBe(401);
    expect(inactive.body.message).toBe('Invalid email or password');
    const events = await h.sql(
      "SELECT payload FROM outbox_events WHERE subject = 'identity.session.revoked'",
    );
    expect(
      events.some((e) => e.payload.adminId === r.body.user.id && e.payload.reason === 'deactivated'),
    ).toBe(true);

    // Reactivated, the admin can sign in again.
    await h.call('PATCH', `/api/admin/users/${r.body.user.id}`, {
      body: { isActive: true },
      headers: asSuper,
    });
    expect((await h.login('temp@parley.test', 'temp-password')).status).toBe(200);
  });

  it('voids the invitation of an admin who chose a password: no takeover through a used link', async () => {
    // Created with a temporary password, so the admin can sign in before using the link.
    const r = await create({
      email: 'linus@parley.test',
      firstName: 'Linus',
      lastName: 'Pauling',
      password: 'temporary-1',
    });
    const token = inviteToken(r.body.invitationUrl);
    const first = await h.login('linus@parley.test', 'temporary-1');
    expect(first.status).toBe(200);
    const asLinus = await h.as({ adminId: r.body.user.id, role: 'admin' }, first.token!);
    const changed = await h.call('POST', '/api/admin/change-password', {
      body: { currentPassword: 'temporary-1', newPassword: 'linus-own-password' },
      headers: asLinus,
    });
    expect(changed.status).toBe(200);
    // The list no longer shows the invitation as pending...
    const list = await h.call('GET', '/api/admin/users', { headers: asSuper });
    const linus = list.body.find((u: { email: string }) => u.email === 'linus@parley.test');
    expect(linus.invitationPending).toBe(false);
    // ...and the old link neither offers a password nor replaces the chosen one.
    const lookup = await h.call('POST', '/api/admin/invitations/lookup', { body: { token } });
    expect(lookup.status).toBe(400);
    const takeover = await h.call('POST', '/api/admin/invitations/accept', {
      body: { token, password: 'attacker-password' },
    });
    expect(takeover.status).toBe(400);
    expect(takeover.headers.get('set-cookie')).toBeNull();
    expect((await h.login('linus@parley.test', 'attacker-password')).status).toBe(401);
    expect((await h.resolve(first.token!)).status).toBe(200);
    expect((await h.login('linus@parley.test', 'linus-own-password')).status).toBe(200);
  });

  it('accepting an invitation ends the admin’s other sessions', async () => {
    const r = await create({
      email: 'rosalind@parley.test',
      firstName: 'Rosalind',
      lastName: 'Franklin',
      password: 'temporary-2',
    });
    const early = await h.login('rosalind@parley.test', 'temporary-2');
    expect((await h.resolve(early.token!)).status).toBe(200);
    const ok = await h.call('POST', '/api/admin/invitations/accept', {
      body: { token: inviteToken(r.body.invitationUrl), password: 'rosalind-password' },
    });
    expect(ok.status).toBe(200);
    expect((await h.resolve(early.token!)).status).toBe(401);
  });

  it('deletion ends the admin sessions and publishes identity.admin.deleted', async () => {
    const [temp] = await h.sql("SELECT id FROM admin_users WHERE email = 'temp@parley.test'");
    const s = await h.login('temp@parley.test', 'temp-password');
    expect((await h.resolve(s.token!)).status).toBe(200);
    const del = await h.call('DELETE', `/api/admin/users/${temp.id}`, { headers: asSuper });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect((await h.resolve(s.token!)).status).toBe(401);
    const [event] = await h.sql("SELECT payload FROM outbox_events WHERE subject = 'identity.admin.deleted'");
    expect(event.payload).toEqual({ adminId: temp.id, email: 'temp@parley.test', deletedBy: superId });
    expect((await h.login(SUPER_EMAIL, SUPER_PASSWORD)).status).toBe(200);
  });
});
