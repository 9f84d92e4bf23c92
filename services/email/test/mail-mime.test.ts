import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { composeMime, headersOf, newMessageId, partOf } from '../src/domain/mime.ts';
import { renderMail } from '../src/domain/templates.ts';
import { testModeOf } from '../src/repo/settings-copy.repository.ts';
import { previewHtml } from '../src/routes/outbox.ts';
import { validTestAddresses } from '../src/routes/test-mail.ts';
import { mask } from '../src/routes/unsubscribe.ts';

describe('composeMime', () => {
  it('builds HTML and text parts, a Message-ID, RFC 8058 headers and the calendar parts', async () => {
    const messageId = newMessageId('news@parley.test');
    expect(messageId).toMatch(/^[0-9a-f-]{36}@parley\.test$/);
    const ics = 'BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nSUMMARY:Démo ✓\r\nEND:VCALENDAR\r\n';
    const raw = await composeMime({
      from: { name: 'Parley', address: 'news@parley.test' },
      to: { name: 'Zoë', address: 'zoe@example.com' },
      subject: 'Héllo ✓',
      html: '<p>Hi</p>',
      text: 'Hi',
      messageId,
      listUnsubscribe: {
        url: 'https://parley.test/api/unsubscribe/t.s',
        mailto: 'mailto:unsubscribe@parley.test',
      },
      calendar: { method: 'REQUEST', content: ics },
      testMode: { originalRecipients: 42 },
    });
    const parsed = await simpleParser(raw);
    expect(parsed.messageId).toBe(`<${messageId}>`);
    expect(parsed.subject).toBe('Héllo ✓');
    expect(parsed.html).toContain('<p>Hi</p>');
    expect(parsed.text).toBe('Hi');
    const headers = headersOf(raw);
    expect(headers.find((h) => h.name === 'List-Unsubscribe-Post')?.value).toBe('List-Unsubscribe=One-Click');
    expect(headers.find((h) => h.name === 'List-Unsubscribe')?.value).toBe(
      '<https://parley.test/api/unsubscribe/t.s>, <mailto:unsubscribe@parley.test>',
    );
    expect(headers.find((h) => h.name === 'X-Parley-Test-Mode')?.value).toBe('on; original-recipients=42');
    expect(parsed.attachments.find((a) => a.filename === 'invite.ics')?.content.toString()).toBe(ics);
    // The calendar part decodes back, whatever transfer encoding non-ASCII text got.
    expect(partOf(raw, 'text/calendar')?.replace(/\r\n$/, '')).toBe(ics.replace(/\r\n$/, ''));
    expect(partOf(raw, 'text/calendar')).toContain('SUMMARY:Démo ✓');
    expect(partOf(raw, 'image/png')).toBeNull();
  });
});

describe('renderMail (MJML)', () => {
  it('renders table layout HTML and a matching text part, escaping every value', async () => {
    const r = await renderMail({
      subject: 'S <x>',
      preheader: 'P',
      heading: 'Hello <script>alert(1)</script>',
      paragraphs: ['A & B'],
      details: [['When', 'Tomorrow\nat noon']],
      button: { label: 'Go', url: 'https://parley.test/a?b=1&c="2"' },
      footer: 'F',
      brand: 'Parley',
      unsubscribeUrl: 'https://parley.test/api/unsubscribe/x.y',
    });
    expect(r.html).toMatch(/^<!doctype html>/i);
    expect(r.html).toContain('<table');
    expect(r.html).not.toContain('<script>alert(1)</script>');
    expect(r.html).toContain('Hello &lt;script&gt;');
    expect(r.html).toContain('href="https://parley.test/a?b=1&amp;c=&quot;2&quot;"');
    expect(r.html).toContain('data-no-track');
    expect(r.text).toContain('Hello <script>alert(1)</script>');
    expect(r.text).toContain('When: Tomorrow\n  at noon');
    expect(r.text).toContain('Go: https://parley.test/a?b=1&c="2"');
    expect(r.text).toContain('Unsubscribe: https://parley.test/api/unsubscribe/x.y');
  });
});

describe('helpers', () => {
  it('accepts test addresses as the spec says, safe for headers', () => {
    expect(
      validTestAddresses([' a@b.c ', 'a@b.c', 'x', '', 'a b@c.d', 'x@y\r\nBcc: z@w', 'ok@localhost']),
    ).toEqual(['a@b.c', 'ok@localhost']);
  });

  it('sanitises stored HTML for the Sent mail view', () => {
    const out = previewHtml(
      '<p onclick="x()">Hi<script>alert(1)</script><iframe src="https://x"></iframe><form><input></form>' +
        '<a href="javascript:alert(1)">j</a><a href="https://o.test/api/track/click/id?u=https%3A%2F%2Fdest.test%2F&amp;s=sig">t</a>' +
        '<img src="https://o.test/api/track/open/id.sig" /><img src="https://o.test/logo.png" alt="logo"></p>',
    );
    expect(out).not.toMatch(/script|iframe|onclick|<form|<input|javascript:/);
    expect(out).toContain('href="https://dest.test/"');
    expect(out).not.toContain('/api/track/');
    expect(out).toContain('src="https://o.test/logo.png"');
    // The same allowlist as the writer's output: responsive <style> stays, code in CSS does not.
    const styled = previewHtml(
      '<style>@import url(https://x.test/a.css); p { color: red; width: expression(alert(1)) }</style><p>Hi</p>',
    );
    expect(styled).toContain('<style>');
    expect(styled).toContain('color: red');
    expect(styled).not.toMatch(/@import|expression\(/);
  });

  it('masks addresses on the unsubscribe page', () => {
    expect(mask('grace@example.com')).toBe('g****@example.com');
    expect(mask('a@b.c')).toBe('a*@b.c');
  });
});

describe('test mode from the settings copy', () => {
  const view = (values: Record<string, string>) => {
    const map = new Map(Object.entries(values));
    return { values: map, get: (k: string) => map.get(k)?.trim() || undefined };
  };
  it('is on only for the string true, with at most 5 saved addresses that contain @', () => {
    expect(testModeOf(view({}))).toEqual({ enabled: false, addresses: [] });
    expect(
      testModeOf(
        view({
          test_environment_enabled: 'true',
          test_email_addresses: JSON.stringify([
            'a@x.test',
            'nope',
            'b@x.test',
            'c@x.test',
            'd@x.test',
            'e@x.test',
            'f@x.test',
          ]),
        }),
      ),
    ).toEqual({ enabled: true, addresses: ['a@x.test', 'b@x.test', 'c@x.test', 'd@x.test', 'e@x.test'] });
    expect(testModeOf(view({ test_environment_enabled: 'TRUE', test_email_addresses: '{broken' }))).toEqual({
      enabled: false,
      addresses: [],
    });
  });
});
