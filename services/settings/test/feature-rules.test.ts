import { FEATURE_CATEGORIES, FEATURE_PAGES, FEATURE_STATUSES, URGENCY_LEVELS } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import {
  type ActivityFacts,
  DAY_MS,
  FOLLOW_UP_AFTER_MS,
  NO_ACTIVITY,
  windowsAt,
} from '../src/domain/feature-facts.ts';
import {
  localInsights,
  NEXT_STEPS,
  PAGE_BOOST,
  recommend,
  toRecommendation,
} from '../src/domain/feature-ranking.ts';
import { RULES } from '../src/domain/feature-rules.ts';
import { FEATURES } from '../src/domain/features.ts';

/** Feature discovery's rules, one branch at a time (docs/architecture.md, Feature discovery). */

const now = new Date('2026-11-20T15:00:00Z');
const daysAgo = (d: number) => new Date(now.getTime() - d * DAY_MS);

type Patch = { [K in keyof ActivityFacts]?: Partial<ActivityFacts[K]> };
const facts = (patch: Patch = {}): ActivityFacts => {
  const out = structuredClone(NO_ACTIVITY) as ActivityFacts;
  for (const [k, v] of Object.entries(patch)) Object.assign(out[k as keyof ActivityFacts], v);
  return out;
};

describe('the catalogue', () => {
  it('every feature opens a real admin screen and has at least two benefits', () => {
    const screens = [
      '/admin/email',
      '/admin/newsletters',
      '/admin/address-books',
      '/admin/voice-ai',
      '/blog-admin',
      '/admin/bookings',
      '/admin/settings',
      '/admin/dashboard',
    ];
    for (const [id, f] of Object.entries(FEATURES)) {
      expect(screens, id).toContain(f.actionUrl);
      expect(f.benefits.length, id).toBeGreaterThanOrEqual(2);
      expect(FEATURE_CATEGORIES, id).toContain(f.category);
      expect(FEATURE_PAGES, id).toContain(f.page);
    }
  });

  it('every category of the panel has features', () => {
    const used = new Set(Object.values(FEATURES).map((f) => f.category));
    expect([...used].sort()).toEqual([...FEATURE_CATEGORIES].sort());
  });

  it('every rule answers within the contract whatever the facts', () => {
    const samples = [
      NO_ACTIVITY,
      facts({ bookings: { total: 40, recent: 3, awaitingFollowUp: 7 }, calls: { demo: 90, admin: 4 } }),
      facts({ audience: { addressBooks: 3, contacts: 8000, lastImportAt: daysAgo(2) } }),
    ];
    for (const sample of samples)
      for (const [id, rule] of Object.entries(RULES)) {
        const r = rule(sample, now);
        expect(r.score, id).toBeGreaterThanOrEqual(0);
        expect(r.score, id).toBeLessThanOrEqual(100);
        expect(URGENCY_LEVELS, id).toContain(r.urgency);
        expect(FEATURE_STATUSES, id).toContain(r.status);
        expect(r.reason, id).not.toBe('');
        expect(r.step, id).not.toBe('');
      }
  });
});

describe('email campaigns', () => {
  const rule = RULES['email-campaigns'];
  it('contacts imported but no campaign sent: high, 95', () => {
    const r = rule(facts({ audience: { addressBooks: 1, contacts: 1240 } }), now);
    expect(r).toMatchObject({ score: 95, urgency: 'high', status: 'recommended' });
    expect(r.reason).toContain('1,240 contacts');
  });
  it('campaigns sent in test mode only: high, 90', () => {
    const r = rule(facts({ audience: { contacts: 10 }, campaigns: { testOnly: 2 } }), now);
    expect(r).toMatchObject({ score: 90, urgency: 'high', status: 'recommended' });
    expect(r.reason).toContain('2 campaigns went out in test mode only');
  });
  it('last live campaign more than 30 days ago: underused', () => {
    const r = rule(
      facts({ audience: { contacts: 10 }, campaigns: { sentLive: 1, lastSentAt: daysAgo(45) } }),
      now,
    );
    expect(r).toMatchObject({ score: 75, urgency: 'medium', status: 'underused' });
    expect(r.reason).toContain('45 days ago');
  });
  it('campaigns going out regularly: trending, low', () => {
    const r = rule(
      facts({
        audience: { contacts: 10 },
        campaigns: { sentLive: 3, sentRecently: 2, lastSentAt: daysAgo(3) },
      }),
      now,
    );
    expect(r).toMatchObject({ score: 40, urgency: 'low', status: 'trending' });
  });
  it('no contacts yet: new, medium (import first)', () => {
    expect(rule(NO_ACTIVITY, now)).toMatchObject({ score: 50, urgency: 'medium', status: 'new' });
  });
});

describe('newsletters', () => {
  const rule = RULES.newsletters;
  it('posts published but no newsletter: high, 92', () => {
    const r = rule(facts({ posts: { published: 3, withoutNewsletter: 3 } }), now);
    expect(r).toMatchObject({ score: 92, urgency: 'high', status: 'recommended' });
    expect(r.reason).toContain('3 posts');
  });
  it('some published posts never sent: underused, growing with their number up to 88', () => {
    const one = rule(facts({ posts: { published: 4, withoutNewsletter: 1 }, newsletters: { sent: 3 } }), now);
    const many = rule(
      facts({ posts: { published: 30, withoutNewsletter: 20 }, newsletters: { sent: 3 } }),
      now,
    );
    expect(one).toMatchObject({ score: 74, urgency: 'medium', status: 'underused' });
    expect(one.reason).toContain('1 published post has not');
    expect(many.score).toBe(88);
  });
  it('posts published, newsletters sent in test mode only: says so, not "none has gone out"', () => {
    const r = rule(
      facts({ posts: { published: 2, withoutNewsletter: 2 }, newsletters: { sent: 0, testOnly: 1 } }),
      now,
    );
    expect(r).toMatchObject({ score: 92, urgency: 'high', status: 'recommended' });
    expect(r.reason).toBe(
      'You published 2 posts; 1 newsletter went out in test mode only, none live to your contacts yet.',
    );
    expect(r.reason).not.toContain('none has gone out');
    expect(r.step).toBe('Send your tested newsletter to your contacts.');
  });
  it('nothing published: new, low', () => {
    expect(rule(NO_ACTIVITY, now)).toMatchObject({ score: 30, urgency: 'low', status: 'new' });
  });
  it('every post sent: trending', () => {
    expect(rule(facts({ posts: { published: 2 }, newsletters: { sent: 2 } }), now)).toMatchObject({
      status: 'trending',
      urgency: 'low',
    });
  });
});

describe('booking follow-up', () => {
  const rule = RULES['booking-follow-up'];
  it("bookings left 'confirmed' after their slot: high, 85 + 2 each, at most 98", () => {
    expect(rule(facts({ bookings: { total: 5, awaitingFollowUp: 2 } }), now)).toMatchObject({
      score: 89,
      urgency: 'high',
      status: 'recommended',
    });
    expect(rule(facts({ bookings: { total: 50, awaitingFollowUp: 30 } }), now).score).toBe(98);
  });
  it('every past booking has an outcome: low; trending with recent bookings', () => {
    expect(rule(facts({ bookings: { total: 5, recent: 2 } }), now)).toMatchObject({
      score: 30,
      status: 'trending',
    });
    expect(rule(facts({ bookings: { total: 5, recent: 0 } }), now)).toMatchObject({
      score: 20,
      status: 'recommended',
    });
  });
  it('no bookings: new', () => {
    expect(rule(NO_ACTIVITY, now)).toMatchObject({ score: 15, status: 'new' });
  });
  it('the follow-up cut-off is an hour after the slot began', () => {
    expect(now.getTime() - windowsAt(now).followUpBefore.getTime()).toBe(FOLLOW_UP_AFTER_MS);
    expect(FOLLOW_UP_AFTER_MS).toBe(3_600_000);
    expect(now.getTime() - windowsAt(now).recentSince.getTime()).toBe(30 * DAY_MS);
  });
});

describe('AI follow-up calls', () => {
  const rule = RULES['ai-follow-up-calls'];
  it('demo calls but no bookings: high, 88', () => {
    const r = rule(facts({ calls: { demo: 12 } }), now);
    expect(r).toMatchObject({ score: 88, urgency: 'high', status: 'recommended' });
    expect(r.reason).toContain('12 demo calls');
  });
  it('fewer bookings than a quarter of the demo calls: underused', () => {
    expect(rule(facts({ calls: { demo: 12 }, bookings: { total: 2 } }), now)).toMatchObject({
      score: 65,
      status: 'underused',
    });
    // 3 bookings for 12 calls is a quarter: no longer underused.
    expect(rule(facts({ calls: { demo: 12 }, bookings: { total: 3 } }), now).status).not.toBe('underused');
  });
  it('no call at all: new, medium', () => {
    expect(rule(NO_ACTIVITY, now)).toMatchObject({ score: 55, urgency: 'medium', status: 'new' });
  });
  it('calls in use: low, trending when recent', () => {
    expect(rule(facts({ calls: { admin: 3, lastCallAt: daysAgo(1) } }), now)).toMatchObject({
      score: 30,
      status: 'trending',
    });
    expect(rule(facts({ calls: { admin: 3, lastCallAt: daysAgo(90) } }), now).status).toBe('recommended');
  });
});

describe('brand intelligence', () => {
  const rule = RULES['brand-intelligence'];
  it('website saved, never analysed: high, 80', () => {
    expect(rule(facts({ brand: { websiteSaved: true } }), now)).toMatchObject({
      score: 80,
      urgency: 'high',
      status: 'recommended',
    });
  });
  it('no website saved: new, medium', () => {
    expect(rule(NO_ACTIVITY, now)).toMatchObject({ score: 60, urgency: 'medium', status: 'new' });
  });
  it('analysis older than 90 days: underused', () => {
    const r = rule(facts({ brand: { websiteSaved: true, lastAnalysisAt: daysAgo(120) } }), now);
    expect(r).toMatchObject({ score: 50, status: 'underused' });
    expect(r.reason).toContain('120 days ago');
  });
  it('a recent analysis: low', () => {
    expect(rule(facts({ brand: { websiteSaved: true, lastAnalysisAt: daysAgo(3) } }), now)).toMatchObject({
      score: 15,
      urgency: 'low',
    });
  });
});

describe('contact import', () => {
  const rule = RULES['contact-import'];
  it('bookings but no contacts: high, 85', () => {
    const r = rule(facts({ bookings: { total: 4 } }), now);
    expect(r).toMatchObject({ score: 85, urgency: 'high', status: 'recommended' });
    expect(r.reason).toContain('4 bookings');
  });
  it('demo calls but no contacts: high too', () => {
    expect(rule(facts({ calls: { demo: 2 } }), now).score).toBe(85);
  });
  it('empty address books and no activity: new, 70', () => {
    expect(rule(facts({ audience: { addressBooks: 1 } }), now)).toMatchObject({ score: 70, status: 'new' });
  });
  it('500 or more contacts in one book: underused (split them)', () => {
    expect(rule(facts({ audience: { addressBooks: 1, contacts: 500 } }), now)).toMatchObject({
      score: 55,
      status: 'underused',
    });
    expect(rule(facts({ audience: { addressBooks: 2, contacts: 500 } }), now).status).not.toBe('underused');
  });
  it('contacts in several books: low; trending after a recent import', () => {
    expect(
      rule(facts({ audience: { addressBooks: 2, contacts: 40, lastImportAt: daysAgo(1) } }), now),
    ).toMatchObject({ score: 25, status: 'trending' });
  });
});

describe('AI blog writer', () => {
  const rule = RULES['ai-blog-writer'];
  it('nothing published: high, new', () => {
    expect(rule(NO_ACTIVITY, now)).toMatchObject({ score: 78, urgency: 'high', status: 'new' });
  });
  it('last post more than 30 days ago: underused', () => {
    expect(rule(facts({ posts: { published: 2, lastPublishedAt: daysAgo(31) } }), now)).toMatchObject({
      score: 65,
      status: 'underused',
    });
  });
  it('publishing regularly: trending', () => {
    expect(
      rule(facts({ posts: { published: 2, publishedRecently: 2, lastPublishedAt: daysAgo(2) } }), now),
    ).toMatchObject({ score: 35, status: 'trending' });
  });
});

describe('booking insights', () => {
  const rule = RULES['booking-insights'];
  it('grows with bookings: 10, 35, then 60 from ten bookings', () => {
    expect(rule(NO_ACTIVITY, now)).toMatchObject({ score: 10, status: 'new' });
    expect(rule(facts({ bookings: { total: 9 } }), now).score).toBe(35);
    expect(rule(facts({ bookings: { total: 10 } }), now)).toMatchObject({ score: 60, urgency: 'medium' });
  });
});

describe('campaign analytics', () => {
  const rule = RULES['campaign-analytics'];
  it('nothing to measure before a campaign: new, 10', () => {
    expect(rule(NO_ACTIVITY, now)).toMatchObject({ score: 10, status: 'new' });
  });
  it('one campaign: recommended; three or more: trending', () => {
    expect(rule(facts({ campaigns: { sentLive: 1 } }), now)).toMatchObject({
      score: 60,
      status: 'recommended',
    });
    expect(rule(facts({ campaigns: { sentLive: 3 } }), now)).toMatchObject({ score: 65, status: 'trending' });
  });
});

describe('ranking', () => {
  const busy = facts({
    audience: { addressBooks: 1, contacts: 300 },
    posts: { published: 2, withoutNewsletter: 2, publishedRecently: 2, lastPublishedAt: daysAgo(1) },
    bookings: { total: 3, awaitingFollowUp: 1 },
  });

  it('most relevant first; every feature once; the API shape has no internal step', () => {
    const ranked = recommend(busy, now);
    expect(ranked.map((r) => r.id).sort()).toEqual(Object.keys(FEATURES).sort());
    expect(ranked.slice(0, 3).map((r) => r.id)).toEqual([
      'email-campaigns',
      'newsletters',
      'booking-follow-up',
    ]);
    for (let i = 1; i < ranked.length; i++)
      expect(ranked[i - 1]?.relevanceScore).toBeGreaterThanOrEqual(ranked[i]?.relevanceScore ?? 0);
    const api = toRecommendation(ranked[0] as (typeof ranked)[number]);
    expect(api).not.toHaveProperty('step');
    expect(api).toMatchObject({
      id: 'email-campaigns',
      featureId: 'email-campaigns',
      actionUrl: '/admin/email',
    });
  });

  it('equal scores: the more urgent first, then by id', () => {
    // booking-insights (35, low, 1..9 bookings) and ai-blog-writer (35, low, trending) tie.
    const ranked = recommend(
      facts({
        bookings: { total: 3 },
        posts: { published: 1, publishedRecently: 1, lastPublishedAt: daysAgo(1) },
      }),
      now,
    );
    const tied = ranked.filter((r) => r.relevanceScore === 35).map((r) => r.id);
    expect(tied).toEqual([...tied].sort());
  });

  it('the screen the panel is open on lifts its own features by 5, capped at 100', () => {
    const base = recommend(busy, now).find((r) => r.id === 'contact-import');
    const onPage = recommend(busy, now, 'address-books').find((r) => r.id === 'contact-import');
    expect((onPage?.relevanceScore ?? 0) - (base?.relevanceScore ?? 0)).toBe(PAGE_BOOST);
    const capped = recommend(facts({ bookings: { total: 60, awaitingFollowUp: 60 } }), now, 'bookings');
    expect(capped.find((r) => r.id === 'booking-follow-up')?.relevanceScore).toBe(100);
  });
});

describe('local insights', () => {
  it('summarises the activity in numbers and names the most relevant feature', () => {
    const f = facts({
      bookings: { total: 12, awaitingFollowUp: 2 },
      calls: { demo: 5, admin: 1 },
      posts: { published: 3, withoutNewsletter: 3 },
      audience: { addressBooks: 2, contacts: 1500 },
      campaigns: { sentLive: 1 },
    });
    const { summary, nextSteps } = localInsights(f, recommend(f, now));
    expect(summary).toBe(
      'So far: 12 bookings (2 awaiting an outcome), 6 calls, 3 published posts, 1,500 contacts in 2 address books and 1 campaign sent. Most relevant now: Blog-to-Newsletter — you published 3 posts; none has gone out as a newsletter.',
    );
    expect(nextSteps).toHaveLength(NEXT_STEPS);
    expect(nextSteps[0]).toEqual({
      step: 'Turn your latest post into a newsletter.',
      featureId: 'newsletters',
      actionUrl: '/admin/newsletters',
    });
  });

  it('with no activity it says so, and still gives steps (urgent ones first)', () => {
    const ranked = recommend(NO_ACTIVITY, now);
    const { summary, nextSteps } = localInsights(NO_ACTIVITY, ranked);
    expect(summary).toMatch(/^No activity recorded yet/);
    expect(nextSteps.map((s) => s.featureId)).toEqual([
      'ai-blog-writer',
      'contact-import',
      'brand-intelligence',
    ]);
  });
});
