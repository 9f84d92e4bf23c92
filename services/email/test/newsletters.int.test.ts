import type { BlogPost } from '@parley/contracts';
import { NEWSLETTER_MESSAGES } from '@parley/contracts';
import { createLogger, type RunningService, startService } from '@parley/kit';
import { load } from 'cheerio';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emailService } from '../src/service.ts';
import { type EmailUnderTest, type SmtpSink, startEmail, startSmtpSink } from './mail-peers.ts';

/**
 * Newsletters end to end on real PostgreSQL, NATS and a real SMTP server: creation and its
 * rules, conversion of a post of the blog copy (the HTML parsed and checked), the sanitised
 * preview, sends to each audience through the campaign pipeline (deduplicated, suppressions
 * out), the hourly limit shared with campaigns, scheduling with two replicas (one dispatch),
 * unscheduling, resending, analytics and the engagement report, deletion, 'Fix HTML Issues'
 * (a second run fixes nothing) and the email.newsletter.sent event (once per send).
 */

let t: EmailUnderTest;
let smtp: SmtpSink;
let db: pg.Pool;
let admin: Record<string, string>;
const extra: RunningService[] = [];

const ENV = {
  CAMPAIGN_TICK_MS: '150',
  CAMPAIGN_POLL_MS: '30',
  CAMPAIGN_BATCH_SIZE: '10',
  CAMPAIGN_CONCURRENCY: '2',
};
const ORIGIN = 'https://parley.test';
const STORED_SVG = `/api/blog/images/${'ab'.repeat(32)}.svg`;
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';

const until = async <T>(
  fn: () => Promise<T | null | undefined | false>,
  ms = 20_000,
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

const post = (id: string, over: Partial<BlogPost> = {}): BlogPost => ({
  id,
  title: `Post ${id}`,
  slug: `post-${id}`,
  excerpt: `The excerpt of post ${id}, which says what the post is about.`,
  content: '<p>First paragraph.</p><p>Second.</p>',
  author: 'Parley Team',
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

async function book(name: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "address_books" ("name") VALUES ($1) RETURNING "id"`,
    [name],
  );
  return rows[0]?.id as number;
}

async function contact(bookId: number, email: string, company: string | null, status = 'active') {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name", "company", "status")
     VALUES ($1, $2, $3, $4, $5::"ContactStatus") RETURNING "id"`,
    [bookId, email, email.split('@')[0], company, status],
  );
  return Number(rows[0]?.id);
}

async function handMade(over: Record<string, unknown> = {}) {
  const r = await t.call(
    'POST',
    '/api/admin/newsletters',
    {
      name: 'Weekly',
      subject: 'Weekly for {{firstName}}',
      preheader: 'This week in voice',
      htmlContent:
        '<html><body><p>Hello {{firstName}} at {{company}}</p><a href="https://parley.test/x">x</a></body></html>',
      ...over,
    },
    admin,
  );
  expect(r.status, r.text).toBe(201);
  return r.json as { id: number; [k: string]: unknown };
}

const mailsTo = (subject: string) => smtp.received.filter((m) => m.parsed.subject === subject);
const recipientsOf = (subject: string) =>
  mailsTo(subject)
    .map((m) => m.envelope.to[0]?.toLowerCase())
    .sort();

async function waitStatus(id: number, status: string, ms = 30_000) {
  return until(
    async () => {
      const r = await t.call('GET', `/api/admin/newsletters/${id}`, undefined, admin);
      return r.json?.status === status ? r.json : null;
    },
    ms,
    `newsletter ${id} ${status}`,
  );
}

const forgetHourlyWindow = () =>
  db.query(`UPDATE "email_campaign_sends" SET "started_at" = "started_at" - interval '2 hours'`);

const newsletterEvents = async (id: number) =>
  (
    await db.query(
      `SELECT "payload" FROM "outbox_events" WHERE "subject" = 'email.newsletter.sent' AND "payload"->>'newsletterId' = $1`,
      [String(id)],
    )
  ).rows.map((r) => r.payload);

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startEmail('email_newsletters', ENV);
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 3 });
  admin = await t.admin();
  await t.setting('smtp_host', '127.0.0.1', 1);
  await t.setting('smtp_port', String(smtp.port), 1);
  await t.setting('smtp_from_email', 'news@parley.test', 1);
  await t.publish('blog.post.published', {
    post: post('svg', { featuredImage: STORED_SVG, title: 'Voice <b>agents</b> & "you"' }),
  });
  await t.publish('blog.post.published', {
    post: post('ext', { featuredImage: 'https://cdn.example/logo.svg', excerpt: null }),
  });
  await t.publish('blog.post.published', { post: post('gone') });
  await t.publish('blog.post.published', { post: post('draft') });
  await t.publish('blog.post.unpublished', { post: post('draft', { status: 'draft' }) });
  await t.publish('blog.post.deleted', { id: 'gone', slug: 'post-gone' });
  await until(
    async () =>
      (
        await db.query(
          `SELECT 1 FROM "mail_settings" WHERE "key" = 'smtp_from_email'
           AND (SELECT count(*) FROM "newsletter_blog_posts" WHERE "status" = 'published' AND NOT "deleted") = 2
           AND EXISTS (SELECT 1 FROM "newsletter_blog_posts" WHERE "id" = 'gone' AND "deleted")
           AND EXISTS (SELECT 1 FROM "newsletter_blog_posts" WHERE "id" = 'draft' AND "status" = 'draft')`,
        )
      ).rowCount,
    20_000,
    'settings and blog copies',
  );
}, 60_000);

beforeEach(async () => {
  admin = await t.admin();
});

afterAll(async () => {
  for (const s of extra) await s.stop();
  await db?.end();
  await t?.stop();
  await smtp?.close();
});

describe('creating', () => {
  it('requires name, subject and HTML with the spec text; lists newest first', async () => {
    for (const over of [{ name: '' }, { subject: '  ' }, { htmlContent: '' }, { name: undefined }]) {
      const r = await t.call(
        'POST',
        '/api/admin/newsletters',
        { name: 'N', subject: 'S', htmlContent: '<p>x</p>', ...over },
        admin,
      );
      expect(r.status).toBe(400);
      expect(r.json.message).toBe(NEWSLETTER_MESSAGES.required);
    }
    expect((await t.call('GET', '/api/admin/newsletters')).status).toBe(401);
    const a = await handMade({ name: 'First' });
    const b = await handMade({ name: 'Second' });
    expect(b).toMatchObject({
      status: 'draft',
      blogPostId: null,
      campaignId: null,
      template: 'standard',
      fromEmail: 'news@parley.test',
      preheader: 'This week in voice',
      customizations: { includeImage: true, includeReadMore: true, includeShare: true },
      totalRecipients: 0,
      progress: null,
    });
    expect(b.trackingId).toMatch(/^nl_/);
    const list = await t.call('GET', '/api/admin/newsletters', undefined, admin);
    expect(list.status).toBe(200);
    const ids = list.json.map((n: { id: number }) => n.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect((await t.call('GET', `/api/admin/newsletters/${a.id}`, undefined, admin)).json.name).toBe('First');
    const missing = await t.call('GET', '/api/admin/newsletters/999999', undefined, admin);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe(NEWSLETTER_MESSAGES.notFound);
    expect((await t.call('GET', '/api/admin/newsletters/abc', undefined, admin)).status).toBe(400);
  });

  it('previews the mail sanitised, with the sample contact', async () => {
    const n = await handMade({
      htmlContent:
        '<html><body><p onclick="steal()">Hi {{firstName}} of {{company}}</p><script>alert(1)</script><a href="javascript:alert(1)">bad</a><a href="https://parley.test/ok">ok</a></body></html>',
    });
    const r = await t.call('GET', `/api/admin/newsletters/${n.id}/preview`, undefined, admin);
    expect(r.status, r.text).toBe(200);
    expect(r.json.subject).toBe('Weekly for John');
    expect(r.json.html).toContain('Hi John of Acme Corp');
    expect(r.json.html).toContain('This week in voice');
    expect(r.json.html).not.toMatch(/<script|onclick|javascript:/i);
    expect(r.json.text).toContain('Hi John of Acme Corp');
    expect(r.json.text).not.toContain('This week in voice');
  });
});

describe('converting blog posts', () => {
  it('lists the published posts of the copy only', async () => {
    const r = await t.call('GET', '/api/admin/newsletters/blog-posts', undefined, admin);
    expect(r.status, r.text).toBe(200);
    expect(r.json.posts.map((p: { id: string }) => p.id).sort()).toEqual(['ext', 'svg']);
  });

  it('answers 404 for an unknown, unpublished or deleted post', async () => {
    for (const id of ['nope', 'draft', 'gone']) {
      const r = await t.call('POST', `/api/admin/newsletters/convert-blog/${id}`, undefined, admin);
      expect(r.status).toBe(404);
      expect(r.json.message).toBe(NEWSLETTER_MESSAGES.postNotFound);
    }
  });

  it('builds a responsive mail: absolute links and PNG/JPEG images only, a text part, escaped title', async () => {
    const r = await t.call('POST', '/api/admin/newsletters/convert-blog/svg', undefined, admin);
    expect(r.status, r.text).toBe(201);
    const n = r.json;
    expect(n).toMatchObject({
      name: 'Voice <b>agents</b> & "you"',
      subject: 'Voice <b>agents</b> & "you"',
      blogPostId: 'svg',
      status: 'draft',
      template: 'standard',
      fromEmail: 'news@parley.test',
      preheader: 'The excerpt of post svg, which says what the post is about.',
    });
    expect(n.textContent).toContain('Read more: https://parley.test/blog/post-svg');
    expect(n.textContent).toContain('Unsubscribe: {{unsubscribeUrl}}');
    const $ = load(n.htmlContent);
    expect($('b').length).toBe(0);
    expect($('title').text()).toBe('Voice <b>agents</b> & "you"');
    const hrefs = $('a[href]')
      .toArray()
      .map((a) => $(a).attr('href') as string);
    expect(hrefs.length).toBeGreaterThan(5);
    for (const h of hrefs) expect(h).toMatch(/^(https:\/\/|mailto:|\{\{unsubscribeUrl\}\}$)/);
    expect(hrefs).toContain('https://parley.test/blog/post-svg');
    const shares = hrefs.filter((h) => /linkedin|x\.com|facebook|mailto/.test(h));
    expect(shares).toHaveLength(4);
    for (const s of shares) expect(s).toContain(encodeURIComponent('https://parley.test/blog/post-svg'));
    const images = $('img')
      .toArray()
      .map((i) => $(i).attr('src') as string);
    // The blog's stored SVG is served as its PNG rendering.
    expect(images).toEqual([`${ORIGIN}${STORED_SVG.replace(/\.svg$/, '.png')}`]);
    expect($('img').attr('alt')).toBe('Voice <b>agents</b> & "you"');
    expect($('a:contains("Read more")').attr('href')).toBe('https://parley.test/blog/post-svg');
    expect($('.parley-preheader').text()).toBe(n.preheader);
    expect($('style').text()).toMatch(/@media/);
    // CSS inlined: the content carries its own styles.
    expect($('td[style]').length).toBeGreaterThan(3);
    const posts = await t.call('GET', '/api/admin/newsletters/blog-posts', undefined, admin);
    expect(posts.json.posts.find((p: { id: string }) => p.id === 'svg').newsletterCount).toBe(1);
  });

  it('uses the newsletter banner for an SVG elsewhere, the first paragraph without excerpt, and the customisations', async () => {
    const r = await t.call(
      'POST',
      '/api/admin/newsletters/convert-blog/ext',
      { preheader: 'Chosen preview line' },
      admin,
    );
    expect(r.status, r.text).toBe(201);
    const $ = load(r.json.htmlContent);
    expect($('img').attr('src')).toBe('https://parley.test/email/headers/newsletter.png');
    expect(r.json.preheader).toBe('Chosen preview line');
    expect(r.json.textContent).toContain('First paragraph.');
    expect(r.json.textContent).not.toContain('Second.');
    const off = await t.call(
      'POST',
      '/api/admin/newsletters/convert-blog/ext',
      { customizations: { includeImage: false, includeReadMore: false, includeShare: false } },
      admin,
    );
    expect(off.status, off.text).toBe(201);
    expect(off.json.customizations).toEqual({
      includeImage: false,
      includeReadMore: false,
      includeShare: false,
    });
    const $off = load(off.json.htmlContent);
    expect($off('img').length).toBe(0);
    expect(off.json.htmlContent).not.toContain('Read more');
    expect(off.json.htmlContent).not.toMatch(/linkedin|facebook|x\.com\/intent|mailto:/);
    expect(off.json.textContent).not.toMatch(/Read more|Share this post/);
    // Text-only default preheader: the first paragraph.
    expect(off.json.preheader).toBe('First paragraph.');
  });
});

describe('sending', () => {
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    const a = await book('Newsletter A');
    const b = await book('Newsletter B');
    ids.a1 = await contact(a, 'a1@nl.example', 'Acme ');
    ids.a2 = await contact(a, 'a2@nl.example', 'acme');
    ids.dup = await contact(a, 'dup@nl.example', 'Beta');
    await contact(a, 'off@nl.example', 'Acme', 'unsubscribed');
    await contact(a, 'blocked@nl.example', 'Acme');
    await db.query(
      `INSERT INTO "email_suppressions" ("address", "reason", "source") VALUES ('blocked@nl.example', 'complained', 'test')`,
    );
    ids.dup2 = await contact(b, 'DUP@nl.example', 'Beta');
    ids.b1 = await contact(b, 'b1@nl.example', '  ');
    ids.b2 = await contact(b, 'b2@nl.example', null);
  });

  it('summarises the audience: distinct live addresses and companies grouped case-insensitively', async () => {
    const r = await t.call('GET', '/api/admin/newsletters/audience', undefined, admin);
    expect(r.status, r.text).toBe(200);
    expect(r.json.totalContacts).toBe(5);
    expect(r.json.companies).toEqual([
      { company: 'Acme', count: 2 },
      { company: 'Beta', count: 1 },
    ]);
    const count = (audience: unknown) =>
      t.call('POST', '/api/admin/newsletters/audience/count', { audience }, admin);
    expect((await count({ type: 'all' })).json.recipients).toBe(5);
    expect((await count({ type: 'companies', companies: [' ACME', 'beta'] })).json.recipients).toBe(3);
    expect((await count({ type: 'contacts', contactIds: [ids.dup, ids.dup2, ids.a1] })).json.recipients).toBe(
      2,
    );
    expect((await count({ type: 'companies', companies: [] })).status).toBe(400);
  });

  it('sends to every active contact once per address, suppressions out, through a companion campaign', async () => {
    const n = await handMade({ name: 'To all', subject: 'All hands' });
    const none = await t.call('POST', `/api/admin/newsletters/${n.id}/send`, { confirmSend: true }, admin);
    expect(none.status).toBe(400);
    expect(none.json.message).toBe(NEWSLETTER_MESSAGES.noContacts);
    const noConfirm = await t.call(
      'POST',
      `/api/admin/newsletters/${n.id}/send`,
      { confirmSend: false, audience: { type: 'all' } },
      admin,
    );
    expect(noConfirm.status).toBe(400);
    const r = await t.call(
      'POST',
      `/api/admin/newsletters/${n.id}/send`,
      { newsletterId: n.id, confirmSend: true, audience: { type: 'all' } },
      admin,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ success: true, newsletterId: n.id, recipients: 5, testMode: false });
    const done = await waitStatus(n.id, 'sent');
    expect(done).toMatchObject({ sentCount: 5, totalRecipients: 5 });
    expect(done.sentAt).toBeTruthy();
    expect(recipientsOf('All hands')).toEqual(
      ['a1@nl.example', 'a2@nl.example', 'b1@nl.example', 'b2@nl.example', 'dup@nl.example'].sort(),
    );
    const m = mailsTo('All hands')[0];
    expect(m?.parsed.text).toContain('Unsubscribe: https://parley.test/api/unsubscribe/');
    expect(m?.parsed.html).toContain('/api/track/open/');
    expect(m?.parsed.html).toContain('class="parley-preheader"');
    // The companion campaign is not on the Campaigns tab, nor reachable there.
    const list = await t.call('GET', '/api/admin/email/campaigns', undefined, admin);
    expect(list.json.campaigns.map((c: { id: number }) => c.id)).not.toContain(done.campaignId);
    expect(
      (await t.call('GET', `/api/admin/email/campaigns/${done.campaignId}`, undefined, admin)).status,
    ).toBe(404);
    // The event: email.newsletter.sent once (blogPostId null: made by hand), no campaign event.
    await until(async () => (await newsletterEvents(n.id)).length === 1, 5000, 'newsletter event');
    expect(await newsletterEvents(n.id)).toEqual([
      expect.objectContaining({
        name: 'To all',
        blogPostId: null,
        recipients: 5,
        sent: 5,
        failed: 0,
        test: false,
      }),
    ]);
    const campaignEvents = await db.query(
      `SELECT 1 FROM "outbox_events" WHERE "subject" = 'email.campaign.sent' AND "payload"->>'campaignId' = $1`,
      [String(done.campaignId)],
    );
    expect(campaignEvents.rowCount).toBe(0);
    // Sent: no second send, no schedule; resend is the way.
    const again = await t.call(
      'POST',
      `/api/admin/newsletters/${n.id}/send`,
      { confirmSend: true, audience: { type: 'all' } },
      admin,
    );
    expect(again.status).toBe(409);
    expect(again.json.message).toMatch(/^Only draft newsletters can be sent or scheduled/);
  });

  it('sends to chosen contacts (contactIds alone) and to companies', async () => {
    await forgetHourlyWindow();
    const c = await handMade({ name: 'Chosen', subject: 'Chosen ones' });
    const r = await t.call(
      'POST',
      `/api/admin/newsletters/${c.id}/send`,
      { confirmSend: true, contactIds: [ids.dup, ids.dup2, ids.b1] },
      admin,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json.recipients).toBe(2);
    await waitStatus(c.id, 'sent');
    expect(recipientsOf('Chosen ones')).toEqual(['b1@nl.example', 'dup@nl.example']);

    const k = await handMade({ name: 'Companies', subject: 'Acme news' });
    const s = await t.call(
      'POST',
      `/api/admin/newsletters/${k.id}/send`,
      { confirmSend: true, audience: { type: 'companies', companies: ['  aCmE '] } },
      admin,
    );
    expect(s.status, s.text).toBe(200);
    expect(s.json.recipients).toBe(2);
    await waitStatus(k.id, 'sent');
    expect(recipientsOf('Acme news')).toEqual(['a1@nl.example', 'a2@nl.example']);
    // Personalised per recipient.
    expect(mailsTo('Acme news').map((m) => m.parsed.text?.includes('Hello a1 at Acme'))).toContain(true);
  });

  it('shares the hourly limit (2 live sends an hour) with campaigns', async () => {
    await forgetHourlyWindow();
    const camp = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Hourly campaign',
        subject: 'Hourly campaign',
        fromName: 'Parley',
        fromEmail: 'news@parley.test',
        htmlContent: '<p>hi</p>',
        targetContacts: [ids.a1],
      },
      admin,
    );
    expect(
      (await t.call('POST', `/api/admin/email/campaigns/${camp.json.id}/send`, { confirmSend: true }, admin))
        .status,
    ).toBe(200);
    const first = await handMade({ name: 'Hourly 1', subject: 'Hourly 1' });
    const second = await handMade({ name: 'Hourly 2', subject: 'Hourly 2' });
    const body = { confirmSend: true, contactIds: [ids.a1] };
    expect((await t.call('POST', `/api/admin/newsletters/${first.id}/send`, body, admin)).status).toBe(200);
    const third = await t.call('POST', `/api/admin/newsletters/${second.id}/send`, body, admin);
    expect(third.status).toBe(429);
    expect(third.json.message).toMatch(/^Maximum 2 campaigns per hour/);
    expect((await t.call('GET', `/api/admin/newsletters/${second.id}`, undefined, admin)).json.status).toBe(
      'draft',
    );
    await waitStatus(first.id, 'sent');
  });

  it('validates the schedule time with the spec texts', async () => {
    const n = await handMade({ name: 'Bad times' });
    const cases: Array<[unknown, string]> = [
      [undefined, NEWSLETTER_MESSAGES.dateTime],
      [{}, NEWSLETTER_MESSAGES.dateTime],
      [{ scheduledAt: '  ' }, NEWSLETTER_MESSAGES.dateTime],
      [{ scheduledAt: 'next tuesday-ish' }, NEWSLETTER_MESSAGES.dateTime],
      [{ scheduledAt: new Date(Date.now() - 60_000).toISOString() }, NEWSLETTER_MESSAGES.pastDate],
    ];
    for (const [body, message] of cases) {
      const r = await t.call('POST', `/api/admin/newsletters/${n.id}/schedule`, body, admin);
      expect(r.status, r.text).toBe(400);
      expect(r.json.message).toBe(message);
    }
  });

  it('dispatches a scheduled newsletter once with two sender replicas', async () => {
    await forgetHourlyWindow();
    extra.push(await startInstance());
    const n = await handMade({ name: 'Later', subject: 'Later news' });
    const at = new Date(Date.now() + 1500).toISOString();
    const r = await t.call(
      'POST',
      `/api/admin/newsletters/${n.id}/schedule`,
      { scheduledAt: at, audience: { type: 'companies', companies: ['beta', 'acme'] } },
      admin,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json.newsletter).toMatchObject({ status: 'scheduled', scheduledAt: at });
    expect(r.json.recipients).toBe(3);
    expect(r.json.message).toMatch(/scheduled/);
    const done = await waitStatus(n.id, 'sent');
    await until(async () => (await newsletterEvents(n.id)).length === 1, 5000, 'event');
    expect(recipientsOf('Later news')).toEqual(['a1@nl.example', 'a2@nl.example', 'dup@nl.example']);
    const sends = await db.query(`SELECT "status" FROM "email_campaign_sends" WHERE "campaign_id" = $1`, [
      done.campaignId,
    ]);
    expect(sends.rows).toEqual([{ status: 'done' }]);
    const workers = await db.query(
      `SELECT count(*)::int AS n FROM "email_campaign_recipients" WHERE "send_id" = $1 AND "status" = 'sent'`,
      [done.progress.sendId],
    );
    expect(workers.rows[0].n).toBe(3);
    expect(await newsletterEvents(n.id)).toHaveLength(1);
  });

  it('unschedules back to draft; only a scheduled newsletter can be', async () => {
    const n = await handMade({ name: 'Maybe', subject: 'Maybe later' });
    const draft = await t.call('POST', `/api/admin/newsletters/${n.id}/unschedule`, undefined, admin);
    expect(draft.status).toBe(409);
    expect(draft.json.message).toMatch(/^Only scheduled newsletters can be unscheduled/);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const s = await t.call('POST', `/api/admin/newsletters/${n.id}/schedule`, { scheduledAt: at }, admin);
    expect(s.status, s.text).toBe(200);
    // No audience given: every active contact.
    expect(s.json.recipients).toBe(5);
    const u = await t.call('POST', `/api/admin/newsletters/${n.id}/unschedule`, undefined, admin);
    expect(u.status, u.text).toBe(200);
    expect(u.json.newsletter).toMatchObject({ status: 'draft', scheduledAt: null });
    const sends = await db.query(`SELECT "status" FROM "email_campaign_sends" WHERE "campaign_id" = $1`, [
      u.json.newsletter.campaignId,
    ]);
    expect(sends.rows).toEqual([{ status: 'cancelled' }]);
    // A scheduled newsletter can be deleted (its send goes with it).
    const again = await t.call('POST', `/api/admin/newsletters/${n.id}/schedule`, { scheduledAt: at }, admin);
    expect(again.status, again.text).toBe(200);
    const del = await t.call('DELETE', `/api/admin/newsletters/${n.id}`, undefined, admin);
    expect(del.status, del.text).toBe(200);
    const left = await db.query(`SELECT 1 FROM "email_campaigns" WHERE "id" = $1`, [
      u.json.newsletter.campaignId,
    ]);
    expect(left.rowCount).toBe(0);
  });

  it('resends a sent newsletter only, to the chosen audience', async () => {
    await forgetHourlyWindow();
    const n = await handMade({ name: 'Again', subject: 'Again news' });
    const early = await t.call(
      'POST',
      `/api/admin/newsletters/${n.id}/resend`,
      { contactIds: [ids.a1] },
      admin,
    );
    expect(early.status).toBe(409);
    expect(early.json.message).toMatch(/^Only sent newsletters can be resent/);
    await t.call(
      'POST',
      `/api/admin/newsletters/${n.id}/send`,
      { confirmSend: true, contactIds: [ids.a1] },
      admin,
    );
    await waitStatus(n.id, 'sent');
    const none = await t.call('POST', `/api/admin/newsletters/${n.id}/resend`, { contactIds: [] }, admin);
    expect(none.status).toBe(400);
    expect(none.json.message).toBe(NEWSLETTER_MESSAGES.noContacts);
    const r = await t.call(
      'POST',
      `/api/admin/newsletters/${n.id}/resend`,
      { audience: { type: 'contacts', contactIds: [ids.a2, ids.b1] } },
      admin,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json.recipients).toBe(2);
    await until(async () => mailsTo('Again news').length === 3, 10_000, 'resend');
    await waitStatus(n.id, 'sent');
    await until(async () => (await newsletterEvents(n.id)).length === 2, 5000, 'two events');
    const done = (await t.call('GET', `/api/admin/newsletters/${n.id}`, undefined, admin)).json;
    expect(done.sentCount).toBe(3);
  });

  it('reports analytics and the engagement report from the same tracking as campaigns', async () => {
    await forgetHourlyWindow();
    const n = await handMade({ name: 'Tracked', subject: 'Tracked news' });
    const before = await t.call('GET', `/api/admin/newsletters/${n.id}/engagement-report`, undefined, admin);
    expect(before.status, before.text).toBe(200);
    expect(before.json.engagementReport.summary.totalSent).toBe(0);
    expect(before.json.engagementReport.opens).toEqual([]);
    await t.call(
      'POST',
      `/api/admin/newsletters/${n.id}/send`,
      { confirmSend: true, contactIds: [ids.a1, ids.a2] },
      admin,
    );
    const sentNewsletter = await waitStatus(n.id, 'sent');
    const mail = mailsTo('Tracked news').find((m) => m.envelope.to[0] === 'a1@nl.example');
    const pixel = /<img src="https:\/\/parley\.test(\/api\/track\/open\/[^"]+)"/.exec(
      String(mail?.parsed.html),
    )?.[1];
    const click = /href="https:\/\/parley\.test(\/api\/track\/click\/[^"]+)"/.exec(
      String(mail?.parsed.html),
    )?.[1];
    expect(pixel && click).toBeTruthy();
    expect((await t.call('GET', pixel as string, undefined, { 'user-agent': IPHONE })).status).toBe(200);
    expect(
      (await t.call('GET', (click as string).replace(/&amp;/g, '&'), undefined, { 'user-agent': IPHONE }))
        .status,
    ).toBe(302);
    const one = await until(
      async () => {
        const r = await t.call('GET', `/api/admin/newsletters/${n.id}/analytics`, undefined, admin);
        return r.json?.totalClicked === 1 ? r.json : null;
      },
      10_000,
      'tracked hits',
    );
    expect(one).toMatchObject({ totalSent: 2, totalOpened: 1, totalClicked: 1, openRate: 50, clickRate: 50 });
    expect(one.campaigns).toEqual([expect.objectContaining({ id: n.id, name: 'Tracked', totalSent: 2 })]);
    // The email Analytics tab counts it with the campaigns, marked as a newsletter.
    const email = await t.call('GET', '/api/admin/email/analytics', undefined, admin);
    expect(email.status, email.text).toBe(200);
    expect(
      email.json.campaigns.find((c: { id: number }) => c.id === sentNewsletter.campaignId),
    ).toMatchObject({ name: 'Tracked', kind: 'newsletter', sent: 2, opens: 1, clicks: 1 });
    const all = await t.call('GET', '/api/admin/newsletters/analytics', undefined, admin);
    expect(all.status).toBe(200);
    expect(all.json.totalSent).toBeGreaterThanOrEqual(2);
    expect(all.json.campaigns.find((c: { id: number }) => c.id === n.id)).toMatchObject({ totalOpened: 1 });
    const report = await t.call('GET', `/api/admin/newsletters/${n.id}/engagement-report`, undefined, admin);
    expect(report.json.campaign).toMatchObject({ id: n.id, name: 'Tracked', status: 'sent' });
    expect(report.json.engagementReport.opens).toEqual([
      expect.objectContaining({ contactEmail: 'a1@nl.example', deviceType: 'mobile' }),
    ]);
    expect(report.json.engagementReport.clicks).toEqual([
      expect.objectContaining({ contactEmail: 'a1@nl.example' }),
    ]);
  });

  it('resumes a paused send (the cooling period pauses sends) once the cooling period is over', async () => {
    await forgetHourlyWindow();
    const n = await handMade({ name: 'Paused', subject: 'Paused news' });
    const notPaused = await t.call('POST', `/api/admin/newsletters/${n.id}/resume`, undefined, admin);
    expect(notPaused.status).toBe(409);
    expect(notPaused.json.message).toMatch(
      /^Only a paused newsletter can be resumed: this newsletter is draft/,
    );
    await t.call(
      'POST',
      `/api/admin/newsletters/${n.id}/send`,
      { confirmSend: true, contactIds: [ids.a1, ids.a2] },
      admin,
    );
    const sent = await waitStatus(n.id, 'sent');
    // As when connection failures paused it mid-send (set directly: a send this small is over at once).
    await db.query(`UPDATE "email_campaigns" SET "status" = 'paused' WHERE "id" = $1`, [sent.campaignId]);
    await db.query(`UPDATE "email_campaign_sends" SET "status" = 'paused' WHERE "id" = $1`, [
      sent.progress.sendId,
    ]);
    await db.query(
      `UPDATE "email_campaign_recipients" SET "status" = 'pending' WHERE "send_id" = $1 AND "email" = 'a2@nl.example'`,
      [sent.progress.sendId],
    );
    await db.query(
      `INSERT INTO "email_send_blocks" ("reason", "blocked_until") VALUES ('test', now() + interval '1 hour')`,
    );
    const paused = await t.call('GET', `/api/admin/newsletters/${n.id}`, undefined, admin);
    expect(paused.json.status).toBe('paused');
    const blocked = await t.call('POST', `/api/admin/newsletters/${n.id}/resume`, undefined, admin);
    expect(blocked.status).toBe(429);
    expect(blocked.json.message).toMatch(/temporarily blocked/);
    await db.query(`DELETE FROM "email_send_blocks"`);
    const resumed = await t.call('POST', `/api/admin/newsletters/${n.id}/resume`, undefined, admin);
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.json).toMatchObject({ success: true, message: 'Newsletter sending resumed' });
    await waitStatus(n.id, 'sent');
    const left = await db.query(
      `SELECT "status" FROM "email_campaign_recipients" WHERE "send_id" = $1 AND "email" = 'a2@nl.example'`,
      [sent.progress.sendId],
    );
    expect(left.rows).toEqual([{ status: 'sent' }]);
  });

  it('deletes any newsletter but one being sent', async () => {
    await forgetHourlyWindow();
    const n = await handMade({ name: 'Doomed', subject: 'Doomed news' });
    await t.call(
      'POST',
      `/api/admin/newsletters/${n.id}/send`,
      { confirmSend: true, contactIds: [ids.a1] },
      admin,
    );
    const sent = await waitStatus(n.id, 'sent');
    // As while its workers are sending (the state, set directly: a send this small is over at once).
    await db.query(`UPDATE "email_campaigns" SET "status" = 'sending' WHERE "id" = $1`, [sent.campaignId]);
    const busy = await t.call('DELETE', `/api/admin/newsletters/${n.id}`, undefined, admin);
    expect(busy.status).toBe(409);
    expect(busy.json.message).toBe(NEWSLETTER_MESSAGES.busy);
    await db.query(`UPDATE "email_campaigns" SET "status" = 'sent' WHERE "id" = $1`, [sent.campaignId]);
    expect((await t.call('DELETE', `/api/admin/newsletters/${n.id}`, undefined, admin)).status).toBe(200);
    expect((await t.call('GET', `/api/admin/newsletters/${n.id}`, undefined, admin)).status).toBe(404);
    expect(
      (await db.query(`SELECT 1 FROM "email_campaigns" WHERE "id" = $1`, [sent.campaignId])).rowCount,
    ).toBe(0);
    expect((await t.call('DELETE', `/api/admin/newsletters/${n.id}`, undefined, admin)).status).toBe(404);
  });
});

describe('Fix HTML Issues', () => {
  it('normalises drafts (campaigns and newsletters), reports the changes, and a second run fixes nothing', async () => {
    const messyCampaign =
      '<style>p { color: #111827 } a:hover { color: red }</style><p>Hi {{firstName}}<div>block in a paragraph</div></p><img src="/email/headers/newsletter.png"><a href="/pricing">Pricing</a> <a href="{{unsubscribeUrl}}">Unsubscribe</a>';
    const messyNewsletter =
      '<html><body><p>Hello <b>there</p><a href="//cdn.example/x">x</a><img src="https://x.example/a.png" width="1" height="1"></body></html>';
    const camp = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Messy campaign',
        subject: 'Messy',
        fromName: 'Parley',
        fromEmail: 'news@parley.test',
        htmlContent: '<p>x</p>',
      },
      admin,
    );
    expect(camp.status, camp.text).toBe(201);
    const nl = await handMade({ name: 'Messy newsletter' });
    // Saving writes HTML as the e-mail allowlist's parser reads it (bad nesting undone), so the
    // messy drafts are drafts saved before it, written straight into the tables.
    await db.query(`UPDATE "email_campaigns" SET "html_content" = $2 WHERE "id" = $1`, [
      camp.json.id,
      messyCampaign,
    ]);
    await db.query(`UPDATE "newsletters" SET "html_content" = $2 WHERE "id" = $1`, [nl.id, messyNewsletter]);
    const sentBefore = (
      await db.query(`SELECT "id", "html_content" FROM "newsletters" WHERE "name" = 'Tracked'`)
    ).rows[0];
    const r = await t.call('POST', '/api/admin/campaigns/fix-html', undefined, admin);
    expect(r.status, r.text).toBe(200);
    expect(r.json.fixedCount).toBe(r.json.items.length);
    const c = r.json.items.find(
      (i: { kind: string; id: number }) => i.kind === 'campaign' && i.id === camp.json.id,
    );
    expect(c.changes.join('; ')).toMatch(/nesting/);
    expect(c.changes.join('; ')).toMatch(/inlined <style> CSS into 2 elements/);
    expect(c.changes.join('; ')).toMatch(/made 2 relative URLs absolute/);
    expect(c.changes.join('; ')).toMatch(/added alt text to 1 image/);
    expect(c.changes.join('; ')).toMatch(/plain-text part/);
    const n = r.json.items.find(
      (i: { kind: string; id: number }) => i.kind === 'newsletter' && i.id === nl.id,
    );
    expect(n.changes.join('; ')).toMatch(/closed 1 unclosed element|nesting/);
    expect(n.changes.join('; ')).toMatch(/made 1 relative URL absolute/);
    const stored = (await t.call('GET', `/api/admin/email/campaigns/${camp.json.id}`, undefined, admin)).json;
    const $ = load(stored.htmlContent);
    expect($('a').first().attr('href')).toBe('https://parley.test/pricing');
    expect($('a[href="{{unsubscribeUrl}}"]').length).toBe(1);
    expect($('img').attr('src')).toBe('https://parley.test/email/headers/newsletter.png');
    expect($('img').attr('alt')).toBe('newsletter');
    expect($('p').first().attr('style')).toMatch(/color/);
    expect($('style').text()).toMatch(/hover/);
    expect(stored.textContent).toContain('block in a paragraph');
    const storedNl = (await t.call('GET', `/api/admin/newsletters/${nl.id}`, undefined, admin)).json;
    expect(load(storedNl.htmlContent)('a').attr('href')).toBe('https://cdn.example/x');
    expect(load(storedNl.htmlContent)('img').attr('alt')).toBe('');
    // Sent newsletters are not drafts: untouched.
    const sentAfter = (
      await db.query(`SELECT "html_content" FROM "newsletters" WHERE "id" = $1`, [sentBefore.id])
    ).rows[0];
    expect(sentAfter.html_content).toBe(sentBefore.html_content);
    // Converted newsletters come out of the template already normalised.
    expect(r.json.items.filter((i: { kind: string; name: string }) => i.name.startsWith('Post ext'))).toEqual(
      [],
    );

    const second = await t.call('POST', '/api/admin/campaigns/fix-html', undefined, admin);
    expect(second.status).toBe(200);
    expect(second.json.items).toEqual([]);
    expect(second.json).toMatchObject({ success: true, fixedCount: 0, items: [] });
    expect(second.json.checkedCount).toBe(r.json.checkedCount);
  });

  it('shows what it would change per draft before changing anything, then fixes the chosen ones only', async () => {
    // Well-formed HTML the parser only normalises (tables without <tbody>, optional end tags):
    // never listed. Drafts saved before the allowlist, written straight into the tables.
    const table = (i: number) => `<table width="100%"><tr><td><p>Row ${i}<td>b</table>`;
    const clean = `<!DOCTYPE html><html><head></head><body>${Array.from({ length: 29 }, (_, i) => table(i)).join('')}</body></html>`;
    const noAlt = `<!DOCTYPE html><html><head></head><body>${table(1)}<img src="https://parley.test/team-photo.png"></body></html>`;
    const relative = '<p>See <a href="/pricing">pricing</a></p>';
    const ids: Record<string, number> = {};
    for (const [name, html] of [
      ['Clean tables', clean],
      ['No alt', noAlt],
      ['Relative link', relative],
    ] as const) {
      ids[name] = (await handMade({ name, textContent: 'text' })).id;
      await db.query(`UPDATE "newsletters" SET "html_content" = $2 WHERE "id" = $1`, [ids[name], html]);
    }
    const camp = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Campaign draft',
        subject: 'x',
        fromName: 'P',
        fromEmail: 'news@parley.test',
        htmlContent: '<p>x</p>',
      },
      admin,
    );
    await db.query(`UPDATE "email_campaigns" SET "html_content" = $2 WHERE "id" = $1`, [
      camp.json.id,
      relative,
    ]);
    const stored = async () =>
      (await db.query(`SELECT "id", "html_content" FROM "newsletters" ORDER BY "id"`)).rows.concat(
        (await db.query(`SELECT "id", "html_content" FROM "email_campaigns" ORDER BY "id"`)).rows,
      );
    const before = await stored();

    // The dry run: newsletters only, what each would change, nothing written.
    const dry = await t.call(
      'POST',
      '/api/admin/campaigns/fix-html',
      { dryRun: true, kinds: ['newsletter'] },
      admin,
    );
    expect(dry.status, dry.text).toBe(200);
    expect(dry.json).toMatchObject({ dryRun: true, kinds: ['newsletter'], fixedCount: 0, skipped: [] });
    expect(dry.json.message).toMatch(/^2 of \d+ drafts can be fixed; nothing was changed yet$/);
    expect(dry.json.items.map((i: { name: string }) => i.name).sort()).toEqual(['No alt', 'Relative link']);
    const alt = dry.json.items.find((i: { name: string }) => i.name === 'No alt');
    expect(alt).toMatchObject({
      kind: 'newsletter',
      changes: ['added alt text to 1 image'],
      textPart: null,
      diff: {
        truncated: false,
        hunks: [
          {
            before: '<img src="https://parley.test/team-photo.png">',
            after: '<img src="https://parley.test/team-photo.png" alt="team photo">',
          },
        ],
      },
    });
    const link = dry.json.items.find((i: { name: string }) => i.name === 'Relative link');
    expect(link.diff.hunks).toEqual([
      { context: '<p>See', before: '<a href="/pricing">', after: '<a href="https://parley.test/pricing">' },
    ]);
    expect(await stored()).toEqual(before);
    // Campaign drafts only when asked for, and then marked as campaigns.
    const both = await t.call('POST', '/api/admin/campaigns/fix-html', { dryRun: true }, admin);
    expect(both.json.kinds).toEqual(['newsletter', 'campaign']);
    expect(
      both.json.items.filter((i: { kind: string }) => i.kind === 'campaign').map((i: { id: number }) => i.id),
    ).toEqual([camp.json.id]);
    expect(await stored()).toEqual(before);

    // Apply the chosen one only; one edited since the preview is refused.
    await db.query(`UPDATE "newsletters" SET "html_content" = $2 WHERE "id" = $1`, [
      ids['Relative link'],
      '<p>Edited <a href="/about">about</a></p>',
    ]);
    const applied = await t.call(
      'POST',
      '/api/admin/campaigns/fix-html',
      {
        apply: [alt, link].map((i: { kind: string; id: number; fingerprint: string }) => ({
          kind: i.kind,
          id: i.id,
          fingerprint: i.fingerprint,
        })),
      },
      admin,
    );
    expect(applied.status, applied.text).toBe(200);
    expect(applied.json).toMatchObject({ dryRun: false, fixedCount: 1, checkedCount: 2 });
    expect(applied.json.items.map((i: { name: string }) => i.name)).toEqual(['No alt']);
    expect(applied.json.skipped).toEqual([
      {
        kind: 'newsletter',
        id: ids['Relative link'],
        name: 'Relative link',
        reason: 'edited since the preview: check it again',
      },
    ]);
    const after = await stored();
    const html = (id: number) => after.find((r) => r.id === id)?.html_content;
    expect(load(html(ids['No alt'] as number))('img').attr('alt')).toBe('team photo');
    expect(html(ids['Clean tables'] as number)).toBe(clean);
    expect(
      (await db.query(`SELECT "html_content" FROM "email_campaigns" WHERE "id" = $1`, [camp.json.id])).rows[0]
        .html_content,
    ).toBe(relative);
    const both2 = await t.call(
      'POST',
      '/api/admin/campaigns/fix-html',
      { dryRun: true, apply: [{ kind: 'newsletter', id: 1, fingerprint: 'x' }] },
      admin,
    );
    expect(both2.status).toBe(400);
  });
});

async function startInstance(): Promise<RunningService> {
  return startService(emailService, {
    env: {
      DATABASE_URL: t.databaseUrl,
      NATS_URL: t.natsUrl,
      INTERNAL_AUTH_SECRET: t.secret,
      SETTINGS_ENCRYPTION_KEY: t.encryptionKey,
      EMAIL_SIGNING_SECRET: t.signingSecret,
      PUBLIC_ORIGIN: ORIGIN,
      LOG_LEVEL: 'silent',
      ...ENV,
    },
    logger: createLogger('email-test', 'silent'),
    listen: { host: '127.0.0.1', port: 0 },
  });
}
