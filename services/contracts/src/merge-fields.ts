/**
 * Merge fields of campaigns and newsletters, filled per recipient by the email service when
 * it sends and by the admin's previews, with this one rule: {{firstName}}, {{lastName}},
 * {{company}}, {{email}} and {{unsubscribeUrl}} (names case-insensitive, spaces allowed inside
 * the braces), each with an optional fallback for a contact who has no such value:
 * `{{firstName|there}}` reads "there" when the first name is empty. A fallback may be quoted,
 * as most mail tools write it: `{{company | "your practice"}}` and `{{company|'your practice'}}`
 * read "your practice" (straight or curly quotes, or the HTML entities of straight ones, as an
 * HTML serialiser writes them in an attribute); the quotes are never sent. A contact's own
 * attributes (docs/adr/0069-contact-edit-and-attributes.md) are `{{attr.plan}}`, with a fallback
 * the same way; `attr.` and the key are matched case-insensitively.
 */

export const MERGE_FIELDS = ['firstName', 'lastName', 'company', 'email', 'unsubscribeUrl'] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];
export type MergeValues = Partial<Record<MergeField, string | null | undefined>> & {
  /** The contact's attributes, for `{{attr.key}}`. */
  attributes?: Readonly<Record<string, string | number | boolean>> | null | undefined;
};
/** An attribute's merge field as written in a template: `attr.` and the key. */
export type AttributeMergeField = `attr.${string}`;

/** The fields a contact may lack (email and the unsubscribe link always have a value). */
export const OPTIONAL_MERGE_FIELDS = ['firstName', 'lastName', 'company'] as const;
export type OptionalMergeField = (typeof OPTIONAL_MERGE_FIELDS)[number];

/** How the editor and the warnings name each field. */
export const MERGE_FIELD_LABELS: Record<MergeField, string> = {
  firstName: 'first name',
  lastName: 'last name',
  company: 'company',
  email: 'email address',
  unsubscribeUrl: 'unsubscribe link',
};

const CANONICAL = new Map(MERGE_FIELDS.map((f) => [f.toLowerCase(), f]));
/** A fallback is plain text: up to 100 characters, no braces or bar. */
const MERGE_FIELD_RE =
  /\{\{\s*(firstName|lastName|company|email|unsubscribeUrl|attr\.[A-Za-z][A-Za-z0-9_]{0,39})\s*(?:\|([^{}|]{0,100}))?\}\}/gi;
const ATTR_PREFIX = 'attr.';
const isAttribute = (raw: string) => raw.slice(0, ATTR_PREFIX.length).toLowerCase() === ATTR_PREFIX;

/** An attribute's value as text (exact key first, then any case); '' when the contact has none. */
function attributeText(attributes: MergeValues['attributes'], key: string): string {
  if (!attributes) return '';
  let v = Object.hasOwn(attributes, key) ? attributes[key] : undefined;
  if (v === undefined) {
    const lower = key.toLowerCase();
    const k = Object.keys(attributes).find((x) => x.toLowerCase() === lower);
    v = k === undefined ? undefined : attributes[k];
  }
  return v === undefined ? '' : String(v);
}

/** Quote pairs a fallback may be wrapped in: straight, curly, and straight ones as HTML entities. */
const QUOTED =
  /^(?:"([\s\S]*)"|'([\s\S]*)'|“([\s\S]*)”|‘([\s\S]*)’|&quot;([\s\S]*)&quot;|&#0*34;([\s\S]*)&#0*34;|&#0*39;([\s\S]*)&#0*39;|&#x0*27;([\s\S]*)&#x0*27;|&apos;([\s\S]*)&apos;)$/i;

/** A fallback as it is used: trimmed, without one pair of surrounding quotes. */
export function fallbackText(raw: string | undefined): string {
  const s = (raw ?? '').trim();
  const m = QUOTED.exec(s);
  if (!m) return s;
  return (m.slice(1).find((g) => g !== undefined) ?? '').trim();
}

/** The template with every merge field replaced; `escapeValue` is applied to each value (HTML). */
export function fillMergeFields(
  template: string,
  values: MergeValues,
  escapeValue: (value: string) => string = (v) => v,
): string {
  return template.replace(MERGE_FIELD_RE, (_m, raw: string, fallback: string | undefined) => {
    const value = isAttribute(raw)
      ? attributeText(values.attributes, raw.slice(ATTR_PREFIX.length))
      : values[CANONICAL.get(raw.toLowerCase()) as MergeField];
    return escapeValue(value?.trim() ? value : fallbackText(fallback));
  });
}

/** Whether the template holds the merge field (with or without a fallback). */
export function hasMergeField(template: string, field: MergeField): boolean {
  return new RegExp(`\\{\\{\\s*${field}\\s*(?:\\|[^{}|]{0,100})?\\}\\}`, 'i').test(template);
}

/**
 * The merge fields a template holds (a rewrite that loses one is refused); attributes as
 * `attr.key` with the key in lower case.
 */
export function mergeFieldsIn(template: string): Set<MergeField | AttributeMergeField> {
  return new Set(
    [...template.matchAll(MERGE_FIELD_RE)].map((m) => {
      const raw = m[1] ?? '';
      return isAttribute(raw)
        ? (`${ATTR_PREFIX}${raw.slice(ATTR_PREFIX.length).toLowerCase()}` as AttributeMergeField)
        : (CANONICAL.get(raw.toLowerCase()) as MergeField);
    }),
  );
}

/** The parts of a mail the pre-send check reads. */
export const MAIL_PARTS = ['subject', 'preheader', 'html', 'text'] as const;
export type MailPart = (typeof MAIL_PARTS)[number];

/**
 * The optional fields a mail uses somewhere WITHOUT a fallback (an empty fallback is none),
 * with the parts that do: a recipient who lacks such a value sees nothing there. Fields used
 * only with a fallback are not listed.
 */
export function fieldsWithoutFallback(
  parts: Partial<Record<MailPart, string | null | undefined>>,
): Array<{ field: OptionalMergeField; parts: MailPart[] }> {
  const found = new Map<OptionalMergeField, Set<MailPart>>();
  for (const part of MAIL_PARTS) {
    const template = parts[part];
    if (!template) continue;
    for (const m of template.matchAll(MERGE_FIELD_RE)) {
      const field = CANONICAL.get((m[1] ?? '').toLowerCase());
      if (!field || !(OPTIONAL_MERGE_FIELDS as readonly string[]).includes(field)) continue;
      if (fallbackText(m[2])) continue;
      const f = field as OptionalMergeField;
      if (!found.has(f)) found.set(f, new Set());
      found.get(f)?.add(part);
    }
  }
  return OPTIONAL_MERGE_FIELDS.filter((f) => found.has(f)).map((f) => ({
    field: f,
    parts: MAIL_PARTS.filter((p) => found.get(f)?.has(p)),
  }));
}

/** A merge field as the editor's menu inserts it: with its fallback (quotes are not needed). */
export function mergeFieldToken(field: MergeField | AttributeMergeField, fallback = ''): string {
  const f = fallback.replace(/[{}|]/g, '').replace(/\s+/g, ' ').trim().slice(0, 100);
  return f ? `{{${field}|${f}}}` : `{{${field}}}`;
}
