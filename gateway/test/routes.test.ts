import { SERVICE_NAMES } from '@parley/contracts';
import FindMyWay from 'find-my-way';
import { describe, expect, it } from 'vitest';
import { methodsOf, ROUTES, type RouteEntry } from '../src/routes.ts';

function table() {
  const router = FindMyWay();
  for (const entry of ROUTES) for (const m of methodsOf(entry)) router.on(m, entry.path, () => {}, entry);
  return (method: string, path: string) =>
    router.find(method as 'GET', path)?.store as RouteEntry | undefined;
}

describe('gateway route table', () => {
  it('names a known owner and access for every entry, with no duplicate method + path', () => {
    const seen = new Set<string>();
    for (const entry of ROUTES) {
      expect(SERVICE_NAMES).toContain(entry.service);
      expect(['public', 'admin', 'super_admin', 'signed-webhook']).toContain(entry.access);
      for (const m of methodsOf(entry)) {
        const key = `${m} ${entry.path}`;
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
      }
    }
  });

  it('exempts from the Origin check only public routes whose path carries their signed token', () => {
    const exempt = ROUTES.filter((r) => r.signedTokenInPath).map((r) => `${r.access} ${r.path}`);
    expect(exempt).toEqual(['public /api/unsubscribe/:token']);
  });

  it('routes the spec paths to their owners with the right access', () => {
    const find = table();
    const cases: Array<[string, string, string, string]> = [
      ['GET', '/api/bookings/available', 'booking', 'public'],
      ['POST', '/api/bookings', 'booking', 'public'],
      ['GET', '/api/bookings', 'booking', 'admin'],
      ['PATCH', '/api/bookings/abc/status', 'booking', 'admin'],
      ['POST', '/api/contact', 'booking', 'public'],
      ['POST', '/api/admin/login', 'identity', 'public'],
      ['GET', '/api/admin/users', 'identity', 'super_admin'],
      ['DELETE', '/api/admin/users/42', 'identity', 'super_admin'],
      ['GET', '/api/blog', 'blog', 'public'],
      ['POST', '/api/voice/text-to-speech', 'voice', 'public'],
      ['POST', '/api/admin/settings/test-email', 'email', 'admin'],
      ['POST', '/api/admin/settings', 'settings', 'admin'],
      ['GET', '/rss.xml', 'blog', 'public'],
    ];
    for (const [method, path, service, access] of cases) {
      const entry = find(method, path);
      expect(entry, `${method} ${path}`).toBeDefined();
      expect({ service: entry?.service, access: entry?.access }, `${method} ${path}`).toEqual({
        service,
        access,
      });
    }
  });

  it('lets a static segment win over a parameter (admin list vs public post)', () => {
    const find = table();
    expect(find('GET', '/api/blog/all')?.access).toBe('admin');
    expect(find('GET', '/api/blog/my-first-post')?.access).toBe('public');
  });

  it('rate-limits the public routes that cost money', () => {
    const find = table();
    expect(find('POST', '/api/voice/text-to-speech')?.rateLimit).toBeDefined();
    expect(find('POST', '/api/voice/demo-call')?.rateLimit).toBeDefined();
  });

  it('leaves unknown paths and methods unmatched', () => {
    const find = table();
    expect(find('GET', '/api/nothing-here')).toBeUndefined();
    expect(find('DELETE', '/api/bookings')).toBeUndefined();
  });
});
