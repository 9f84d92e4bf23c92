import { signAssertion } from '@parley/kit';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EmailUnderTest, startEmail } from './mail-peers.ts';

/**
 * The AI campaign generator and content optimizer on the real service (PostgreSQL, NATS, the
 * settings copy, the local mailbox): the spec's validation texts, admin only, the local writer's
 * campaign with the settings' sender and brand, a generated campaign saved and test-sent with
 * its unsubscribe link left out of click tracking, the optimizer's answer shape, sanitising,
 * and the per-admin rate limit.
 */

let t: EmailUnderTest;
let db: pg.Pool;
let admin: Record<string, string>;

const until = async <T>(fn: () => Promise<T | null | undefined | false>, ms = 10_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

const generate = (body: unknown, headers = admin) =>
  t.call('POST', '/api/admin/email/generate-campaign', body, headers);
const optimize = (body: unknown, headers = admin) =>
  t.call('POST', '/api/admin/email/optimize-content', body, headers);

beforeAll(async () => {
  t = await startEmail('email_campaign_ai', { EMAIL_AI_RATE_LIMIT: '20' });
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
  await t.setting('smtp_from_name', 'Parley Team', 1);
  await t.setting('smtp_from_email', 'team@parley.test', 1);
  await t.setting('brand_name', 'Parley Voice', 1);
  await until(
    async () =>
      (
        await db.query(
          `SELECT 1 FROM "mail_settings" WHERE "key" IN ('smtp_from_email', 'brand_name', 'smtp_from_name')`,
        )
      ).rowCount === 3,
  );
}, 60_000);

beforeEach(async () => {
  admin = await t.admin();
});

afterAll(async () => {
  await db?.end();
  await t?.stop();
});

describe('POST /api/admin/email/generate-campaign', () => {
  it('is for signed-in admins only', async () => {
    const r = await generate({ prompt: 'Spring launch' }, {});
    expect(r.status).toBe(401);
  });

  it('needs a prompt, with the spec’s text', async () => {
    for (const body of [{}, { prompt: '' }, { prompt: '   ' }]) {
      const r = await generate(body);
      expect(r.status).toBe(400);
      expect(r.json.message).toBe('Please enter a campaign prompt to generate content.');
    }
  });

  it('refuses an unknown goal, a prompt over 2000 characters and a malformed company context', async () => {
    const goal = await generate({ prompt: 'Spring launch', goal: 'world_domination' });
    expect(goal.status).toBe(400);
    expect(goal.json.message).toMatch(/goal/);
    const long = await generate({ prompt: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.json.message).toMatch(/prompt/);
    const color = await generate({ prompt: 'Spring launch', companyContext: { brandColor: 'red' } });
    expect(color.status).toBe(400);
  });

  it('writes a demo-booking campaign with the local writer, the settings’ sender and the goal’s header image', async () => {
    const r = await generate({
      prompt: 'Invite dental clinics to book a demo of our AI receptionist',
      goal: 'demo_booking',
      companyContext: {
        companyName: 'Smile Voice',
        address: '1 Main St, Springfield',
        brandColor: '#047857',
      },
    });
    expect(r.status, r.text).toBe(200);
    const c = r.json;
    expect(c).toMatchObject({
      provider: 'local',
      model: 'parley-local-writer',
      goal: 'demo_booking',
      fromName: 'Parley Team',
      fromEmail: 'team@parley.test',
      header: { kind: 'image', url: 'https://parley.test/email/headers/demo_booking.png' },
    });
    expect(c.name).toBe('AI Receptionist – Demo booking');
    expect(c.subject.length).toBeLessThan(50);
    expect(c.htmlContent).toContain('href="https://parley.test/book-demo?utm_source=email');
    expect(c.htmlContent).toContain('<img src="https://parley.test/email/headers/demo_booking.png"');
    // Merge fields with fallbacks for a contact without the value.
    expect(c.htmlContent).toContain('{{firstName|there}}');
    expect(c.htmlContent).toMatch(/\{\{company\|[a-z ]+\}\}/);
    expect(c.htmlContent).toContain('href="{{unsubscribeUrl}}"');
    expect(c.htmlContent).toContain('Smile Voice · 1 Main St, Springfield');
    expect(c.textContent).toContain('Book your demo: https://parley.test/book-demo?');
    expect(c.textContent).toContain('Unsubscribe: {{unsubscribeUrl}}');
  });

  it('uses the brand name of the settings without company context, and no image when asked', async () => {
    const r = await generate({
      prompt: 'Monthly newsletter about after-hours call coverage',
      goal: 'newsletter',
      includeImage: false,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.header).toEqual({ kind: 'none', url: null, note: expect.any(String) });
    expect(r.json.htmlContent).not.toContain('<img');
    expect(r.json.htmlContent).toContain('The Parley Voice team');
    expect(r.json.goal).toBe('newsletter');
  });

  it('reads free-text company context', async () => {
    const r = await generate({
      prompt: 'Our AI receptionist',
      goal: 'lead_generation',
      companyContext: 'Company: Acme Dental Voice\nAudience: orthodontists in Ohio\nTone: warm and friendly',
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.textContent).toContain('orthodontists in Ohio');
    expect(r.json.textContent).toContain('Cheers,\nThe Acme Dental Voice team');
  });

  it('answers the same campaign for the same input', async () => {
    const body = { prompt: 'Launch our voice agent with 20% off the first month', goal: 'product_launch' };
    const [a, b] = [await generate(body), await generate(body)];
    expect(a.json).toEqual(b.json);
    expect(a.json.htmlContent).toContain('20% off the first month');
  });

  it('gives a campaign the service saves and test-sends, with the unsubscribe link left untracked', async () => {
    const g = (await generate({ prompt: 'Our AI receptionist for clinics', goal: 'case_study' })).json;
    const saved = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: g.name,
        subject: g.subject,
        fromName: g.fromName,
        fromEmail: g.fromEmail,
        htmlContent: g.htmlContent,
        textContent: g.textContent,
      },
      admin,
    );
    expect(saved.status, saved.text).toBe(201);
    const sent = await t.call(
      'POST',
      '/api/admin/email/send-test',
      { campaignId: saved.json.id, testRecipients: 'qa@example.com', isTest: true },
      admin,
    );
    expect(sent.status, sent.text).toBe(200);
    const { rows } = await db.query<{ html: string; text: string }>(
      `SELECT "html", "text" FROM "mail_messages" WHERE "id" = $1`,
      [sent.json.id],
    );
    const html = rows[0]?.html ?? '';
    expect(html).toContain('Hi John,');
    expect(html).toContain('Acme Corp');
    expect(html).toMatch(/<a href="https:\/\/parley\.test\/api\/unsubscribe\/[^"]+" data-no-track/);
    expect(html).toMatch(/href="https:\/\/parley\.test\/api\/track\/click\/[^"]+use-cases/);
    // The composer found the admin's own unsubscribe link: no second footer.
    expect(html.match(/>Unsubscribe</g)).toHaveLength(1);
    expect(rows[0]?.text).toMatch(/Unsubscribe: https:\/\/parley\.test\/api\/unsubscribe\//);
  });
});

describe('POST /api/admin/email/optimize-content', () => {
  const content = {
    subject: 'Spring launch',
    htmlContent:
      '<p>Hello,</p><p>Customers cut missed calls by 40%.</p><p><a href="https://parley.test/book-demo">Learn more</a></p>',
  };

  it('is for signed-in admins only', async () => {
    expect((await optimize({ field: 'subject', goal: 'urgency', content }, {})).status).toBe(401);
  });

  it('rejects a field with no content, with the spec’s text', async () => {
    const subject = await optimize({
      field: 'subject',
      goal: 'urgency',
      content: { ...content, subject: ' ' },
    });
    expect(subject.status).toBe(400);
    expect(subject.json.message).toBe('Please add subject content first');
    const html = await optimize({ field: 'htmlContent', goal: 'clarity', content: '' });
    expect(html.status).toBe(400);
    expect(html.json.message).toBe('Please add HTML content first');
  });

  it('refuses an unknown goal or field', async () => {
    expect((await optimize({ field: 'subject', goal: 'virality', content })).status).toBe(400);
    expect((await optimize({ field: 'name', goal: 'urgency', content })).status).toBe(400);
  });

  it('rewrites the subject toward the goal and leaves the HTML as it was', async () => {
    const r = await optimize({ field: 'subject', goal: 'urgency', content });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      field: 'subject',
      goal: 'urgency',
      htmlContent: content.htmlContent,
      textContent: null,
      provider: 'local',
      model: 'parley-local-writer',
    });
    expect(r.json.subject).toMatch(/^Spring launch — ends (Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day$/);
    expect(r.json.changes[0]).toContain('a week from today');
  });

  it('rewrites the HTML, sanitised, with its text version, and leaves the subject as it was', async () => {
    const r = await optimize({
      field: 'htmlContent',
      goal: 'authority',
      content: {
        ...content,
        htmlContent: `${content.htmlContent}<script>alert(1)</script><img src="x" onerror="alert(2)">`,
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.subject).toBe('Spring launch');
    expect(r.json.htmlContent).toContain('class="parley-proof"');
    expect(r.json.htmlContent).toContain('— The Parley Voice team');
    expect(r.json.htmlContent).not.toMatch(/<script|onerror/);
    expect(r.json.changes.at(-1)).toMatch(/^Removed script/);
    expect(r.json.textContent).toContain('Customers cut missed calls by 40%.');
  });

  it('takes a plain string as the field’s content', async () => {
    const r = await optimize({ field: 'subject', goal: 'personalization', content: 'Spring launch' });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ subject: '{{firstName|Hi}}, spring launch', htmlContent: '' });
  });

  it('limits each admin to EMAIL_AI_RATE_LIMIT calls a minute, with Retry-After', async () => {
    const other = { 'x-parley-assertion': await signAssertion(t.secret, { adminId: 'a2', role: 'admin' }) };
    for (let i = 0; i < 20; i++)
      expect((await optimize({ field: 'subject', goal: 'clarity', content: 'Hi' }, other)).status).toBe(200);
    const limited = await optimize({ field: 'subject', goal: 'clarity', content: 'Hi' }, other);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another admin's budget is their own.
    expect((await optimize({ field: 'subject', goal: 'clarity', content: 'Hi' })).status).toBe(200);
  });
});
