import { plural } from '@parley/contracts/plural';
import { useId } from 'react';
import { secondaryButton } from '../../components/ui.tsx';
import { formatCount, useAddressBooks } from '../audience/api.ts';
import { useRecipients } from '../audience/recipients.ts';

/**
 * Who a campaign goes to (email marketing §4: the union of the active contacts of the chosen
 * address books and the chosen contacts, without duplicates): address books ticked here, and
 * the contacts picked in the Contact search tab (its "Campaign recipients" list).
 */
export function TargetPicker({
  bookIds,
  contactIds,
  onChange,
}: {
  bookIds: number[];
  contactIds: number[];
  onChange: (next: { bookIds: number[]; contactIds: number[] }) => void;
}) {
  const id = useId();
  const books = useAddressBooks();
  const picked = useRecipients();
  const pickedIds = picked.map((r) => r.id);
  const same = pickedIds.length === contactIds.length && pickedIds.every((i) => contactIds.includes(i));
  const toggleBook = (bookId: number, on: boolean) =>
    onChange({
      contactIds,
      bookIds: on ? [...bookIds, bookId] : bookIds.filter((b) => b !== bookId),
    });
  return (
    <fieldset className="space-y-3" data-testid="target-picker">
      <legend className="mb-1 text-sm font-medium text-slate-300">Recipients</legend>
      <div>
        <p id={`${id}-books`} className="mb-1 text-xs text-slate-400">
          Address books (their active contacts)
        </p>
        <ul
          aria-labelledby={`${id}-books`}
          className="max-h-40 space-y-1 overflow-y-auto rounded-lg border border-navy-700 p-2"
        >
          {(books.data ?? []).map((b) => (
            <li key={b.id}>
              <label className="flex items-center gap-2 text-sm text-slate-200">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-cyan-500"
                  checked={bookIds.includes(b.id)}
                  onChange={(e) => toggleBook(b.id, e.target.checked)}
                />
                <span className="min-w-0 flex-1 truncate">{b.name}</span>
                <span className="text-xs text-slate-400">{formatCount(b.contactCount)}</span>
              </label>
            </li>
          ))}
          {books.data && !books.data.length ? (
            <li className="text-xs text-slate-400">No address books yet.</li>
          ) : null}
        </ul>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-slate-200" data-testid="target-contacts">
          {plural(contactIds.length, 'contact')} chosen
        </span>
        {picked.length && !same ? (
          <button
            type="button"
            className={`${secondaryButton} px-2 py-1 text-xs`}
            onClick={() => onChange({ bookIds, contactIds: pickedIds })}
          >
            Use the {formatCount(picked.length)} from Contact search
          </button>
        ) : null}
        {contactIds.length ? (
          <button
            type="button"
            className={`${secondaryButton} px-2 py-1 text-xs`}
            onClick={() => onChange({ bookIds, contactIds: [] })}
          >
            Clear contacts
          </button>
        ) : null}
      </div>
      {!picked.length ? (
        <p className="text-xs text-slate-400">Pick single contacts in the Contact search tab.</p>
      ) : null}
    </fieldset>
  );
}
