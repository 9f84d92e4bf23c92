import type { SegmentCondition, SegmentRule, SegmentTextField } from '@parley/contracts';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { isGroup } from './domain/segment-rule.ts';

/**
 * A segment's rule as a condition on `email_contacts AS c` (docs/adr/0070-segments.md). Every
 * value is a parameter; only the shape of the rule (which conditions, joined how) becomes text.
 * Text compares as the stored contacts are searched: trimmed, case-insensitive, a missing
 * value as ''. Engagement reads email_address_engagement by the contact's address.
 */
type Cond = RawBuilder<SqlBool>;

const TEXT_COLUMN: Record<SegmentTextField, string> = {
  email: 'email_key',
  firstName: 'first_name',
  lastName: 'last_name',
  company: 'company',
  category: 'category',
  source: 'source',
};

const lowered = (field: SegmentTextField) =>
  sql<string>`lower(btrim(coalesce(${sql.ref(`c.${TEXT_COLUMN[field]}`)}, '')))`;

/** The Nth newest campaign's rank (null when no campaign went out live). */
const nthNewestRank = (n: number) => sql<number>`(SELECT min(r.rank) FROM (
  SELECT min(s."id") AS rank FROM "email_campaign_sends" s
  WHERE s."live" AND s."started_at" IS NOT NULL
  GROUP BY s."campaign_id" ORDER BY 1 DESC LIMIT ${n}) r)`;

const engaged = (since: ReturnType<typeof nthNewestRank> | null) =>
  sql<SqlBool>`EXISTS (SELECT 1 FROM "email_address_engagement" e
    WHERE e."address" = c."email_key"${since ? sql` AND e."engaged_rank" >= ${since}` : sql``})`;

function condition(c: SegmentCondition): Cond {
  switch (c.field) {
    case 'book': {
      const inBooks = sql<SqlBool>`c."address_book_id" = ANY(${c.values}::int[])`;
      return c.op === 'in' ? inBooks : sql<SqlBool>`NOT (${inBooks})`;
    }
    case 'status':
      return c.op === 'is'
        ? sql<SqlBool>`c."status"::text = ${c.value}`
        : sql<SqlBool>`c."status"::text <> ${c.value}`;
    case 'tag': {
      const has = sql<SqlBool>`c."tags" @> ARRAY[${c.value}]::text[]`;
      return c.op === 'has' ? has : sql<SqlBool>`NOT (${has})`;
    }
    case 'attribute': {
      const v = sql`c."custom_fields" -> ${c.key}`;
      switch (c.op) {
        case 'exists':
          return sql<SqlBool>`jsonb_exists(c."custom_fields", ${c.key})`;
        case 'notExists':
          return sql<SqlBool>`NOT jsonb_exists(c."custom_fields", ${c.key})`;
        case 'gt':
        case 'lt':
          return sql<SqlBool>`(CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v})::numeric END) ${sql.raw(
            c.op === 'gt' ? '>' : '<',
          )} ${Number(c.value)}::numeric`;
        case 'contains':
          return sql<SqlBool>`strpos(lower(c."custom_fields" ->> ${c.key}), ${String(c.value).toLowerCase()}) > 0`;
        default: {
          // is / isNot, as the value's type: text regardless of case, numbers and yes/no as JSON.
          const is =
            typeof c.value === 'string'
              ? sql<SqlBool>`(jsonb_typeof(${v}) = 'string' AND lower(c."custom_fields" ->> ${c.key}) = ${c.value.toLowerCase()})`
              : sql<SqlBool>`(${v} = ${JSON.stringify(c.value)}::jsonb)`;
          return c.op === 'is' ? is : sql<SqlBool>`NOT coalesce(${is}, false)`;
        }
      }
    }
    case 'created':
      switch (c.op) {
        case 'before':
          return sql<SqlBool>`c."created_at" < ${`${c.value}T00:00:00Z`}::timestamptz`;
        case 'after':
          return sql<SqlBool>`c."created_at" >= ${`${c.value}T00:00:00Z`}::timestamptz + interval '1 day'`;
        case 'inLastDays':
          return sql<SqlBool>`c."created_at" >= now() - make_interval(days => ${Number(c.value)}::int)`;
        default:
          return sql<SqlBool>`c."created_at" < now() - make_interval(days => ${Number(c.value)}::int)`;
      }
    case 'engagement':
      switch (c.op) {
        case 'everOpened':
          return engaged(null);
        case 'neverOpened':
          return sql<SqlBool>`NOT ${engaged(null)}`;
        case 'engagedInLast':
          return engaged(nthNewestRank(c.campaigns ?? 1));
        default:
          return sql<SqlBool>`NOT ${engaged(nthNewestRank(c.campaigns ?? 1))}`;
      }
    default: {
      const col = lowered(c.field);
      const value = (c.value ?? '').toLowerCase();
      switch (c.op) {
        case 'is':
          return sql<SqlBool>`${col} = ${value}`;
        case 'isNot':
          return sql<SqlBool>`${col} <> ${value}`;
        case 'contains':
          return sql<SqlBool>`strpos(${col}, ${value}) > 0`;
        case 'notContains':
          return sql<SqlBool>`strpos(${col}, ${value}) = 0`;
        case 'isEmpty':
          return sql<SqlBool>`${col} = ''`;
        default:
          return sql<SqlBool>`${col} <> ''`;
      }
    }
  }
}

const joined = (match: 'all' | 'any', parts: Cond[]): Cond =>
  sql<SqlBool>`(${sql.join(parts, sql.raw(match === 'all' ? ' AND ' : ' OR '))})`;

/** The rule (checked by checkRule) as a condition on `c`. */
export function segmentCondition(rule: SegmentRule): Cond {
  return joined(
    rule.match,
    rule.conditions.map((item) =>
      isGroup(item) ? joined(item.match, item.conditions.map(condition)) : condition(item),
    ),
  );
}

/** Any of the rules (a send's segments), or false when none. */
export function anySegment(rules: SegmentRule[]): Cond {
  return rules.length ? joined('any', rules.map(segmentCondition)) : sql<SqlBool>`false`;
}
