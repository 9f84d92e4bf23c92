import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { CampaignComposer } from '../src/features/campaigns/domain/compose.ts';
import { sanitizeEmailHtml } from '../src/shared/email-html.ts';
import { TokenSigner } from '../src/shared/tokens.ts';
import { conformanceProblems, header } from './mail-conformance.ts';

/**
 * The one e-mail allowlist (issue 33, item 10): hostile markup goes, e-mail markup stays, and
 * the campaign composer sends what it keeps; its messages are RFC 5322 clean whatever the
 * subject, sender and contact hold (items 3, 4, 6 and 13).
 */

const HOSTILE =
  '<html><head><base href="https://evil.test/"><style title="t">p { width: expression(alert(1)) }</style>' +
  '<style>a { color: red } p { x: exp\\72 ession(1) }</style><meta http-equiv="refresh" content="0;url=https://evil.test"></head>' +
  '<body onload="steal()"><p onclick="x()" style="width: expression(alert(1)); color: blue">Hi {{firstName}}</p>' +
  '<script>alert(1)</script><iframe src="https://evil.test/f"></iframe><form action="https://evil.test/p"><input name="pw"></form>' +
  '<a href="javascript:alert(1)">js</a><a href="&#106;avascript:alert(1)">entity</a><object data="x.swf"></object>' +
  '<svg><script>alert(2)</script></svg><img src="x" onerror="alert(3)">' +
  '<p style="background:url(javascript:alert(1))">bg</p><p style="behavior: url(x.htc)">htc</p></body></html>';

const EMAIL =
  '<!DOCTYPE html>\n<html><head><title>Spring</title><style>@media (max-width:480px){.col{width:100% !important}}</style></head>' +
  '<body style="margin:0;background:#f3f4f6"><table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" align="center" bgcolor="#ffffff">' +
  '<tr><td class="col" style="padding:24px;font-family:Arial,sans-serif" valign="top">' +
  '<h1 style="color:#111827">Hello {{firstName}}</h1><p>News for {{company|your team}}.</p>' +
  '<img src="https://parley.test/banner.png" alt="Banner" width="552" height="200">' +
  '<a href="https://parley.test/offer?a=1&amp;b=2" style="color:#0369a1">Offer</a> ' +
  '<a href="mailto:sales@parley.test">Mail us</a> <a href="{{unsubscribeUrl}}" data-no-track>Unsubscribe</a>' +
  '</td></tr></table></body></html>';

describe('sanitizeEmailHtml', () => {
  it('removes script, handlers, javascript: URLs, base, frames, forms and CSS that runs code', () => {
    const out = sanitizeEmailHtml(HOSTILE);
    expect(out).not.toMatch(
      /<script|<iframe|<form|<input|<base|<object|<svg|<meta http-equiv|onload|onclick|onerror|javascript|expression|behavior|alert\(/i,
    );
    expect(out).toContain('Hi {{firstName}}');
    expect(out).toContain('color:blue');
    expect(out).toContain('a { color: red }');
    expect(out).toContain('<style title="t">p {}</style>');
  });

  it('keeps e-mail markup as it is: tables, inline styles, <style> media queries, images, links, merge fields', () => {
    const out = sanitizeEmailHtml(EMAIL);
    for (const kept of [
      '<!DOCTYPE html>',
      '<style>@media (max-width:480px){.col{width:100% !important}}</style>',
      '<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" align="center" bgcolor="#ffffff">',
      'style="padding:24px;font-family:Arial,sans-serif"',
      '<img src="https://parley.test/banner.png" alt="Banner" width="552" height="200" />',
      'href="https://parley.test/offer?a=1&amp;b=2"',
      'href="mailto:sales@parley.test"',
      '<a href="{{unsubscribeUrl}}" data-no-track>',
      '{{company|your team}}',
    ])
      expect(out).toContain(kept);
  });

  it('is idempotent: what is saved passes unchanged when it is sent', () => {
    for (const html of [HOSTILE, EMAIL]) {
      const once = sanitizeEmailHtml(html);
      expect(sanitizeEmailHtml(once)).toBe(once);
    }
  });
});

describe('CampaignComposer', () => {
  const signer = new TokenSigner('x'.repeat(64));
  const composer = (over: { test?: boolean; origin?: string; html?: string } = {}) =>
    new CampaignComposer(
      {
        subject: `Grande nouvelle pour {{firstName}} — ünïcödé ${'et encore plus de mots '.repeat(6)}`,
        fromName: 'Parley Ünited — Équipe de démonstration, Inc. (ventes & support)',
        fromEmail: 'news@parley.test',
        htmlContent: over.html ?? HOSTILE,
        textContent: 'Hi {{firstName}}\r.\rline\r\n.\r\nend',
      },
      { origin: over.origin ?? 'https://parley.test', signer, ...(over.test ? { test: true } : {}) },
    );
  const contact = {
    email: 'ada@example.com',
    firstName: 'Ada\r\nBcc: x@evil.test',
    lastName: null,
    company: null,
  };

  it('sends the allowlisted HTML, however the campaign was stored', async () => {
    const m = await composer().compose(contact, 'tracking-id-0123456789');
    expect(m.html).not.toMatch(/<script|<iframe|<form|<base|onload|onclick|javascript|expression/i);
    const parsed = await simpleParser(m.raw);
    expect(parsed.html).not.toMatch(/<script|<iframe|<form|<base|onload|onclick|javascript|expression/i);
  });

  it('writes a clean message: folded headers, no bare CR or LF, https one-click and no mailto', async () => {
    const m = await composer().compose(contact, 'tracking-id-0123456789');
    expect(conformanceProblems(m.raw)).toEqual([]);
    const parsed = await simpleParser(m.raw);
    expect(parsed.subject).toBe(
      `Grande nouvelle pour Ada Bcc: x@evil.test — ünïcödé ${'et encore plus de mots '.repeat(6).trim()}`,
    );
    expect(parsed.headers.get('bcc')).toBeUndefined();
    expect(parsed.from?.value[0]).toMatchObject({
      address: 'news@parley.test',
      name: 'Parley Ünited — Équipe de démonstration, Inc. (ventes & support)',
    });
    expect(header(m.raw, 'List-Unsubscribe')).toMatch(/^<https:\/\/parley\.test\/api\/unsubscribe\/[^>]+>$/);
    expect(header(m.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(m.raw.toString()).not.toContain('mailto:unsubscribe');
    // The text part in canonical form: CRLF inside the base64 too (a merge field may break a
    // line in a body, never in a header).
    expect(m.text).not.toMatch(/\r/);
    expect(parsed.text).toContain('Hi Ada\nBcc: x@evil.test\n.\nline\n.\nend');
  });

  it('offers no one-click for an http unsubscribe link (a development origin)', async () => {
    const m = await composer({ origin: 'http://localhost:8080' }).compose(contact, 'tracking-id-0123456789');
    expect(header(m.raw, 'List-Unsubscribe')).toMatch(/^<http:\/\/localhost:8080\/api\/unsubscribe\//);
    expect(header(m.raw, 'List-Unsubscribe-Post')).toBeUndefined();
  });
});
