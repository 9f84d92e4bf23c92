import {
  DELIVERABILITY_WINDOW_DAYS,
  type DeliverabilityAuthentication,
  DeliverabilityReport,
  DNS_CHECK_KEYS,
  DnsCheckQuery,
  DnsCheckResult,
  ErrorBody,
  IncludeTestQuery,
} from '@parley/contracts';
import { HttpError, type ServiceDeps, type ServiceInstance } from '@parley/kit';
import type { Mailer } from '../delivery/mailer.service.ts';
import type { DeliverabilityRepository } from './deliverability.repository.ts';
import { domainOf, isDomainName, type MailDomainCheck } from './dns.ts';
import { adviseDns } from './domain/dns-advice.ts';
import { deliverabilityScore, recommendations, round3 } from './domain/score.ts';
import type { SenderDomainChecks } from './domain-checks.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };

/** The report waits this long for a DNS check it has no recent result of. */
const REPORT_DNS_WAIT_MS = 1500;

const summary = (c: MailDomainCheck): DeliverabilityAuthentication => ({
  domain: c.domain,
  spf: c.spf,
  dkim: c.dkim,
  dmarc: c.dmarc,
  mx: c.mx,
  unchecked: c.errors.domain ? [...DNS_CHECK_KEYS] : DNS_CHECK_KEYS.filter((k) => c.errors[k]),
  checkedAt: c.checkedAt,
});

/** The Deliverability tab (email marketing §2.7, §3 "Deliverability", "DNS check result", §8 "DNS Check Failed"). */
export async function deliverabilityRoutes(
  app: ServiceInstance,
  ctx: { deps: ServiceDeps; repo: DeliverabilityRepository; checks: SenderDomainChecks; mailer: Mailer },
) {
  const { deps, repo, checks, mailer } = ctx;
  const admin = deps.auth.admin;

  /**
   * A sender domain's records for the report: a recent check, or a new one awaited at most
   * REPORT_DNS_WAIT_MS (it finishes in the background and serves the next read); until then
   * its records are unknown, not missing.
   */
  const authenticationOf = async (domain: string): Promise<DeliverabilityAuthentication> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), REPORT_DNS_WAIT_MS);
    });
    const pending = checks.recent(domain);
    pending.catch(() => {});
    try {
      const check = await Promise.race([pending, late]);
      return check
        ? summary(check)
        : {
            domain,
            spf: false,
            dkim: false,
            dmarc: false,
            mx: false,
            unchecked: [...DNS_CHECK_KEYS],
            checkedAt: new Date().toISOString(),
          };
    } finally {
      clearTimeout(timer);
    }
  };

  app.get(
    '/api/admin/email/dns-check',
    {
      onRequest: admin,
      schema: { querystring: DnsCheckQuery, response: { 200: DnsCheckResult, ...errors } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      let domain: string;
      let fromAddress: string | null = null;
      const asked = request.query.domain?.trim().toLowerCase().replace(/\.$/, '');
      if (asked !== undefined) {
        if (!isDomainName(asked) || !asked.includes('.'))
          throw new HttpError(400, 'domain must be a domain name such as example.com');
        domain = asked;
      } else {
        fromAddress = (await mailer.sender()).address;
        domain = domainOf(fromAddress);
      }
      const [check, setup] = await Promise.all([checks.check(domain), checks.sendingSetup()]);
      const failed = Object.keys(check.errors);
      request.log.info(
        {
          domain,
          spf: check.spf,
          dkim: check.dkim,
          dmarc: check.dmarc,
          mx: check.mx,
          failed,
          ms: check.durationMs,
        },
        'dns check',
      );
      return {
        spf: check.spf,
        dkim: check.dkim,
        dmarc: check.dmarc,
        mx: check.mx,
        domain: check.domain,
        fromAddress,
        selector: check.selector,
        records: check.records,
        checks: check.errors.domain ? [] : adviseDns(check, setup),
        errors: Object.fromEntries(Object.entries(check.errors).filter((e): e is [string, string] => !!e[1])),
        nameServers: check.nameServers,
        durationMs: check.durationMs,
        checkedAt: check.checkedAt,
      };
    },
  );

  app.get(
    '/api/admin/email/deliverability',
    {
      onRequest: admin,
      schema: { querystring: IncludeTestQuery, response: { 200: DeliverabilityReport, ...errors } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const includeTest = request.query.includeTest === true;
      const windowStart = new Date(Date.now() - DELIVERABILITY_WINDOW_DAYS * 86_400_000);
      const sender = domainOf((await mailer.sender()).address);
      const [counts, campaignDomains] = await Promise.all([
        repo.counts(windowStart, includeTest),
        repo.campaignSenderDomains(windowStart),
      ]);
      const domains = [...new Set([sender, ...campaignDomains])].filter((d) => isDomainName(d));
      const authentication = await Promise.all(domains.map((d) => authenticationOf(d)));
      const w = counts.window;
      const score = deliverabilityScore(w);
      const recs = recommendations({
        windowDays: DELIVERABILITY_WINDOW_DAYS,
        window: w,
        score,
        everSent: counts.overall.sent,
        windowOpened: w.opened,
        windowFailed: w.failed,
        contacts: counts.contacts,
        authentication,
      });
      const o = counts.overall;
      const mails = includeTest ? 'campaign mail (test mail included)' : 'campaign mail';
      return {
        includesTestMail: includeTest,
        deliverabilityScore: score.score,
        scoreLabel: score.label,
        measured: score.measured,
        basis: score.measured
          ? `Measured on ${w.sent.toLocaleString('en-US')} ${includeTest ? `mail${w.sent === 1 ? '' : 's'} (test mail included)` : `live campaign mail${w.sent === 1 ? '' : 's'}`} sent in the last ${DELIVERABILITY_WINDOW_DAYS} days.`
          : o.sent > 0
            ? `No ${mails} was sent in the last ${DELIVERABILITY_WINDOW_DAYS} days: there is nothing recent to measure.`
            : 'Nothing has been sent yet: the score is measured from real sends.',
        windowDays: DELIVERABILITY_WINDOW_DAYS,
        rates: {
          sent: w.sent,
          delivered: score.delivered,
          bounced: w.bounced,
          complained: w.complained,
          unsubscribed: w.unsubscribed,
          bounceRate: round3(score.bounceRate),
          complaintRate: round3(score.complaintRate),
          unsubscribeRate: round3(score.unsubscribeRate),
        },
        penalties: {
          bounce: round3(score.penalties.bounce),
          complaint: round3(score.penalties.complaint),
          unsubscribe: round3(score.penalties.unsubscribe),
        },
        totalContacts: counts.contacts.total,
        activeContacts: counts.contacts.active,
        unsubscribedContacts: counts.contacts.unsubscribed,
        bouncedContacts: counts.contacts.bounced,
        overallStats: {
          totalSent: o.sent,
          totalDelivered: Math.max(0, o.sent - o.bounced),
          totalOpened: o.opened,
          totalClicked: o.clicked,
          totalBounced: o.bounced,
          totalUnsubscribed: o.unsubscribed,
          totalComplained: o.complained,
          totalFailed: o.failed,
        },
        recommendations: recs.map((r) => r.text),
        recommendationDetails: recs,
        authentication,
        generatedAt: new Date().toISOString(),
      };
    },
  );
}
