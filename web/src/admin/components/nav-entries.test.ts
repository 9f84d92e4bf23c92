import { describe, expect, it } from 'vitest';
import { activeEntry, entriesFor, isConsoleEntry, NAV_ENTRIES, sectionRoute } from './nav-entries.ts';

const highlighted = (path: string) => activeEntry(path)?.label;

describe('the admin navigation', () => {
  it('holds every spec entry in the spec order; Admin Users only for a super_admin', () => {
    expect(entriesFor('super_admin').map((e) => e.label)).toEqual([
      'Dashboard',
      'Bookings',
      'Admin Users',
      'AI Blog',
      'Voice AI',
      'Email Marketing',
      'Newsletters',
      'Address Books',
      'Settings',
    ]);
    expect(entriesFor('admin').map((e) => e.label)).not.toContain('Admin Users');
    expect(entriesFor('admin')).toHaveLength(NAV_ENTRIES.length - 1);
  });

  it('highlights the entry whose route the path starts with', () => {
    expect(highlighted('/admin/dashboard')).toBe('Dashboard');
    expect(highlighted('/bookings-admin')).toBe('Bookings');
    expect(highlighted('/admin/bookings/')).toBe('Bookings');
    expect(highlighted('/admin/users')).toBe('Admin Users');
    expect(highlighted('/blog-admin')).toBe('AI Blog');
    expect(highlighted('/admin/blog')).toBe('AI Blog');
    expect(highlighted('/admin/voice-ai')).toBe('Voice AI');
    expect(highlighted('/admin/email')).toBe('Email Marketing');
    expect(highlighted('/admin/email/sent')).toBe('Email Marketing');
    expect(highlighted('/admin/newsletters')).toBe('Newsletters');
    expect(highlighted('/admin/address-books')).toBe('Address Books');
    expect(highlighted('/admin/settings')).toBe('Settings');
    expect(highlighted('/admin/main')).toBe('Dashboard');
  });

  it('highlights Settings on the bare /admin path, and nothing elsewhere', () => {
    expect(highlighted('/admin')).toBe('Settings');
    expect(highlighted('/admin/')).toBe('Settings');
    expect(highlighted('/admin/login')).toBeUndefined();
    expect(highlighted('/admin/emails')).toBeUndefined();
    expect(highlighted('/')).toBeUndefined();
    // Exactly one entry at a time.
    for (const path of ['/admin', '/admin/main', '/admin/email/sent', '/admin/blog'])
      expect(NAV_ENTRIES.filter((e) => activeEntry(path, [e])).length, path).toBe(1);
  });

  it("sends the console's old ?section= links to the sections' routes", () => {
    expect(sectionRoute('?section=dashboard')).toBe('/admin/dashboard');
    expect(sectionRoute('?section=bookings')).toBe('/admin/bookings');
    expect(sectionRoute('?section=users')).toBe('/admin/users');
    expect(sectionRoute('?section=voice')).toBe('/admin/voice-ai');
    expect(sectionRoute('?section=blog')).toBe('/admin/blog');
    expect(sectionRoute('?section=settings')).toBe('/admin/settings');
    expect(sectionRoute('?section=nope')).toBeUndefined();
    expect(sectionRoute('')).toBeUndefined();
  });

  it("knows the console's entry paths", () => {
    expect(isConsoleEntry('/admin')).toBe(true);
    expect(isConsoleEntry('/admin/main/')).toBe(true);
    expect(isConsoleEntry('/admin/settings')).toBe(false);
  });
});
