import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suppress } from '../src/features/audience/suppressions.repository.ts';
import { type TrackingHit, writeHits } from '../src/features/tracking/tracking.repository.ts';
import { type AudienceUnderTest, csv, type Loose, startAudience } from './audience-peers.ts';

/**
 * Segments (issue 31, docs/adr/0070-segments.md) on real PostgreSQL and NATS: saved rules, a
 * live count of every condition kind (contacts of any status; recipients active, one per
 * address, less suppressions), engagement kept by the tracking trigger from real tracking
 * writes, bad rules refused with nothing saved, and a campaign sent to a segment.
 */

let t: AudienceUnderTest;
let bookA: number;
let bookB: number;

const rule = (match: 'all' | 'any', ...conditions: Loose[]) => ({ match, conditions });
const count = async (r: Loose) => {
  const a = await t.call('POST', '/api/admin/email/segments/count', { rule: r });
  expect(a.status, a.text).toBe(200);
  return a.json as { contacts: number; recipients: number };
};
const idOf = async (email: string, book: number) =>
  (
    await t.db.query<{ id: number }>(
      'SELECT id::int FROM email_contacts WHERE email_key = $1 AND address_book_id = $2',
      [email, book],
    )
  ).rows[0]?.id as number;

beforeAll(async () => {
  t = await startAudience('audience_segments');
  bookA = (await t.call('POST', '/api/admin/address-books', { name: 'Segments A' })).json.id;
  bookB = (await t.call('POST', '/api/admin/address-books', { name: 'Segments B' })).json.id;
  const upload = (book: number, rows: string[][]) =>
    t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'x.csv', content: csv(rows) },
      { addressBookId: String(book) },
    );
  await upload(bookA, [
    ['email', 'firstName', 'company', 'category'],
    ['ann@seg.example.com', 'Ann', 'Acme Dental', 'Dental clinic'],
    ['bob@seg.example.com', 'Bob', 'Acme Law', 'Law firm'],
    ['cy@seg.example.com', 'Cy', 'Other Co', 'Law firm'],
    ['dee@seg.example.com', 'Dee', '', 'Dental clinic'],
    ['eve@seg.example.com', 'Eve', 'Acme Dental', 'Dental clinic'],
  ]);
  // Ann again in another book: two contacts, one address.
  await upload(bookB, [
    ['email', 'firstName', 'company'],
    ['ann@seg.example.com', 'Ann', 'Acme Dental'],
    ['fay@seg.example.com', 'Fay', 'Acme Realty'],
  ]);
  const patch = async (email: string, book: number, body: Loose) =>
    expect((await t.call('PATCH', `/api/admin/email/contacts/${await idOf(email, book)}`, body)).status).toBe(
      200,
    );
  await patch('ann@seg.example.com', bookA, {
    tags: ['VIP', 'speaker'],
    attributes: { plan: 'Pro', seats: 12 },
  });
  await patch('ann@seg.example.com', bookB, { tags: ['vip'], attributes: { plan: 'pro', seats: 3 } });
  await patch('bob@seg.example.com', bookA, { tags: ['vip'], attributes: { plan: 'free', trial: true } });
  await patch('eve@seg.example.com', bookA, { attributes: { seats: 40 } });
  // Eve unsubscribed; Bob's address bounced (suppressed, and his contact's status bounced).
  await t.db.query(
    `UPDATE email_contacts SET status = 'unsubscribed' WHERE email_key = 'eve@seg.example.com'`,
  );
  await suppress({ deps: { pool: t.db } } as never, 'bob@seg.example.com', 'bounced', 'test');
  // Cy and Dee were added a year ago.
  await t.db.query(
    `UPDATE email_contacts SET created_at = now() - interval '365 days' WHERE email_key IN ('cy@seg.example.com', 'dee@seg.example.com')`,
  );
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

describe('segment counts', () => {
  it('count each condition kind: contacts of any status, recipients one per address less suppressions', async () => {
    const inBooks = { field: 'book', op: 'in', values: [bookA, bookB] };
    expect(await count(rule('all', inBooks))).toEqual({ contacts: 7, recipients: 4 }); // ann, cy, dee, fay
    expect(await count(rule('all', inBooks, { field: 'company', op: 'contains', value: ' ACME ' }))).toEqual({
      contacts: 5,
      recipients: 2, // ann (twice), fay; bob suppressed, eve unsubscribed
    });
    expect(await count(rule('all', inBooks, { field: 'company', op: 'isEmpty' }))).toEqual({
      contacts: 1,
      recipients: 1,
    });
    expect(await count(rule('all', inBooks, { field: 'category', op: 'is', value: 'law firm' }))).toEqual({
      contacts: 2,
      recipients: 1,
    });
    expect(await count(rule('all', inBooks, { field: 'tag', op: 'has', value: 'VIP' }))).toEqual({
      contacts: 3,
      recipients: 1,
    });
    expect(await count(rule('all', inBooks, { field: 'tag', op: 'hasNot', value: 'vip' }))).toEqual({
      contacts: 4,
      recipients: 3, // cy, dee, fay
    });
    const attr = (op: string, value?: Loose) =>
      count(rule('all', { field: 'attribute', key: 'seats', op, value }));
    expect(await attr('gt', 10)).toEqual({ contacts: 2, recipients: 1 }); // ann (A), eve
    expect(await attr('lt', '5')).toEqual({ contacts: 1, recipients: 1 }); // ann (B)
    expect(await attr('exists')).toEqual({ contacts: 3, recipients: 1 });
    expect(await count(rule('all', { field: 'attribute', key: 'plan', op: 'is', value: 'PRO' }))).toEqual({
      contacts: 2,
      recipients: 1,
    });
    expect(await count(rule('all', { field: 'attribute', key: 'trial', op: 'is', value: true }))).toEqual({
      contacts: 1,
      recipients: 0,
    });
    expect(await count(rule('all', inBooks, { field: 'created', op: 'olderThanDays', value: 30 }))).toEqual({
      contacts: 2,
      recipients: 2,
    });
    expect(await count(rule('all', inBooks, { field: 'created', op: 'inLastDays', value: 30 }))).toEqual({
      contacts: 5,
      recipients: 2,
    });
    expect(await count(rule('all', inBooks, { field: 'status', op: 'isNot', value: 'active' }))).toEqual({
      contacts: 2,
      recipients: 0,
    });
    // any, and a group: (book B) or (company contains law and category is law firm)
    expect(
      await count(
        rule(
          'any',
          { field: 'book', op: 'in', values: [bookB] },
          rule(
            'all',
            { field: 'company', op: 'contains', value: 'law' },
            { field: 'category', op: 'is', value: 'Law firm' },
          ),
        ),
      ),
    ).toEqual({ contacts: 3, recipients: 2 });
  });

  it('engagement comes from real tracking writes: last N campaigns, never opened; proxy fetches are not opens', async () => {
    // Three campaigns sent live, in order; each mail's tracking row as a launch writes it.
    const campaigns: number[] = [];
    for (const n of [1, 2, 3]) {
      const c = await t.db.query<{ id: number }>(
        `INSERT INTO email_campaigns (name, subject, from_name, from_email, tracking_id, status)
         VALUES ($1, 's', 'f', 'f@seg.example.com', $2, 'sent') RETURNING id`,
        [`Engagement ${n}`, `cmp_seg_${n}`],
      );
      const id = c.rows[0]?.id as number;
      await t.db.query(
        `INSERT INTO email_campaign_sends (campaign_id, kind, status, live, started_at) VALUES ($1, 'send', 'done', true, now() - interval '2 days')`,
        [id],
      );
      for (const who of ['ann', 'cy', 'dee', 'fay'])
        await t.db.query(
          `INSERT INTO email_tracking (tracking_id, campaign_id, email, test_mode) VALUES ($1, $2, $3, false)`,
          [`seg-${n}-${who}`, String(id), `${who}@seg.example.com`],
        );
      campaigns.push(id);
    }
    const hit = (trackingId: string, type: 'open' | 'click', proxy: string | null = null): TrackingHit => ({
      trackingId,
      type,
      at: new Date(),
      userAgent: 'test',
      ip: '127.0.0.1',
      clickUrl: type === 'click' ? 'https://example.com/' : null,
      proxy,
      deviceType: 'desktop',
      browserType: 'test',
    });
    // Ann opened the newest; Cy clicked the oldest; Dee's mail was only fetched by a proxy.
    await writeHits(t.db, [
      hit('seg-3-ann', 'open'),
      hit('seg-1-cy', 'click'),
      hit('seg-2-dee', 'open', 'apple-mpp'),
    ]);
    // A late open of an older mail does not move Ann's newest engagement back.
    await writeHits(t.db, [hit('seg-1-ann', 'open')]);
    const stored = await t.db.query(
      `SELECT address, engaged_rank FROM email_address_engagement ORDER BY address`,
    );
    expect(stored.rows.map((r: Loose) => r.address)).toEqual(['ann@seg.example.com', 'cy@seg.example.com']);

    const inBooks = { field: 'book', op: 'in', values: [bookA, bookB] };
    const engaged = (op: string, campaigns?: number) =>
      count(rule('all', inBooks, { field: 'engagement', op, campaigns }));
    expect(await engaged('engagedInLast', 1)).toEqual({ contacts: 2, recipients: 1 }); // ann twice
    expect(await engaged('engagedInLast', 3)).toEqual({ contacts: 3, recipients: 2 }); // + cy
    expect(await engaged('notEngagedInLast', 2)).toEqual({ contacts: 5, recipients: 3 }); // bob, cy, dee, eve, fay
    expect(await engaged('neverOpened')).toEqual({ contacts: 4, recipients: 2 }); // bob, dee, eve, fay
    expect(await engaged('everOpened')).toEqual({ contacts: 3, recipients: 2 });
    // Tracking rows can be deleted (a retention clean-up): the rollups take their figures back.
    const activity = async () =>
      (
        await t.db.query(
          `SELECT coalesce(sum(opens), 0)::int AS opens, coalesce(sum(clicks), 0)::int AS clicks
           FROM email_rollup_activity WHERE campaign_id = ANY($1::int[])`,
          [campaigns],
        )
      ).rows[0];
    expect(await activity()).toEqual({ opens: 2, clicks: 1 });
    const gone = await t.db.query(`DELETE FROM email_tracking WHERE tracking_id LIKE 'seg-%'`);
    expect(gone.rowCount).toBe(12);
    expect(await activity()).toEqual({ opens: 0, clicks: 0 });
    await t.db.query(`DELETE FROM email_campaigns WHERE id = ANY($1::int[])`, [campaigns]);
    await t.db.query(`DELETE FROM email_address_engagement`);
  });
});

describe('the facts segments read', () => {
  it('follow every write of the contacts: import, edit, status, delete', async () => {
    const same = async () =>
      (
        await t.db.query(
          `SELECT count(*)::int AS n FROM email_contacts c JOIN email_contact_facts f ON f.contact_id = c.id
           WHERE f.status = c.status::text AND f.email_key = c.email_key AND f.tags = c.tags
             AND f.company = lower(btrim(coalesce(c.company, ''))) AND f.created_at = c.created_at
             AND f.attributes IS NOT DISTINCT FROM nullif(c.custom_fields, '{}'::jsonb)`,
        )
      ).rows[0].n;
    const contacts = async () =>
      (await t.db.query('SELECT count(*)::int AS n FROM email_contacts')).rows[0].n;
    const facts = async () =>
      (await t.db.query('SELECT count(*)::int AS n FROM email_contact_facts')).rows[0].n;
    expect(await same()).toBe(await contacts());
    await t.upload(
      '/api/admin/contacts/import-csv',
      {
        name: 'x.csv',
        content: csv([
          ['email', 'company'],
          ['gus@seg.example.com', 'Gus Co'],
        ]),
      },
      { addressBookId: String(bookB) },
    );
    const id = await idOf('gus@seg.example.com', bookB);
    expect(id).toBeGreaterThan(0);
    const edit = await t.call('PATCH', `/api/admin/email/contacts/${id}`, {
      company: ' New Co ',
      tags: ['x'],
    });
    expect(edit.status).toBe(200);
    expect(
      (await t.db.query('SELECT company, tags FROM email_contact_facts WHERE contact_id = $1', [id])).rows[0],
    ).toEqual({
      company: 'new co',
      tags: ['x'],
    });
    // Addresses in two books are listed as shared while they are, and only then.
    const shared = async () =>
      (await t.db.query('SELECT address FROM email_shared_addresses ORDER BY 1')).rows.map((r) => r.address);
    expect(await shared()).toEqual(['ann@seg.example.com']);
    await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'x.csv', content: csv([['email'], ['gus@seg.example.com']]) },
      { addressBookId: String(bookA) },
    );
    expect(await shared()).toEqual(['ann@seg.example.com', 'gus@seg.example.com']);
    const before = await facts();
    expect((await t.call('DELETE', `/api/admin/email/contacts/${id}`)).status).toBe(200);
    expect(await facts()).toBe(before - 1);
    expect(await shared()).toEqual(['ann@seg.example.com']);
    expect(
      (await t.call('DELETE', `/api/admin/email/contacts/${await idOf('gus@seg.example.com', bookA)}`))
        .status,
    ).toBe(200);
    expect(await same()).toBe(await contacts());
  });
});

describe('saved segments', () => {
  it('saves, lists, renames and deletes; refuses bad rules and taken names with nothing saved', async () => {
    const vip = rule('all', { field: 'tag', op: 'has', value: ' VIP ' });
    const created = await t.call('POST', '/api/admin/email/segments', { name: ' VIPs ', rule: vip });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({
      success: true,
      message: 'Segment saved',
      segment: { name: 'VIPs', rule: rule('all', { field: 'tag', op: 'has', value: 'vip' }) },
    });
    const id = created.json.segment.id as number;

    const refusals: Array<[Loose, number, string]> = [
      [{ name: 'vips', rule: vip }, 409, 'Another segment already has this name'],
      [
        { name: 'x', rule: rule('all', { field: 'company', op: 'is', value: '  ' }) },
        400,
        'This condition needs a value',
      ],
      [
        { name: 'x', rule: rule('all', { field: 'attribute', key: 'seats', op: 'gt', value: 'many' }) },
        400,
        'Greater than and less than compare numbers: enter a number',
      ],
      [
        { name: 'x', rule: rule('all', { field: 'created', op: 'before', value: '2026-02-30' }) },
        400,
        'Enter a real date (YYYY-MM-DD)',
      ],
      [
        { name: 'x', rule: rule('all', { field: 'created', op: 'after', value: '0000-01-01' }) },
        400,
        'Enter a real date (YYYY-MM-DD)',
      ],
      [
        { name: 'x', rule: rule('all', { field: 'engagement', op: 'engagedInLast' }) },
        400,
        'Say how many of the last campaigns count',
      ],
      [{ name: '   ', rule: vip }, 400, 'Name the segment'],
    ];
    for (const [body, status, message] of refusals) {
      const r = await t.call('POST', '/api/admin/email/segments', body);
      expect(r.status, r.text).toBe(status);
      expect(r.json.message).toBe(message);
    }
    // The schema's own refusals: an unknown field, an injection attempt as a key.
    for (const bad of [
      rule('all', { field: 'password', op: 'is', value: 'x' }),
      rule('all', { field: 'attribute', key: "plan'; DROP TABLE email_contacts; --", op: 'exists' }),
      { match: 'all', conditions: [] },
    ]) {
      const r = await t.call('POST', '/api/admin/email/segments', { name: 'bad', rule: bad });
      expect(r.status).toBe(400);
      expect(typeof r.json.message).toBe('string');
    }
    const listed = await t.call('GET', '/api/admin/email/segments');
    expect(listed.json.segments.map((s: Loose) => s.name)).toEqual(['VIPs']);

    expect((await t.call('GET', `/api/admin/email/segments/${id}/count`)).json).toEqual({
      contacts: 3,
      recipients: 1,
    });
    const renamed = await t.call('PUT', `/api/admin/email/segments/${id}`, { name: 'Top', rule: vip });
    expect(renamed.json.segment.name).toBe('Top');
    const deleted = await t.call('DELETE', `/api/admin/email/segments/${id}`);
    expect(deleted.json).toEqual({ success: true, message: 'Segment deleted' });
    expect((await t.call('GET', `/api/admin/email/segments/${id}`)).status).toBe(404);
    expect((await t.call('DELETE', `/api/admin/email/segments/${id}`)).status).toBe(404);
  });

  it('is a campaign audience: the pre-send check and the send resolve it with the books, one per address', async () => {
    const seg = await t.call('POST', '/api/admin/email/segments', {
      name: 'Acme',
      rule: rule('all', { field: 'company', op: 'contains', value: 'acme' }),
    });
    const segmentId = seg.json.segment.id as number;
    const campaign = await t.call('POST', '/api/admin/email/campaigns', {
      name: 'To a segment',
      subject: 'Hello',
      fromName: 'Parley',
      fromEmail: 'news@parley.test',
      htmlContent: '<p>Hi {{firstName|there}}</p>',
      targetSegments: [segmentId],
    });
    expect(campaign.status, campaign.text).toBe(201);
    expect(campaign.json.targetSegmentIds).toEqual([segmentId]);
    const cid = campaign.json.id as number;
    // Its segment (ann, fay) with book A's active contacts (ann, cy, dee; bob suppressed).
    const check = await t.call('POST', `/api/admin/email/campaigns/${cid}/merge-check`, {
      addressBookIds: [bookA],
    });
    expect(check.status, check.text).toBe(200);
    expect(check.json.recipients).toBe(4);
    const sent = await t.call('POST', `/api/admin/email/campaigns/${cid}/send`, {
      addressBookIds: [bookA],
      confirmSend: true,
    });
    expect(sent.status, sent.text).toBe(200);
    const written = await t.db.query<{ email: string }>(
      `SELECT email FROM email_campaign_recipients WHERE send_id = $1 ORDER BY email`,
      [sent.json.sendId],
    );
    expect(written.rows.map((r) => r.email)).toEqual([
      'ann@seg.example.com',
      'cy@seg.example.com',
      'dee@seg.example.com',
      'fay@seg.example.com',
    ]);
    const kept = await t.db.query(`SELECT segments FROM email_campaign_sends WHERE id = $1`, [
      sent.json.sendId,
    ]);
    expect(kept.rows[0].segments).toEqual([{ id: segmentId, name: 'Acme', rule: seg.json.segment.rule }]);

    // A deleted segment is refused by name, and nothing is sent.
    await t.call('DELETE', `/api/admin/email/segments/${segmentId}`);
    const again = await t.call('POST', `/api/admin/email/campaigns/${cid}/merge-check`, {});
    expect(again.status).toBe(400);
    expect(again.json.message).toBe('A chosen segment no longer exists: choose the audience again');
  });
});
