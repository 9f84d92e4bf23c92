import { describe, expect, it } from 'vitest';
import {
  fieldsWithoutFallback,
  fillMergeFields,
  hasMergeField,
  mergeFieldsIn,
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

describe("a contact's attributes as merge fields", () => {
  const attributes = { plan: 'Pro <team>', seats: 12, renews: true, Empty: '  ' };

  it('fills {{attr.key}} from the attributes, the key in any case, escaped like the rest', () => {
    const esc = (v: string) => v.replace(/</g, '&lt;').replace(/>/g, '&gt;');
    expect(
      fillMergeFields('{{attr.plan}}, {{ ATTR.Seats }} seats, renews: {{attr.renews}}', { attributes }, esc),
    ).toBe('Pro &lt;team&gt;, 12 seats, renews: true');
  });

  it('uses the fallback when the contact lacks the attribute or it is blank, and nothing without one', () => {
    expect(
      fillMergeFields('{{attr.city|your city}} / {{attr.empty|"n/a"}} / [{{attr.city}}]', { attributes }),
    ).toBe('your city / n/a / []');
    expect(fillMergeFields('{{attr.plan|basic}}', {})).toBe('basic');
  });

  it('leaves what is not an attribute name alone, and reads no inherited property', () => {
    expect(fillMergeFields('{{attr.}} {{attr.1x}} {{attr.toString|none}}', { attributes })).toBe(
      '{{attr.}} {{attr.1x}} none',
    );
  });

  it('lists attributes among the fields a template holds, keys in lower case', () => {
    expect([...mergeFieldsIn('Hi {{firstName}}, {{attr.Plan|basic}} and {{attr.plan}}')]).toEqual([
      'firstName',
      'attr.plan',
    ]);
    expect(fieldsWithoutFallback({ html: '{{attr.plan}} {{company}}' })).toEqual([
      { field: 'company', parts: ['html'] },
    ]);
  });
});
