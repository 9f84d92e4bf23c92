import { plural } from '@parley/contracts/plural';
import { useId } from 'react';
import { secondaryButton } from '../../components/ui.tsx';
import { formatCount, useAddressBooks, useSegmentCount, useSegments } from '../audience/api.ts';
import { useRecipients } from '../audience/recipients.ts';

/** A campaign's audience as the picker edits it. */
export interface Targets {
  bookIds: number[];
  contactIds: number[];
  segmentIds: number[];
}

const toggled = (ids: number[], id: number, on: boolean) => (on ? [...ids, id] : ids.filter((x) => x !== id));

/**
 * Who a campaign goes to (email marketing §4: the union of the active contacts of the chosen
 * address books, the chosen contacts and the active contacts the chosen segments match, without
 * duplicates): address books and segments ticked here, and the contacts picked in the Contact
 * search tab (its "Campaign recipients" list). A resend takes no segments (`segments` false).
 */
export function TargetPicker({
  targets,
  onChange,
  segments: withSegments = true,
}: {
  targets: Targets;
  onChange: (next: Targets) => void;
  segments?: boolean;
}) {
  const id = useId();
  const books = useAddressBooks();
  const segments = useSegments();
  const picked = useRecipients();
  const { bookIds, contactIds, segmentIds } = targets;
  const pickedIds = picked.map((r) => r.id);
  // Chosen before their segment was deleted: a send would refuse them, so they are shown to remove.
  const gone = segments.data ? segmentIds.filter((x) => !segments.data.some((s) => s.id === x)) : [];
  const same = pickedIds.length === contactIds.length && pickedIds.every((i) => contactIds.includes(i));
  const listClass = 'max-h-40 space-y-1 overflow-y-auto rounded-lg border border-navy-700 p-2';
  const optionClass = 'flex items-center gap-2 text-sm text-slate-200';
  return (
    <fieldset className="space-y-3" data-testid="target-picker">
      <legend className="mb-1 text-sm font-medium text-slate-300">Recipients</legend>
      <div>
        <p id={`${id}-books`} className="mb-1 text-xs text-slate-400">
          Address books (their active contacts)
        </p>
        <ul aria-labelledby={`${id}-books`} className={listClass}>
          {(books.data ?? []).map((b) => (
            <li key={b.id}>
              <label className={optionClass}>
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-cyan-500"
                  checked={bookIds.includes(b.id)}
                  onChange={(e) =>
                    onChange({ ...targets, bookIds: toggled(bookIds, b.id, e.target.checked) })
                  }
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
      {withSegments ? (
        <div>
          <p id={`${id}-segments`} className="mb-1 text-xs text-slate-400">
            Segments (the active contacts their rules match when it is sent)
          </p>
          <ul aria-labelledby={`${id}-segments`} className={listClass} data-testid="target-segments">
            {(segments.data ?? []).map((s) => (
              <li key={s.id}>
                <label className={optionClass}>
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-cyan-500"
                    checked={segmentIds.includes(s.id)}
                    onChange={(e) =>
                      onChange({ ...targets, segmentIds: toggled(segmentIds, s.id, e.target.checked) })
                    }
                  />
                  <span className="min-w-0 flex-1 truncate">{s.name}</span>
                  <SegmentRecipients segmentId={s.id} />
                </label>
              </li>
            ))}
            {segments.data && !segments.data.length ? (
              <li className="text-xs text-slate-400">No segments yet: create them in the Segments tab.</li>
            ) : null}
            {gone.length ? (
              <li className="flex flex-wrap items-center gap-2 text-xs text-amber-200">
                {gone.length === 1
                  ? 'A chosen segment was deleted.'
                  : `${gone.length} chosen segments were deleted.`}
                <button
                  type="button"
                  className={`${secondaryButton} px-2 py-1 text-xs`}
                  onClick={() =>
                    onChange({ ...targets, segmentIds: segmentIds.filter((x) => !gone.includes(x)) })
                  }
                >
                  Remove from the audience
                </button>
              </li>
            ) : null}
          </ul>
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-slate-200" data-testid="target-contacts">
          {plural(contactIds.length, 'contact')} chosen
        </span>
        {picked.length && !same ? (
          <button
            type="button"
            className={`${secondaryButton} px-2 py-1 text-xs`}
            onClick={() => onChange({ ...targets, contactIds: pickedIds })}
          >
            Use the {formatCount(picked.length)} from Contact search
          </button>
        ) : null}
        {contactIds.length ? (
          <button
            type="button"
            className={`${secondaryButton} px-2 py-1 text-xs`}
            onClick={() => onChange({ ...targets, contactIds: [] })}
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

/** A segment's recipients now, beside its name (as a book shows its contacts). */
function SegmentRecipients({ segmentId }: { segmentId: number }) {
  const count = useSegmentCount(segmentId);
  return (
    <span className="text-xs text-slate-400">{count.data ? formatCount(count.data.recipients) : '…'}</span>
  );
}
