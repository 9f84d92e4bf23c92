import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { inTransaction } from '@parley/kit';
import { Packet, UDPServer } from 'dns2';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { suppressAddress } from '../src/features/audience/suppressions.repository.ts';
import { checkMailDomain } from '../src/features/deliverability/dns.ts';
import { recordOutcome } from '../src/features/tracking/tracking.repository.ts';
import { TokenSigner } from '../src/shared/tokens.ts';
import { type EmailUnderTest, startEmail } from './mail-peers.ts';

/**
 * The Deliverability tab on the real service: the DNS check against a real DNS server (dns2,
 * UDP on loopback) that publishes SPF, DKIM, DMARC and MX for good.test and nothing for
 * bare.test, drops every query for silent.test and fails those for broken.test; and the
 * score, counts, stats and recommendations from a real campaign sent by the service's own
 * sender, with bounces, a complaint, unsubscribes (through the real route) and opens.
 */

// ── the DNS peer ──

const DKIM_KEY =
  'MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDGp7oYQ8bW0s8h1y7nZr0y2Z9bJ6fB2c8bQ8r5V1w4dQ3l2Yf6xH5q8hC3oG1kLr7o' +
  'Yc0qE3nX2u6yS4xw9v8bQ0aU7nR2zF5m1c4pT6e8yJ0dK3w5qL7hN2gV9sB4rX1tZ6yC8uE3iO5aP7kM2nQ4wR6tY8vD0fG1hAwIDAQAB';

type Zone = Record<string, { TXT?: string[][]; MX?: { exchange: string; priority: number }[] }>;
const ZONE: Zone = {
  'good.test': {
    TXT: [['v=spf1 include:_spf.good.test ~all'], ['site-verification=abc123']],
    MX: [
      { exchange: 'mx2.good.test', priority: 20 },
      { exchange: 'mx1.good.test', priority: 10 },
    ],
  },
  // A long key in two character strings, as DNS carries anything over 255 bytes.
  'default._domainkey.good.test': { TXT: [['v=DKIM1; k=rsa; p=', DKIM_KEY]] },
  '_dmarc.good.test': { TXT: [['v=DMARC1; p=reject; rua=mailto:dmarc@good.test']] },
  'news.good.test': {},
  'dup.test': {
    TXT: [['v=spf1 mx ~all'], ['v=spf1 include:other.test -all']],
    MX: [{ exchange: '.', priority: 0 }],
  },
  'default._domainkey.dup.test': { TXT: [['v=DKIM1; k=rsa; p=']] },
};

/** RFC 1035 §4.1.1 response codes (dns2 has them at runtime, not in its types). */
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 } as const;

interface DnsPeer {
  port: number;
  queries: string[];
  close(): Promise<void>;
}

async function startDnsPeer(): Promise<DnsPeer> {
  const queries: string[] = [];
  const server = new UDPServer((request, send) => {
    const [q] = request.questions;
    if (!q) return;
    const name = q.name.toLowerCase();
    const type = q.type === Packet.TYPE.TXT ? 'TXT' : q.type === Packet.TYPE.MX ? 'MX' : 'OTHER';
    queries.push(`${type} ${name}`);
    // silent.test: a name server that never answers.
    if (name === 'silent.test' || name.endsWith('.silent.test')) return;
    const response = Packet.createResponseFromRequest(request);
    if (name === 'broken.test' || name.endsWith('.broken.test')) {
      response.header.rcode = RCODE.SERVFAIL;
      void send(response);
      return;
    }
    const node = ZONE[name];
    if (!node) response.header.rcode = RCODE.NXDOMAIN;
    else if (type === 'TXT')
      for (const data of node.TXT ?? [])
        response.answers.push(Packet.createResourceFromQuestion(q, { ttl: 60, data }));
    else if (type === 'MX')
      for (const mx of node.MX ?? [])
        response.answers.push(Packet.createResourceFromQuestion(q, { ttl: 60, ...mx }));
    void send(response);
  });
  await server.listen(0, '127.0.0.1');
  return {
    port: (server.address() as AddressInfo).port,
    queries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// ── the service ──

const TIMEOUT_MS = 600;
let dns: DnsPeer;
let t: EmailUnderTest;
let db: pg.Pool;
let admin: Record<string, string>;
let signer: TokenSigner;

const until = async <T>(fn: () => Promise<T | null | undefined | false>, label: string, ms = 20_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

beforeAll(async () => {
  dns = await startDnsPeer();
  t = await startEmail('email_deliverability', {
    DNS_SERVERS: `127.0.0.1:${dns.port}`,
    DNS_TIMEOUT_MS: String(TIMEOUT_MS),
    MAIL_FROM_EMAIL: 'news@good.test',
    CAMPAIGN_TICK_MS: '100',
    CAMPAIGN_POLL_MS: '30',
    TRACKING_FLUSH_MS: '20',
  });
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 3 });
  signer = new TokenSigner(t.signingSecret);
}, 60_000);

beforeEach(async () => {
  admin = await t.admin();
});

afterAll(async () => {
  await db?.end();
  await t?.stop();
  await dns?.close();
});

const dnsCheck = async (domain?: string) => {
  const r = await t.call(
    'GET',
    `/api/admin/email/dns-check${domain ? `?domain=${domain}` : ''}`,
    undefined,
    admin,
  );
  expect(r.status, r.text).toBe(200);
  return r.json;
};
// biome-ignore lint/suspicious/noExplicitAny: a loose JSON answer
const byKey = (checks: any[], key: string) => checks.find((c) => c.key === key);

describe('DNS check', () => {
  it('is for admins only', async () => {
    expect((await t.call('GET', '/api/admin/email/dns-check')).status).toBe(401);
    expect((await t.call('GET', '/api/admin/email/deliverability')).status).toBe(401);
  });

  it("finds SPF, DKIM, DMARC and MX of the sender's domain on the configured name server", async () => {
    const r = await t.call('GET', '/api/admin/email/dns-check', undefined, admin);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const c = r.json;
    expect(c).toMatchObject({
      spf: true,
      dkim: true,
      dmarc: true,
      mx: true,
      domain: 'good.test',
      fromAddress: 'news@good.test',
      selector: 'default',
      errors: {},
      nameServers: [`127.0.0.1:${dns.port}`],
    });
    expect(c.records).toEqual({
      spf: 'v=spf1 include:_spf.good.test ~all',
      dkim: `v=DKIM1; k=rsa; p=${DKIM_KEY}`,
      dmarc: 'v=DMARC1; p=reject; rua=mailto:dmarc@good.test',
      mx: ['mx1.good.test', 'mx2.good.test'],
    });
    expect(c.checks.map((x: { key: string; status: string }) => `${x.key}:${x.status}`)).toEqual([
      'spf:pass',
      'dkim:pass',
      'dmarc:pass',
      'mx:pass',
    ]);
    expect(byKey(c.checks, 'dkim').name).toBe('default._domainkey.good.test');
    // The lookups went to the peer, not to the system's resolver.
    expect(dns.queries).toEqual(
      expect.arrayContaining([
        'TXT good.test',
        'TXT default._domainkey.good.test',
        'TXT _dmarc.good.test',
        'MX good.test',
      ]),
    );
  });

  it('answers false with the records to publish for a domain that publishes nothing', async () => {
    const c = await dnsCheck('bare.test');
    expect(c).toMatchObject({
      spf: false,
      dkim: false,
      dmarc: false,
      mx: false,
      domain: 'bare.test',
      errors: {},
    });
    expect(c.fromAddress).toBeNull();
    expect(c.checks.map((x: { status: string }) => x.status)).toEqual([
      'missing',
      'missing',
      'missing',
      'missing',
    ]);
    // Mail leaves through the local mailbox here: the generic SPF suggestion.
    expect(byKey(c.checks, 'spf').suggestion).toEqual({
      type: 'TXT',
      name: 'bare.test',
      value: 'v=spf1 mx ~all',
    });
    expect(byKey(c.checks, 'dmarc').suggestion).toEqual({
      type: 'TXT',
      name: '_dmarc.bare.test',
      value: 'v=DMARC1; p=none; rua=mailto:dmarc-reports@bare.test',
    });
    expect(byKey(c.checks, 'dkim').advice).toContain('default._domainkey.bare.test');
  });

  it("applies the parent's DMARC policy to a subdomain", async () => {
    const c = await dnsCheck('news.good.test');
    expect(c).toMatchObject({ spf: false, dkim: false, dmarc: true, mx: false });
    expect(c.records.dmarc).toBe('v=DMARC1; p=reject; rua=mailto:dmarc@good.test');
    expect(byKey(c.checks, 'dmarc')).toMatchObject({ status: 'pass', name: '_dmarc.good.test' });
    expect(byKey(c.checks, 'dmarc').advice).toContain('the policy of good.test applies to news.good.test');
  });

  it('does not count two SPF records, a revoked DKIM key or a null MX', async () => {
    const c = await dnsCheck('dup.test');
    expect(c).toMatchObject({ spf: false, dkim: false, mx: false, errors: {} });
    expect(byKey(c.checks, 'spf')).toMatchObject({ status: 'invalid' });
    expect(byKey(c.checks, 'spf').found).toHaveLength(2);
    expect(byKey(c.checks, 'spf').advice).toContain('2 SPF records');
    expect(byKey(c.checks, 'dkim')).toMatchObject({ status: 'invalid' });
    expect(byKey(c.checks, 'dkim').advice).toContain('revoked');
    expect(byKey(c.checks, 'mx')).toMatchObject({ status: 'invalid' });
  });

  it('answers within the time budget with errors when the name server does not answer', async () => {
    const started = Date.now();
    const c = await dnsCheck('silent.test');
    const took = Date.now() - started;
    expect(c).toMatchObject({ spf: false, dkim: false, dmarc: false, mx: false });
    expect(Object.keys(c.errors).sort()).toEqual(['dkim', 'dmarc', 'mx', 'spf']);
    expect(c.errors.spf).toBe(`TXT silent.test: no answer within ${TIMEOUT_MS} ms`);
    expect(c.checks.map((x: { status: string }) => x.status)).toEqual(['error', 'error', 'error', 'error']);
    // Bounded by the budget (plus the request's own overhead), not by c-ares' growing retries
    // (without the budget's cancel, these lookups take over three times as long).
    expect(c.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(took).toBeLessThan(2 * TIMEOUT_MS + 200);
  });

  it('tells a failing name server from an absent record', async () => {
    const c = await dnsCheck('broken.test');
    expect(c.spf).toBe(false);
    expect(c.errors.spf).toBe('TXT broken.test: the name server failed to answer (SERVFAIL)');
    expect(c.errors.mx).toContain('SERVFAIL');
  });

  it('refuses a domain that is not one', async () => {
    for (const bad of ['not_a..domain', 'localhost', '-x.test', `${'a'.repeat(64)}.test`]) {
      const r = await t.call('GET', `/api/admin/email/dns-check?domain=${bad}`, undefined, admin);
      expect(r.status, bad).toBe(400);
      expect(r.json.message).toBe('domain must be a domain name such as example.com');
    }
  });

  it('checkMailDomain gives up on a server that never answers within its budget', async () => {
    const mute = dgram.createSocket('udp4');
    mute.on('message', () => {});
    await new Promise<void>((resolve) => mute.bind(0, '127.0.0.1', resolve));
    try {
      const port = (mute.address() as AddressInfo).port;
      const started = Date.now();
      const c = await checkMailDomain('example.com', 'default', {
        servers: [`127.0.0.1:${port}`],
        timeoutMs: 400,
      });
      const took = Date.now() - started;
      expect([c.spf, c.dkim, c.dmarc, c.mx]).toEqual([false, false, false, false]);
      expect(Object.keys(c.errors).sort()).toEqual(['dkim', 'dmarc', 'mx', 'spf']);
      expect(took).toBeGreaterThanOrEqual(390);
      expect(took).toBeLessThan(2 * 400 + 200);
    } finally {
      mute.close();
    }
  });
});

// ── deliverability from real sends ──

async function contacts(bookId: number, n: number, status: string, prefix: string) {
  await db.query(
    `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name", "status")
     SELECT $1, $3 || i || '@example.com', 'Reader ' || i, $2::"ContactStatus" FROM generate_series(1, $4) AS i`,
    [bookId, status, prefix, n],
  );
}

const report = async () => {
  const r = await t.call('GET', '/api/admin/email/deliverability', undefined, admin);
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get('cache-control')).toBe('no-store');
  return r.json;
};
// biome-ignore lint/suspicious/noExplicitAny: a loose JSON answer
const codes = (r: any) => r.recommendationDetails.map((x: { code: string }) => x.code);

/** What the bounce and complaint notifications record (Mailer.recordBounce, the SES route): suppression + outcome. */
async function notify(trackingId: string, address: string, kind: 'bounce' | 'complaint') {
  await suppressAddress(db, address, kind === 'bounce' ? 'bounced' : 'complained', `test-${kind}`);
  await inTransaction(db, (client) =>
    recordOutcome(client, {
      trackingId,
      address,
      outcome: kind,
      reason: kind === 'bounce' ? '550 5.1.1 user unknown' : 'abuse report',
      source: 'test',
    }),
  );
}

describe('deliverability', () => {
  let campaignId: number;
  let sent: { tracking_id: string; email: string }[];

  it('has no score before anything is sent, and says so', async () => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "address_books" ("name") VALUES ('Customers') RETURNING "id"`,
    );
    const bookId = rows[0]?.id as number;
    await contacts(bookId, 200, 'active', 'reader');
    await contacts(bookId, 5, 'unsubscribed', 'gone');
    await contacts(bookId, 3, 'bounced', 'dead');
    const r = await report();
    expect(r).toMatchObject({
      deliverabilityScore: null,
      scoreLabel: null,
      measured: false,
      basis: 'Nothing has been sent yet: the score is measured from real sends.',
      windowDays: 90,
      totalContacts: 208,
      activeContacts: 200,
      unsubscribedContacts: 5,
      bouncedContacts: 3,
      overallStats: {
        totalSent: 0,
        totalDelivered: 0,
        totalOpened: 0,
        totalClicked: 0,
        totalBounced: 0,
        totalUnsubscribed: 0,
        totalComplained: 0,
        totalFailed: 0,
      },
    });
    // The sender's domain publishes everything: nothing to say about DNS, only that nothing was sent.
    expect(r.authentication).toEqual([
      expect.objectContaining({ domain: 'good.test', spf: true, dkim: true }),
    ]);
    expect(codes(r)).toEqual(['no_sends']);
    expect(r.recommendations[0]).toContain('No campaign has been sent yet');

    // A campaign from another domain, sent live through the service's sender (local mailbox).
    const created = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Autumn news',
        subject: 'News for {{firstName}}',
        fromName: 'Parley',
        fromEmail: 'news@bare.test',
        htmlContent: '<p>Hello {{firstName}}</p><a href="https://parley.test/offer">Offer</a>',
        targetAddressBooks: [bookId],
      },
      admin,
    );
    expect(created.status, created.text).toBe(201);
    campaignId = created.json.id;
    const launched = await t.call(
      'POST',
      `/api/admin/email/campaigns/${campaignId}/send`,
      { confirmSend: true },
      admin,
    );
    expect(launched.status, launched.text).toBe(200);
    expect(launched.json.recipients).toBe(200);
    await until(async () => {
      const c = await t.call('GET', `/api/admin/email/campaigns/${campaignId}`, undefined, admin);
      return c.json.status === 'sent';
    }, 'campaign sent');
    sent = (
      await db.query<{ tracking_id: string; email: string }>(
        `SELECT "tracking_id", "email" FROM "email_tracking" WHERE "campaign_id" = $1 ORDER BY "email"`,
        [String(campaignId)],
      )
    ).rows;
    expect(sent).toHaveLength(200);
  });

  it('measures the score from real bounces and unsubscribes, with counts and stats', async () => {
    const [b1, b2, u1, u2, ...rest] = sent;
    await notify(b1!.tracking_id, b1!.email, 'bounce');
    await notify(b2!.tracking_id, b2!.email, 'bounce');
    for (const u of [u1!, u2!]) {
      const r = await t.call(
        'POST',
        `/api/unsubscribe/${signer.sign('unsubscribe', u.tracking_id)}`,
        'List-Unsubscribe=One-Click',
        { 'content-type': 'application/x-www-form-urlencoded' },
      );
      expect(r.status, r.text).toBe(200);
    }
    // Five people open (through the real pixel route); a privacy proxy's fetch is not a person.
    for (const o of rest.slice(0, 5)) {
      const r = await t.call('GET', `/api/track/open/${signer.sign('open', o.tracking_id)}.gif`, undefined, {
        'user-agent':
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36',
      });
      expect(r.status).toBe(200);
    }
    const r = await until(async () => {
      const x = await report();
      return x.overallStats.totalOpened === 5 ? x : null;
    }, 'opens written');

    // bounce 2/200 = 1 % → 5 points; unsubscribe 2/198 = 1.0101 % → (10 + 20 · 0.5101 / 1.5) / 2 = 8.40;
    // 100 − 13.40 = 86.6 → 87.
    expect(r).toMatchObject({
      deliverabilityScore: 87,
      scoreLabel: 'Good',
      measured: true,
      basis: 'Measured on 200 live campaign mails sent in the last 90 days.',
      rates: {
        sent: 200,
        delivered: 198,
        bounced: 2,
        complained: 0,
        unsubscribed: 2,
        bounceRate: 1,
        complaintRate: 0,
        unsubscribeRate: 1.01,
      },
      totalContacts: 208,
      activeContacts: 196,
      unsubscribedContacts: 7,
      bouncedContacts: 5,
      overallStats: {
        totalSent: 200,
        totalDelivered: 198,
        totalOpened: 5,
        totalClicked: 0,
        totalBounced: 2,
        totalUnsubscribed: 2,
        totalComplained: 0,
        totalFailed: 0,
      },
    });
    expect(r.penalties.bounce).toBe(5);
    expect(r.penalties.unsubscribe).toBeCloseTo(8.4, 2);
    // The campaign's sender domain publishes nothing: critical, first; then the rates.
    expect(r.authentication.map((a: { domain: string }) => a.domain)).toEqual(['good.test', 'bare.test']);
    const c = codes(r);
    expect(c[0]).toBe('dns_spf_dkim_dmarc_missing');
    expect(r.recommendations[0]).toContain('bare.test publishes no valid SPF, DKIM or DMARC');
    expect(c).toEqual(
      expect.arrayContaining(['unsubscribe_rate_high', 'dns_mx_missing', 'many_bounced_contacts']),
    );
    expect(c).not.toContain('bounce_rate_high');
    expect(c).not.toContain('complaint_rate_high');
    expect(c).not.toContain('no_sends');
    expect(r.recommendations).toHaveLength(c.length);
  });

  it('drops to Needs Improvement with a spam complaint past Gmail’s 0.3 %', async () => {
    const victim = sent[10]!;
    await notify(victim.tracking_id, victim.email, 'complaint');
    const r = await report();
    // complaint 1/198 = 0.505 % → 30 + 20 · 0.205 / 0.3 = 43.67 points: 86.6 − 43.67 = 42.9 → 43.
    expect(r).toMatchObject({
      deliverabilityScore: 43,
      scoreLabel: 'Needs Improvement',
      rates: { complained: 1, complaintRate: 0.505 },
      unsubscribedContacts: 8,
      activeContacts: 195,
      overallStats: { totalComplained: 1, totalUnsubscribed: 2 },
    });
    const complaint = r.recommendationDetails.find((x: { code: string }) => x.code === 'complaint_rate_high');
    expect(complaint).toMatchObject({ severity: 'critical' });
    expect(complaint.text).toContain('1 of 198 delivered');
  });

  it('measures recent mail only: sends older than the window leave the score, not the totals', async () => {
    await db.query(
      `UPDATE "email_tracking" SET "sent_at" = "sent_at" - interval '100 days',
         "bounced_at" = "bounced_at" - interval '100 days' WHERE "campaign_id" = $1`,
      [String(campaignId)],
    );
    const r = await report();
    expect(r).toMatchObject({
      deliverabilityScore: null,
      scoreLabel: null,
      measured: false,
      basis: 'No campaign mail was sent in the last 90 days: there is nothing recent to measure.',
      rates: { sent: 0 },
      overallStats: { totalSent: 200, totalBounced: 2, totalComplained: 1 },
    });
    expect(codes(r)).toContain('no_recent_sends');
  });

  it("says a sender domain's records are unknown, not missing, when its DNS does not answer", async () => {
    const created = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Quiet domain',
        subject: 'Hi',
        fromName: 'Parley',
        fromEmail: 'news@silent.test',
        htmlContent: '<p>Hi</p>',
      },
      admin,
    );
    expect(created.status, created.text).toBe(201);
    // Under way (paused): its sender domain is one the report checks.
    await db.query(`UPDATE "email_campaigns" SET "status" = 'paused' WHERE "id" = $1`, [created.json.id]);
    const r = await report();
    const silent = r.authentication.find((a: { domain: string }) => a.domain === 'silent.test');
    expect(silent).toMatchObject({ spf: false, dkim: false, dmarc: false, mx: false });
    expect(silent.unchecked).toEqual(['spf', 'dkim', 'dmarc', 'mx']);
    const unchecked = r.recommendationDetails.find(
      (x: { code: string; text: string }) => x.code === 'dns_unchecked' && x.text.includes('silent.test'),
    );
    expect(unchecked).toMatchObject({ severity: 'info' });
    expect(r.recommendations.some((t: string) => t.startsWith('silent.test publishes no valid'))).toBe(false);
  });
});
