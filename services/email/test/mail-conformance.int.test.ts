import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { BlogPost, Booking } from '@parley/contracts';
import ICAL from 'ical.js';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { partOf } from '../src/features/delivery/domain/mime.ts';
import {
  conformanceProblems,
  dataOfWire,
  fieldsOf,
  header,
  unstuffed,
  verifyDkim,
} from './mail-conformance.ts';
import { type EmailUnderTest, type SmtpSink, startEmail, startSmtpSink } from './mail-peers.ts';

/**
 * The mail-conformance test (issue 33): every kind of mail the service sends (transactional
 * notifications, booking REQUEST and CANCEL with their .ics, the marketing test mail, a
 * campaign, an admin's test send, a test-mode campaign, a hand-made and a converted
 * newsletter) goes through a real SMTP server with DKIM on, fed with hostile input (bare CRs,
 * control characters, long non-ASCII names and subjects, hostile HTML). The DATA is cut out of
 * the raw bytes of the connection and read strictly (mail-conformance.ts): no bare CR or LF,
 * header lines ≤ 78 octets wherever they can be folded, a DKIM signature that verifies with
 * the public key and covers List-Unsubscribe and List-Unsubscribe-Post on bulk mail, which
 * offers one-click on its https URI only (no mailto: nothing reads that mailbox).
 */

let t: EmailUnderTest;
let smtp: SmtpSink;
let db: pg.Pool;
let admin: Record<string, string>;
let bookId = 0;

const FROM = 'news@parley.test';
const FROM_NAME = 'Parley Ünited — Équipe de démonstration, Inc. (ventes & support)';
const ORIGIN = 'https://parley.test';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
/** Bare CRs (one as CR.CR, the SMTP-smuggling shape), a NUL-free control character, a LF. */
const HOSTILE = 'one\r.\rtwo\rthree\u0007 four\nfive';
const HOSTILE_HTML =
  '<html><head><base href="https://evil.test/"><style>p { color: red; width: expression(alert(1)) }</style></head>' +
  '<body onload="steal()"><p onclick="x()">Hello {{firstName}}</p><script>alert(1)</script>' +
  '<iframe src="https://evil.test/frame"></iframe><form action="https://evil.test/post"><input name="pw"></form>' +
  '<a href="javascript:alert(1)">js link</a><a href="https://parley.test/offer">Offer</a>' +
  '<p style="background:url(javascript:alert(1));color:blue">styled</p><img src="https://parley.test/logo.png" alt="logo"></body></html>';

const until = async <T>(
  fn: () => Promise<T | null | undefined | false>,
  ms = 30_000,
  label = 'condition',
) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

interface Captured {
  data: Buffer;
  raw: Buffer;
  messageId: string;
  subject: string;
}

/** Every message the SMTP server got so far, as it crossed the wire. */
async function captured(): Promise<Captured[]> {
  const out: Captured[] = [];
  for (const chunks of smtp.wires)
    for (const data of dataOfWire(Buffer.concat(chunks))) {
      const raw = unstuffed(data);
      const parsed = await simpleParser(raw);
      out.push({ data, raw, messageId: parsed.messageId ?? '', subject: parsed.subject ?? '' });
    }
  return out;
}

async function mailsWhere(pick: (m: Captured) => boolean, n: number, label: string): Promise<Captured[]> {
  return until(
    async () => {
      const found = (await captured()).filter(pick);
      return found.length >= n ? found : null;
    },
    30_000,
    label,
  );
}

/** The checks every mail passes; bulk mail also offers one-click unsubscribe, signed. */
function expectConformant(m: Captured, kind: 'bulk' | 'transactional') {
  expect(conformanceProblems(m.data), m.subject).toEqual([]);
  const dkim = verifyDkim(m.raw, keys.publicKey);
  expect(dkim.domain).toBe('parley.test');
  for (const h of ['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'content-type'])
    expect(dkim.signed, h).toContain(h);
  const fields = fieldsOf(m.raw).fields;
  for (const name of ['From', 'Date', 'Message-ID', 'Subject', 'To', 'MIME-Version'])
    expect(
      fields.filter((f) => f.name.toLowerCase() === name.toLowerCase()),
      name,
    ).toHaveLength(1);
  if (kind === 'bulk') {
    expect(header(m.raw, 'List-Unsubscribe')).toMatch(
      /^<https:\/\/parley\.test\/api\/unsubscribe\/[^<>,\s]+>$/,
    );
    expect(header(m.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(dkim.signed).toContain('list-unsubscribe');
    expect(dkim.signed).toContain('list-unsubscribe-post');
  } else {
    expect(header(m.raw, 'List-Unsubscribe')).toBeUndefined();
    expect(header(m.raw, 'List-Unsubscribe-Post')).toBeUndefined();
  }
}

/** The HTML part of a sent campaign or newsletter holds none of the hostile markup. */
async function expectSafeHtml(m: Captured) {
  const html = (await simpleParser(m.raw)).html || '';
  expect(html).toContain('Offer');
  expect(html).not.toMatch(/<script|<iframe|<form|<input|<base|onload=|onclick=|javascript:|expression\(/i);
}

async function book(name: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "address_books" ("name") VALUES ($1) RETURNING "id"`,
    [name],
  );
  return rows[0]?.id as number;
}

const forgetHourlyWindow = () =>
  db.query(`UPDATE "email_campaign_sends" SET "started_at" = "started_at" - interval '2 hours'`);

const setting = async (key: string, value: string, version = 1) => {
  await t.setting(key, value, version);
  await until(
    async () =>
      (await db.query(`SELECT 1 FROM "mail_settings" WHERE "key" = $1 AND "value" = $2`, [key, value]))
        .rowCount,
    10_000,
    `setting ${key}`,
  );
};

const post = (over: Partial<BlogPost> = {}): BlogPost => ({
  id: 'conformance',
  title: 'Voice agents: a very long title with ünïcödé that goes on to make the subject fold',
  slug: 'voice-agents',
  excerpt: null,
  content: `<p onclick="x()">First <script>alert(1)</script>paragraph ${HOSTILE}.</p><iframe src="https://evil.test"></iframe>`,
  author: 'Parley\r\nTeam',
  featuredImage: '/api/blog/images/cover.png',
  tags: ['voice'],
  status: 'published',
  metaTitle: null,
  metaDescription: null,
  publishedAt: '2026-11-20T10:00:00.000Z',
  createdAt: '2026-11-20T09:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

beforeAll(async () => {
  smtp = await startSmtpSink({ wire: true });
  t = await startEmail('email_conformance', {
    CAMPAIGN_TICK_MS: '150',
    CAMPAIGN_POLL_MS: '30',
    PUBLIC_ORIGIN: ORIGIN,
    DKIM_DOMAIN: 'parley.test',
    DKIM_SELECTOR: 'mail',
    DKIM_PRIVATE_KEY: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 3 });
  await t.publish('blog.post.published', { post: post() });
  await setting('smtp_host', '127.0.0.1');
  await setting('smtp_port', String(smtp.port));
  await setting('smtp_from_email', FROM);
  await setting('smtp_from_name', FROM_NAME);
  await setting('support_email', 'sales@parley.test');
  await setting('brand_name', 'Parley Ünited');
  await until(
    async () => (await db.query(`SELECT 1 FROM "newsletter_blog_posts" WHERE "id" = 'conformance'`)).rowCount,
    10_000,
    'blog copy',
  );
  bookId = await book('Conformance');
  for (const [email, first] of [
    ['ada@example.com', 'Ada\r\nBcc: x@evil.test'],
    ['zoe@example.com', 'Zoë'],
  ])
    await db.query(
      `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name", "last_name", "company", "status")
       VALUES ($1, $2, $3, 'Tester', 'Acme', 'active')`,
      [bookId, email, first],
    );
}, 120_000);

beforeEach(async () => {
  admin = await t.admin();
});

afterAll(async () => {
  await db?.end();
  await t?.stop();
  await smtp?.close();
});

const booking = (over: Partial<Booking> = {}): Booking => ({
  id: randomUUID(),
  name: `Ada\rLovelace ${HOSTILE}`,
  email: 'ada.booker@example.com',
  phone: '(555) 123-4567',
  company: `Analytical\rEngines ${HOSTILE}`,
  timeSlot: '2027-01-12T15:30:00.000Z',
  timeZone: 'America/New_York',
  status: 'confirmed',
  notes: `Notes: ${HOSTILE}\r\n.\r\nend`,
  guests: [{ name: 'Charles\r\nBcc: x@evil.test Babbage', email: 'charles@example.com' }],
  createdAt: new Date().toISOString(),
  ...over,
});

describe('mail conformance: every kind of mail through a real SMTP server, with DKIM', () => {
  it('transactional: a contact notification built from hostile form text', async () => {
    await t.publish('booking.contact.submitted', {
      id: randomUUID(),
      firstName: `Eve\r${'Ü'.repeat(30)}`,
      lastName: HOSTILE,
      email: 'eve@example.com',
      company: `Smuggling\r.\rInc ${'long company name '.repeat(4)}`,
      companySize: '51-200',
      message: `Hello\r.\r\rMAIL FROM:<x@evil.test>\r${HOSTILE}`,
      createdAt: new Date().toISOString(),
    });
    const [m] = await mailsWhere((x) => x.subject.startsWith('New contact request'), 1, 'contact mail');
    expectConformant(m as Captured, 'transactional');
  });

  it('booking REQUEST and CANCEL: .ics with ORGANIZER = From, hostile names and notes', async () => {
    const b = booking();
    await t.publish('booking.booking.created', b);
    const requests = await mailsWhere(
      (x) => x.subject.startsWith('Your Parley Ünited demo is confirmed'),
      2,
      'booking confirmations',
    );
    const [notification] = await mailsWhere(
      (x) => x.subject.startsWith('New demo booking'),
      1,
      'notification',
    );
    expectConformant(notification as Captured, 'transactional');
    await t.publish('booking.booking.status_changed', {
      booking: { ...b, status: 'cancelled' },
      previousStatus: 'confirmed',
    });
    const cancels = await mailsWhere((x) => x.subject.startsWith('Cancelled:'), 2, 'cancellations');
    for (const [m, method] of [
      ...requests.map((r) => [r, 'REQUEST'] as const),
      ...cancels.map((c) => [c, 'CANCEL'] as const),
    ]) {
      expectConformant(m, 'transactional');
      const ics = partOf(m.raw, 'text/calendar') ?? '';
      expect(ics).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
      const comp = new ICAL.Component(ICAL.parse(ics));
      expect(comp.getFirstPropertyValue('method')).toBe(method);
      const vevent = comp.getFirstSubcomponent('vevent');
      // The organizer is the sender: calendars match replies and updates on it.
      expect(vevent?.getFirstPropertyValue('organizer')).toBe(`mailto:${FROM}`);
      expect((await simpleParser(m.raw)).from?.value[0]?.address).toBe(FROM);
      for (const a of vevent?.getAllProperties('attendee') ?? [])
        expect(String(a.getParameter('cn'))).toMatch(/^[^\p{Cc}]*$/u);
    }
  });

  it('the marketing test mail (tracked, one-click unsubscribe)', async () => {
    const r = await t.call('POST', '/api/admin/email/test-tracking', { email: 'qa@example.com' }, admin);
    expect(r.status, r.text).toBe(200);
    const [m] = await mailsWhere((x) => x.subject.endsWith('tracking test'), 1, 'tracking test');
    expectConformant(m as Captured, 'bulk');
  });

  let campaignId = 0;
  it('a campaign: long non-ASCII subject and sender, hostile HTML and merge fields', async () => {
    const c = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Conformance',
        subject: `Grande nouvelle pour {{firstName}} — ünïcödé ${'et encore plus de mots '.repeat(5)}`,
        fromName: FROM_NAME,
        fromEmail: FROM,
        htmlContent: HOSTILE_HTML,
        textContent: `Hi {{firstName}}\r\n${HOSTILE}`,
        targetAddressBooks: [bookId],
      },
      admin,
    );
    expect(c.status, c.text).toBe(201);
    campaignId = c.json.id;
    // What is stored (and previewed) is already what will be sent.
    expect(c.json.htmlContent).not.toMatch(/<script|onclick=|javascript:|<iframe|<base/i);
    const s = await t.call(
      'POST',
      `/api/admin/email/campaigns/${campaignId}/send`,
      { confirmSend: true, testMode: false },
      admin,
    );
    expect(s.status, s.text).toBe(200);
    const mails = await mailsWhere((x) => x.subject.startsWith('Grande nouvelle pour'), 2, 'campaign');
    for (const m of mails) {
      expectConformant(m, 'bulk');
      await expectSafeHtml(m);
    }
  });

  it("an admin's test send of a draft", async () => {
    const c = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Draft',
        subject: `Brouillon ${'ü'.repeat(40)}`,
        fromName: FROM_NAME,
        fromEmail: FROM,
        htmlContent: HOSTILE_HTML,
      },
      admin,
    );
    expect(c.status, c.text).toBe(201);
    const r = await t.call(
      'POST',
      '/api/admin/email/send-test',
      // The body's HTML goes to the composer as given: it is sanitised there too.
      { campaignId: c.json.id, testRecipients: 'tester@example.com', htmlContent: HOSTILE_HTML },
      admin,
    );
    expect(r.status, r.text).toBe(200);
    const [m] = await mailsWhere((x) => x.subject.startsWith('[TEST] Brouillon'), 1, 'test send');
    expectConformant(m as Captured, 'bulk');
    expect(header((m as Captured).raw, 'X-Parley-Test')).toBe('true');
    await expectSafeHtml(m as Captured);
  });

  it('a campaign in test mode goes to the test addresses only, conformant too', async () => {
    await forgetHourlyWindow();
    await setting('test_email_addresses', JSON.stringify(['qa1@test.example']));
    await setting('test_environment_enabled', 'true');
    const c = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Test mode',
        subject: 'Mode test {{firstName}}',
        fromName: FROM_NAME,
        fromEmail: FROM,
        htmlContent: HOSTILE_HTML,
        targetAddressBooks: [bookId],
      },
      admin,
    );
    const s = await t.call(
      'POST',
      `/api/admin/email/campaigns/${c.json.id}/send`,
      { confirmSend: true },
      admin,
    );
    expect(s.status, s.text).toBe(200);
    expect(s.json).toMatchObject({ testMode: true, recipients: 1 });
    const [m] = await mailsWhere((x) => x.subject.startsWith('Mode test'), 1, 'test-mode campaign');
    expectConformant(m as Captured, 'bulk');
    expect(header((m as Captured).raw, 'X-Parley-Test-Mode')).toBe('on; original-recipients=2');
    await setting('test_environment_enabled', 'false', 2);
  });

  it('a hand-made newsletter and one converted from a blog post', async () => {
    await forgetHourlyWindow();
    const made = await t.call(
      'POST',
      '/api/admin/newsletters',
      {
        name: 'Weekly',
        subject: 'Hebdo {{firstName}}',
        preheader: 'Cette semaine',
        htmlContent: HOSTILE_HTML,
      },
      admin,
    );
    expect(made.status, made.text).toBe(201);
    expect(made.json.htmlContent).not.toMatch(/<script|onclick=|javascript:|<iframe|<base/i);
    const converted = await t.call('POST', '/api/admin/newsletters/convert-blog/conformance', {}, admin);
    expect(converted.status, converted.text).toBe(201);
    expect(converted.json.htmlContent).not.toMatch(/<script|onclick=|javascript:|<iframe/i);
    for (const id of [made.json.id, converted.json.id]) {
      await forgetHourlyWindow();
      const s = await t.call(
        'POST',
        `/api/admin/newsletters/${id}/send`,
        { audience: { type: 'all' }, confirmSend: true },
        admin,
      );
      expect(s.status, s.text).toBe(200);
    }
    const hand = await mailsWhere((x) => x.subject.startsWith('Hebdo'), 2, 'hand-made newsletter');
    const blog = await mailsWhere((x) => x.subject.startsWith('Voice agents'), 2, 'converted newsletter');
    for (const m of hand) {
      expectConformant(m, 'bulk');
      await expectSafeHtml(m);
    }
    for (const m of blog) {
      expectConformant(m, 'bulk');
      const html = (await simpleParser(m.raw)).html || '';
      expect(html).not.toMatch(/<script|<iframe|onclick=|javascript:/i);
    }
  });

  it('every message the server received passed the same checks', async () => {
    const all = await captured();
    // 1 contact notification, 2 + 2 invitations and 1 booking notification, the tracking test,
    // 2 campaign mails, 1 test send, 1 test-mode mail, 2 + 2 newsletters: nothing else.
    expect(all).toHaveLength(15);
    for (const m of all) {
      expect(conformanceProblems(m.data), m.subject).toEqual([]);
      expect(() => verifyDkim(m.raw, keys.publicKey), m.subject).not.toThrow();
    }
  });
});
