import { describe, expect, it } from 'vitest';
import {
  fieldsWithoutFallback,
  fillMergeFields,
  hasMergeField,
  mergeFieldToken,
} from '../src/merge-fields.ts';

describe('merge fields', () => {
  const grace = { firstName: 'Grace', lastName: 'Hopper', company: 'Navy & Co', email: 'g@h.test' };

  it('fills the five fields, names case-insensitive, spaces inside the braces allowed', () => {
    expect(
      fillMergeFields('Hi {{firstName}} {{ LastName }}, {{company}} <{{email}}> {{unsubscribeUrl}}', {
        ...grace,
        unsubscribeUrl: 'https://u.test/x',
      }),
    ).toBe('Hi Grace Hopper, Navy & Co <g@h.test> https://u.test/x');
    expect(fillMergeFields('{{unknown}} {{firstName', grace)).toBe('{{unknown}} {{firstName');
  });

  it('uses the fallback only when the value is empty, and escapes what it inserts', () => {
    const t = 'Hi {{firstName|there}}, from {{ company | your team }}';
    expect(fillMergeFields(t, { firstName: '', company: null })).toBe('Hi there, from your team');
    expect(fillMergeFields(t, { firstName: '  ' })).toBe('Hi there, from your team');
    expect(fillMergeFields(t, grace)).toBe('Hi Grace, from Navy & Co');
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    expect(fillMergeFields(t, { company: 'A<B' }, esc)).toBe('Hi there, from A&lt;B');
    expect(fillMergeFields('{{company|R&D}}', {}, esc)).toBe('R&amp;D');
    // No fallback: an empty value is empty text.
    expect(fillMergeFields('Hi {{firstName}}!', {})).toBe('Hi !');
  });

  it('finds a field with or without a fallback', () => {
    expect(hasMergeField('<a href="{{ unsubscribeUrl }}">', 'unsubscribeUrl')).toBe(true);
    expect(hasMergeField('<a href="{{unsubscribeUrl|#}}">', 'unsubscribeUrl')).toBe(true);
    expect(hasMergeField('{{firstName}}', 'unsubscribeUrl')).toBe(false);
  });
});

describe('quoted fallbacks and the pre-send check', () => {
  it('reads a quoted fallback without its quotes, spaces around the bar allowed', () => {
    for (const t of [
      '{{company | "your practice"}}',
      "{{company|'your practice'}}",
      '{{ company |  “your practice” }}',
      '{{company|‘your practice’}}',
      '{{company|&quot;your practice&quot;}}',
      '{{company|&#39;your practice&#39;}}',
    ])
      expect(fillMergeFields(`for ${t}.`, { company: null }), t).toBe('for your practice.');
    // A value wins over the fallback; an unmatched quote is text.
    expect(fillMergeFields('{{company | "your practice"}}', { company: 'Acme' })).toBe('Acme');
    expect(fillMergeFields('{{company|"x}}', {})).toBe('"x');
    expect(fillMergeFields('{{firstName|""}}!', {})).toBe('!');
  });

  it('lists the optional fields used without a fallback, with the parts that use them', () => {
    expect(
      fieldsWithoutFallback({
        subject: 'Hi {{firstName}} … for {{company}}',
        preheader: '{{company|"your team"}}',
        html: '<p>{{ company }} {{lastName|x}} {{email}} <a href="{{unsubscribeUrl}}">u</a></p>',
        text: '{{firstName|""}} {{lastName|there}}',
      }),
    ).toEqual([
      { field: 'firstName', parts: ['subject', 'text'] },
      { field: 'company', parts: ['subject', 'html'] },
    ]);
    expect(fieldsWithoutFallback({ subject: 'Hi {{firstName|there}}', html: null })).toEqual([]);
  });

  it('writes a field with its fallback as the menu inserts it', () => {
    expect(mergeFieldToken('company', ' your {practice} | team ')).toBe('{{company|your practice team}}');
    expect(mergeFieldToken('firstName')).toBe('{{firstName}}');
  });
});
