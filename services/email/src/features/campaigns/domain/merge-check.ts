import {
  fieldsWithoutFallback,
  type MailPart,
  MERGE_FIELD_LABELS,
  type MergeCheckResponse,
  type OptionalMergeField,
} from '@parley/contracts';

/**
 * The pre-send check of merge fields (pure): from the mail's parts and the audience's counts,
 * the fields a recipient may see empty, each as the warning the send dialog shows, e.g. "212 of
 * 8,000 recipients have no company and no fallback: they will see nothing there (subject)."
 */

export type MailContentParts = Partial<Record<MailPart, string | null>>;
export type MergeCheck = MergeCheckResponse;

const count = (n: number) => n.toLocaleString('en-US');

const PART_NAMES: Record<MailPart, string> = {
  subject: 'subject',
  preheader: 'preheader',
  html: 'HTML',
  text: 'text part',
};

const listOf = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

export function mergeCheckOf(
  content: MailContentParts,
  counts: { recipients: number; missing: Record<OptionalMergeField, number> },
  test: { testMode: boolean; testAddresses: number },
): MergeCheck {
  const used = fieldsWithoutFallback(content);
  const fields = used.map(({ field, parts }) => {
    const missing = counts.missing[field];
    const label = MERGE_FIELD_LABELS[field];
    const where = listOf(parts.map((p) => PART_NAMES[p]));
    const message =
      missing === 0
        ? `Every recipient has a ${label} ({{${field}}} in the ${where} has no fallback).`
        : `${count(missing)} of ${count(counts.recipients)} recipient${counts.recipients === 1 ? '' : 's'} ${missing === 1 ? 'has' : 'have'} no ${label} and no fallback: they will see nothing there (${where}).`;
    return { field, label, parts, missing, message };
  });
  const testNote =
    test.testMode && used.length
      ? `Test mode: ${test.testAddresses === 1 ? 'the test address has' : `the ${count(test.testAddresses)} test addresses have`} no contact data, so ${listOf(used.map((u) => `{{${u.field}}}`))} will read as nothing in the test mail; add a fallback to see what such a recipient gets.`
      : null;
  return {
    recipients: counts.recipients,
    fields,
    warnings: fields.filter((f) => f.missing > 0).map((f) => f.message),
    testMode: test.testMode,
    testAddresses: test.testAddresses,
    testNote,
  };
}
