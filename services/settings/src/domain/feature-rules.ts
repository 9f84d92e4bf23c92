import type { FeatureStatus, UrgencyLevel } from '@parley/contracts';
import { plural } from './activity.ts';
import { type ActivityFacts, BRAND_STALE_DAYS, DAY_MS, RECENT_DAYS } from './feature-facts.ts';
import type { FeatureId } from './features.ts';

/**
 * Feature discovery's rules (docs/adr/0044-feature-discovery-rules-decide.md; the table:
 * docs/architecture.md, Feature discovery): from the admin's real
 * activity (the projection's facts, feature-facts.ts) to a relevance score, an urgency, a
 * status and a reason for every feature of the catalogue (features.ts). Their ranking and the
 * local insights are in feature-ranking.ts. Pure: the caller passes the facts and the time.
 *
 * Statuses: `new` = the feature has never been used; `recommended` = the activity shows an
 * opportunity for it; `underused` = it was used, but has lapsed or covers only part of what it
 * could; `trending` = it is in active use (shown low, as encouragement).
 */

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
