import { describe, expect, it } from 'vitest';
import {
  audienceOf,
  companyMatches,
  contactMatches,
  EMPTY_CHOICE,
  scheduleInstant,
  selectAllState,
  sendLabel,
  toggleAll,
  toggleOne,
} from './recipients.ts';

describe('newsletter recipients', () => {
  it('turns a choice into the audience the server resolves, null when nothing is ticked', () => {
    expect(audienceOf(EMPTY_CHOICE)).toEqual({ type: 'all' });
    expect(audienceOf({ ...EMPTY_CHOICE, tab: 'contacts' })).toBeNull();
    expect(audienceOf({ ...EMPTY_CHOICE, tab: 'contacts', contactIds: [3, 4] })).toEqual({
      type: 'contacts',
      contactIds: [3, 4],
    });
    expect(audienceOf({ tab: 'companies', contactIds: [1], companies: [] })).toBeNull();
    expect(audienceOf({ tab: 'companies', contactIds: [1], companies: ['Acme'] })).toEqual({
      type: 'companies',
      companies: ['Acme'],
    });
  });

  it('searches contacts by name, email or company, word by word', () => {
    const c = { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example', company: 'Navy Labs' };
    expect(contactMatches(c, '')).toBe(true);
    expect(contactMatches(c, 'grace hopper')).toBe(true);
    expect(contactMatches(c, 'NAVY.example')).toBe(true);
    expect(contactMatches(c, 'labs grace')).toBe(true);
    expect(contactMatches(c, 'ada')).toBe(false);
    expect(contactMatches({ ...c, company: null, lastName: null }, 'labs')).toBe(false);
    expect(companyMatches('Navy Labs', ' labs ')).toBe(true);
  });

  it('select all works on what is shown and keeps the rest', () => {
    expect(toggleAll([1, 9], [1, 2, 3], true)).toEqual([1, 9, 2, 3]);
    expect(toggleAll([1, 2, 9], [1, 2, 3], false)).toEqual([9]);
    expect(selectAllState([1, 2, 3], [1, 2, 3])).toBe('all');
    expect(selectAllState([2], [1, 2, 3])).toBe('some');
    expect(selectAllState([9], [1, 2])).toBe('none');
    expect(selectAllState([9], [])).toBe('none');
    expect(toggleOne([1], 1, true)).toEqual([1]);
    expect(toggleOne([1], 2, true)).toEqual([1, 2]);
    expect(toggleOne([1, 2], 1, false)).toEqual([2]);
  });

  it('labels the button with the count', () => {
    expect(sendLabel(false, 1200)).toBe('Send to 1,200 Contacts');
    expect(sendLabel(true, 2)).toBe('Resend to 2 Contacts');
    expect(sendLabel(false, null)).toBe('Send to … Contacts');
    // Test mode: where the mail really goes (issue 35: it said 8 Contacts and sent to 2).
    expect(sendLabel(false, 8, 2)).toBe('Send to 2 test addresses (test mode)');
    expect(sendLabel(false, 8, 1)).toBe('Send to 1 test address (test mode)');
  });

  it('needs a date and a time in the future', () => {
    const now = new Date('2026-03-01T12:00:00');
    expect(scheduleInstant('', '10:00', now)).toEqual({ ok: false, reason: 'missing' });
    expect(scheduleInstant('2026-03-02', '', now)).toEqual({ ok: false, reason: 'missing' });
    expect(scheduleInstant('2026-03-01', '11:59', now)).toEqual({ ok: false, reason: 'past' });
    const r = scheduleInstant('2026-03-01', '12:30', now);
    expect(r.ok && r.at.getTime() - now.getTime()).toBe(30 * 60_000);
  });
});
