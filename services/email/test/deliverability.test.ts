import { generateKeyPairSync } from 'node:crypto';
import {
  DELIVERABILITY_THRESHOLDS,
  type DeliverabilityAuthentication,
  deliverabilityLabel,
} from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import type { MailDomainCheck } from '../src/features/deliverability/dns.ts';
import {
  adviseDns,
  dkimRecordOf,
  type SendingSetup,
  suggestedSpf,
} from '../src/features/deliverability/domain/dns-advice.ts';
import {
  deliverabilityScore,
  penalty,
  type RecommendationInput,
  recommendations,
} from '../src/features/deliverability/domain/score.ts';

/** The deliverability score at its label boundaries, the recommendations and the DNS advice, without I/O. */

const T = DELIVERABILITY_THRESHOLDS;
const sent = (
  n: number,
  over: Partial<{ bounced: number; complained: number; unsubscribed: number }> = {},
) => ({
  sent: n,
  bounced: 0,
  complained: 0,
  unsubscribed: 0,
  ...over,
});

describe('deliverability score', () => {
  it('has no score when nothing was sent (never a made-up 100)', () => {
    const s = deliverabilityScore(sent(0));
    expect(s).toMatchObject({ score: null, label: null, measured: false });
  });

  it('is 100 when nothing bounced, complained or unsubscribed', () => {
    expect(deliverabilityScore(sent(1000))).toMatchObject({ score: 100, label: 'Excellent', measured: true });
  });

  it('labels 90 Excellent and 89 Good (spec §9)', () => {
    // Bounce rate exactly at the 2 % line costs 10 points: 90.
    const at = deliverabilityScore(sent(10_000, { bounced: 200 }));
    expect(at.bounceRate).toBe(2);
    expect(at.penalties.bounce).toBeCloseTo(10, 9);
    expect(at).toMatchObject({ score: 90, label: 'Excellent' });
    // 2.2 %: 10 + 20 * 0.2 / 3 = 11.33 points → 88.67 → 89.
    const past = deliverabilityScore(sent(10_000, { bounced: 220 }));
    expect(past).toMatchObject({ score: 89, label: 'Good' });
  });

  it('labels 70 Good and 69 Needs Improvement (spec §9)', () => {
    // Bounce rate at the 5 % limit costs 30 points: 70.
    expect(deliverabilityScore(sent(10_000, { bounced: 500 }))).toMatchObject({ score: 70, label: 'Good' });
    // 5.15 %: 30 + 20 * 0.15 / 5 = 30.6 → 69.4 → 69.
    expect(deliverabilityScore(sent(10_000, { bounced: 515 }))).toMatchObject({
      score: 69,
      label: 'Needs Improvement',
    });
  });

  it('measures complaints and unsubscribes against delivered mail', () => {
    // 1,000 sent, 100 bounced → 900 delivered; 3 complaints = 0.333 % (past Gmail's 0.3 %).
    const s = deliverabilityScore(sent(1000, { bounced: 100, complained: 3, unsubscribed: 9 }));
    expect(s.delivered).toBe(900);
    expect(s.complaintRate).toBeCloseTo(0.3333, 3);
    expect(s.unsubscribeRate).toBeCloseTo(1, 9);
    expect(s.penalties.complaint).toBeGreaterThan(30);
    // Unsubscribes weigh half: 1 % is 10 + 20 * 0.5 / 1.5 = 16.67 points, halved.
    expect(s.penalties.unsubscribe).toBeCloseTo(16.667 / 2, 2);
  });

  it('complaints at Gmail and Yahoo’s 0.3 % limit alone give Good at best', () => {
    const s = deliverabilityScore(sent(100_000, { complained: 300 }));
    expect(s.score).toBe(70);
    expect(deliverabilityScore(sent(100_000, { complained: 100 })).score).toBe(90);
  });

  it('is never below 0', () => {
    const s = deliverabilityScore(sent(10, { bounced: 5, complained: 5, unsubscribed: 5 }));
    expect(s.score).toBe(0);
    expect(s.label).toBe('Needs Improvement');
  });

  it('penalty is continuous at its thresholds and capped at twice the limit', () => {
    for (const t of Object.values(T)) {
      expect(penalty(t.good, t)).toBeCloseTo(10 * t.weight, 9);
      expect(penalty(t.good + 1e-9, t)).toBeCloseTo(10 * t.weight, 6);
      expect(penalty(t.limit, t)).toBeCloseTo(30 * t.weight, 9);
      expect(penalty(t.limit * 2, t)).toBeCloseTo(50 * t.weight, 9);
      expect(penalty(t.limit * 10, t)).toBeCloseTo(50 * t.weight, 9);
    }
  });

  it('labels follow the spec', () => {
    expect([100, 90, 89, 70, 69, 0].map(deliverabilityLabel)).toEqual([
      'Excellent',
      'Excellent',
      'Good',
      'Good',
      'Needs Improvement',
      'Needs Improvement',
    ]);
  });
});

const auth = (over: Partial<DeliverabilityAuthentication> = {}): DeliverabilityAuthentication => ({
  domain: 'example.com',
  spf: true,
  dkim: true,
  dmarc: true,
  mx: true,
  unchecked: [],
  checkedAt: new Date().toISOString(),
  ...over,
});

const input = (over: Partial<RecommendationInput> & { window?: RecommendationInput['window'] }) => {
  const window = over.window ?? sent(0);
  return {
    windowDays: 90,
    window,
    score: deliverabilityScore(window),
    everSent: window.sent,
    windowOpened: window.sent,
    windowFailed: 0,
    contacts: { total: 100, active: 100, unsubscribed: 0, bounced: 0 },
    authentication: [auth()],
    ...over,
  };
};
const codes = (i: RecommendationInput) => recommendations(i).map((r) => r.code);

describe('recommendations', () => {
  it('says so when nothing was sent, and nothing about rates', () => {
    expect(codes(input({}))).toEqual(['no_sends']);
  });

  it('says when the only sends are older than the window', () => {
    expect(codes(input({ everSent: 500 }))).toEqual(['no_recent_sends']);
  });

  it('names each rate past its line, critical past the limit, most urgent first', () => {
    const window = sent(1000, { bounced: 60, complained: 2, unsubscribed: 7 });
    const recs = recommendations(input({ window }));
    expect(recs.map((r) => [r.code, r.severity])).toEqual([
      ['bounce_rate_high', 'critical'],
      ['complaint_rate_high', 'warning'],
      ['unsubscribe_rate_high', 'warning'],
    ]);
    expect(recs[0]?.text).toContain('6 %');
    expect(recs[0]?.text).toContain('60 of 1,000');
  });

  it('praises a healthy sender only with enough mail to tell', () => {
    expect(codes(input({ window: sent(1000) }))).toEqual(['healthy']);
    expect(codes(input({ window: sent(20) }))).toEqual(['small_sample']);
  });

  it('asks to publish missing authentication records, and not when the lookup failed', () => {
    const recs = recommendations(input({ authentication: [auth({ spf: false, dmarc: false, mx: false })] }));
    const dns = recs.find((r) => r.code === 'dns_spf_dmarc_missing');
    expect(dns?.severity).toBe('critical');
    expect(dns?.text).toContain('SPF or DMARC');
    expect(recs.some((r) => r.code === 'dns_mx_missing')).toBe(true);
    const unknown = codes(input({ authentication: [auth({ dkim: false, unchecked: ['dkim'] })] }));
    expect(unknown).toContain('dns_unchecked');
    expect(unknown.some((c) => c.endsWith('_missing'))).toBe(false);
  });

  it('reads the contacts: none, none active, many unsubscribed or bounced', () => {
    expect(codes(input({ contacts: { total: 0, active: 0, unsubscribed: 0, bounced: 0 } }))).toContain(
      'no_contacts',
    );
    expect(codes(input({ contacts: { total: 10, active: 0, unsubscribed: 10, bounced: 0 } }))).toEqual(
      expect.arrayContaining(['no_active_contacts', 'many_unsubscribed']),
    );
    expect(codes(input({ contacts: { total: 100, active: 94, unsubscribed: 0, bounced: 6 } }))).toContain(
      'many_bounced_contacts',
    );
  });

  it('warns about low human engagement and refused mail', () => {
    const window = sent(1000);
    const c = codes(input({ window, windowOpened: 50, windowFailed: 3 }));
    expect(c).toEqual(expect.arrayContaining(['low_engagement', 'failed_sends']));
    expect(c).not.toContain('healthy');
  });
});

const check = (over: Partial<MailDomainCheck> = {}): MailDomainCheck => ({
  domain: 'example.com',
  selector: 'default',
  spf: false,
  dkim: false,
  dmarc: false,
  mx: false,
  records: { spf: null, dkim: null, dmarc: null, mx: [] },
  found: { spf: [], dkim: [], dmarc: [] },
  dmarcDomain: null,
  invalid: {},
  errors: {},
  nameServers: ['127.0.0.1'],
  durationMs: 1,
  checkedAt: new Date().toISOString(),
  ...over,
});
const local: SendingSetup = { transport: { kind: 'local' }, dkim: null };

describe('DNS advice', () => {
  it('suggests the SPF, DKIM and DMARC records to publish when none is', () => {
    const [spf, dkim, dmarc, mx] = adviseDns(check(), local);
    expect(spf).toMatchObject({ key: 'spf', status: 'missing', ok: false, name: 'example.com' });
    expect(spf?.suggestion).toEqual({ type: 'TXT', name: 'example.com', value: 'v=spf1 mx ~all' });
    expect(dkim).toMatchObject({
      status: 'missing',
      name: 'default._domainkey.example.com',
      suggestion: null,
    });
    expect(dkim?.advice).toContain('DKIM_SELECTOR');
    expect(dmarc?.suggestion?.name).toBe('_dmarc.example.com');
    expect(dmarc?.suggestion?.value).toMatch(/^v=DMARC1; p=none; rua=mailto:/);
    expect(mx).toMatchObject({ status: 'missing', ok: false });
  });

  it('uses the include of a known provider', () => {
    expect(suggestedSpf({ transport: { kind: 'ses' }, dkim: null }).value).toBe(
      'v=spf1 include:amazonses.com ~all',
    );
    expect(suggestedSpf({ transport: { kind: 'smtp', host: 'smtp.sendgrid.net' }, dkim: null }).value).toBe(
      'v=spf1 include:sendgrid.net ~all',
    );
    expect(suggestedSpf({ transport: { kind: 'smtp', host: 'mail.example.org' }, dkim: null }).value).toBe(
      'v=spf1 a:mail.example.org ~all',
    );
  });

  it('derives the DKIM record from the key the service signs with', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const record = dkimRecordOf(pem);
    expect(record).toMatch(/^v=DKIM1; k=rsa; p=MI[A-Za-z0-9+/=]+$/);
    const setup: SendingSetup = {
      transport: { kind: 'local' },
      dkim: { domain: 'example.com', selector: 'default', privateKey: pem },
    };
    const missing = adviseDns(check(), setup)[1];
    expect(missing?.suggestion).toEqual({
      type: 'TXT',
      name: 'default._domainkey.example.com',
      value: record,
    });
    // Another key published: signatures would fail.
    const other = adviseDns(
      check({ dkim: true, records: { spf: null, dkim: 'v=DKIM1; p=AAAA', dmarc: null, mx: [] } }),
      setup,
    )[1];
    expect(other?.status).toBe('warning');
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(dkimRecordOf(ed)).toMatch(/^v=DKIM1; k=ed25519; p=[A-Za-z0-9+/]{43}=$/);
    expect(dkimRecordOf('not a key')).toBeNull();
  });

  it('warns about SPF that lets anyone send and DMARC that only monitors', () => {
    const [spf, , dmarc] = adviseDns(
      check({
        spf: true,
        dmarc: true,
        records: { spf: 'v=spf1 +all', dkim: null, dmarc: 'v=DMARC1; p=none', mx: [] },
        dmarcDomain: 'example.com',
      }),
      local,
    );
    expect(spf).toMatchObject({ status: 'warning', ok: true });
    expect(spf?.advice).toContain('any server');
    expect(dmarc).toMatchObject({ status: 'warning', ok: true });
    const strict = adviseDns(
      check({
        spf: true,
        dmarc: true,
        records: {
          spf: 'v=spf1 mx -all',
          dkim: null,
          dmarc: 'v=DMARC1; p=reject; rua=mailto:d@example.com',
          mx: [],
        },
        dmarcDomain: 'example.com',
      }),
      local,
    );
    expect(strict[0]?.status).toBe('pass');
    expect(strict[2]?.status).toBe('pass');
  });

  it('reports a failed lookup as an error, not as a missing record', () => {
    const [spf] = adviseDns(check({ errors: { spf: 'TXT example.com: no answer within 300 ms' } }), local);
    expect(spf).toMatchObject({ status: 'error', error: 'TXT example.com: no answer within 300 ms' });
    expect(spf?.suggestion).toBeNull();
  });
});
