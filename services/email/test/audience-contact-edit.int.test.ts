import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suppress } from '../src/features/audience/suppressions.repository.ts';
import { type AudienceUnderTest, csv, type Loose, startAudience } from './audience-peers.ts';

/**
 * Editing a contact (PATCH /api/admin/email/contacts/:id, issue 31): every field, tags and
 * typed attributes; cleaned as an import cleans; a duplicate address in the book is a 409 that
 * changes nothing; a new address on the suppression list takes its status; a search finds the
 * new name (real PostgreSQL and NATS).
 */

let t: AudienceUnderTest;

beforeAll(async () => {
  t = await startAudience('audience_contact_edit');
});
afterAll(async () => {
  await t?.stop();
});

async function bookWith(name: string, rows: string[][]): Promise<{ book: number; ids: number[] }> {
  const book = (await t.call('POST', '/api/admin/address-books', { name })).json.id as number;
  await t.upload(
    '/api/admin/contacts/import-csv',
    { name: 'x.csv', content: csv(rows) },
    { addressBookId: String(book) },
  );
  const ids = (
    await t.db.query<{ id: number }>(
      'SELECT id::int FROM email_contacts WHERE address_book_id = $1 ORDER BY id',
      [book],
    )
  ).rows.map((r) => r.id);
  return { book, ids };
}

const row = async (id: number): Promise<Loose> =>
  (await t.db.query('SELECT * FROM email_contacts WHERE id = $1', [id])).rows[0];

describe('contact edit', () => {
  it('changes every field sent, tags and typed attributes, and leaves the rest', async () => {
    const { ids } = await bookWith('Edit A', [
      ['email', 'firstName', 'lastName', 'company', 'phone'],
      ['ada@edit.example.com', 'Ada', 'Lovelace', 'Analytical', '+44 20 1234'],
    ]);
    const id = ids[0] as number;
    const r = await t.call('PATCH', `/api/admin/email/contacts/${id}`, {
      firstName: '  Augusta  ',
      company: '',
      tags: ['VIP', 'vip', ' Speaker '],
      attributes: { plan: 'pro', seats: 12, renews: true },
      description: '  Met at the conference  ',
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      success: true,
      message: 'Contact saved',
      contact: {
        id,
        email: 'ada@edit.example.com',
        firstName: 'Augusta',
        lastName: 'Lovelace',
        company: null,
        phone: '+44 20 1234',
        tags: ['vip', 'speaker'],
        attributes: { plan: 'pro', seats: 12, renews: true },
        description: 'Met at the conference',
      },
    });
    const stored = await row(id);
    expect(stored.first_name).toBe('Augusta');
    expect(stored.custom_fields).toEqual({ plan: 'pro', seats: 12, renews: true });
    expect(new Date(stored.updated_at).getTime()).toBeGreaterThan(new Date(stored.created_at).getTime());

    // The list answers the attributes too, and a search finds the new name.
    const found = await t.call('GET', `/api/admin/email/contacts?q=augusta`);
    expect(found.json.contacts.map((c: Loose) => c.id)).toContain(id);
    expect(found.json.contacts.find((c: Loose) => c.id === id).attributes).toEqual({
      plan: 'pro',
      seats: 12,
      renews: true,
    });

    // Attributes are replaced whole.
    const again = await t.call('PATCH', `/api/admin/email/contacts/${id}`, { attributes: { plan: 'team' } });
    expect(again.json.contact.attributes).toEqual({ plan: 'team' });

    // The names in use, for the merge-field menu: each with the type it was first saved as,
    // still listed after the contact dropped it.
    const keys = await t.call('GET', '/api/admin/email/contact-attributes');
    expect(keys.status).toBe(200);
    expect(keys.json.attributes).toEqual(
      expect.arrayContaining([
        { key: 'plan', kind: 'text' },
        { key: 'renews', kind: 'boolean' },
        { key: 'seats', kind: 'number' },
      ]),
    );
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    const { ids } = await bookWith('Edit B', [
      ['email', 'firstName'],
      ['bo@edit.example.com', 'Bo'],
    ]);
    const id = ids[0] as number;
    const before = await row(id);
    for (const body of [
      {},
      { email: 'not an address' },
      { attributes: { '1st': 'x' } },
      { attributes: { ok: { nested: true } } },
      { attributes: { empty: null } },
      { status: 'active' },
      { firstName: 42 },
    ]) {
      const r = await t.call('PATCH', `/api/admin/email/contacts/${id}`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof r.json.message).toBe('string');
    }
    expect(await row(id)).toEqual(before);
    expect((await t.call('PATCH', '/api/admin/email/contacts/999999999', { firstName: 'X' })).status).toBe(
      404,
    );
  });

  it('a duplicate address in the same book is a 409; another book may hold it', async () => {
    const { ids } = await bookWith('Edit C', [['email'], ['one@edit.example.com'], ['two@edit.example.com']]);
    const [one, two] = ids as [number, number];
    const r = await t.call('PATCH', `/api/admin/email/contacts/${two}`, { email: 'ONE@edit.example.com' });
    expect(r.status).toBe(409);
    expect(r.json.message).toBe('Another contact in this address book already has this email address');
    expect((await row(two)).email).toBe('two@edit.example.com');
    const other = await bookWith('Edit D', [['email'], ['three@edit.example.com']]);
    const moved = await t.call('PATCH', `/api/admin/email/contacts/${other.ids[0]}`, {
      email: 'one@EDIT.example.com',
    });
    expect(moved.status).toBe(200);
    expect(moved.json.contact.email).toBe('one@edit.example.com');
    expect((await row(one)).email).toBe('one@edit.example.com');
  });

  it('a new address on the suppression list takes its status', async () => {
    await suppress({ deps: { pool: t.db } } as never, 'gone@edit.example.com', 'bounced', 'test');
    const { ids } = await bookWith('Edit E', [['email'], ['fresh@edit.example.com']]);
    const r = await t.call('PATCH', `/api/admin/email/contacts/${ids[0]}`, {
      email: 'gone@edit.example.com',
    });
    expect(r.status).toBe(200);
    expect(r.json.contact.status).toBe('bounced');
  });
});
