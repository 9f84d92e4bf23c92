import type { FeatureRecommendation } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import {
  CATEGORY_FILTERS,
  FIRST_VISIT_DELAY_MS,
  IDLE_BEFORE_OPEN_MS,
  INSIGHTS_REFRESH_MS,
  isFirstVisit,
  pageOf,
  RECOMMENDATIONS_REFRESH_MS,
  recommendationsPath,
  timeAgo,
  topRecommendations,
  waitBeforeOpening,
} from './rules.ts';

const rec = (id: string, category: FeatureRecommendation['category']): FeatureRecommendation => ({
  id,
  featureId: id,
  title: id,
  description: '',
  reason: '',
  icon: 'mail',
  category,
  relevanceScore: 50,
  actionUrl: '/admin/email',
  benefits: ['a', 'b', 'c'],
  urgencyLevel: 'medium',
  status: 'new',
});

describe('feature-discovery panel rules', () => {
  it('spec §9 constants: 10 s first-visit delay, polling every 5 and 10 minutes', () => {
    expect(FIRST_VISIT_DELAY_MS).toBe(10_000);
    expect(RECOMMENDATIONS_REFRESH_MS).toBe(300_000);
    expect(INSIGHTS_REFRESH_MS).toBe(600_000);
    expect(CATEGORY_FILTERS).toEqual(['all', 'automation', 'productivity', 'analytics', 'engagement']);
  });

  it('shows the top 6, of the chosen category, in the server order', () => {
    const list = [
      ...['a1', 'a2', 'a3', 'a4'].map((id) => rec(id, 'automation')),
      ...['e1', 'e2', 'e3', 'e4'].map((id) => rec(id, 'engagement')),
    ];
    expect(topRecommendations(list, 'all').map((r) => r.id)).toEqual(['a1', 'a2', 'a3', 'a4', 'e1', 'e2']);
    expect(topRecommendations(list, 'engagement').map((r) => r.id)).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(topRecommendations(list, 'analytics')).toEqual([]);
  });

  it('names the screen for the recommendations call', () => {
    expect(pageOf('/admin/dashboard')).toBe('dashboard');
    expect(pageOf('/bookings-admin')).toBe('bookings');
    expect(pageOf('/admin/bookings/')).toBe('bookings');
    expect(pageOf('/blog-admin')).toBe('blog');
    expect(pageOf('/admin/email/sent')).toBe('email');
    expect(pageOf('/admin/address-books')).toBe('address-books');
    expect(pageOf('/admin')).toBe('settings');
    expect(pageOf('/admin/main')).toBe('dashboard');
    expect(pageOf('/admin/blog')).toBe('blog');
    expect(pageOf('/admin', '?section=voice')).toBe('voice-ai');
    expect(pageOf('/admin/main', '?section=settings')).toBe('settings');
    expect(pageOf('/admin/unknown')).toBeUndefined();
    expect(recommendationsPath('email')).toBe('/api/admin/feature-recommendations?page=email');
    expect(recommendationsPath(undefined)).toBe('/api/admin/feature-recommendations');
  });

  it('says how long ago', () => {
    const now = Date.parse('2026-11-20T12:00:00Z');
    expect(timeAgo('2026-11-20T11:59:30Z', now)).toBe('just now');
    expect(timeAgo('2026-11-20T11:55:00Z', now)).toBe('5 min ago');
    expect(timeAgo('2026-11-20T09:00:00Z', now)).toBe('3 h ago');
    expect(timeAgo('2026-11-19T11:00:00Z', now)).toBe('1 day ago');
    expect(timeAgo('2026-11-17T12:00:00Z', now)).toBe('3 days ago');
  });

  it('never opens by itself where there is no local storage', () => {
    expect(isFirstVisit()).toBe(false);
  });
});

describe('opening by itself (issue 35: only when the admin is idle, never over a dialog)', () => {
  const base = { visitedAt: 0, lastInputAt: 0, dialogOpen: false, editing: false };
  it('waits for the first-visit delay, then opens when nothing holds the admin', () => {
    expect(waitBeforeOpening({ ...base, now: 4_000 })).toBe(FIRST_VISIT_DELAY_MS - 4_000);
    expect(waitBeforeOpening({ ...base, now: FIRST_VISIT_DELAY_MS })).toBe(0);
  });
  it('waits until the admin has been idle long enough', () => {
    const lastInputAt = FIRST_VISIT_DELAY_MS - 1_000;
    expect(waitBeforeOpening({ ...base, lastInputAt, now: FIRST_VISIT_DELAY_MS })).toBe(
      IDLE_BEFORE_OPEN_MS - 1_000,
    );
    expect(waitBeforeOpening({ ...base, lastInputAt, now: lastInputAt + IDLE_BEFORE_OPEN_MS })).toBe(0);
  });
  it('never over an open dialog or a field being filled: look again later', () => {
    expect(waitBeforeOpening({ ...base, now: 60_000, dialogOpen: true })).toBeNull();
    expect(waitBeforeOpening({ ...base, now: 60_000, editing: true })).toBeNull();
  });
});
