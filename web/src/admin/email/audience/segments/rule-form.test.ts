import { SEGMENT_MESSAGES, type SegmentRule } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import {
  type ConditionRow,
  describeRule,
  newRow,
  type RuleRow,
  rowsOf,
  ruleOf,
  withField,
  withOp,
} from './rule-form.ts';

const noKinds = new Map<string, 'text' | 'number' | 'boolean'>();
const row = (change: Partial<ConditionRow>): ConditionRow => ({ ...newRow(), ...change });
const bookName = (id: number) => (id === 7 ? 'Dentists' : `#${id}`);

describe('the segment editor model', () => {
  it('turns a saved rule into rows and back unchanged, a group kept whole', () => {
    const rule: SegmentRule = {
      match: 'any',
      conditions: [
        { field: 'company', op: 'contains', value: 'dental' },
        { field: 'tag', op: 'has', value: 'vip' },
        { field: 'book', op: 'notIn', values: [7, 9] },
        { field: 'status', op: 'isNot', value: 'bounced' },
        { field: 'attribute', key: 'seats', op: 'gt', value: 10 },
        { field: 'attribute', key: 'plan', op: 'exists' },
        { field: 'created', op: 'inLastDays', value: 30 },
        { field: 'created', op: 'before', value: '2026-01-01' },
        { field: 'engagement', op: 'engagedInLast', campaigns: 3 },
        { field: 'engagement', op: 'neverOpened' },
        { field: 'email', op: 'isEmpty' },
        {
          match: 'all',
          conditions: [
            { field: 'category', op: 'is', value: 'law' },
            { field: 'source', op: 'isNot', value: 'import' },
          ],
        },
      ],
    };
    const built = ruleOf(rule.match, rowsOf(rule), new Map([['seats', 'number']]));
    expect(built).toEqual({ rule });
  });

  it('compares an attribute as its kind: yes/no and numbers as themselves, text as typed', () => {
    const kinds = new Map([
      ['renews', 'boolean'],
      ['seats', 'number'],
      ['city', 'text'],
    ] as const);
    const rows: RuleRow[] = [
      row({ field: 'attribute', op: 'is', attributeKey: 'renews', value: 'false' }),
      row({ field: 'attribute', op: 'isNot', attributeKey: 'seats', value: ' 12 ' }),
      row({ field: 'attribute', op: 'is', attributeKey: 'city', value: '12' }),
    ];
    expect(ruleOf('all', rows, new Map(kinds))).toEqual({
      rule: {
        match: 'all',
        conditions: [
          { field: 'attribute', key: 'renews', op: 'is', value: false },
          { field: 'attribute', key: 'seats', op: 'isNot', value: 12 },
          { field: 'attribute', key: 'city', op: 'is', value: '12' },
        ],
      },
    });
  });

  it('stops only what the schema would refuse; a missing text value is left to the server', () => {
    expect(ruleOf('all', [], noKinds)).toEqual({ problem: 'Add a condition' });
    expect(ruleOf('all', [row({}), row({ field: 'book', op: 'in' })], noKinds)).toEqual({
      problem: 'Condition 2: Choose an address book',
    });
    expect(ruleOf('all', [row({ field: 'tag', op: 'has', value: '' })], noKinds)).toEqual({
      problem: `Condition 1: ${SEGMENT_MESSAGES.valueNeeded}`,
    });
    expect(ruleOf('all', [row({ field: 'created', op: 'inLastDays', value: '1.5' })], noKinds)).toEqual({
      problem: 'Condition 1: Enter a whole number of days from 1 to 36,500',
    });
    expect(
      ruleOf('all', [row({ field: 'attribute', op: 'is', attributeKey: '2fast', value: 'x' })], noKinds),
    ).toEqual({ problem: 'Condition 1: An attribute name starts with a letter, then letters, digits or _' });
    // The server answers these with its own words.
    expect(ruleOf('all', [row({ value: '' })], noKinds)).toEqual({
      rule: { match: 'all', conditions: [{ field: 'company', op: 'contains', value: '' }] },
    });
    expect(ruleOf('all', [row({ field: 'engagement', op: 'engagedInLast', value: '' })], noKinds)).toEqual({
      rule: { match: 'all', conditions: [{ field: 'engagement', op: 'engagedInLast' }] },
    });
  });

  it('keeps typed text across text fields, and no date across a change to days', () => {
    const typed = row({ value: 'acme' });
    expect(withField(typed, 'email')).toMatchObject({ field: 'email', op: 'is', value: 'acme' });
    expect(withField(typed, 'status')).toMatchObject({ field: 'status', op: 'is', value: 'active' });
    const dated = row({ field: 'created', op: 'before', value: '2026-01-01' });
    expect(withOp(dated, 'after').value).toBe('2026-01-01');
    expect(withOp(dated, 'inLastDays').value).toBe('');
  });

  it('says a rule in words', () => {
    expect(
      describeRule(
        {
          match: 'all',
          conditions: [
            { field: 'company', op: 'contains', value: 'Dental' },
            { field: 'tag', op: 'has', value: 'vip' },
            {
              match: 'any',
              conditions: [
                { field: 'book', op: 'in', values: [7] },
                { field: 'engagement', op: 'notEngagedInLast', campaigns: 1 },
              ],
            },
          ],
        },
        bookName,
      ),
    ).toBe(
      'Company contains “Dental” and has tag “vip” and (address book is “Dentists” or opened or clicked none of the last campaign)',
    );
    expect(
      describeRule(
        {
          match: 'any',
          conditions: [
            { field: 'created', op: 'olderThanDays', value: 1 },
            { field: 'attribute', key: 'renews', op: 'is', value: true },
            { field: 'book', op: 'notIn', values: [7, 8] },
          ],
        },
        bookName,
      ),
    ).toBe(
      'Added more than 1 day ago or attribute renews is yes or address book is none of “Dentists”, “#8”',
    );
  });
});
