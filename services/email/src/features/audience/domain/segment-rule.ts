import {
  AUDIENCE_LIMITS,
  SEGMENT_LIMITS,
  SEGMENT_MESSAGES,
  type SegmentCondition,
  type SegmentGroup,
  type SegmentRule,
} from '@parley/contracts';

/**
 * A segment's rule as the schema let it through, checked for what a schema cannot say (a
 * condition that needs a value has one, gt/lt compare numbers, dates are real) and cleaned the
 * way the stored contacts are (text trimmed, tags lower-cased as the contact edit stores them).
 */
export type RuleCheck = { ok: true; rule: SegmentRule } | { ok: false; message: string };

const isGroup = (c: SegmentCondition | SegmentGroup): c is SegmentGroup => 'match' in c;

function cleanCondition(c: SegmentCondition): SegmentCondition | string {
  switch (c.field) {
    case 'book':
      return { ...c, values: [...new Set(c.values)] };
    case 'status':
      return c;
    case 'tag': {
      const value = c.value.trim().toLowerCase().slice(0, AUDIENCE_LIMITS.keyword);
      return value ? { ...c, value } : SEGMENT_MESSAGES.valueNeeded;
    }
    case 'attribute': {
      if (c.op === 'exists' || c.op === 'notExists') return { field: c.field, key: c.key, op: c.op };
      if (c.value === undefined) return SEGMENT_MESSAGES.valueNeeded;
      if (c.op === 'gt' || c.op === 'lt') {
        const n = typeof c.value === 'number' ? c.value : Number(String(c.value).trim());
        return typeof c.value !== 'boolean' && String(c.value).trim() !== '' && Number.isFinite(n)
          ? { ...c, value: n }
          : SEGMENT_MESSAGES.numberNeeded;
      }
      if (typeof c.value === 'string') {
        const value = c.value.trim();
        return value ? { ...c, value } : SEGMENT_MESSAGES.valueNeeded;
      }
      return c;
    }
    case 'created': {
      const dated = c.op === 'before' || c.op === 'after';
      if (dated !== (typeof c.value === 'string')) return SEGMENT_MESSAGES.valueNeeded;
      if (typeof c.value === 'string') {
        const d = new Date(`${c.value}T00:00:00Z`);
        // PostgreSQL has no year 0; a contact's dates are within these anyway.
        const year = d.getUTCFullYear();
        if (
          Number.isNaN(d.getTime()) ||
          d.toISOString().slice(0, 10) !== c.value ||
          year < 1900 ||
          year > 9999
        )
          return SEGMENT_MESSAGES.badDate;
      }
      return c;
    }
    case 'engagement':
      if (c.op === 'neverOpened' || c.op === 'everOpened') return { field: c.field, op: c.op };
      return c.campaigns === undefined ? SEGMENT_MESSAGES.campaignsNeeded : c;
    default: {
      if (c.op === 'isEmpty' || c.op === 'isNotEmpty') return { field: c.field, op: c.op };
      const value = (c.value ?? '').trim();
      return value ? { ...c, value } : SEGMENT_MESSAGES.valueNeeded;
    }
  }
}

export function checkRule(rule: SegmentRule): RuleCheck {
  let count = 0;
  const conditions: SegmentRule['conditions'] = [];
  for (const item of rule.conditions) {
    if (isGroup(item)) {
      const inner: SegmentCondition[] = [];
      for (const c of item.conditions) {
        const cleaned = cleanCondition(c);
        if (typeof cleaned === 'string') return { ok: false, message: cleaned };
        inner.push(cleaned);
      }
      count += inner.length;
      conditions.push({ match: item.match, conditions: inner });
    } else {
      const cleaned = cleanCondition(item);
      if (typeof cleaned === 'string') return { ok: false, message: cleaned };
      count += 1;
      conditions.push(cleaned);
    }
  }
  if (count > SEGMENT_LIMITS.conditions)
    return { ok: false, message: `A segment has at most ${SEGMENT_LIMITS.conditions} conditions` };
  return { ok: true, rule: { match: rule.match, conditions } };
}

export { isGroup };
