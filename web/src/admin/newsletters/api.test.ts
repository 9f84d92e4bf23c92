import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiErrorOf } from '../../lib/api.ts';
import { failureToast, fetchNewsletterContacts, sendFailureToast } from './api.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('the send dialog’s contact fetch (spec §7)', () => {
  it('asks for 5,000 from offset 0 with a cache-busting parameter and no-cache headers', async () => {
    const fetch = vi.fn(async () => json(200, { contacts: [{ id: 1 }], meta: { hasMore: true } }));
    vi.stubGlobal('fetch', fetch);
    const r = await fetchNewsletterContacts('');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    const u = new URL(url, 'http://x');
    expect(u.pathname).toBe('/api/admin/email/contacts');
    expect(u.searchParams.get('limit')).toBe('5000');
    expect(u.searchParams.get('offset')).toBe('0');
    expect(u.searchParams.get('_')).toMatch(/^\d+$/);
    expect(u.searchParams.has('q')).toBe(false);
    expect(init).toMatchObject({
      credentials: 'include',
      cache: 'no-store',
      headers: { 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
    });
    expect(r).toEqual({ contacts: [{ id: 1 }], hasMore: true });
  });

  it('passes a search to the server and accepts a plain array', async () => {
    const fetch = vi.fn(async () => json(200, [{ id: 2 }]));
    vi.stubGlobal('fetch', fetch);
    const r = await fetchNewsletterContacts('  acme ');
    const [url] = fetch.mock.calls[0] as unknown as [string];
    expect(new URL(url, 'http://x').searchParams.get('q')).toBe('acme');
    expect(r).toEqual({ contacts: [{ id: 2 }], hasMore: false });
  });
});

describe('the newsletter notices (spec §8)', () => {
  it('titles a failure from the catalogue with the server’s message', async () => {
    const err = await apiErrorOf(json(404, { error: 'Not Found', message: 'Newsletter not found' }));
    expect(failureToast('delete', err)).toEqual({
      variant: 'destructive',
      title: 'Failed to delete newsletter',
      description: 'Newsletter not found',
    });
    expect(sendFailureToast('send', err).title).toBe('Failed to send newsletter');
    expect(sendFailureToast('resend', err).title).toBe('Failed to resend newsletter');
  });

  it('keeps the campaign send’s titles for the frequency limit and a blocked sender', async () => {
    const limit = await apiErrorOf(json(429, { message: 'Maximum 2 campaigns per hour. Try again later.' }));
    expect(sendFailureToast('send', limit).title).toBe('Campaign Frequency Limit');
    const blocked = await apiErrorOf(json(503, { message: 'Email sending is temporarily blocked' }));
    expect(sendFailureToast('resend', blocked).title).toBe('Email Sending Blocked');
  });
});
