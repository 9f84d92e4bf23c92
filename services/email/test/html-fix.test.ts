import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { htmlDiff } from '../src/features/newsletters/domain/html-diff.ts';
import {
  absoluteUrl,
  normalizeEmailHtml,
  proposeHtmlFix,
} from '../src/features/newsletters/domain/html-fix.ts';

/** 'Fix HTML Issues' for one draft: each rule, the words it reports, and a second run finding nothing. */

const o = { origin: 'https://parley.example' };
const fix = (html: string, text: string | null = 'text') => normalizeEmailHtml(html, { ...o, text });
const twice = (html: string, text: string | null = null) => {
  const first = normalizeEmailHtml(html, { ...o, text });
  const second = normalizeEmailHtml(first.html, { ...o, text: first.text });
  return { first, second };
};
const DOC = (body: string, head = '') =>
  `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;

describe('normalizeEmailHtml', () => {
  it('leaves clean HTML exactly as it is', () => {
    const html = `<!doctype html>\n<html><head><title>x</title></head><body>\n  <p style="color:red">Hi <a href="https://a.example/">a</a></p>\n</body></html>`;
    expect(fix(html)).toEqual({ html, text: 'text', changes: [] });
    expect(fix('   ', null)).toEqual({ html: '   ', text: null, changes: [] });
  });

  it('fixes invalid nesting as browsers read it; a fragment stays a fragment', () => {
    const r = fix('<p>One<div>block</div></p><table><tr><td>cell</td></tr></table>');
    expect(r.changes).toEqual(['fixed invalid nesting (1 element moved or added)']);
    const $ = load(r.html);
    expect($('p div').length).toBe(0);
    expect($('table > tbody > tr > td').text()).toBe('cell');
    expect(r.html.startsWith('<p>One</p><div>block</div>')).toBe(true);
    expect(r.html).not.toMatch(/<!doctype|<html|<body/i);
    expect(fix('<html><body><p>x</p></body></html>').changes).toEqual(['added the HTML doctype']);
  });

  it('reports nothing for well-formed HTML the parser only normalises (issue 35: "invalid nesting (29 elements)")', () => {
    // Tables without <tbody> (MJML and most mail builders write them so), end tags HTML lets
    // one leave out, a fragment: valid HTML, which a parser writes back with more tags.
    const table = (i: number) =>
      `<table role="presentation" width="100%"><tr><td align="center"><p>Cell ${i}<td>Next<tr><td>Row</table>`;
    const doc = DOC(
      `${Array.from({ length: 29 }, (_, i) => table(i)).join('')}<ul><li>one<li>two</ul><dl><dt>a<dd>b</dl><table><colgroup><col width="50"></colgroup><tr><td>c</td></tr></table>`,
    );
    expect(fix(doc)).toEqual({ html: doc, text: 'text', changes: [] });
    const fragment = `<table><tr><td>One</td></tr></table><p>para<p>graph`;
    expect(fix(fragment)).toEqual({ html: fragment, text: 'text', changes: [] });
    // With a real fix beside them, only the real fix is reported.
    expect(fix(DOC(`${table(1)}<img src="https://a.example/team-photo.png">`)).changes).toEqual([
      'added alt text to 1 image',
    ]);
  });

  it('closes unclosed elements and removes stray closing tags', () => {
    expect(fix(DOC('<div><span>open')).changes).toEqual(['closed 2 unclosed elements']);
    expect(fix(DOC('<p>x</p></span></em>')).changes).toEqual(['removed 2 stray closing tags']);
    // Tags inside attribute values are not tags.
    expect(fix(DOC('<img alt="</b> and <i>" src="https://a.example/x.png">')).changes).toEqual([]);
  });

  it('inlines <style> CSS, keeping media queries and pseudo-classes', () => {
    const r = fix(
      DOC(
        '<p class="lead">a</p><p>b</p><a href="https://a.example/">c</a>',
        '<style>.lead { font-weight: bold } p { color: #111 } a:hover { color: red } @media (max-width: 480px) { p { font-size: 14px } }</style>',
      ),
    );
    expect(r.changes).toEqual(['inlined <style> CSS into 2 elements']);
    const $ = load(r.html);
    expect($('p.lead').attr('style')).toMatch(/font-weight: bold/);
    expect($('p').last().attr('style')).toMatch(/color: #111/);
    expect($('style').text()).toMatch(/a:hover/);
    expect($('style').text()).toMatch(/@media/);
  });

  it('makes relative URLs absolute, leaving merge fields, anchors and mailto alone', () => {
    const r = fix(
      DOC(
        '<a href="/pricing">p</a><a href="pricing?x=1">q</a><a href="//cdn.example/y">y</a><a href="{{unsubscribeUrl}}">u</a><a href="#top">t</a><a href="mailto:a@b.example">m</a><img src="img/a.png" alt="A"><table><tbody><tr><td background="/bg.png"></td></tr></tbody></table>',
      ),
    );
    expect(r.changes).toEqual(['made 5 relative URLs absolute']);
    const $ = load(r.html);
    expect(
      $('a')
        .toArray()
        .map((a) => $(a).attr('href')),
    ).toEqual([
      'https://parley.example/pricing',
      'https://parley.example/pricing?x=1',
      'https://cdn.example/y',
      '{{unsubscribeUrl}}',
      '#top',
      'mailto:a@b.example',
    ]);
    expect($('img').attr('src')).toBe('https://parley.example/img/a.png');
    expect(absoluteUrl('https://x.example/', o.origin)).toBeNull();
  });

  it('adds alt text: empty for pixels, else title, link text or file name', () => {
    const r = fix(
      DOC(
        '<img src="https://a.example/p.gif" width="1" height="1"><img src="https://a.example/x.png" title="Team photo"><a href="https://a.example/"><img src="https://a.example/y.png"> Our offer</a><img src="https://a.example/spring-sale_banner.png"><img src="https://a.example/0123456789abcdef0123.png">',
      ),
    );
    expect(r.changes).toEqual(['added alt text to 5 images']);
    const $ = load(r.html);
    expect(
      $('img')
        .toArray()
        .map((i) => $(i).attr('alt')),
    ).toEqual(['', 'Team photo', 'Our offer', 'spring sale banner', '']);
  });

  it('writes a missing text part from the HTML, skipping the preheader', () => {
    const r = fix(
      DOC('<div class="parley-preheader" style="display:none">preview</div><h1>Title</h1><p>Body text</p>'),
      null,
    );
    expect(r.changes).toEqual([
      expect.stringMatching(/^wrote the missing plain-text part \(\d+ characters\)$/),
    ]);
    expect(r.text).toContain('Title');
    expect(r.text).toContain('Body text');
    expect(r.text).not.toContain('preview');
    expect(fix(DOC('<img src="https://a.example/a.png" alt="">'), null).changes).toEqual([]);
  });

  it('is idempotent: a second run fixes nothing', () => {
    for (const html of [
      '<style>p{color:red}</style><p>Hi {{firstName}}<div>x</div></p><img src="/a.png"><a href="/b">b</a><b>open',
      '<html><body><table><tr><td><p>a<p>b</td></tr></table><a href="x.html">x</a></body></html>',
      DOC(
        '<p>ok</p>',
        '<style media="screen and (min-width:480px)">.x{width:100%}</style><style>td{padding:0}</style>',
      ),
    ]) {
      const { first, second } = twice(html);
      expect(first.changes.length).toBeGreaterThan(0);
      expect(second.changes).toEqual([]);
      expect(second.html).toBe(first.html);
    }
  });
});

describe('what a fix would change (the dry run)', () => {
  it('compares by meaning: spelling, white space and what parsers add are no change', () => {
    expect(
      htmlDiff('<table><tr><td>a</td></tr></table>', '<table><tbody><tr><td>a</td></tr></tbody></table>'),
    ).toEqual({
      hunks: [],
      truncated: false,
    });
    expect(
      htmlDiff(
        `<P CLASS=lead style='color: red'>a &amp; b<br/>\n  <ul><li>x<li>y</ul>`,
        '<p class="lead" style="color: red">a &amp; b<br><ul><li>x</li><li>y</li></ul></p>',
      ).hunks,
    ).toEqual([]);
    expect(htmlDiff('<p>&quot;x&quot; &#8212;</p>', '<p>"x" —</p>').hunks).toEqual([]);
  });

  it('lists each real change with what it replaces and where', () => {
    const d = htmlDiff(
      '<p>Hello</p><img src="a.png"><p>Bye</p><a href="/pricing">Pricing</a>',
      '<p>Hello</p><img src="https://parley.example/a.png" alt="a"><p>Bye</p><a href="https://parley.example/pricing">Pricing</a>',
    );
    expect(d).toEqual({
      truncated: false,
      hunks: [
        {
          context: '<p>Hello</p>',
          before: '<img src="a.png">',
          after: '<img src="https://parley.example/a.png" alt="a">',
        },
        {
          context: '<p>Bye</p>',
          before: '<a href="/pricing">',
          after: '<a href="https://parley.example/pricing">',
        },
      ],
    });
    expect(htmlDiff('<div><span>open', '<div><span>open</span></div>').hunks).toEqual([
      { context: '<div><span>open', before: '', after: '</span></div>' },
    ]);
  });

  it('proposes only real changes, with their diff and a written text part', () => {
    const table = DOC('<table><tr><td><img src="https://a.example/x.png" alt="x"> Hello</td></tr></table>');
    expect(proposeHtmlFix(table, { ...o, text: 'text' })).toMatchObject({ html: table, changes: [] });
    const missingText = proposeHtmlFix(table, { ...o, text: null });
    expect(missingText.html).toBe(table);
    expect(missingText.changes).toEqual([expect.stringMatching(/^wrote the missing plain-text part/)]);
    expect(missingText.diff.hunks).toEqual([]);
    expect(missingText.textWritten).toBe(missingText.text);
    const alt = proposeHtmlFix(
      DOC('<table><tr><td><img src="https://a.example/team-photo.png"></td></tr></table>'),
      o,
    );
    expect(alt.changes).toEqual(['added alt text to 1 image']);
    expect(alt.diff.hunks).toEqual([
      {
        context: expect.stringMatching(/^<[^>]*>.*<td>$/),
        before: '<img src="https://a.example/team-photo.png">',
        after: '<img src="https://a.example/team-photo.png" alt="team photo">',
      },
    ]);
  });
});
