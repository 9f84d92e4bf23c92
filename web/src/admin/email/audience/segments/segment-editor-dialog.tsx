import { SEGMENT_LIMITS, SEGMENT_MESSAGES, type Segment, type SegmentInput } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Plus, Save, Trash2 } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { DialogFrame } from '../../../../components/dialog.tsx';
import { toast } from '../../../../components/toast/index.ts';
import { errorStatus } from '../../../../lib/api.ts';
import { AdminForm, useFormFeedback } from '../../../components/form-feedback.tsx';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  FieldError,
  FormAlert,
  inputClass,
  labelClass,
  secondaryButton,
  selectClass,
} from '../../../components/ui.tsx';
import { messageOr } from '../../../lib/api.ts';
import { createSegment, refreshSegments, updateSegment, useAddressBooks, useAttributeKeys } from '../api.ts';
import { ConditionRowEditor } from './condition-row.tsx';
import { RuleCount } from './rule-count.tsx';
import {
  describeRule,
  isGroupRow,
  newRow,
  type RuleRow,
  rowsOf,
  ruleOf,
  type SegmentMatch,
} from './rule-form.ts';

/**
 * New or Edit segment (issue 31, "Contacts you can work with"): a name, all or any of a list of
 * conditions, and the live count of the rule as it is written. The server checks the rule again
 * on save and answers what is wrong with it (a condition without its value, a name in use).
 */
export function SegmentEditorDialog({
  segment,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  segment: Segment | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  return (
    // 3xl: field, operator and value side by side stay readable (the audience dialogs' 2xl is too narrow).
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title={segment ? 'Edit segment' : 'New segment'}
      description={
        segment ? `Change "${segment.name}".` : 'Contacts matching the conditions, counted as you write them.'
      }
      size="xl"
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      {/* Mounted on each opening: the form starts from the segment at once (no first render of the last one's rule). */}
      <SegmentForm segment={segment} onDone={() => onOpenChange(false)} />
    </DialogFrame>
  );
}

function SegmentForm({ segment, onDone }: { segment: Segment | null; onDone: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const books = useAddressBooks();
  const attributes = useAttributeKeys(true);
  const feedback = useFormFeedback<HTMLFormElement>();
  const [name, setName] = useState(segment?.name ?? '');
  const [nameError, setNameError] = useState<string | null>(null);
  const [match, setMatch] = useState<SegmentMatch>(segment?.rule.match ?? 'all');
  const [rows, setRows] = useState<RuleRow[]>(() => (segment ? rowsOf(segment.rule) : [newRow()]));
  const [error, setError] = useState<string | null>(null);

  const attributeKeys = attributes.data?.attributes ?? [];
  const kinds = useMemo(
    () => new Map((attributes.data?.attributes ?? []).map((a) => [a.key, a.kind])),
    [attributes.data],
  );
  const built = ruleOf(match, rows, kinds);
  const bookName = (bookId: number) =>
    books.data?.find((b) => b.id === bookId)?.name ?? `address book #${bookId}`;

  const save = useMutation({
    mutationFn: (input: SegmentInput) => (segment ? updateSegment(segment.id, input) : createSegment(input)),
    onSuccess: async (r) => {
      toast({ title: r.message, description: `"${r.segment.name}"` });
      onDone();
      await refreshSegments(queryClient);
    },
    onError: (err) => {
      const message = messageOr(err, 'The segment could not be saved. Please try again.');
      // A name in use is the name field's problem; any other refusal is the rule's.
      if (errorStatus(err) === 409) setNameError(message);
      else setError(message);
      feedback.report([message]);
    },
  });

  const setRow = (next: RuleRow) => setRows((rs) => rs.map((r) => (r.id === next.id ? next : r)));
  const removeRow = (rowId: number) => setRows((rs) => rs.filter((r) => r.id !== rowId));

  return (
    <AdminForm
      aria-label={segment ? 'Edit segment' : 'New segment'}
      className="space-y-4"
      feedback={feedback}
      onSubmit={() => {
        setError(null);
        if (!name.trim()) {
          setNameError(SEGMENT_MESSAGES.nameNeeded);
          return [SEGMENT_MESSAGES.nameNeeded];
        }
        if ('problem' in built) {
          setError(built.problem);
          return [built.problem];
        }
        save.mutate({ name: name.trim(), rule: built.rule });
      }}
    >
      <FormAlert message={error} />
      <div>
        <label htmlFor={`${id}-name`} className={labelClass}>
          Name
        </label>
        <input
          id={`${id}-name`}
          className={inputClass}
          value={name}
          maxLength={SEGMENT_LIMITS.name}
          required
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${id}-name-error` : undefined}
          onChange={(e) => {
            setName(e.target.value);
            setNameError(null);
          }}
        />
        <FieldError id={`${id}-name-error`} message={nameError ?? undefined} />
      </div>
      <fieldset className="space-y-3">
        <legend className={labelClass}>Conditions</legend>
        <div className="flex flex-wrap items-center gap-2 text-sm text-slate-300">
          <label htmlFor={`${id}-match`}>Match</label>
          <div className="w-24">
            <select
              id={`${id}-match`}
              className={selectClass}
              value={match}
              aria-describedby={`${id}-match-after`}
              onChange={(e) => setMatch(e.target.value as SegmentMatch)}
            >
              <option value="all">all</option>
              <option value="any">any</option>
            </select>
          </div>
          <span id={`${id}-match-after`}>of these conditions</span>
        </div>
        <ul className="space-y-2" aria-label="Conditions">
          {rows.map((r, i) =>
            isGroupRow(r) ? (
              <GroupRowView
                key={r.id}
                index={i}
                text={describeRule(r.group, bookName)}
                onRemove={() => removeRow(r.id)}
              />
            ) : (
              <ConditionRowEditor
                key={r.id}
                row={r}
                index={i}
                books={books.data ?? []}
                attributeKeys={attributeKeys}
                onChange={setRow}
                onRemove={() => removeRow(r.id)}
              />
            ),
          )}
        </ul>
        <button
          type="button"
          className={secondaryButton}
          disabled={rows.length >= SEGMENT_LIMITS.conditions}
          onClick={() => setRows((rs) => [...rs, newRow()])}
        >
          <Plus className="h-4 w-4" aria-hidden="true" />
          Add condition
        </button>
      </fieldset>
      <RuleCount built={built} />
      <DialogActions>
        <CancelButton onCancel={onDone} />
        <BusyButton busy={save.isPending} icon={Save}>
          Save segment
        </BusyButton>
      </DialogActions>
    </AdminForm>
  );
}

/** A group saved through the API: the editor shows it in words and keeps it, or removes it. */
function GroupRowView({ index, text, onRemove }: { index: number; text: string; onRemove: () => void }) {
  return (
    <li className="flex items-start justify-between gap-2 rounded-lg border border-navy-700 px-3 py-2 text-sm">
      <span className="min-w-0 break-words text-slate-200">
        <span className="text-slate-400">Group: </span>
        {text}
      </span>
      <button
        type="button"
        className={secondaryButton}
        aria-label={`Remove condition ${index + 1}`}
        onClick={onRemove}
      >
        <Trash2 className="h-4 w-4" aria-hidden="true" />
      </button>
    </li>
  );
}
