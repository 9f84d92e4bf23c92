import { type AddressBook, DEFAULT_BOOK_COLOR } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { DialogFrame } from '../../../../components/dialog.tsx';
import { toast } from '../../../../components/toast/index.ts';
import { AdminForm } from '../../../components/form-feedback.tsx';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  FieldError,
  inputClass,
  labelClass,
} from '../../../components/ui.tsx';
import { messageOr } from '../../../lib/api.ts';
import { createBook, refreshAudience, updateBook } from '../api.ts';

/** Colours offered besides the picker (the first is the spec's default cyan). */
const SWATCHES = [
  DEFAULT_BOOK_COLOR,
  '#8b5cf6',
  '#22c55e',
  '#f59e0b',
  '#ef4444',
  '#ec4899',
  '#3b82f6',
  '#64748b',
];

/**
 * Create or Edit Address Book (admin back office §2): name (required), description, colour,
 * and keywords (comma separated; shown on the card and matched by the search).
 */
export function BookDialog({
  book,
  open,
  onOpenChange,
}: {
  book: AddressBook | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [color, setColor] = useState(DEFAULT_BOOK_COLOR);
  const [keywords, setKeywords] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setName(book?.name ?? '');
    setDescription(book?.description ?? '');
    setColor(book?.color ?? DEFAULT_BOOK_COLOR);
    setKeywords(book?.keywords.join(', ') ?? '');
    setNameError(null);
  }, [open, book]);

  const verb = book ? 'update' : 'create';
  const save = useMutation({
    mutationFn: () => {
      const input = { name: name.trim(), description: description.trim() || null, color, keywords };
      return book ? updateBook(book.id, input) : createBook(input);
    },
    onSuccess: async (saved) => {
      toast({
        title: `Address book ${book ? 'updated' : 'created'} successfully`,
        description: `"${saved.name}"`,
      });
      onOpenChange(false);
      await refreshAudience(queryClient);
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: `Failed to ${verb} address book: ${messageOr(err, 'Please try again.')}`,
      }),
  });

  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title={book ? 'Edit Address Book' : 'Create Address Book'}
      description={
        book
          ? 'Change the name, description, colour or keywords.'
          : 'A list of contacts to import into and send to.'
      }
    >
      <AdminForm
        className="space-y-4"
        onSubmit={() => {
          if (!name.trim()) {
            setNameError('Name is required');
            return ['Name is required'];
          }
          save.mutate();
        }}
      >
        <div>
          <label htmlFor={`${id}-name`} className={labelClass}>
            Name
          </label>
          <input
            id={`${id}-name`}
            className={inputClass}
            value={name}
            maxLength={100}
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
        <div>
          <label htmlFor={`${id}-description`} className={labelClass}>
            Description
          </label>
          <textarea
            id={`${id}-description`}
            className={inputClass}
            rows={2}
            maxLength={500}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <fieldset>
          <legend className={labelClass}>Color</legend>
          <div className="flex flex-wrap items-center gap-2">
            {SWATCHES.map((c) => (
              <button
                key={c}
                type="button"
                aria-label={`Color ${c}`}
                aria-pressed={color === c}
                onClick={() => setColor(c)}
                className="h-7 w-7 rounded-full border-2 border-transparent aria-pressed:border-white"
                style={{ backgroundColor: c }}
              />
            ))}
            <label className="ml-1 flex items-center gap-2 text-xs text-slate-400">
              Custom
              <input
                type="color"
                value={color}
                onChange={(e) => setColor(e.target.value)}
                className="h-7 w-10 cursor-pointer rounded border border-navy-600 bg-navy-800"
              />
            </label>
          </div>
        </fieldset>
        <div>
          <label htmlFor={`${id}-keywords`} className={labelClass}>
            Keywords
          </label>
          <input
            id={`${id}-keywords`}
            className={inputClass}
            value={keywords}
            placeholder="law, leads, boston"
            aria-describedby={`${id}-keywords-hint`}
            onChange={(e) => setKeywords(e.target.value)}
          />
          <p id={`${id}-keywords-hint`} className="mt-1 text-xs text-slate-500">
            Comma separated; the search and the keyword chips match them.
          </p>
        </div>
        <DialogActions className="pt-1">
          <CancelButton onCancel={() => onOpenChange(false)} />
          <BusyButton busy={save.isPending}>{book ? 'Save Changes' : 'Create Address Book'}</BusyButton>
        </DialogActions>
      </AdminForm>
    </DialogFrame>
  );
}
