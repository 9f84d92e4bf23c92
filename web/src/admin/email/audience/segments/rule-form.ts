import {
  CONTACT_ATTRIBUTE_KEY_PATTERN,
  type ContactAttributeKeyList,
  type ContactStatus,
  SEGMENT_LIMITS,
  SEGMENT_MESSAGES,
  type SegmentCondition,
  type SegmentGroup,
  type SegmentRule,
} from '@parley/contracts';
import { plural } from '@parley/contracts/plural';

/**
 * The segment editor's model (docs/adr/0070-segments.md): a rule as rows the form edits (every
 * value kept as typed), the rule a set of rows makes, and a rule said in words for the list.
 * The editor is flat (all or any of its conditions); a group saved through the API is kept as
 * it is, shown in words, and can only be removed.
 */

export type SegmentField = SegmentCondition['field'];
export type SegmentMatch = SegmentRule['match'];
type AttributeKind = ContactAttributeKeyList['attributes'][number]['kind'];

/** The fields in the order the editor offers them, with their names. */
export const FIELD_LABELS: Record<SegmentField, string> = {
  email: 'Email',
  firstName: 'First name',
  lastName: 'Last name',
  company: 'Company',
  category: 'Category',
  source: 'Source',
  tag: 'Tag',
  book: 'Address book',
  status: 'Status',
  attribute: 'Attribute',
  created: 'Date added',
  engagement: 'Engagement',
};
export const SEGMENT_FIELDS = Object.keys(FIELD_LABELS) as SegmentField[];

const TEXT_OPS = {
  is: 'is',
  isNot: 'is not',
  contains: 'contains',
  notContains: 'does not contain',
  isEmpty: 'is empty',
  isNotEmpty: 'is not empty',
};

/** Each field's operators, in the order offered, with the words the operator select shows. */
export const OPERATORS: Record<SegmentField, Record<string, string>> = {
  email: TEXT_OPS,
  firstName: TEXT_OPS,
  lastName: TEXT_OPS,
  company: TEXT_OPS,
  category: TEXT_OPS,
  source: TEXT_OPS,
  tag: { has: 'has', hasNot: 'does not have' },
  book: { in: 'is', notIn: 'is not' },
  status: { is: 'is', isNot: 'is not' },
  attribute: {
    is: 'is',
    isNot: 'is not',
    contains: 'contains',
    gt: 'is greater than',
    lt: 'is less than',
    exists: 'is set',
    notExists: 'is not set',
  },
  // The number inputs of these say the rest ("days", "days ago", "campaigns").
  created: {
    before: 'before',
    after: 'after',
    inLastDays: 'in the last',
    olderThanDays: 'more than',
  },
  engagement: {
    engagedInLast: 'engaged in the last',
    notEngagedInLast: 'not engaged in the last',
    everOpened: 'ever opened a campaign',
    neverOpened: 'never opened a campaign',
  },
};

/** The words after a number input: "in the last [30] days". */
export const NUMBER_SUFFIX: Record<string, string> = {
  inLastDays: 'days',
  olderThanDays: 'days ago',
  engagedInLast: 'campaigns',
  notEngagedInLast: 'campaigns',
};

/** One condition as the editor holds it. */
export interface ConditionRow {
  id: number;
  field: SegmentField;
  op: string;
  /** The text, tag, status, date, days, campaigns or attribute value, as typed. */
  value: string;
  bookIds: number[];
  attributeKey: string;
}
/** A group saved through the API: kept whole. */
export interface GroupRow {
  id: number;
  group: SegmentGroup;
}
export type RuleRow = ConditionRow | GroupRow;

export const isGroupRow = (r: RuleRow): r is GroupRow => 'group' in r;

/** What input a condition's value needs. */
export type ValueKind = 'none' | 'text' | 'book' | 'status' | 'date' | 'days' | 'campaigns' | 'attribute';

export function valueKindOf(field: SegmentField, op: string): ValueKind {
  switch (field) {
    case 'book':
    case 'status':
    case 'attribute':
      return field;
    case 'tag':
      return 'text';
    case 'created':
      return op === 'before' || op === 'after' ? 'date' : 'days';
    case 'engagement':
      return op === 'engagedInLast' || op === 'notEngagedInLast' ? 'campaigns' : 'none';
    default:
      return op === 'isEmpty' || op === 'isNotEmpty' ? 'none' : 'text';
  }
}

/** Whether an attribute condition compares a value (exists and notExists do not). */
export const attributeNeedsValue = (op: string) => op !== 'exists' && op !== 'notExists';

let nextRowId = 1;

const firstOp = (field: SegmentField) => Object.keys(OPERATORS[field])[0]!;
const emptyRow = (field: SegmentField): ConditionRow => ({
  id: nextRowId++,
  field,
  op: firstOp(field),
  value: field === 'status' ? 'active' : '',
  bookIds: [],
  attributeKey: '',
});

/** A new condition (company contains …: the commonest first filter). */
export const newRow = (): ConditionRow => ({ ...emptyRow('company'), op: 'contains' });

/** The row for another field: its first operator; typed text stays when text goes on being asked for. */
export function withField(row: ConditionRow, field: SegmentField): ConditionRow {
  const next = { ...emptyRow(field), id: row.id };
  const keepsText = valueKindOf(row.field, row.op) === 'text' && valueKindOf(field, next.op) === 'text';
  return keepsText ? { ...next, value: row.value } : next;
}

/** The row with another operator: a date and a number of days do not carry over. */
export function withOp(row: ConditionRow, op: string): ConditionRow {
  const was = valueKindOf(row.field, row.op);
  const now = valueKindOf(row.field, op);
  return { ...row, op, value: was !== now && (was === 'date' || now === 'date') ? '' : row.value };
}

/** The rows of a saved rule. */
export function rowsOf(rule: SegmentRule): RuleRow[] {
  return rule.conditions.map((c): RuleRow => {
    if ('match' in c) return { id: nextRowId++, group: c };
    const row: ConditionRow = { ...emptyRow(c.field), op: c.op };
    switch (c.field) {
      case 'book':
        return { ...row, bookIds: [...c.values] };
      case 'attribute':
        return { ...row, attributeKey: c.key, value: c.value === undefined ? '' : String(c.value) };
      case 'created':
        return { ...row, value: String(c.value) };
      case 'engagement':
        return { ...row, value: c.campaigns === undefined ? '' : String(c.campaigns) };
      default:
        return { ...row, value: c.value ?? '' };
    }
  });
}

const KEY = new RegExp(CONTACT_ATTRIBUTE_KEY_PATTERN);

/** The whole number `text` holds within 1..max, else null. */
function wholeNumber(text: string, max: number): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n >= 1 && n <= max ? n : null;
}

/**
 * An attribute's value as its kind compares (the server compares is / is not as the value's
 * type: yes/no and numbers as themselves, text regardless of case). Greater and less than take
 * a number; what is not one goes as typed, and the server says to enter a number.
 */
function attributeValue(row: ConditionRow, kind: AttributeKind | undefined): string | number | boolean {
  const t = row.value.trim();
  const n = Number(t);
  const numeric = t !== '' && Number.isFinite(n);
  if (row.op === 'gt' || row.op === 'lt') return numeric ? n : row.value;
  if (row.op !== 'is' && row.op !== 'isNot') return row.value;
  if (kind === 'boolean') return row.value !== 'false';
  return kind === 'number' && numeric ? n : row.value;
}

type Built<T> = T | { problem: string };
/** A rule the rows make, or why they make none yet. */
export type BuiltRule = Built<{ rule: SegmentRule }>;

/**
 * A row as a condition. Only what the contract's schema itself would refuse (with a message
 * meant for machines) is stopped here; everything else goes to the server, whose 400 says what
 * a condition lacks ("This condition needs a value").
 */
export function conditionOf(
  row: ConditionRow,
  kinds: ReadonlyMap<string, AttributeKind>,
): Built<SegmentCondition> {
  const op = row.op as never;
  switch (row.field) {
    case 'book':
      return row.bookIds.length
        ? { field: 'book', op, values: row.bookIds }
        : { problem: 'Choose an address book' };
    case 'status':
      return { field: 'status', op, value: row.value as ContactStatus };
    case 'tag':
      return row.value.trim()
        ? { field: 'tag', op, value: row.value }
        : { problem: SEGMENT_MESSAGES.valueNeeded };
    case 'attribute': {
      const key = row.attributeKey.trim();
      if (!key) return { problem: 'Choose an attribute' };
      if (!KEY.test(key))
        return { problem: 'An attribute name starts with a letter, then letters, digits or _' };
      if (!attributeNeedsValue(row.op)) return { field: 'attribute', key, op };
      return { field: 'attribute', key, op, value: attributeValue(row, kinds.get(key)) };
    }
    case 'created': {
      if (valueKindOf('created', row.op) === 'date')
        return row.value
          ? { field: 'created', op, value: row.value }
          : { problem: SEGMENT_MESSAGES.valueNeeded };
      const days = wholeNumber(row.value, SEGMENT_LIMITS.days);
      if (days !== null) return { field: 'created', op, value: days };
      return {
        problem: row.value.trim()
          ? `Enter a whole number of days from 1 to ${SEGMENT_LIMITS.days.toLocaleString('en-US')}`
          : SEGMENT_MESSAGES.valueNeeded,
      };
    }
    case 'engagement': {
      // Without a number the server says what is missing ("Say how many of the last campaigns count").
      if (valueKindOf('engagement', row.op) === 'none' || !row.value.trim())
        return { field: 'engagement', op };
      const campaigns = wholeNumber(row.value, SEGMENT_LIMITS.campaigns);
      return campaigns === null
        ? { problem: `Enter a whole number of campaigns from 1 to ${SEGMENT_LIMITS.campaigns}` }
        : { field: 'engagement', op, campaigns };
    }
    default:
      return valueKindOf(row.field, row.op) === 'none'
        ? { field: row.field, op }
        : { field: row.field, op, value: row.value };
  }
}

/** The rule the rows make, or the first problem the server would only answer with a schema error. */
export function ruleOf(
  match: SegmentMatch,
  rows: readonly RuleRow[],
  kinds: ReadonlyMap<string, AttributeKind>,
): BuiltRule {
  if (!rows.length) return { problem: 'Add a condition' };
  const conditions: SegmentRule['conditions'] = [];
  for (const [i, row] of rows.entries()) {
    if (isGroupRow(row)) {
      conditions.push(row.group);
      continue;
    }
    const c = conditionOf(row, kinds);
    if ('problem' in c) return { problem: `Condition ${i + 1}: ${c.problem}` };
    conditions.push(c);
  }
  return { rule: { match, conditions } };
}

// ── in words ────────────────────────────────────────────────────────────────

const quoted = (text: string) => `“${text}”`;
const lastCampaigns = (n: number | undefined) =>
  n === undefined || n === 1 ? 'the last campaign' : `the last ${plural(n, 'campaign')}`;

function attributeValueWords(value: string | number | boolean | undefined): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return typeof value === 'number' ? String(value) : quoted(value ?? '');
}

/** One condition in words, starting lower-case (it may follow "and"). */
export function describeCondition(c: SegmentCondition, bookName: (id: number) => string): string {
  switch (c.field) {
    case 'book': {
      const names = c.values.map((id) => quoted(bookName(id)));
      if (names.length === 1) return `address book ${c.op === 'in' ? 'is' : 'is not'} ${names[0]}`;
      return `address book is ${c.op === 'in' ? 'one' : 'none'} of ${names.join(', ')}`;
    }
    case 'status':
      return `status ${c.op === 'is' ? 'is' : 'is not'} ${c.value}`;
    case 'tag':
      return `${c.op === 'has' ? 'has' : 'does not have'} tag ${quoted(c.value)}`;
    case 'attribute':
      return attributeNeedsValue(c.op)
        ? `attribute ${c.key} ${OPERATORS.attribute[c.op]} ${attributeValueWords(c.value)}`
        : `attribute ${c.key} ${OPERATORS.attribute[c.op]}`;
    case 'created':
      switch (c.op) {
        case 'before':
        case 'after':
          return `added ${c.op} ${c.value}`;
        case 'inLastDays':
          return `added in the last ${plural(Number(c.value), 'day')}`;
        default:
          return `added more than ${plural(Number(c.value), 'day')} ago`;
      }
    case 'engagement':
      switch (c.op) {
        case 'engagedInLast':
          return `opened or clicked ${lastCampaigns(c.campaigns)}`;
        case 'notEngagedInLast':
          return `opened or clicked none of ${lastCampaigns(c.campaigns)}`;
        case 'everOpened':
          return 'has opened a campaign';
        default:
          return 'has never opened a campaign';
      }
    default: {
      const field = FIELD_LABELS[c.field].toLowerCase();
      const op = OPERATORS[c.field][c.op];
      return valueKindOf(c.field, c.op) === 'none'
        ? `${field} ${op}`
        : `${field} ${op} ${quoted(c.value ?? '')}`;
    }
  }
}

/** A rule in one sentence: "Company contains “acme” and has tag “vip”". */
export function describeRule(rule: SegmentRule, bookName: (id: number) => string): string {
  const join = (match: SegmentMatch, parts: string[]) => parts.join(match === 'all' ? ' and ' : ' or ');
  const text = join(
    rule.match,
    rule.conditions.map((c) =>
      'match' in c
        ? `(${join(
            c.match,
            c.conditions.map((inner) => describeCondition(inner, bookName)),
          )})`
        : describeCondition(c, bookName),
    ),
  );
  return text.charAt(0).toUpperCase() + text.slice(1);
}
