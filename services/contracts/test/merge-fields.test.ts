import { describe, expect, it } from 'vitest';
import { fillMergeFields, hasMergeField } from '../src/merge-fields.ts';

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
