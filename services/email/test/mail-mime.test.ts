import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { buildIcs } from '../src/features/delivery/domain/ics.ts';
import {
  composeMime,
  crlfOnly,
  foldField,
  headersOf,
  newMessageId,
  partOf,
} from '../src/features/delivery/domain/mime.ts';
import { renderMail } from '../src/features/delivery/domain/templates.ts';
import { previewHtml } from '../src/features/delivery/sent-mail.routes.ts';
import { testModeOf } from '../src/features/delivery/settings-copy.repository.ts';
import { validTestAddresses } from '../src/features/delivery/test-mail.routes.ts';
import { mask } from '../src/features/tracking/unsubscribe.routes.ts';
import { conformanceProblems } from './mail-conformance.ts';

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
      listUnsubscribe: { url: 'https://parley.test/api/unsubscribe/t.s' },
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
    // The https link only: nothing reads an unsubscribe mailbox, so none is offered.
    expect(headers.find((h) => h.name === 'List-Unsubscribe')?.value).toBe(
      '<https://parley.test/api/unsubscribe/t.s>',
    );
    expect(headers.find((h) => h.name === 'X-Parley-Test-Mode')?.value).toBe('on; original-recipients=42');
    expect(parsed.attachments.find((a) => a.filename === 'invite.ics')?.content.toString()).toBe(ics);
    // The calendar part decodes back, whatever transfer encoding non-ASCII text got.
    expect(partOf(raw, 'text/calendar')?.replace(/\r\n$/, '')).toBe(ics.replace(/\r\n$/, ''));
    expect(partOf(raw, 'text/calendar')).toContain('SUMMARY:Démo ✓');
    expect(partOf(raw, 'image/png')).toBeNull();
  });
});

describe('composeMime with hostile input', () => {
  const HOSTILE = 'one\r.\rtwo\rthree\u0007 four\nfive\r\n.\r\nsix';

  it('writes CRLF line ends only, one-line headers, whatever the text holds', async () => {
    const content = await renderMail({
      subject: `New contact request: ${HOSTILE} ${'Ü'.repeat(40)}`,
      preheader: HOSTILE,
      heading: HOSTILE,
      paragraphs: [HOSTILE],
      details: [['Message', HOSTILE]],
      footer: HOSTILE,
      brand: 'Parley',
    });
    const ics = buildIcs({
      method: 'REQUEST',
      bookingId: 'b1',
      sequence: 0,
      start: new Date('2027-01-12T15:30:00Z'),
      minutes: 30,
      timeZone: 'America/New_York',
      summary: HOSTILE,
      description: HOSTILE,
      location: HOSTILE,
      organizer: { name: HOSTILE, email: 'news@parley.test' },
      attendees: [{ name: `Bob\r\nBcc: x@evil.test ${HOSTILE}`, email: 'bob@example.com' }],
      stamp: new Date('2027-01-01T00:00:00Z'),
      uidDomain: 'parley',
    });
    const raw = await composeMime({
      from: { name: `Parley ${HOSTILE}`, address: 'news@parley.test' },
      to: { name: `Ada\r\nBcc: x@evil.test ${'Ü'.repeat(40)}`, address: 'ada@example.com' },
      replyTo: 'sales@parley.test',
      subject: content.subject,
      html: content.html,
      text: content.text,
      messageId: newMessageId('news@parley.test'),
      calendar: { method: 'REQUEST', content: ics },
      listUnsubscribe: { url: `https://parley.test/api/unsubscribe/${'t'.repeat(80)}` },
    });
    expect(conformanceProblems(raw)).toEqual([]);
    const parsed = await simpleParser(raw);
    expect(parsed.headers.get('bcc')).toBeUndefined();
    expect(parsed.to && 'value' in parsed.to ? parsed.to.value : []).toHaveLength(1);
    expect(parsed.text).toContain('one\n.\ntwo\nthree');
    // The invitation: every line break of a value escaped, the content lines CRLF.
    const calendar = partOf(raw, 'text/calendar') ?? '';
    expect(calendar).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
    expect(calendar).toContain('DESCRIPTION:one\\n.\\ntwo\\nthree four\\nfive\\n.\\nsix');
    expect(calendar).not.toContain('\u0007');
  });

  it('offers one-click (List-Unsubscribe-Post) for an https URI only', async () => {
    const base = {
      from: { address: 'news@parley.test' },
      to: { address: 'ada@example.com' },
      subject: 'S',
      html: '<p>x</p>',
      text: 'x',
      messageId: 'm@parley.test',
    };
    const https = headersOf(await composeMime({ ...base, listUnsubscribe: { url: 'https://p.test/u/1' } }));
    expect(https.find((h) => h.name === 'List-Unsubscribe-Post')?.value).toBe('List-Unsubscribe=One-Click');
    const http = headersOf(
      await composeMime({ ...base, listUnsubscribe: { url: 'http://localhost:3000/u/1' } }),
    );
    expect(http.find((h) => h.name === 'List-Unsubscribe')?.value).toBe('<http://localhost:3000/u/1>');
    expect(http.find((h) => h.name === 'List-Unsubscribe-Post')).toBeUndefined();
  });

  it('crlfOnly: stray line ends become spaces in the header (no new field) and CRLF in the body', () => {
    const out = crlfOnly(Buffer.from('Subject: a\rBcc: x\nY: z\r\nTo: t\r\n\r\nline\rtwo\nthree\r\n'));
    expect(out.toString()).toBe('Subject: a Bcc: x Y: z\r\nTo: t\r\n\r\nline\r\ntwo\r\nthree\r\n');
  });

  it('foldField folds before whitespace at 78 characters and unfolds back to the value', () => {
    const value = `=?UTF-8?B?${'QUJD'.repeat(14)}?= ${'word '.repeat(30)}end`;
    const folded = foldField('Subject', value);
    for (const line of folded.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
    expect(folded.replace(/\r\n/g, '')).toBe(`Subject: ${value}`);
    // A single long word: cut after the colon, never inside it.
    const url = `<https://parley.test/api/unsubscribe/${'x'.repeat(90)}>`;
    expect(foldField('List-Unsubscribe', url)).toBe(`List-Unsubscribe:\r\n ${url}`);
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
