import type { SegmentCondition, SegmentRule, SegmentTextField } from '@parley/contracts';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { isGroup } from './domain/segment-rule.ts';

/**
 * A segment's rule as a condition on `email_contact_facts AS f` (docs/adr/0070-segments.md):
 * each contact's segmentable facts, text stored trimmed and lower-cased ('' for none), with its
 * address's engagement rank. Every value is a parameter; only the shape of the rule (which
 * conditions, joined how) becomes text.
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

const column = (field: SegmentTextField) => sql.ref<string>(`f.${TEXT_COLUMN[field]}`);

/** The Nth newest campaign's rank (null when no campaign went out live). */
const nthNewestRank = (n: number) => sql<number>`(SELECT min(r.rank) FROM (
  SELECT min(s."id") AS rank FROM "email_campaign_sends" s
  WHERE s."live" AND s."started_at" IS NOT NULL
  GROUP BY s."campaign_id" ORDER BY 1 DESC LIMIT ${n}) r)`;

/** Opened or clicked any of the last n campaigns (false when none went out). */
const engagedInLast = (n: number) => sql<SqlBool>`coalesce(f."engaged_rank" >= ${nthNewestRank(n)}, false)`;

function condition(c: SegmentCondition): Cond {
  switch (c.field) {
    case 'book': {
      const inBooks = sql<SqlBool>`f."address_book_id" = ANY(${c.values}::int[])`;
      return c.op === 'in' ? inBooks : sql<SqlBool>`NOT (${inBooks})`;
    }
    case 'status':
      return c.op === 'is' ? sql<SqlBool>`f."status" = ${c.value}` : sql<SqlBool>`f."status" <> ${c.value}`;
    case 'tag': {
      const has = sql<SqlBool>`f."tags" @> ARRAY[${c.value}]::text[]`;
      return c.op === 'has' ? has : sql<SqlBool>`NOT (${has})`;
    }
    case 'attribute': {
      const v = sql`f."attributes" -> ${c.key}`;
      switch (c.op) {
        case 'exists':
          return sql<SqlBool>`coalesce(jsonb_exists(f."attributes", ${c.key}), false)`;
        case 'notExists':
          return sql<SqlBool>`NOT coalesce(jsonb_exists(f."attributes", ${c.key}), false)`;
        case 'gt':
        case 'lt':
          return sql<SqlBool>`(CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v})::numeric END) ${sql.raw(
            c.op === 'gt' ? '>' : '<',
          )} ${Number(c.value)}::numeric`;
        case 'contains':
          return sql<SqlBool>`strpos(lower(f."attributes" ->> ${c.key}), ${String(c.value).toLowerCase()}) > 0`;
        default: {
          // is / isNot, as the value's type: text regardless of case, numbers and yes/no as JSON.
          const is =
            typeof c.value === 'string'
              ? // The text first: most rows fail it, and the type is read only for those that pass.
                sql<SqlBool>`(lower(f."attributes" ->> ${c.key}) = ${c.value.toLowerCase()} AND jsonb_typeof(${v}) = 'string')`
              : sql<SqlBool>`(${v} = ${JSON.stringify(c.value)}::jsonb)`;
          return c.op === 'is' ? is : sql<SqlBool>`NOT coalesce(${is}, false)`;
        }
      }
    }
    case 'created':
      switch (c.op) {
        case 'before':
          return sql<SqlBool>`f."created_at" < ${`${c.value}T00:00:00Z`}::timestamptz`;
        case 'after':
          return sql<SqlBool>`f."created_at" >= ${`${c.value}T00:00:00Z`}::timestamptz + interval '1 day'`;
        case 'inLastDays':
          return sql<SqlBool>`f."created_at" >= now() - make_interval(days => ${Number(c.value)}::int)`;
        default:
          return sql<SqlBool>`f."created_at" < now() - make_interval(days => ${Number(c.value)}::int)`;
      }
    case 'engagement':
      switch (c.op) {
        case 'everOpened':
          return sql<SqlBool>`f."engaged_rank" IS NOT NULL`;
        case 'neverOpened':
          return sql<SqlBool>`f."engaged_rank" IS NULL`;
        case 'engagedInLast':
          return engagedInLast(c.campaigns ?? 1);
        default:
          return sql<SqlBool>`NOT ${engagedInLast(c.campaigns ?? 1)}`;
      }
    default: {
      const col = column(c.field);
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

/** The rule (checked by checkRule) as a condition on `f`. */
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
