import type {
  FeatureCategory,
  FeatureNextStep,
  FeaturePage,
  FeatureRecommendation,
  FeatureStatus,
  UrgencyLevel,
} from '@parley/contracts';
import { plural } from './activity.ts';

/**
 * Feature discovery's rules (docs/adr/0044-feature-discovery-rules-decide.md; the table:
 * docs/architecture.md, Feature discovery): from the admin's real
 * activity (the projection's facts) to a relevance score, an urgency, a status and a reason
 * for every feature, and the local insights. Pure: the caller passes the facts and the time.
 *
 * Statuses: `new` = the feature has never been used; `recommended` = the activity shows an
 * opportunity for it; `underused` = it was used, but has lapsed or covers only part of what it
 * could; `trending` = it is in active use (shown low, as encouragement).
 */

export const DAY_MS = 86_400_000;
/** "Recent" for every rule: the last 30 days. */
export const RECENT_DAYS = 30;
/** A brand analysis older than this is stale (websites change by the season). */
export const BRAND_STALE_DAYS = 90;
/**
 * A booking still 'confirmed' this long after its slot began has been left without a
 * follow-up status (the 30-minute slot plus half an hour to write it down).
 */
export const FOLLOW_UP_AFTER_MS = 60 * 60_000;
/** A recommendation for the very screen the panel is open on gains this much relevance. */
export const PAGE_BOOST = 5;

/** What the projection (and the settings store) know, as counts and dates. */
export interface ActivityFacts {
  bookings: {
    /** Every booking known (any status). */
    total: number;
    /** Booked in the last 30 days. */
    recent: number;
    /** Still 'confirmed' though the slot began more than FOLLOW_UP_AFTER_MS ago. */
    awaitingFollowUp: number;
  };
  calls: {
    /** Public demo calls that ended (any outcome). */
    demo: number;
    /** Outbound calls placed by admins that ended. */
    admin: number;
    lastCallAt: Date | null;
  };
  posts: {
    /** Posts whose latest status is published. */
    published: number;
    publishedRecently: number;
    lastPublishedAt: Date | null;
    /** Published posts no newsletter was made from. */
    withoutNewsletter: number;
  };
  audience: {
    /** Address books not deleted. */
    addressBooks: number;
    /** Contacts in them (each book's count after its newest import). */
    contacts: number;
    lastImportAt: Date | null;
  };
  campaigns: {
    /** Campaigns sent live at least once. */
    sentLive: number;
    /** Campaigns sent in test mode only. */
    testOnly: number;
    lastSentAt: Date | null;
    /** Campaigns sent live in the last 30 days. */
    sentRecently: number;
  };
  /** Newsletters sent live at least once; sent in test mode only. */
  newsletters: { sent: number; testOnly: number; lastSentAt: Date | null };
  brand: { websiteSaved: boolean; lastAnalysisAt: Date | null };
}

export const NO_ACTIVITY: ActivityFacts = {
  bookings: { total: 0, recent: 0, awaitingFollowUp: 0 },
  calls: { demo: 0, admin: 0, lastCallAt: null },
  posts: { published: 0, publishedRecently: 0, lastPublishedAt: null, withoutNewsletter: 0 },
  audience: { addressBooks: 0, contacts: 0, lastImportAt: null },
  campaigns: { sentLive: 0, testOnly: 0, lastSentAt: null, sentRecently: 0 },
  newsletters: { sent: 0, testOnly: 0, lastSentAt: null },
  brand: { websiteSaved: false, lastAnalysisAt: null },
};

/** The instants the facts are counted against (the repository needs them). */
export function windowsAt(now: Date): { recentSince: Date; followUpBefore: Date } {
  return {
    recentSince: new Date(now.getTime() - RECENT_DAYS * DAY_MS),
    followUpBefore: new Date(now.getTime() - FOLLOW_UP_AFTER_MS),
  };
}

interface Feature {
  title: string;
  description: string;
  icon: string;
  category: FeatureCategory;
  /** A screen of the app (web/src/routes.tsx). */
  actionUrl: string;
  /** The screen the feature lives on (the `page` of the panel). */
  page: FeaturePage;
  benefits: string[];
}

/** The features the panel can recommend. */
export const FEATURES = {
  'email-campaigns': {
    title: 'Email Campaigns',
    description: 'Write a campaign or let AI draft it, preview it for any contact, test it, then send it.',
    icon: 'mail',
    category: 'engagement',
    actionUrl: '/admin/email',
    page: 'email',
    benefits: [
      'One send reaches every contact you imported',
      'Opens and clicks tracked for each contact',
      'Test mode sends to your own addresses first',
    ],
  },
  newsletters: {
    title: 'Blog-to-Newsletter',
    description: 'Turn a published blog post into a newsletter and send it to your address books.',
    icon: 'newspaper',
    category: 'engagement',
    actionUrl: '/admin/newsletters',
    page: 'newsletters',
    benefits: [
      'Every post you write reaches subscribers, not only visitors',
      'Brings readers back to your site',
      'Engagement report for each send',
    ],
  },
  'booking-follow-up': {
    title: 'Booking Follow-up',
    description:
      'Give every booking an outcome after its call: completed, no-show, qualified lead or client.',
    icon: 'calendar-check',
    category: 'productivity',
    actionUrl: '/admin/bookings',
    page: 'bookings',
    benefits: [
      'No prospect is forgotten after the demo',
      'Your dashboard counts become true',
      'Qualified leads stand out for sales',
    ],
  },
  'ai-follow-up-calls': {
    title: 'AI Follow-up Calls',
    description: 'Let your voice agent call people back, with your greeting, and review every conversation.',
    icon: 'phone-call',
    category: 'automation',
    actionUrl: '/admin/voice-ai',
    page: 'voice-ai',
    benefits: [
      'Turns demo callers into booked demos',
      'Every call transcribed in the call history',
      'Hear the agent as your customers do',
    ],
  },
  'brand-intelligence': {
    title: 'Brand Intelligence',
    description: "Read your website's colours, fonts, tone and tagline, so content matches your brand.",
    icon: 'palette',
    category: 'analytics',
    actionUrl: '/admin/settings',
    page: 'settings',
    benefits: [
      'Brand colours and fonts found for you',
      'Tone and keywords for AI-written content',
      'Runs again whenever your site changes',
    ],
  },
  'contact-import': {
    title: 'Contact Import',
    description: 'Import contacts from CSV or Excel into address books, kept apart by audience.',
    icon: 'book-user',
    category: 'productivity',
    actionUrl: '/admin/address-books',
    page: 'address-books',
    benefits: [
      'Large files imported with live progress',
      'Duplicates merged, unsubscribed addresses kept out',
      'Separate books for separate audiences',
    ],
  },
  'ai-blog-writer': {
    title: 'AI Blog Writer',
    description: 'Generate a full article, with its image, from a topic; edit it and publish.',
    icon: 'pen-line',
    category: 'automation',
    actionUrl: '/blog-admin',
    page: 'blog',
    benefits: [
      'A complete draft in seconds',
      'Search titles and descriptions written for you',
      'Regular posts keep your site found',
    ],
  },
  'booking-insights': {
    title: 'Booking Insights',
    description: 'Filter bookings by status, period and search on the dashboard to see your pipeline.',
    icon: 'chart-column',
    category: 'analytics',
    actionUrl: '/admin/dashboard',
    page: 'dashboard',
    benefits: [
      'See this week’s and the next 24 hours’ demos',
      'Find any booking by name, company or phone',
      'Track no-shows and qualified leads',
    ],
  },
  'campaign-analytics': {
    title: 'Campaign Analytics',
    description: 'Compare sends, opens, clicks and bounces across your campaigns.',
    icon: 'chart-line',
    category: 'analytics',
    actionUrl: '/admin/email',
    page: 'email',
    benefits: [
      'Open and click rates for every campaign',
      'Spot the subjects that work',
      'Bounces show which addresses to clean',
    ],
  },
} as const satisfies Record<string, Feature>;

export type FeatureId = keyof typeof FEATURES;

/** What one rule concludes about its feature. */
export interface RuleResult {
  score: number;
  urgency: UrgencyLevel;
  status: FeatureStatus;
  /** Why, from the facts. */
  reason: string;
  /** The next step it suggests, as an instruction. */
  step: string;
}

const daysSince = (at: Date, now: Date) => Math.floor((now.getTime() - at.getTime()) / DAY_MS);
const within = (at: Date | null, now: Date, days: number) => at !== null && daysSince(at, now) < days;

/** One rule per feature; each always concludes something, so the list is complete and stable. */
export const RULES: Record<FeatureId, (f: ActivityFacts, now: Date) => RuleResult> = {
  'email-campaigns'(f, now) {
    const { contacts } = f.audience;
    const c = f.campaigns;
    if (contacts > 0 && c.sentLive === 0 && c.testOnly === 0)
      return {
        score: 95,
        urgency: 'high',
        status: 'recommended',
        reason: `You have ${plural(contacts, 'contact')} in your address books and have not sent a campaign yet.`,
        step: `Send your first campaign to your ${plural(contacts, 'contact')}.`,
      };
    if (contacts > 0 && c.sentLive === 0)
      return {
        score: 90,
        urgency: 'high',
        status: 'recommended',
        reason: `${plural(c.testOnly, 'campaign')} went out in test mode only; your ${plural(contacts, 'contact')} have not heard from you.`,
        step: 'Launch a tested campaign to your contacts.',
      };
    if (c.sentLive > 0 && c.lastSentAt && !within(c.lastSentAt, now, RECENT_DAYS))
      return {
        score: 75,
        urgency: 'medium',
        status: 'underused',
        reason: `Your last campaign went out ${plural(daysSince(c.lastSentAt, now), 'day')} ago.`,
        step: 'Send a campaign: your contacts have not heard from you in a month.',
      };
    if (c.sentLive > 0)
      return {
        score: 40,
        urgency: 'low',
        status: 'trending',
        reason: `${plural(c.sentRecently, 'campaign')} sent in the last ${RECENT_DAYS} days.`,
        step: 'Keep the rhythm: plan your next campaign.',
      };
    return {
      score: 50,
      urgency: 'medium',
      status: 'new',
      reason: 'Import contacts first; then one campaign reaches all of them.',
      step: 'Import contacts, then send your first campaign.',
    };
  },

  newsletters(f) {
    const p = f.posts;
    if (p.published > 0 && f.newsletters.sent === 0)
      return {
        score: 92,
        urgency: 'high',
        status: 'recommended',
        // Test-mode sends are in the activity feed: the reason says they were tests, not nothing.
        reason:
          f.newsletters.testOnly > 0
            ? `You published ${plural(p.published, 'post')}; ${plural(f.newsletters.testOnly, 'newsletter')} went out in test mode only, none live to your contacts yet.`
            : `You published ${plural(p.published, 'post')}; none has gone out as a newsletter.`,
        step:
          f.newsletters.testOnly > 0
            ? 'Send your tested newsletter to your contacts.'
            : 'Turn your latest post into a newsletter.',
      };
    if (p.withoutNewsletter > 0)
      return {
        score: Math.min(88, 70 + 4 * p.withoutNewsletter),
        urgency: 'medium',
        status: 'underused',
        reason: `${plural(p.withoutNewsletter, 'published post')} ${p.withoutNewsletter === 1 ? 'has' : 'have'} not gone out as a newsletter yet.`,
        step: `Send a newsletter of your ${plural(p.withoutNewsletter, 'newer post')}.`,
      };
    if (p.published === 0)
      return {
        score: 30,
        urgency: 'low',
        status: 'new',
        reason: 'Publish a blog post first; it becomes a newsletter in a few clicks.',
        step: 'Publish a post, then send it as a newsletter.',
      };
    return {
      score: 35,
      urgency: 'low',
      status: 'trending',
      reason: 'Every published post has gone out as a newsletter.',
      step: 'Your next post can go out as a newsletter the day it is published.',
    };
  },

  'booking-follow-up'(f) {
    const b = f.bookings;
    if (b.awaitingFollowUp > 0)
      return {
        score: Math.min(98, 85 + 2 * b.awaitingFollowUp),
        urgency: 'high',
        status: 'recommended',
        reason: `${plural(b.awaitingFollowUp, 'booking')} ${b.awaitingFollowUp === 1 ? 'is' : 'are'} still 'confirmed' though the slot has passed.`,
        step: `Give ${b.awaitingFollowUp === 1 ? 'the past booking' : `the ${plural(b.awaitingFollowUp, 'past booking')}`} an outcome: completed, no-show, qualified lead or client.`,
      };
    if (b.total > 0)
      return {
        score: b.recent > 0 ? 30 : 20,
        urgency: 'low',
        status: b.recent > 0 ? 'trending' : 'recommended',
        reason: 'Every past booking has an outcome.',
        step: 'Update each booking’s status after its call.',
      };
    return {
      score: 15,
      urgency: 'low',
      status: 'new',
      reason: 'Bookings made on the site appear here; record the outcome after each call.',
      step: 'Record the outcome of each booking after its call.',
    };
  },

  'ai-follow-up-calls'(f, now) {
    const { demo, admin, lastCallAt } = f.calls;
    const bookings = f.bookings.total;
    if (demo > 0 && bookings === 0)
      return {
        score: 88,
        urgency: 'high',
        status: 'recommended',
        reason: `${plural(demo, 'demo call')} but no booking yet: callers tried the agent and did not book.`,
        step: 'Call demo callers back with your AI agent and offer a demo slot.',
      };
    if (demo > 0 && bookings * 4 < demo)
      return {
        score: 65,
        urgency: 'medium',
        status: 'underused',
        reason: `${plural(demo, 'demo call')} but only ${plural(bookings, 'booking')}.`,
        step: 'Follow up demo callers who did not book, with an AI call.',
      };
    if (demo === 0 && admin === 0)
      return {
        score: 55,
        urgency: 'medium',
        status: 'new',
        reason: 'Your voice agent has not made a call yet.',
        step: 'Place a test call to hear your agent as your customers will.',
      };
    const active = within(lastCallAt, now, RECENT_DAYS);
    return {
      score: 30,
      urgency: 'low',
      status: active ? 'trending' : 'recommended',
      reason: `Your agent has handled ${plural(demo + admin, 'call')}.`,
      step: 'Review the call history for questions your agent should answer better.',
    };
  },

  'brand-intelligence'(f, now) {
    const { websiteSaved, lastAnalysisAt } = f.brand;
    if (!lastAnalysisAt && websiteSaved)
      return {
        score: 80,
        urgency: 'high',
        status: 'recommended',
        reason: 'Your website is saved but Brand Intelligence has not read it yet.',
        step: 'Run Brand Intelligence on your website (Settings → Intelligence).',
      };
    if (!lastAnalysisAt)
      return {
        score: 60,
        urgency: 'medium',
        status: 'new',
        reason: 'No website saved yet: Brand Intelligence reads your colours, fonts and voice from it.',
        step: 'Save your website in Settings → Brand, then analyse it.',
      };
    if (!within(lastAnalysisAt, now, BRAND_STALE_DAYS))
      return {
        score: 50,
        urgency: 'medium',
        status: 'underused',
        reason: `Your brand was last analysed ${plural(daysSince(lastAnalysisAt, now), 'day')} ago.`,
        step: 'Analyse your website again: it may have changed.',
      };
    return {
      score: 15,
      urgency: 'low',
      status: 'trending',
      reason: 'Your brand analysis is up to date.',
      step: 'Use your brand voice when you write posts and campaigns.',
    };
  },

  'contact-import'(f, now) {
    const { contacts, addressBooks, lastImportAt } = f.audience;
    const b = f.bookings.total;
    if (contacts === 0 && (b > 0 || f.calls.demo > 0))
      return {
        score: 85,
        urgency: 'high',
        status: 'recommended',
        reason:
          b > 0
            ? `${plural(b, 'booking')} but no contacts to mail: your customers are not in an address book.`
            : `${plural(f.calls.demo, 'demo call')} but no contacts to mail.`,
        step: 'Import your customer list into an address book.',
      };
    if (contacts === 0)
      return {
        score: 70,
        urgency: 'medium',
        status: 'new',
        reason: 'Your address books are empty.',
        step: 'Import a CSV or Excel file of contacts.',
      };
    if (contacts >= 500 && addressBooks <= 1)
      return {
        score: 55,
        urgency: 'medium',
        status: 'underused',
        reason: `All ${plural(contacts, 'contact')} are in one address book.`,
        step: 'Split your contacts into address books by audience.',
      };
    const active = within(lastImportAt, now, RECENT_DAYS);
    return {
      score: 25,
      urgency: 'low',
      status: active ? 'trending' : 'recommended',
      reason: `${plural(contacts, 'contact')} in ${plural(addressBooks, 'address book')}.`,
      step: 'Keep your address books current with new imports.',
    };
  },

  'ai-blog-writer'(f, now) {
    const p = f.posts;
    if (p.published === 0)
      return {
        score: 78,
        urgency: 'high',
        status: 'new',
        reason: 'No post published yet.',
        step: 'Generate your first article with the AI writer and publish it.',
      };
    if (p.lastPublishedAt && !within(p.lastPublishedAt, now, RECENT_DAYS))
      return {
        score: 65,
        urgency: 'medium',
        status: 'underused',
        reason: `Your last post was published ${plural(daysSince(p.lastPublishedAt, now), 'day')} ago.`,
        step: 'Publish a new post: the AI writer drafts one from a topic.',
      };
    return {
      score: 35,
      urgency: 'low',
      status: 'trending',
      reason: `${plural(p.publishedRecently, 'post')} published in the last ${RECENT_DAYS} days.`,
      step: 'Keep publishing: one post a week keeps your site found.',
    };
  },

  'booking-insights'(f) {
    const n = f.bookings.total;
    if (n >= 10)
      return {
        score: 60,
        urgency: 'medium',
        status: 'recommended',
        reason: `${plural(n, 'booking')} so far: enough to read your pipeline by status and period.`,
        step: 'Filter your bookings by status and period on the dashboard.',
      };
    if (n > 0)
      return {
        score: 35,
        urgency: 'low',
        status: 'recommended',
        reason: `${plural(n, 'booking')} so far.`,
        step: 'Check upcoming demos on the dashboard.',
      };
    return {
      score: 10,
      urgency: 'low',
      status: 'new',
      reason: 'No bookings yet: the dashboard fills as visitors book demos.',
      step: 'Share your booking page to get your first demo.',
    };
  },

  'campaign-analytics'(f) {
    const n = f.campaigns.sentLive;
    if (n >= 3)
      return {
        score: 65,
        urgency: 'medium',
        status: 'trending',
        reason: `${plural(n, 'campaign')} sent: compare what worked.`,
        step: 'Compare open and click rates across your campaigns.',
      };
    if (n > 0)
      return {
        score: 60,
        urgency: 'medium',
        status: 'recommended',
        reason: `${plural(n, 'campaign')} sent: see who opened and clicked.`,
        step: 'Read the opens and clicks of your campaign.',
      };
    return {
      score: 10,
      urgency: 'low',
      status: 'new',
      reason: 'Open and click rates appear once a campaign has gone out.',
      step: 'Send a campaign to start measuring opens and clicks.',
    };
  },
};

const URGENCY_ORDER: Record<UrgencyLevel, number> = { high: 2, medium: 1, low: 0 };

export interface Ranked extends FeatureRecommendation {
  step: string;
}

/**
 * Every feature with its rule's conclusion, most relevant first (then the more urgent, then
 * by id, so the order is stable). A feature that lives on `page` (where the panel is open)
 * gains PAGE_BOOST relevance, capped at 100.
 */
export function recommend(facts: ActivityFacts, now: Date, page?: FeaturePage): Ranked[] {
  const out: Ranked[] = [];
  for (const [id, feature] of Object.entries(FEATURES) as Array<[FeatureId, Feature]>) {
    const r = RULES[id](facts, now);
    const score = Math.max(0, Math.min(100, Math.round(r.score + (page === feature.page ? PAGE_BOOST : 0))));
    out.push({
      id,
      featureId: id,
      title: feature.title,
      description: feature.description,
      reason: r.reason,
      icon: feature.icon,
      category: feature.category,
      relevanceScore: score,
      actionUrl: feature.actionUrl,
      benefits: [...feature.benefits],
      urgencyLevel: r.urgency,
      status: r.status,
      step: r.step,
    });
  }
  return out.sort(
    (a, b) =>
      b.relevanceScore - a.relevanceScore ||
      URGENCY_ORDER[b.urgencyLevel] - URGENCY_ORDER[a.urgencyLevel] ||
      a.id.localeCompare(b.id),
  );
}

/** The recommendation without the internal next step (the API's shape). */
export function toRecommendation({ step: _step, ...r }: Ranked): FeatureRecommendation {
  return r;
}

/** How many next steps the insights give (the panel shows the first 2). */
export const NEXT_STEPS = 3;

/**
 * The local insights: a summary of the activity in one or two sentences, and the next steps
 * of the most relevant recommendations that are not mere encouragement (low urgency last).
 */
export function localInsights(
  facts: ActivityFacts,
  ranked: readonly Ranked[],
): { summary: string; nextSteps: FeatureNextStep[] } {
  const parts: string[] = [];
  const b = facts.bookings;
  if (b.total)
    parts.push(
      `${plural(b.total, 'booking')}${b.awaitingFollowUp ? ` (${b.awaitingFollowUp.toLocaleString('en-US')} awaiting an outcome)` : ''}`,
    );
  const calls = facts.calls.demo + facts.calls.admin;
  if (calls) parts.push(plural(calls, 'call'));
  if (facts.posts.published) parts.push(plural(facts.posts.published, 'published post'));
  if (facts.audience.addressBooks)
    parts.push(
      `${plural(facts.audience.contacts, 'contact')} in ${plural(facts.audience.addressBooks, 'address book')}`,
    );
  if (facts.campaigns.sentLive) parts.push(`${plural(facts.campaigns.sentLive, 'campaign')} sent`);
  if (facts.newsletters.sent) parts.push(`${plural(facts.newsletters.sent, 'newsletter')} sent`);
  const top = ranked[0];
  const focus = top ? ` Most relevant now: ${top.title} — ${lowerFirst(top.reason)}` : '';
  const summary = parts.length
    ? `So far: ${joinWords(parts)}.${focus}`
    : `No activity recorded yet: bookings, calls, posts and contacts will shape these suggestions.${focus}`;
  const steps = [...ranked]
    .sort((x, y) => Number(x.urgencyLevel === 'low') - Number(y.urgencyLevel === 'low'))
    .slice(0, NEXT_STEPS)
    .map((r) => ({ step: r.step, featureId: r.id, actionUrl: r.actionUrl }));
  return { summary, nextSteps: steps };
}

function joinWords(parts: string[]): string {
  if (parts.length < 2) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s[0]?.toLowerCase() + s.slice(1) : s);
