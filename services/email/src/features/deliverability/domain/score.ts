import {
  DELIVERABILITY_THRESHOLDS,
  type DeliverabilityAuthentication,
  type DeliverabilityLabel,
  type DeliverabilityRecommendation,
  type DeliverabilitySeverity,
  deliverabilityLabel,
} from '@parley/contracts';

/**
 * The deliverability score and recommendations: pure functions of measured counts, so the
 * formula (docs/adr/0057-what-email-reports-count.md) is tested at its boundaries without a database.
 */

/** Campaign mail sent in the score's window and what became of it. */
export interface WindowCounts {
  sent: number;
  bounced: number;
  complained: number;
  unsubscribed: number;
}

type Threshold = { good: number; limit: number; weight: number };

/**
 * Points one rate (percent) takes off 100: up to 10 while at or below `good`, 10 → 30
 * between `good` and `limit`, 30 → 50 up to twice the limit; then scaled by the weight.
 */
export function penalty(ratePercent: number, t: Threshold): number {
  const r = Math.max(0, ratePercent);
  let p: number;
  if (r <= t.good) p = (10 * r) / t.good;
  else if (r <= t.limit) p = 10 + (20 * (r - t.good)) / (t.limit - t.good);
  else p = 30 + 20 * Math.min(1, (r - t.limit) / t.limit);
  return p * t.weight;
}

export interface Score {
  score: number | null;
  label: DeliverabilityLabel | null;
  measured: boolean;
  delivered: number;
  /** Percent, unrounded. */
  bounceRate: number;
  complaintRate: number;
  unsubscribeRate: number;
  penalties: { bounce: number; complaint: number; unsubscribe: number };
}

const pct = (part: number, whole: number) => (whole > 0 ? (100 * part) / whole : 0);

/**
 * Score = 100 − bounce points − complaint points − unsubscribe points (rounded, 0..100).
 * Bounce rate = bounced / sent; complaint and unsubscribe rates = of delivered (sent − bounced:
 * only a delivered mail can be reported as spam or unsubscribed from). Nothing sent: no score.
 */
export function deliverabilityScore(c: WindowCounts): Score {
  const delivered = Math.max(0, c.sent - c.bounced);
  const bounceRate = pct(c.bounced, c.sent);
  const complaintRate = pct(c.complained, delivered);
  const unsubscribeRate = pct(c.unsubscribed, delivered);
  if (c.sent <= 0)
    return {
      score: null,
      label: null,
      measured: false,
      delivered: 0,
      bounceRate: 0,
      complaintRate: 0,
      unsubscribeRate: 0,
      penalties: { bounce: 0, complaint: 0, unsubscribe: 0 },
    };
  const T = DELIVERABILITY_THRESHOLDS;
  const penalties = {
    bounce: penalty(bounceRate, T.bounce),
    complaint: penalty(complaintRate, T.complaint),
    unsubscribe: penalty(unsubscribeRate, T.unsubscribe),
  };
  const score = Math.min(
    100,
    Math.max(0, Math.round(100 - penalties.bounce - penalties.complaint - penalties.unsubscribe)),
  );
  return {
    score,
    label: deliverabilityLabel(score),
    measured: true,
    delivered,
    bounceRate,
    complaintRate,
    unsubscribeRate,
    penalties,
  };
}

/** Rounds a percentage for display and the API (three decimals). */
export const round3 = (n: number) => Math.round(n * 1000) / 1000;
const round1 = (n: number) => Math.round(n * 10) / 10;
const fmtPct = (n: number) => `${n < 1 && n > 0 ? round3(n).toString() : round1(n).toString()} %`;
const fmtN = (n: number) => n.toLocaleString('en-US');

export interface RecommendationInput {
  windowDays: number;
  window: WindowCounts;
  score: Score;
  /** Campaign mail ever sent (any time). */
  everSent: number;
  /** Humans who opened / clicked, of mail delivered in the window. */
  windowOpened: number;
  /** Refused by the mail server in the window. */
  windowFailed: number;
  contacts: { total: number; active: number; unsubscribed: number; bounced: number };
  authentication: DeliverabilityAuthentication[];
}

const ORDER: Record<DeliverabilitySeverity, number> = { critical: 0, warning: 1, info: 2, success: 3 };

/** Below this many sends a rate moves a lot with one event: said next to the score. */
export const SMALL_SAMPLE = 200;

/** Recommendations from the measured data, most urgent first. */
export function recommendations(i: RecommendationInput): DeliverabilityRecommendation[] {
  const out: DeliverabilityRecommendation[] = [];
  const add = (code: string, severity: DeliverabilitySeverity, text: string) =>
    out.push({ code, severity, text });
  const T = DELIVERABILITY_THRESHOLDS;
  const s = i.score;
  const w = i.window;

  // Contacts
  if (i.contacts.total === 0)
    add(
      'no_contacts',
      'info',
      'There are no contacts yet: import the people who asked to hear from you (never bought or scraped lists).',
    );
  else if (i.contacts.active === 0)
    add(
      'no_active_contacts',
      'warning',
      'No contact is active: every contact has unsubscribed or bounced, so a campaign reaches nobody.',
    );

  // What was sent
  if (i.everSent === 0)
    add(
      'no_sends',
      'info',
      'No campaign has been sent yet, so there is no score: it is measured from the bounces, spam complaints and unsubscribes of real sends. Start with your most engaged contacts and grow the volume gradually.',
    );
  else if (w.sent === 0)
    add(
      'no_recent_sends',
      'info',
      `No campaign mail was sent in the last ${i.windowDays} days, so there is no current score. After a long pause, restart with your most engaged contacts: mailbox providers distrust sudden volume from a quiet sender.`,
    );
  else if (w.sent < SMALL_SAMPLE)
    add(
      'small_sample',
      'info',
      `The rates rest on ${fmtN(w.sent)} mail${w.sent === 1 ? '' : 's'} only: one bounce or complaint moves them a lot. They settle after a few hundred.`,
    );

  if (s.measured) {
    if (s.bounceRate > T.bounce.good)
      add(
        'bounce_rate_high',
        s.bounceRate > T.bounce.limit ? 'critical' : 'warning',
        `Bounce rate ${fmtPct(s.bounceRate)} (${fmtN(w.bounced)} of ${fmtN(w.sent)}) is above ${T.bounce.good} %${s.bounceRate > T.bounce.limit ? `, past the ${T.bounce.limit} % at which providers such as Amazon SES review an account` : ''}. Bounced addresses are suppressed automatically; verify addresses before importing, remove old or bought lists, and use double opt-in.`,
      );
    if (s.complaintRate > T.complaint.good)
      add(
        'complaint_rate_high',
        s.complaintRate > T.complaint.limit ? 'critical' : 'warning',
        `Spam complaint rate ${fmtPct(s.complaintRate)} (${fmtN(w.complained)} of ${fmtN(s.delivered)} delivered) is above ${T.complaint.good} %; Gmail and Yahoo start filtering or rejecting a sender at ${T.complaint.limit} %. Mail only people who opted in, say who you are in the from name and subject, make the unsubscribe link easy to find, and send at a steady, expected rhythm.`,
      );
    if (s.unsubscribeRate > T.unsubscribe.good)
      add(
        'unsubscribe_rate_high',
        s.unsubscribeRate > T.unsubscribe.limit ? 'critical' : 'warning',
        `Unsubscribe rate ${fmtPct(s.unsubscribeRate)} (${fmtN(w.unsubscribed)} of ${fmtN(s.delivered)} delivered) is above ${T.unsubscribe.good} %: the content or the frequency does not match what contacts signed up for. Segment by interest and send less often to the least engaged.`,
      );
    if (s.delivered >= SMALL_SAMPLE && i.windowOpened / s.delivered < 0.1)
      add(
        'low_engagement',
        'warning',
        `Only ${fmtPct(pct(i.windowOpened, s.delivered))} of delivered mail was opened by a person (privacy-proxy opens are not counted). Low engagement teaches mailbox providers to file your mail as spam: test subject lines, send to engaged contacts first and stop mailing contacts who have not opened in six months.`,
      );
    if (i.windowFailed > 0)
      add(
        'failed_sends',
        'warning',
        `${fmtN(i.windowFailed)} campaign mail${i.windowFailed === 1 ? ' was' : 's were'} refused by the mail server when handed over; the campaign's recipient list (status failed) gives each reason.`,
      );
  }

  // Contacts' state
  if (i.contacts.total > 0) {
    const unsubShare = i.contacts.unsubscribed / i.contacts.total;
    const bouncedShare = i.contacts.bounced / i.contacts.total;
    if (unsubShare >= 0.1)
      add(
        'many_unsubscribed',
        'warning',
        `${fmtN(i.contacts.unsubscribed)} contacts (${fmtPct(100 * unsubShare)}) have unsubscribed. They are never mailed; review how contacts join your lists and whether what you send matches what they signed up for.`,
      );
    if (bouncedShare >= 0.02)
      add(
        'many_bounced_contacts',
        bouncedShare >= 0.05 ? 'warning' : 'info',
        `${fmtN(i.contacts.bounced)} contacts (${fmtPct(100 * bouncedShare)}) are marked bounced and are never mailed; correct or delete them, and check where those addresses came from.`,
      );
  }

  // Sender authentication (the DNS check)
  for (const a of i.authentication) {
    if (a.unchecked.length)
      add(
        'dns_unchecked',
        'info',
        `The ${a.unchecked.map((k) => k.toUpperCase()).join(', ')} lookup${a.unchecked.length === 1 ? '' : 's'} for ${a.domain} failed, so ${a.unchecked.length === 1 ? 'that record is' : 'those records are'} unknown; run Check DNS again.`,
      );
    const missing = (['spf', 'dkim', 'dmarc'] as const)
      .filter((k) => !a[k] && !a.unchecked.includes(k))
      .map((k) => k.toUpperCase());
    if (missing.length)
      add(
        `dns_${missing.map((m) => m.toLowerCase()).join('_')}_missing`,
        'critical',
        `${a.domain} publishes no valid ${missing.join(', ').replace(/, ([^,]*)$/, ' or $1')}: since February 2024 Gmail and Yahoo reject or junk unauthenticated bulk mail. Run Check DNS to see the records to publish.`,
      );
    if (!a.mx && !a.unchecked.includes('mx'))
      add(
        'dns_mx_missing',
        'warning',
        `${a.domain} has no MX record: replies and bounce reports cannot reach it. Publish one for your mailbox provider.`,
      );
  }

  if (
    s.measured &&
    w.sent >= SMALL_SAMPLE &&
    !out.some((r) => r.severity === 'critical' || r.severity === 'warning')
  )
    add(
      'healthy',
      'success',
      `Bounces, complaints and unsubscribes are all within industry limits over ${fmtN(w.sent)} mails: keep sending to contacts who opted in, at a steady rhythm.`,
    );

  return out
    .map((r, n) => ({ r, n }))
    .sort((a, b) => ORDER[a.r.severity] - ORDER[b.r.severity] || a.n - b.n)
    .map((x) => x.r);
}
