import {
  type AddressBook,
  AUDIENCE_LIMITS,
  CONTACT_ATTRIBUTE_LIMITS,
  CONTACT_STATUSES,
  type ContactAttributeKeyList,
  SEGMENT_LIMITS,
} from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import { Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { inputClass, secondaryButton, selectClass } from '../../../components/ui.tsx';
import { STATUS_LABELS } from '../api.ts';
import { BookSelect } from '../book-select.tsx';
import {
  attributeNeedsValue,
  type ConditionRow,
  FIELD_LABELS,
  NUMBER_SUFFIX,
  OPERATORS,
  SEGMENT_FIELDS,
  type SegmentField,
  valueKindOf,
  withField,
  withOp,
} from './rule-form.ts';

type AttributeKeys = ContactAttributeKeyList['attributes'];

/** The attribute select's choice for a name not in use yet (typed in the field beside it). */
const OTHER_KEY = '__other__';

/**
 * One condition of the segment editor: field, operator and the value input the two call for.
 * Every control is named after its condition's number ("Condition 2 operator"), as the contact
 * edit form names its attribute rows.
 */
export function ConditionRowEditor({
  row,
  index,
  books,
  attributeKeys,
  onChange,
  onRemove,
}: {
  row: ConditionRow;
  index: number;
  books: readonly AddressBook[];
  attributeKeys: AttributeKeys;
  onChange: (row: ConditionRow) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  // On a phone: field and remove button, then operator, then value, each line full width.
  return (
    <li
      className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-2 rounded-lg border border-navy-700 p-2 sm:grid-cols-[10rem_13rem_minmax(0,1fr)_auto] sm:border-0 sm:p-0"
      data-testid="segment-condition"
    >
      <select
        aria-label={`Condition ${n} field`}
        className={`${selectClass} order-1`}
        value={row.field}
        onChange={(e) => onChange(withField(row, e.target.value as SegmentField))}
      >
        {SEGMENT_FIELDS.map((f) => (
          <option key={f} value={f}>
            {FIELD_LABELS[f]}
          </option>
        ))}
      </select>
      <select
        aria-label={`Condition ${n} operator`}
        className={`${selectClass} order-3 col-span-2 sm:order-2 sm:col-span-1`}
        value={row.op}
        onChange={(e) => onChange(withOp(row, e.target.value))}
      >
        {Object.entries(OPERATORS[row.field]).map(([op, label]) => (
          <option key={op} value={op}>
            {label}
          </option>
        ))}
      </select>
      {/* Kept when empty (an operator without a value), so the button stays in the last column. */}
      <div className="order-4 col-span-2 min-w-0 empty:hidden sm:order-3 sm:col-span-1 sm:empty:block">
        <ValueInput row={row} n={n} books={books} attributeKeys={attributeKeys} onChange={onChange} />
      </div>
      <button
        type="button"
        className={`${secondaryButton} order-2 sm:order-4`}
        aria-label={`Remove condition ${n}`}
        onClick={onRemove}
      >
        <Trash2 className="h-4 w-4" aria-hidden="true" />
      </button>
    </li>
  );
}

function ValueInput({
  row,
  n,
  books,
  attributeKeys,
  onChange,
}: {
  row: ConditionRow;
  n: number;
  books: readonly AddressBook[];
  attributeKeys: AttributeKeys;
  onChange: (row: ConditionRow) => void;
}) {
  const id = useId();
  const set = (value: string) => onChange({ ...row, value });
  switch (valueKindOf(row.field, row.op)) {
    case 'none':
      return null;
    case 'book':
      return (
        <>
          <BookSelect
            id={`${id}-book`}
            label={`Condition ${n} address book`}
            emptyLabel="Choose an address book"
            books={books}
            value={row.bookIds[0] ?? null}
            // The first book is the one shown; the others a rule saved through the API names stay.
            onChange={(bookId) =>
              onChange({ ...row, bookIds: bookId ? [bookId, ...row.bookIds.slice(1)] : [] })
            }
            labelClassName="sr-only"
            width="w-full"
          />
          {row.bookIds.length > 1 ? (
            <p className="mt-1 text-xs text-slate-400">
              And {plural(row.bookIds.length - 1, 'other address book')} of the saved rule.
            </p>
          ) : null}
        </>
      );
    case 'status':
      return (
        <select
          aria-label={`Condition ${n} status`}
          className={selectClass}
          value={row.value}
          onChange={(e) => set(e.target.value)}
        >
          {CONTACT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      );
    case 'date':
      return (
        <input
          type="date"
          aria-label={`Condition ${n} date`}
          className={inputClass}
          value={row.value}
          onChange={(e) => set(e.target.value)}
        />
      );
    case 'days':
    case 'campaigns': {
      const days = row.field === 'created';
      return (
        <div className="flex items-center gap-2">
          <input
            type="number"
            min={1}
            step={1}
            max={days ? SEGMENT_LIMITS.days : SEGMENT_LIMITS.campaigns}
            aria-label={`Condition ${n} ${days ? 'days' : 'campaigns'}`}
            className={`${inputClass} min-w-0 flex-1`}
            value={row.value}
            onChange={(e) => set(e.target.value)}
          />
          <span className="shrink-0 text-sm text-slate-300">{NUMBER_SUFFIX[row.op]}</span>
        </div>
      );
    }
    case 'attribute':
      return <AttributeInputs row={row} n={n} attributeKeys={attributeKeys} onChange={onChange} />;
    default:
      return (
        <input
          aria-label={`Condition ${n} value`}
          className={inputClass}
          maxLength={row.field === 'tag' ? AUDIENCE_LIMITS.keyword : SEGMENT_LIMITS.text}
          value={row.value}
          onChange={(e) => set(e.target.value)}
        />
      );
  }
}

/**
 * An attribute condition: the name chosen among those the contacts use, or typed ("Another
 * name…", or when none is in use yet), then the value; a yes/no attribute compares with Yes or No.
 */
function AttributeInputs({
  row,
  n,
  attributeKeys,
  onChange,
}: {
  row: ConditionRow;
  n: number;
  attributeKeys: AttributeKeys;
  onChange: (row: ConditionRow) => void;
}) {
  const known = attributeKeys.find((a) => a.key === row.attributeKey);
  // "Another name…" stays chosen while its name is typed, even when the name typed is one in use.
  const [otherChosen, setOtherChosen] = useState(false);
  const other = otherChosen || (row.attributeKey !== '' && !known);
  const comparesAs = row.op === 'is' || row.op === 'isNot' ? known?.kind : undefined;
  const cell = 'min-w-0 flex-1 basis-28';
  return (
    <div className="flex flex-wrap gap-2">
      {attributeKeys.length ? (
        <select
          aria-label={`Condition ${n} attribute`}
          className={`${selectClass} ${cell}`}
          value={other ? OTHER_KEY : (known?.key ?? '')}
          onChange={(e) => {
            const key = e.target.value;
            setOtherChosen(key === OTHER_KEY);
            const kind = attributeKeys.find((a) => a.key === key)?.kind;
            onChange({
              ...row,
              attributeKey: key === OTHER_KEY ? '' : key,
              value: kind === 'boolean' ? 'true' : row.value,
            });
          }}
        >
          <option value="">Choose an attribute</option>
          {attributeKeys.map((a) => (
            <option key={a.key} value={a.key}>
              {a.key}
            </option>
          ))}
          <option value={OTHER_KEY}>Another name…</option>
        </select>
      ) : null}
      {other || !attributeKeys.length ? (
        <input
          aria-label={`Condition ${n} attribute name`}
          className={`${inputClass} ${cell}`}
          placeholder="Attribute name"
          maxLength={CONTACT_ATTRIBUTE_LIMITS.key}
          value={row.attributeKey}
          onChange={(e) => onChange({ ...row, attributeKey: e.target.value })}
        />
      ) : null}
      {!attributeNeedsValue(row.op) ? null : comparesAs === 'boolean' ? (
        <select
          aria-label={`Condition ${n} value`}
          className={`${selectClass} ${cell}`}
          value={row.value === 'false' ? 'false' : 'true'}
          onChange={(e) => onChange({ ...row, value: e.target.value })}
        >
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      ) : (
        <input
          aria-label={`Condition ${n} value`}
          className={`${inputClass} ${cell}`}
          inputMode={row.op === 'gt' || row.op === 'lt' || comparesAs === 'number' ? 'decimal' : undefined}
          maxLength={SEGMENT_LIMITS.text}
          value={row.value}
          onChange={(e) => onChange({ ...row, value: e.target.value })}
        />
      )}
    </div>
  );
}
