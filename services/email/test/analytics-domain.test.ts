import type { CampaignPeriodRow } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import type { EmailConfig } from '../src/config.ts';
import { AuthenticationCheck } from '../src/features/analytics/authentication.service.ts';
import {
  bucketDates,
  bucketIndex,
  changesOf,
  type MailCounts,
  NO_MAIL,
  parsePeriod,
  parseTimeZone,
  percentChange,
  performanceOf,
  topCampaigns,
} from '../src/features/analytics/domain/analytics.ts';
import type { DnsCheckOptions, MailDomainCheck } from '../src/features/deliverability/dns.ts';
import { SenderDomainChecks } from '../src/features/deliverability/domain-checks.service.ts';
import type { SettingsCopy } from '../src/features/delivery/settings-copy.repository.ts';

/** The analytics' pure rules: rates, changes, periods, buckets, ranking, and the cached DNS flags. */

const counts = (over: Partial<MailCounts>): MailCounts => ({ ...NO_MAIL, ...over });

describe('rates and changes', () => {
  it('rates are percent of sent (one decimal); engagement is of delivered', () => {
    const p = performanceOf(counts({ sent: 3, bounced: 1, opened: 1, clicked: 1, engaged: 1, proxyOnly: 1 }));
    expect(p).toMatchObject({
      totalDelivered: 2,
      openRate: 33.3,
      clickRate: 33.3,
      bounceRate: 33.3,
      engagementRate: 50,
      totalProxyOpened: 1,
    });
    expect(performanceOf(NO_MAIL)).toMatchObject({ openRate: 0, engagementRate: 0 });
  });

  it('percent change is null without a base', () => {
    expect(percentChange(4, 2)).toBe(100);
    expect(percentChange(1, 3)).toBe(-66.7);
    expect(percentChange(5, 0)).toBeNull();
    expect(percentChange(0, 0)).toBeNull();
  });

  it('rates compare unrounded, in percent and in points, only when both periods sent', () => {
    const c = changesOf(
      counts({ sent: 3, opened: 1, engaged: 1 }),
      counts({ sent: 6, opened: 1, engaged: 1 }),
    );
    // 33.33…% against 16.66…%: exactly double, whatever the rounding of either.
    expect(c.openRate).toEqual({ current: 33.3, previous: 16.7, change: 100, pointChange: 16.7 });
    expect(c.sent).toEqual({ current: 3, previous: 6, change: -50 });
    const none = changesOf(counts({ sent: 2, opened: 1 }), NO_MAIL);
    expect(none.openRate).toEqual({ current: 50, previous: 0, change: null, pointChange: null });
  });
});

describe('periods and buckets', () => {
  it('accepts the four periods (30d by default) and names them when refusing', () => {
    expect(parsePeriod(undefined)).toBe('30d');
    for (const p of ['7d', '30d', '90d', '1y']) expect(parsePeriod(p)).toBe(p);
    expect(() => parsePeriod('2w')).toThrow("Invalid period '2w': choose one of 7d, 30d, 90d, 1y");
  });

  it('accepts IANA time zones only', () => {
    expect(parseTimeZone(undefined)).toBe('UTC');
    expect(parseTimeZone('Europe/Paris')).toBe('Europe/Paris');
    expect(() => parseTimeZone('Mars/Olympus')).toThrow(/Invalid time zone/);
    expect(() => parseTimeZone("UTC'; drop table x")).toThrow(/Invalid time zone/);
  });

  it('days for 7d to 90d, 52 weeks for a year, across month ends', () => {
    expect(bucketDates('2026-02-25', '7d')).toEqual([
      '2026-02-25',
      '2026-02-26',
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
      '2026-03-03',
    ]);
    const year = bucketDates('2025-12-01', '1y');
    expect(year).toHaveLength(52);
    expect(year[1]).toBe('2025-12-08');
    expect(bucketIndex('2025-12-01', '2025-12-14', '1y')).toBe(1);
    expect(bucketIndex('2025-12-01', '2025-11-30', '1y')).toBe(-1);
    expect(bucketIndex('2026-02-25', '2026-03-03', '7d')).toBe(6);
    expect(bucketIndex('2026-02-25', '2026-03-04', '7d')).toBe(-1);
  });
});

describe('top campaigns', () => {
  const row = (id: number, clickRate: number, openRate: number, sent: number, delivered = sent) =>
    ({
      id,
      name: `C${id}`,
      clickRate,
      openRate,
      sent,
      delivered,
      engagementRate: openRate,
    }) as CampaignPeriodRow;

  it('by click rate, then open rate, then size; nothing delivered is left out; revenue is 0', () => {
    const top = topCampaigns([row(1, 2, 40, 100), row(2, 5, 10, 50), row(3, 2, 40, 300), row(4, 9, 9, 5, 0)]);
    expect(top.map((c) => c.id)).toEqual([2, 3, 1]);
    expect(top.every((c) => c.revenue === 0)).toBe(true);
  });
});

describe('authentication flags (cached DNS)', () => {
  const answer = (over: Partial<MailDomainCheck> = {}): MailDomainCheck => ({
    domain: 'example.com',
    selector: 's1',
    spf: true,
    dkim: true,
    dmarc: false,
    mx: true,
    records: { spf: 'v=spf1 -all', dkim: 'p=abc', dmarc: null, mx: ['mx.example.com'] },
    found: { spf: ['v=spf1 -all'], dkim: ['p=abc'], dmarc: [] },
    dmarcDomain: null,
    invalid: {},
    errors: {},
    nameServers: ['127.0.0.1:53'],
    durationMs: 3,
    checkedAt: '2026-11-27T10:00:00.000Z',
    ...over,
  });

  /** The sender-domain checks the Deliverability tab and the analytics share, on a fake DNS. */
  const domains = (
    lookup: (domain: string, selector: string, options: DnsCheckOptions) => Promise<MailDomainCheck>,
    now?: () => number,
  ) =>
    new SenderDomainChecks({
      config: { DKIM_SELECTOR: 's1' } as EmailConfig,
      settings: {} as SettingsCopy,
      servers: undefined,
      timeoutMs: 1200,
      lookup,
      ...(now ? { now } : {}),
    });

  it('asks DNS once per domain while a result is fresh (ten minutes; one for a failed lookup)', async () => {
    let now = 0;
    let calls = 0;
    let failing = false;
    const auth = new AuthenticationCheck({
      domains: domains(
        async () => {
          calls++;
          return answer(failing ? { errors: { spf: 'TXT example.com: SERVFAIL' } } : {});
        },
        () => now,
      ),
    });
    expect(await auth.status('example.com')).toMatchObject({
      spf: true,
      dkim: true,
      dmarc: false,
      selector: 's1',
      checked: true,
    });
    now = 9 * 60_000;
    await auth.status('EXAMPLE.com');
    expect(calls).toBe(1);
    now = 10 * 60_000 + 1;
    failing = true;
    expect(await auth.status('example.com')).toMatchObject({ checked: false });
    expect(calls).toBe(2);
    now += 59_000;
    await auth.status('example.com');
    expect(calls).toBe(2);
    now += 2_000;
    await auth.status('example.com');
    expect(calls).toBe(3);
  });

  it('never throws: failures and slow lookups answer unchecked with a note', async () => {
    const failing = new AuthenticationCheck({
      domains: domains(async () => {
        throw new Error('resolver exploded');
      }),
    });
    expect(await failing.status('example.com')).toMatchObject({
      spf: false,
      checked: false,
      note: 'The DNS lookup failed: resolver exploded',
    });
    const timedOut = new AuthenticationCheck({
      domains: domains(async () =>
        answer({ spf: false, errors: { spf: 'TXT example.com: no answer within 1200 ms' } }),
      ),
    });
    expect(await timedOut.status('example.com')).toMatchObject({
      checked: false,
      note: expect.stringMatching(/^Some lookups failed \(SPF: TXT example\.com: no answer within 1200 ms\)/),
    });
    let release: (v: MailDomainCheck) => void = () => {};
    let calls = 0;
    const slow = new AuthenticationCheck({
      waitMs: 10,
      domains: domains(() => {
        calls++;
        return new Promise<MailDomainCheck>((r) => (release = r));
      }),
    });
    expect(await slow.status('example.com')).toMatchObject({ checked: false });
    // Asked again while the first lookup runs: the same lookup, not a second one.
    expect(await slow.status('example.com')).toMatchObject({ checked: false });
    expect(calls).toBe(1);
    release(answer());
    // The lookup that was still running filled the cache.
    await expect.poll(() => slow.status('example.com')).toMatchObject({ checked: true, spf: true });
    expect(calls).toBe(1);
    expect(
      await new AuthenticationCheck({ domains: domains(async () => answer()) }).status(''),
    ).toMatchObject({
      checked: false,
    });
  });
});
