import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import dns2 from 'dns2';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CampaignReportsRepository } from '../src/features/analytics/campaign-reports.repository.ts';
import { RollupsRepository } from '../src/features/analytics/rollups.repository.ts';
import { headersOf } from '../src/features/delivery/domain/mime.ts';
import { recordOutcome } from '../src/features/tracking/tracking.repository.ts';
import {
  type EmailUnderTest,
  type Received,
  type SmtpSink,
  startEmail,
  startSmtpSink,
} from './mail-peers.ts';

/**
 * Campaign analytics end to end on real PostgreSQL: two campaigns sent by the real sender to a
 * real SMTP server, opens (one by a privacy proxy), clicks and an unsubscribe through the real
 * tracking and unsubscribe routes with the URLs of the received mails, a bounce through the
 * tracking repository, then the exact figures of the four endpoints: all-time totals, the
 * 7-day and 30-day windows with their previous periods and changes, the daily trend, the
 * comparison, segments, the DNS authentication flags from a local DNS server (cached), the
 * engagement report with proxy opens apart, and the refusals (bad period, unknown campaign,
 * no session).
 */

let t: EmailUnderTest;
let smtp: SmtpSink;
let db: pg.Pool;
let dns: { close: () => Promise<void>; queries: () => number; port: number };

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
/** Apple Mail Privacy Protection's fetch: the bare User-Agent. */
const APPLE_MPP = 'Mozilla/5.0';
const DOMAIN = 'analytics.test';

/** A DNS server (UDP, 127.0.0.1) publishing SPF and DMARC for the from domain, no DKIM key. */
async function startDns() {
  const { Packet } = dns2;
  const zone = new Map<string, string>([
    [DOMAIN, 'v=spf1 ip4:192.0.2.0/24 -all'],
    [`_dmarc.${DOMAIN}`, 'v=DMARC1; p=quarantine'],
  ]);
  let queries = 0;
  const server = dns2.createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    for (const q of request.questions) {
      queries++;
      const txt = zone.get(q.name.toLowerCase());
      if (txt && q.type === Packet.TYPE.TXT)
        response.answers.push({
          name: q.name,
          type: Packet.TYPE.TXT,
          class: Packet.CLASS.IN,
          ttl: 0,
          data: txt,
        } as unknown as (typeof response.answers)[number]);
    }
    void send(response);
  });
  await server.listen(0, '127.0.0.1');
  return {
    port: (server.address() as AddressInfo).port,
    queries: () => queries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const until = async <T>(fn: () => Promise<T | null | undefined | false>, label: string, ms = 20_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 30));
  }
};

let admin: Record<string, string>;
const get = async (path: string) => t.call('GET', path, undefined, admin);

async function contact(bookId: number, email: string, first: string, last: string, company: string) {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name", "last_name", "company")
     VALUES ($1, $2, $3, $4, $5) RETURNING "id"`,
    [bookId, email, first, last, company],
  );
  return Number(rows[0]?.id);
}

async function sendCampaign(fields: Record<string, unknown>): Promise<number> {
  const c = await t.call(
    'POST',
    '/api/admin/email/campaigns',
    {
      fromName: 'Parley',
      fromEmail: `news@${DOMAIN}`,
      htmlContent:
        '<html><body><p>Hi {{firstName}}</p><a href="https://parley.test/offer">See the offer</a></body></html>',
      ...fields,
    },
    admin,
  );
  expect(c.status, c.text).toBe(201);
  const r = await t.call(
    'POST',
    `/api/admin/email/campaigns/${c.json.id}/send`,
    { confirmSend: true },
    admin,
  );
  expect(r.status, r.text).toBe(200);
  try {
    await until(
      async () => (await get(`/api/admin/email/campaigns/${c.json.id}`)).json?.status === 'sent',
      'campaign sent',
    );
  } catch (err) {
    // Say where the send stands: a failure under load is then readable from the CI log.
    const state = await db.query(
      `SELECT c."status" AS campaign, s."status" AS send, r."status" AS recipient, r."attempts", r."last_error",
              (SELECT "reason" FROM "email_send_blocks" WHERE "blocked_until" > now() LIMIT 1) AS block
       FROM "email_campaigns" c LEFT JOIN "email_campaign_sends" s ON s."campaign_id" = c."id"
       LEFT JOIN "email_campaign_recipients" r ON r."send_id" = s."id" WHERE c."id" = $1`,
      [c.json.id],
    );
    throw new Error(`${(err as Error).message}: ${JSON.stringify(state.rows)}`);
  }
  return c.json.id as number;
}

/** The tracking URLs of the mail `to` received with `subject`, as paths of the service. */
function linksOf(subject: string, to: string) {
  const m = smtp.received.find(
    (x: Received) => x.parsed.subject === subject && x.envelope.to[0]?.toLowerCase() === to,
  );
  if (!m) throw new Error(`no mail '${subject}' to ${to}`);
  const html = String(m.parsed.html);
  const path = (url: string) => new URL(url).pathname + new URL(url).search;
  const pixel = /<img src="(https:\/\/parley\.test\/api\/track\/open\/[^"]+)"/.exec(html)?.[1];
  const click = /href="(https:\/\/parley\.test\/api\/track\/click\/[^"]+)"/
    .exec(html)?.[1]
    ?.replace(/&amp;/g, '&');
  const unsub = /<(https:[^>]+)>/.exec(
    headersOf(m.raw).find((h) => h.name === 'List-Unsubscribe')?.value ?? '',
  )?.[1];
  if (!pixel || !click || !unsub) throw new Error('tracking links missing');
  const trackingId = /\/api\/track\/click\/([^?]+)/.exec(click)?.[1] as string;
  return { pixel: path(pixel), click: path(click), unsubscribe: path(unsub), trackingId };
}

const eventCount = async (campaignId: number) =>
  Number(
    (
      await db.query(
        `SELECT count(*) AS n FROM "email_events" e JOIN "email_tracking" t ON t."tracking_id" = e."tracking_id"
         WHERE t."campaign_id" = $1`,
        [String(campaignId)],
      )
    ).rows[0].n,
  );

/** Moves everything of a campaign `days` into the past, as if it had been sent then. */
async function backdate(campaignId: number, days: number) {
  const i = `${days} days`;
  const id = String(campaignId);
  await db.query(
    `UPDATE "email_events" SET "timestamp" = "timestamp" - $2::interval
     WHERE "tracking_id" IN (SELECT "tracking_id" FROM "email_tracking" WHERE "campaign_id" = $1)`,
    [id, i],
  );
  await db.query(
    `UPDATE "email_tracking" SET "sent_at" = "sent_at" - $2::interval, "opened_at" = "opened_at" - $2::interval,
       "last_opened_at" = "last_opened_at" - $2::interval, "clicked_at" = "clicked_at" - $2::interval,
       "last_clicked_at" = "last_clicked_at" - $2::interval, "bounced_at" = "bounced_at" - $2::interval,
       "unsubscribed_at" = "unsubscribed_at" - $2::interval
     WHERE "campaign_id" = $1`,
    [id, i],
  );
  await db.query(
    `UPDATE "email_campaign_recipients" SET "sent_at" = "sent_at" - $2::interval
     WHERE "send_id" IN (SELECT "id" FROM "email_campaign_sends" WHERE "campaign_id" = $1)`,
    [campaignId, i],
  );
  await db.query(
    `UPDATE "email_campaign_sends" SET "started_at" = "started_at" - $2::interval,
       "finished_at" = "finished_at" - $2::interval, "created_at" = "created_at" - $2::interval
     WHERE "campaign_id" = $1`,
    [campaignId, i],
  );
  await db.query(`UPDATE "email_campaigns" SET "sent_at" = "sent_at" - $2::interval WHERE "id" = $1`, [
    campaignId,
    i,
  ]);
}

/** The local (time zone `tz`) day of a campaign's first mail, as the trend labels it. */
const dayOf = async (campaignId: number, tz = 'UTC') =>
  (
    await db.query<{ d: string }>(
      `SELECT to_char((min("sent_at") AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS d FROM "email_tracking" WHERE "campaign_id" = $1`,
      [String(campaignId), tz],
    )
  ).rows[0]?.d as string;

let bookId: number;
let summer: number;
let autumn: number;
const addr = (name: string) => `${name}@readers.example`;

beforeAll(async () => {
  smtp = await startSmtpSink();
  dns = await startDns();
  t = await startEmail('email_analytics', {
    CAMPAIGN_TICK_MS: '100',
    CAMPAIGN_POLL_MS: '30',
    TRACKING_FLUSH_MS: '20',
    MAIL_FROM_EMAIL: `news@${DOMAIN}`,
    DKIM_SELECTOR: 'mail',
    DNS_SERVERS: `127.0.0.1:${dns.port}`,
  });
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 3 });
  admin = await t.admin();
  await t.setting('smtp_host', '127.0.0.1', 1);
  await t.setting('smtp_port', String(smtp.port), 1);
  await until(
    async () => (await db.query(`SELECT 1 FROM "mail_settings" WHERE "key" = 'smtp_port'`)).rowCount,
    'settings copy',
  );

  const book = await db.query<{ id: number }>(
    `INSERT INTO "address_books" ("name") VALUES ('Readers') RETURNING "id"`,
  );
  bookId = book.rows[0]?.id as number;
  const ada = await contact(bookId, addr('ada'), 'Ada', 'Lovelace', 'Analytical Engines');
  const grace = await contact(bookId, addr('grace'), 'Grace', 'Hopper', 'Navy');
  await contact(bookId, addr('alan'), 'Alan', 'Turing', 'Bletchley');
  await contact(bookId, addr('edsger'), 'Edsger', 'Dijkstra', 'Eindhoven');
  // A draft never sent: not a row of the analytics.
  await t.call(
    'POST',
    '/api/admin/email/campaigns',
    { name: 'Unsent draft', subject: 'Draft', fromName: 'Parley', fromEmail: `news@${DOMAIN}` },
    admin,
  );

  // "Summer news" to Ada and Grace; Ada opens it; then it is moved 10 days into the past.
  summer = await sendCampaign({ name: 'Summer news', subject: 'Summer news', targetContacts: [ada, grace] });
  await t.call('GET', linksOf('Summer news', addr('ada')).pixel, undefined, { 'user-agent': IPHONE });
  await until(async () => (await eventCount(summer)) === 1, 'summer open written');
  await backdate(summer, 10);

  // "Autumn news" to the whole book, now.
  autumn = await sendCampaign({ name: 'Autumn news', subject: 'Autumn news', targetAddressBooks: [bookId] });
  const a = linksOf('Autumn news', addr('ada'));
  const g = linksOf('Autumn news', addr('grace'));
  const al = linksOf('Autumn news', addr('alan'));
  const e = linksOf('Autumn news', addr('edsger'));
  const hit = async (path: string, ua: string, status: number) =>
    expect((await t.call('GET', path, undefined, { 'user-agent': ua })).status).toBe(status);
  await hit(a.pixel, IPHONE, 200);
  await hit(a.pixel, IPHONE, 200);
  await hit(a.click, IPHONE, 302);
  await hit(g.pixel, APPLE_MPP, 200);
  await hit(al.pixel, IPHONE, 200);
  await hit(al.click, IPHONE, 302);
  await hit(al.click, IPHONE, 302);
  const unsub = await t.call('POST', al.unsubscribe, 'List-Unsubscribe=One-Click', {
    'content-type': 'application/x-www-form-urlencoded',
  });
  expect(unsub.status, unsub.text).toBe(200);
  const client = await db.connect();
  try {
    await recordOutcome(client, {
      trackingId: e.trackingId,
      address: addr('edsger'),
      outcome: 'bounce',
      reason: '550 5.1.1 no such user',
      source: 'test-dsn',
    });
  } finally {
    client.release();
  }
  // 7 tracking hits + the unsubscribe + the bounce.
  await until(async () => (await eventCount(autumn)) === 9, 'autumn events written');
}, 90_000);

// Assertions live 60 s: a fresh one per test.
beforeEach(async () => {
  admin = await t.admin();
});

afterAll(async () => {
  await db?.end();
  await t?.stop();
  await smtp?.close();
  await dns?.close();
});

const AUTUMN = {
  sent: 4,
  delivered: 3,
  opens: 2,
  proxyOpens: 1,
  clicks: 2,
  bounces: 1,
  unsubscribes: 1,
  openRate: 50,
  clickRate: 50,
  bounceRate: 25,
};
const SUMMER = {
  sent: 2,
  delivered: 2,
  opens: 1,
  proxyOpens: 0,
  clicks: 0,
  bounces: 0,
  unsubscribes: 0,
  openRate: 50,
  clickRate: 0,
  bounceRate: 0,
};

describe('GET /api/admin/email/analytics', () => {
  it('totals every campaign mail, human opens apart from proxy opens, launched campaigns only', async () => {
    const r = await get('/api/admin/email/analytics');
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.json).toMatchObject({
      totalSent: 6,
      totalDelivered: 5,
      totalOpened: 3,
      totalProxyOpened: 1,
      totalClicked: 2,
      totalBounced: 1,
      totalUnsubscribed: 1,
      openRate: 50,
      clickRate: 33.3,
      bounceRate: 16.7,
      engagementRate: 60,
    });
    expect(r.json.campaigns).toEqual([
      expect.objectContaining({
        id: autumn,
        name: 'Autumn news',
        kind: 'campaign',
        status: 'sent',
        recipients: 4,
        ...AUTUMN,
      }),
      expect.objectContaining({
        id: summer,
        name: 'Summer news',
        kind: 'campaign',
        status: 'sent',
        recipients: 2,
        ...SUMMER,
      }),
    ]);
  });
});

describe('GET /api/admin/email/advanced-analytics', () => {
  it('7d: the mails sent this week against the week before, with changes and a daily trend', async () => {
    const r = await get('/api/admin/email/advanced-analytics?period=7d');
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const a = r.json;
    expect(a).toMatchObject({ period: '7d', timeZone: 'UTC', bucket: 'day', previousTo: a.from });
    // The previous window is as long, rounded out to the quarter-hour (the rollups' step).
    const span = Date.parse(a.to) - Date.parse(a.from);
    const previousSpan = Date.parse(a.previousTo) - Date.parse(a.previousFrom);
    expect(previousSpan).toBeGreaterThanOrEqual(span);
    expect(previousSpan - span).toBeLessThan(15 * 60_000);
    expect(Date.parse(a.previousFrom) % (15 * 60_000)).toBe(0);
    expect(a.campaignPerformance).toEqual({
      totalSent: 4,
      totalDelivered: 3,
      totalOpened: 2,
      totalProxyOpened: 1,
      totalClicked: 2,
      totalBounced: 1,
      totalUnsubscribed: 1,
      totalComplained: 0,
      totalEngaged: 2,
      openRate: 50,
      clickRate: 50,
      bounceRate: 25,
      unsubscribeRate: 25,
      engagementRate: 66.7,
    });
    expect(a.engagementRate).toBe(66.7);
    expect(a.previousPerformance).toMatchObject({
      totalSent: 2,
      totalDelivered: 2,
      totalOpened: 1,
      totalClicked: 0,
      openRate: 50,
      engagementRate: 50,
    });
    expect(a.changes).toEqual({
      sent: { current: 4, previous: 2, change: 100 },
      delivered: { current: 3, previous: 2, change: 50 },
      opened: { current: 2, previous: 1, change: 100 },
      clicked: { current: 2, previous: 0, change: null },
      bounced: { current: 1, previous: 0, change: null },
      unsubscribed: { current: 1, previous: 0, change: null },
      openRate: { current: 50, previous: 50, change: 0, pointChange: 0 },
      clickRate: { current: 50, previous: 0, change: null, pointChange: 50 },
      bounceRate: { current: 25, previous: 0, change: null, pointChange: 25 },
      unsubscribeRate: { current: 25, previous: 0, change: null, pointChange: 25 },
      engagementRate: { current: 66.7, previous: 50, change: 33.3, pointChange: 16.7 },
    });
    // Seven days, every one present; everything happened on the day Autumn news went out.
    expect(a.trend).toHaveLength(7);
    const today = await dayOf(autumn);
    expect(a.trend.at(-1).date).toBe(today);
    const zero = { sent: 0, opens: 0, proxyOpens: 0, clicks: 0, bounces: 0, unsubscribes: 0 };
    for (const p of a.trend)
      expect(p).toEqual(
        p.date === today
          ? { date: today, sent: 4, opens: 2, proxyOpens: 1, clicks: 2, bounces: 1, unsubscribes: 1 }
          : { date: p.date, ...zero },
      );
    expect(a.topPerformingCampaigns).toEqual([
      {
        id: autumn,
        name: 'Autumn news',
        kind: 'campaign',
        sent: 4,
        openRate: 50,
        clickRate: 50,
        engagementRate: 66.7,
        revenue: 0,
      },
    ]);
    expect(a.revenueTracked).toBe(false);
  });

  it('30d: both campaigns in the window, nothing before it (no base: changes are null)', async () => {
    const a = (await get('/api/admin/email/advanced-analytics?period=30d')).json;
    expect(a.trend).toHaveLength(30);
    expect(a.campaignPerformance).toMatchObject({
      totalSent: 6,
      totalDelivered: 5,
      totalOpened: 3,
      totalProxyOpened: 1,
      totalClicked: 2,
      totalEngaged: 3,
      openRate: 50,
      clickRate: 33.3,
      engagementRate: 60,
    });
    expect(a.previousPerformance.totalSent).toBe(0);
    expect(a.changes.sent).toEqual({ current: 6, previous: 0, change: null });
    expect(a.changes.openRate).toEqual({ current: 50, previous: 0, change: null, pointChange: null });
    const summerDay = await dayOf(summer);
    const point = (d: string) => a.trend.find((p: { date: string }) => p.date === d);
    expect(point(summerDay)).toMatchObject({ sent: 2, opens: 1, clicks: 0 });
    expect(point(await dayOf(autumn))).toMatchObject({ sent: 4, opens: 2, clicks: 2 });
    const sum = (k: string) => a.trend.reduce((n: number, p: Record<string, number>) => n + (p[k] ?? 0), 0);
    expect([sum('sent'), sum('opens'), sum('bounces'), sum('unsubscribes')]).toEqual([6, 3, 1, 1]);
    // Top campaigns by click rate, then open rate.
    expect(a.topPerformingCampaigns.map((c: { id: number }) => c.id)).toEqual([autumn, summer]);
    // Segments are address books: Readers got all six mails; the default book none.
    expect(a.audienceInsights).toMatchObject({
      totalContacts: 4,
      activeSubscribers: 3,
      segmentBy: 'addressBook',
    });
    expect(a.audienceInsights.segmentPerformance[0]).toEqual({
      segment: 'Readers',
      addressBookId: bookId,
      size: 4,
      activeContacts: 3,
      sent: 6,
      engagement: 60,
    });
    expect(a.audienceInsights.segmentPerformance[1]).toMatchObject({ sent: 0, engagement: null });
  });

  it('1y: 52 weekly buckets; the day buckets follow the asked time zone', async () => {
    const y = (await get('/api/admin/email/advanced-analytics?period=1y')).json;
    expect(y).toMatchObject({ period: '1y', bucket: 'week' });
    expect(y.trend).toHaveLength(52);
    expect(y.trend.reduce((n: number, p: { sent: number }) => n + p.sent, 0)).toBe(6);
    const tz = 'Pacific/Kiritimati';
    const k = (await get(`/api/admin/email/advanced-analytics?period=7d&tz=${encodeURIComponent(tz)}`)).json;
    expect(k.timeZone).toBe(tz);
    expect(k.trend.find((p: { sent: number }) => p.sent > 0)?.date).toBe(await dayOf(autumn, tz));
  });

  it('authentication flags from real DNS (cached), the other health values labelled defaults', async () => {
    const before = dns.queries();
    const h = (await get('/api/admin/email/advanced-analytics?period=90d')).json.deliverabilityHealth;
    expect(h.authenticationStatus).toMatchObject({
      spf: true,
      dkim: false,
      dmarc: true,
      domain: DOMAIN,
      selector: 'mail',
      checked: true,
      note: null,
    });
    expect(h).toMatchObject({
      reputation: 85,
      spamScore: 2.3,
      blacklistStatus: 'Clean',
      defaults: {
        measured: false,
        source: 'default',
        fields: ['reputation', 'spamScore', 'blacklistStatus'],
      },
      bounceRate: 16.7,
      complaintRate: 0,
    });
    // Earlier calls of this suite looked the domain up already: the answer came from the cache.
    expect(dns.queries()).toBe(before);
  });

  it('refuses an unknown period or time zone with a clear message', async () => {
    for (const path of ['advanced-analytics', 'campaign-comparison']) {
      const r = await get(`/api/admin/email/${path}?period=5d`);
      expect(r.status).toBe(400);
      expect(r.json.message).toBe("Invalid period '5d': choose one of 7d, 30d, 90d, 1y");
    }
    const tz = await get('/api/admin/email/advanced-analytics?period=7d&tz=Mars%2FOlympus');
    expect(tz.status).toBe(400);
    expect(tz.json.message).toMatch(/^Invalid time zone 'Mars\/Olympus'/);
  });
});

describe('GET /api/admin/email/campaign-comparison', () => {
  it('lists the campaigns that sent mail in the window side by side, newest first', async () => {
    const week = (await get('/api/admin/email/campaign-comparison?period=7d')).json;
    expect(week.campaigns).toEqual([
      expect.objectContaining({
        id: autumn,
        name: 'Autumn news',
        kind: 'campaign',
        status: 'sent',
        ...AUTUMN,
        unsubscribeRate: 25,
        engagementRate: 66.7,
      }),
    ]);
    expect(week.totals.totalSent).toBe(4);
    expect(week.truncated).toBe(false);
    const month = (await get('/api/admin/email/campaign-comparison?period=30d')).json;
    expect(month.campaigns.map((c: { id: number }) => c.id)).toEqual([autumn, summer]);
    expect(month.campaigns[1]).toMatchObject({ ...SUMMER, unsubscribeRate: 0, engagementRate: 50 });
    expect(Date.parse(month.campaigns[1].sentAt)).toBeLessThan(Date.now() - 9 * 86_400_000);
  });
});

describe('GET /api/admin/email/campaigns/{id}/engagement-report', () => {
  it('lists openers and clickers by contact, proxy opens apart, with the summary', async () => {
    const r = await get(`/api/admin/email/campaigns/${autumn}/engagement-report`);
    expect(r.status, r.text).toBe(200);
    const report = r.json.engagementReport;
    expect(r.json.success).toBe(true);
    expect(report.summary).toEqual({
      totalSent: 4,
      totalDelivered: 3,
      totalOpened: 2,
      totalProxyOpened: 1,
      totalClicked: 2,
      totalBounced: 1,
      totalUnsubscribed: 1,
      openRate: 50,
      clickRate: 50,
    });
    const byEmail = (a: { contactEmail: string }, b: { contactEmail: string }) =>
      a.contactEmail.localeCompare(b.contactEmail);
    expect([...report.opens].sort(byEmail)).toEqual([
      expect.objectContaining({
        firstName: 'Ada',
        lastName: 'Lovelace',
        contactEmail: addr('ada'),
        company: 'Analytical Engines',
        openCount: 2,
        proxy: false,
        deviceType: 'mobile',
      }),
      expect.objectContaining({ firstName: 'Alan', contactEmail: addr('alan'), openCount: 1, proxy: false }),
    ]);
    expect(report.proxyOpens).toEqual([
      expect.objectContaining({
        firstName: 'Grace',
        contactEmail: addr('grace'),
        proxy: true,
        proxyName: 'apple-mpp',
        openCount: 1,
      }),
    ]);
    expect([...report.clicks].sort(byEmail)).toEqual([
      expect.objectContaining({
        contactEmail: addr('ada'),
        clickCount: 1,
        lastClickUrl: 'https://parley.test/offer',
      }),
      expect.objectContaining({ contactEmail: addr('alan'), clickCount: 2, company: 'Bletchley' }),
    ]);
    for (const o of report.opens) expect(Number.isNaN(Date.parse(o.openedAt))).toBe(false);
    expect(report.truncated).toEqual({ opens: false, proxyOpens: false, clicks: false });
  });

  it('bounds the lists and says so', async () => {
    const r = await new CampaignReportsRepository(db).engagement(autumn, 1);
    expect(r.opens).toHaveLength(1);
    expect(r.clicks).toHaveLength(1);
    expect(r.truncated).toEqual({ opens: true, proxyOpens: false, clicks: true });
    expect(r.counts.opened).toBe(2);
  });

  it('404 for an unknown campaign, 400 for a bad id', async () => {
    const r = await get('/api/admin/email/campaigns/999999/engagement-report');
    expect(r.status).toBe(404);
    expect(r.json.message).toBe('Campaign not found');
    expect((await get('/api/admin/email/campaigns/abc/engagement-report')).status).toBe(400);
  });
});

describe('admin only', () => {
  it('answers 401 without a session', async () => {
    for (const path of [
      '/api/admin/email/analytics',
      '/api/admin/email/advanced-analytics?period=7d',
      '/api/admin/email/campaign-comparison?period=7d',
      `/api/admin/email/campaigns/${autumn}/engagement-report`,
    ]) {
      const r = await t.call('GET', path);
      expect(r.status, path).toBe(401);
    }
  });
});

describe('rollups (ADR 0067)', () => {
  /** Every key's sums in both rollups (keys that sum to nothing left out), in key order. */
  const snapshot = async () => {
    const mail = await db.query(
      `SELECT "campaign_id", "test_mode", "address_book_id", "quarter", sum("sent")::int AS sent,
              sum("bounced")::int AS bounced, sum("opened")::int AS opened, sum("proxy_only")::int AS proxy_only,
              sum("clicked")::int AS clicked, sum("engaged")::int AS engaged,
              sum("engaged_delivered")::int AS engaged_delivered, sum("unsubscribed")::int AS unsubscribed,
              sum("complained")::int AS complained, sum("unsent_bounced")::int AS unsent_bounced,
              sum("failed")::int AS failed
       FROM "email_rollup_mail" GROUP BY 1, 2, 3, 4
       HAVING (sum("sent"), sum("bounced"), sum("opened"), sum("proxy_only"), sum("clicked"), sum("engaged"),
               sum("engaged_delivered"), sum("unsubscribed"), sum("complained"), sum("unsent_bounced"), sum("failed"))
              <> (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
       ORDER BY 1, 2, 3, 4`,
    );
    const activity = await db.query(
      `SELECT "campaign_id", "test_mode", "quarter", sum("opens")::int AS opens, sum("proxy_opens")::int AS proxy_opens,
              sum("clicks")::int AS clicks, sum("bounces")::int AS bounces, sum("unsubscribes")::int AS unsubscribes
       FROM "email_rollup_activity" GROUP BY 1, 2, 3
       HAVING (sum("opens"), sum("proxy_opens"), sum("clicks"), sum("bounces"), sum("unsubscribes")) <> (0, 0, 0, 0, 0)
       ORDER BY 1, 2, 3`,
    );
    return { mail: mail.rows, activity: activity.rows };
  };

  it('keeps what the raw rows give: compaction and the rebuild command change no figure', async () => {
    const kept = await snapshot();
    // Autumn news to Readers: 4 sent (one bounced), 2 opened, 2 clicked, 1 unsubscribed.
    const autumnMail = kept.mail.filter((r) => r.campaign_id === autumn);
    expect(autumnMail.reduce((n, r) => n + r.sent, 0)).toBe(4);
    expect(autumnMail.every((r) => r.address_book_id === bookId)).toBe(true);
    expect(kept.activity.filter((r) => r.campaign_id === autumn).reduce((n, r) => n + r.opens, 0)).toBe(2);

    await new RollupsRepository(db).compact();
    const unfolded = await db.query(
      `SELECT (SELECT count(*) FROM "email_rollup_mail" WHERE NOT "folded")::int
            + (SELECT count(*) FROM "email_rollup_activity" WHERE NOT "folded")::int AS n`,
    );
    expect(unfolded.rows[0]?.n).toBe(0);
    expect(await snapshot()).toEqual(kept);

    // The operator's command, as a Kubernetes Job or a shell would run it.
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'rollups', 'rebuild'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'info' },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toContain('analytics rollups rebuilt');
    expect(await snapshot()).toEqual(kept);
  });

  it('counts a mail once per kind in the trend, in the bucket of its first time', async () => {
    // Grace, whose Autumn mail only a proxy had fetched, opens it herself, twice.
    const g = linksOf('Autumn news', addr('grace'));
    const before = (await get('/api/admin/email/advanced-analytics?period=7d')).json;
    const dayTotals = (a: { trend: Array<Record<string, number>> }, k: string) =>
      a.trend.reduce((n, p) => n + (p[k] ?? 0), 0);
    await t.call('GET', g.pixel, undefined, { 'user-agent': IPHONE });
    await t.call('GET', g.pixel, undefined, { 'user-agent': IPHONE });
    await until(async () => (await eventCount(autumn)) === 11, 'grace opens written');
    const after = (await get('/api/admin/email/advanced-analytics?period=7d')).json;
    expect(dayTotals(after, 'opens')).toBe(dayTotals(before, 'opens') + 1);
    expect(dayTotals(after, 'proxyOpens')).toBe(dayTotals(before, 'proxyOpens'));
    // Now a human open, no longer proxy-only: the totals move at once (no refresh to wait for).
    expect(after.campaignPerformance.totalOpened).toBe(before.campaignPerformance.totalOpened + 1);
    expect(after.campaignPerformance.totalProxyOpened).toBe(before.campaignPerformance.totalProxyOpened - 1);
  });
});
