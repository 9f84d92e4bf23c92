import { type Static, Type } from 'typebox';
import { AUDIENCE_LIMITS, CONTACT_ATTRIBUTE_KEY_PATTERN, ContactStatusSchema } from './email.ts';
import { RowId } from './http.ts';
import { literalUnion } from './schema.ts';

/**
 * Segments (docs/adr/0070-segments.md): saved filters over the contacts, each a rule of
 * conditions joined by "all" or "any" (one level of groups inside), usable as a campaign's
 * audience beside books and chosen contacts. The email service compiles a rule to SQL with
 * every value a parameter; nothing of a rule is ever text of a statement.
 */

const IsoDateTime = Type.String({ format: 'date-time' });

export const SEGMENT_LIMITS = {
  name: 120,
  /** Conditions in a rule, groups' conditions included. */
  conditions: 30,
  text: 200,
  books: 200,
  /** "the last N campaigns" */
  campaigns: 100,
  days: 36_500,
} as const;

/** Text fields of a contact a condition can test. */
export const SEGMENT_TEXT_FIELDS = [
  'email',
  'firstName',
  'lastName',
  'company',
  'category',
  'source',
] as const;
export type SegmentTextField = (typeof SEGMENT_TEXT_FIELDS)[number];
export const SEGMENT_TEXT_OPS = ['is', 'isNot', 'contains', 'notContains', 'isEmpty', 'isNotEmpty'] as const;
export type SegmentTextOp = (typeof SEGMENT_TEXT_OPS)[number];

const TextCondition = Type.Object(
  {
    field: literalUnion(SEGMENT_TEXT_FIELDS),
    op: literalUnion(SEGMENT_TEXT_OPS),
    /** Compared case-insensitively, trimmed; not read by isEmpty and isNotEmpty. */
    value: Type.Optional(Type.String({ maxLength: SEGMENT_LIMITS.text })),
  },
  { additionalProperties: false },
);
const BookCondition = Type.Object(
  {
    field: Type.Literal('book'),
    op: literalUnion(['in', 'notIn'] as const),
    values: Type.Array(RowId(), { minItems: 1, maxItems: SEGMENT_LIMITS.books }),
  },
  { additionalProperties: false },
);
const StatusCondition = Type.Object(
  { field: Type.Literal('status'), op: literalUnion(['is', 'isNot'] as const), value: ContactStatusSchema },
  { additionalProperties: false },
);
const TagCondition = Type.Object(
  {
    field: Type.Literal('tag'),
    op: literalUnion(['has', 'hasNot'] as const),
    value: Type.String({ minLength: 1, maxLength: AUDIENCE_LIMITS.keyword }),
  },
  { additionalProperties: false },
);
export const SEGMENT_ATTRIBUTE_OPS = ['is', 'isNot', 'contains', 'gt', 'lt', 'exists', 'notExists'] as const;
export type SegmentAttributeOp = (typeof SEGMENT_ATTRIBUTE_OPS)[number];
const AttributeCondition = Type.Object(
  {
    field: Type.Literal('attribute'),
    key: Type.String({ pattern: CONTACT_ATTRIBUTE_KEY_PATTERN }),
    op: literalUnion(SEGMENT_ATTRIBUTE_OPS),
    /** is/isNot compare as the attribute's type (text case-insensitively); gt/lt need a number. */
    value: Type.Optional(
      Type.Union([Type.String({ maxLength: SEGMENT_LIMITS.text }), Type.Number(), Type.Boolean()]),
    ),
  },
  { additionalProperties: false },
);
export const SEGMENT_CREATED_OPS = ['before', 'after', 'inLastDays', 'olderThanDays'] as const;
const CreatedCondition = Type.Object(
  {
    field: Type.Literal('created'),
    op: literalUnion(SEGMENT_CREATED_OPS),
    /** A date (YYYY-MM-DD, UTC midnight) for before/after; whole days for the others. */
    value: Type.Union([
      Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
      Type.Integer({ minimum: 1, maximum: SEGMENT_LIMITS.days }),
    ]),
  },
  { additionalProperties: false },
);
/**
 * Engagement, by address, from the live campaign mail (human opens only: a privacy proxy's
 * fetch is not an open, as in the reports). engagedInLast / notEngagedInLast: opened or
 * clicked any of the last N campaigns sent live; neverOpened / everOpened: any campaign mail.
 */
export const SEGMENT_ENGAGEMENT_OPS = [
  'engagedInLast',
  'notEngagedInLast',
  'neverOpened',
  'everOpened',
] as const;
const EngagementCondition = Type.Object(
  {
    field: Type.Literal('engagement'),
    op: literalUnion(SEGMENT_ENGAGEMENT_OPS),
    campaigns: Type.Optional(Type.Integer({ minimum: 1, maximum: SEGMENT_LIMITS.campaigns })),
  },
  { additionalProperties: false },
);

export const SegmentCondition = Type.Union([
  TextCondition,
  BookCondition,
  StatusCondition,
  TagCondition,
  AttributeCondition,
  CreatedCondition,
  EngagementCondition,
]);
export type SegmentCondition = Static<typeof SegmentCondition>;
export const SEGMENT_MATCH = ['all', 'any'] as const;
export const SegmentGroup = Type.Object(
  {
    match: literalUnion(SEGMENT_MATCH),
    conditions: Type.Array(SegmentCondition, { minItems: 1, maxItems: SEGMENT_LIMITS.conditions }),
  },
  { additionalProperties: false },
);
export type SegmentGroup = Static<typeof SegmentGroup>;
/** A rule: its conditions and groups, all or any of them. */
export const SegmentRule = Type.Object(
  {
    match: literalUnion(SEGMENT_MATCH),
    conditions: Type.Array(Type.Union([SegmentCondition, SegmentGroup]), {
      minItems: 1,
      maxItems: SEGMENT_LIMITS.conditions,
    }),
  },
  { additionalProperties: false },
);
export type SegmentRule = Static<typeof SegmentRule>;

/** Who a rule matches now: every matching contact, and the live recipients a send would have. */
export const SegmentCount = Type.Object({
  /** Matching contacts, any status, a row per contact (an address in two books counts twice). */
  contacts: Type.Integer({ minimum: 0 }),
  /** Active matching contacts, one per address, less the suppression list: as a send resolves them. */
  recipients: Type.Integer({ minimum: 0 }),
});
export type SegmentCount = Static<typeof SegmentCount>;

export const Segment = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  name: Type.String(),
  rule: SegmentRule,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type Segment = Static<typeof Segment>;
export const SegmentList = Type.Object({ segments: Type.Array(Segment) });
export type SegmentList = Static<typeof SegmentList>;

export const SegmentInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: SEGMENT_LIMITS.name }),
    rule: SegmentRule,
  },
  { additionalProperties: false },
);
export type SegmentInput = Static<typeof SegmentInput>;
export const SegmentIdParams = Type.Object({ id: RowId() });
export type SegmentIdParams = Static<typeof SegmentIdParams>;
export const SegmentCountBody = Type.Object({ rule: SegmentRule }, { additionalProperties: false });
export type SegmentCountBody = Static<typeof SegmentCountBody>;

export const SegmentResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  segment: Segment,
});
export type SegmentResponse = Static<typeof SegmentResponse>;

export const SEGMENT_MESSAGES = {
  notFound: 'Segment not found',
  nameNeeded: 'Name the segment',
  gone: 'A chosen segment no longer exists: choose the audience again',
  nameTaken: 'Another segment already has this name',
  created: 'Segment saved',
  updated: 'Segment saved',
  deleted: 'Segment deleted',
  valueNeeded: 'This condition needs a value',
  numberNeeded: 'Greater than and less than compare numbers: enter a number',
  badDate: 'Enter a real date (YYYY-MM-DD)',
  campaignsNeeded: 'Say how many of the last campaigns count',
} as const;

/** A segment a send's audience names, as the send keeps it (the rule as it was at launch). */
export const SendSegment = Type.Object({ id: Type.Integer(), name: Type.String(), rule: SegmentRule });
export type SendSegment = Static<typeof SendSegment>;
