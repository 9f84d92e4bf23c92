import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { absoluteUrl, normalizeEmailHtml } from '../src/domain/html-fix.ts';

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

  it('wraps a fragment and fixes invalid nesting as browsers read it', () => {
    const r = fix('<p>One<div>block</div></p><table><tr><td>cell</td></tr></table>');
    expect(r.changes[0]).toBe('wrapped the content in a complete HTML document');
    expect(r.changes.join('; ')).toMatch(/fixed invalid nesting/);
    const $ = load(r.html);
    expect($('p div').length).toBe(0);
    expect($('table > tbody > tr > td').text()).toBe('cell');
    expect(r.html.startsWith('<!DOCTYPE html><html>')).toBe(true);
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
