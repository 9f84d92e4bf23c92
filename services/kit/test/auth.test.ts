import { describe, expect, it } from 'vitest';
import { internalToken, signAssertion, verifyAssertion } from '../src/auth.ts';

const secret = 's'.repeat(40);

describe('internal assertions', () => {
  it('round-trips a principal', async () => {
    const token = await signAssertion(secret, { adminId: 'a1', role: 'super_admin', email: 'a@x.io' });
    expect(await verifyAssertion(secret, token)).toEqual({
      adminId: 'a1',
      role: 'super_admin',
      email: 'a@x.io',
    });
  });

  it('rejects another key, a tampered token and an expired one', async () => {
    const token = await signAssertion(secret, { adminId: 'a1', role: 'admin' });
    expect(await verifyAssertion('t'.repeat(40), token)).toBeNull();
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, role: 'super_admin' })).toString('base64url')}.${s}`;
    expect(await verifyAssertion(secret, forged)).toBeNull();
    const expired = await signAssertion(secret, { adminId: 'a1', role: 'admin' }, -10);
    expect(await verifyAssertion(secret, expired)).toBeNull();
    expect(await verifyAssertion(secret, 'garbage')).toBeNull();
  });

  it('derives distinct internal tokens per caller and secret', () => {
    expect(internalToken(secret)).toBe(internalToken(secret));
    expect(internalToken(secret)).not.toBe(internalToken(secret, 'other'));
    expect(internalToken(secret)).not.toBe(internalToken('t'.repeat(40)));
  });
});
