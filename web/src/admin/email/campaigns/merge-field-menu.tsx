import {
  type AttributeMergeField,
  MERGE_FIELD_LABELS,
  MERGE_FIELDS,
  type MergeField,
  mergeFieldToken,
} from '@parley/contracts';
import clsx from 'clsx';
import { Braces } from 'lucide-react';
import { type RefObject, useId, useState } from 'react';
import { inputClass, labelClass, secondaryButton, selectClass } from '../../components/ui.tsx';
import { useAttributeKeys } from '../audience/api.ts';

/**
 * The editors' merge-field menu (campaign and newsletter; issue 35): a field inserted at the
 * cursor of the text box it belongs to, WITH its fallback, the words a contact without that
 * value reads ("there", "your team"), so no mail goes out with a blank where a name should be.
 * The contacts' own attributes in use are offered too, as `{{attr.key}}`.
 */

type MenuField = MergeField | AttributeMergeField;
const isAttribute = (f: MenuField): f is AttributeMergeField => f.startsWith('attr.');
const labelOf = (f: MenuField) => (isAttribute(f) ? f.slice('attr.'.length) : MERGE_FIELD_LABELS[f]);

/** What the menu offers in its fallback box for each field (empty: none). */
export const DEFAULT_FALLBACKS: Record<MergeField, string> = {
  firstName: 'there',
  lastName: '',
  company: 'your team',
  email: '',
  unsubscribeUrl: '',
};

/** Fields every recipient has: no fallback to offer. */
const ALWAYS_SET = new Set<MergeField>(['email', 'unsubscribeUrl']);

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `value` with `token` in place of the selection (or at the cursor; at the end without one), and the cursor after it. */
export function insertAt(
  value: string,
  token: string,
  selection: { start: number | null; end: number | null },
): { value: string; cursor: number } {
  const start = selection.start ?? value.length;
  const end = selection.end ?? start;
  return { value: value.slice(0, start) + token + value.slice(end), cursor: start + token.length };
}

/** The help text of the editors: the fields, the fallback and its quotes. */
export const MERGE_FIELD_HELP =
  'Merge fields: {{firstName}}, {{lastName}}, {{company}}, {{email}}, {{unsubscribeUrl}}. Give a fallback after a bar for contacts who have no such value: {{company|your team}} reads "your team" for them; quotes around the fallback are optional ({{company | "your team"}} works too). Without a fallback they see nothing there. A contact\'s own attributes are {{attr.name}}, with a fallback the same way.';

export function MergeFieldMenu({
  target,
  value,
  onChange,
  fieldLabel,
}: {
  /** The text box the field goes into. */
  target: RefObject<HTMLInputElement | HTMLTextAreaElement | null>;
  value: string;
  onChange: (value: string) => void;
  /** Its label ("Subject"), for the menu's names. */
  fieldLabel: string;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [field, setField] = useState<MenuField>('firstName');
  const [fallback, setFallback] = useState(DEFAULT_FALLBACKS.firstName);
  const attributes = useAttributeKeys(open).data?.attributes ?? [];
  const alwaysSet = !isAttribute(field) && ALWAYS_SET.has(field);
  const token = mergeFieldToken(field, alwaysSet ? '' : fallback);

  const insert = () => {
    const el = target.current;
    const next = insertAt(value, token, { start: el?.selectionStart ?? null, end: el?.selectionEnd ?? null });
    onChange(next.value);
    setOpen(false);
    // After React wrote the value: the cursor just after the field.
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.cursor, next.cursor);
    });
  };

  return (
    <div className="mt-1">
      <button
        type="button"
        className={clsx(secondaryButton, 'px-2 py-1 text-xs')}
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen((o) => !o)}
      >
        <Braces className="h-3.5 w-3.5" aria-hidden="true" />
        Insert merge field<span className="sr-only"> into {fieldLabel}</span>
      </button>
      {open ? (
        <fieldset
          id={`${id}-panel`}
          className="mt-2 grid gap-2 rounded-lg border border-navy-700 p-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
          data-testid="merge-field-menu"
        >
          <legend className="sr-only">Merge field for {fieldLabel}</legend>
          <div>
            <label htmlFor={`${id}-field`} className={labelClass}>
              Field
            </label>
            <select
              id={`${id}-field`}
              className={selectClass}
              value={field}
              onChange={(e) => {
                const f = e.target.value as MenuField;
                setField(f);
                setFallback(isAttribute(f) ? '' : DEFAULT_FALLBACKS[f]);
              }}
            >
              {MERGE_FIELDS.map((f) => (
                <option key={f} value={f}>
                  {capital(MERGE_FIELD_LABELS[f])}
                </option>
              ))}
              {attributes.length ? (
                <optgroup label="Contact attributes">
                  {attributes.map((a) => (
                    <option key={a.key} value={`attr.${a.key}`}>
                      {a.key}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-fallback`} className={labelClass}>
              Fallback
            </label>
            <input
              id={`${id}-fallback`}
              className={inputClass}
              value={alwaysSet ? '' : fallback}
              disabled={alwaysSet}
              maxLength={100}
              placeholder={alwaysSet ? 'Every recipient has one' : 'What a contact without one reads'}
              aria-describedby={`${id}-token`}
              onChange={(e) => setFallback(e.target.value)}
            />
          </div>
          <button type="button" className={clsx(secondaryButton, 'py-2')} onClick={insert}>
            Insert
          </button>
          <p id={`${id}-token`} className="text-xs text-slate-400 sm:col-span-3">
            Inserts <code className="text-slate-200">{token}</code>
            {alwaysSet || fallback.trim()
              ? ''
              : `: a contact without a ${labelOf(field)} will see nothing there.`}
          </p>
        </fieldset>
      ) : null}
    </div>
  );
}
