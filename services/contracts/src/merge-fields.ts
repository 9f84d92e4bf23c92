/**
 * Merge fields of campaigns and newsletters, filled per recipient by the email service when
 * it sends and by the admin's previews, with this one rule: {{firstName}}, {{lastName}},
 * {{company}}, {{email}} and {{unsubscribeUrl}} (names case-insensitive, spaces allowed inside
 * the braces), each with an optional fallback for a contact who has no such value:
 * `{{firstName|there}}` reads "there" when the first name is empty.
 */

export const MERGE_FIELDS = ['firstName', 'lastName', 'company', 'email', 'unsubscribeUrl'] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];
export type MergeValues = Partial<Record<MergeField, string | null | undefined>>;

const CANONICAL = new Map(MERGE_FIELDS.map((f) => [f.toLowerCase(), f]));
/** A fallback is plain text: up to 100 characters, no braces or bar. */
const MERGE_FIELD_RE =
  /\{\{\s*(firstName|lastName|company|email|unsubscribeUrl)\s*(?:\|([^{}|]{0,100}))?\}\}/gi;

/** The template with every merge field replaced; `escapeValue` is applied to each value (HTML). */
export function fillMergeFields(
  template: string,
  values: MergeValues,
  escapeValue: (value: string) => string = (v) => v,
): string {
  return template.replace(MERGE_FIELD_RE, (_m, raw: string, fallback: string | undefined) => {
    const value = values[CANONICAL.get(raw.toLowerCase()) as MergeField];
    return escapeValue(value?.trim() ? value : (fallback ?? '').trim());
  });
}

/** Whether the template holds the merge field (with or without a fallback). */
export function hasMergeField(template: string, field: MergeField): boolean {
  return new RegExp(`\\{\\{\\s*${field}\\s*(?:\\|[^{}|]{0,100})?\\}\\}`, 'i').test(template);
}

/** The merge fields a template holds (a rewrite that loses one is refused). */
export function mergeFieldsIn(template: string): Set<MergeField> {
  return new Set(
    [...template.matchAll(MERGE_FIELD_RE)].map(
      (m) => CANONICAL.get((m[1] ?? '').toLowerCase()) as MergeField,
    ),
  );
}
