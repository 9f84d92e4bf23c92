import type { Segment } from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import clsx from 'clsx';
import { Filter, Pencil, Plus, Trash2, Users } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { returnFocusTo } from '../../../../components/dialog-focus.ts';
import { toast } from '../../../../components/toast/index.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import {
  cardClass,
  EmptyState,
  ErrorState,
  LoadingState,
  primaryButton,
  secondaryButton,
} from '../../../components/ui.tsx';
import { messageOr } from '../../../lib/api.ts';
import { deleteSegment, refreshSegments, useAddressBooks, useSegmentCount, useSegments } from '../api.ts';
import { describeRule } from './rule-form.ts';
import { SegmentEditorDialog } from './segment-editor-dialog.tsx';

/**
 * The Segments tab (issue 31, "Contacts you can work with"): saved rules over the contacts, each
 * with its rule in words and its count now; New, Edit and Delete. A campaign can be sent to
 * segments beside address books and chosen contacts.
 */
export function SegmentsTab() {
  const queryClient = useQueryClient();
  const segments = useSegments();
  const [editing, setEditing] = useState<Segment | null>(null);
  const [editorOpen, setEditorOpen] = useState(false);
  const [deleting, setDeleting] = useState<Segment | null>(null);
  const opener = useRef<HTMLElement | null>(null);

  const openEditor = (segment: Segment | null, from: HTMLElement) => {
    opener.current = from;
    setEditing(segment);
    setEditorOpen(true);
  };

  const remove = useMutation({
    mutationFn: (s: Segment) => deleteSegment(s.id),
    onSuccess: async (r, s) => {
      toast({ title: r.message, description: `"${s.name}"` });
      setDeleting(null);
      await refreshSegments(queryClient);
    },
    onError: (err) => {
      setDeleting(null);
      toast({
        variant: 'destructive',
        title: 'Error',
        description: messageOr(err, 'Failed to delete segment'),
      });
    },
  });

  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-white">Segments</h2>
          <p className="text-sm text-slate-400">
            Saved filters over your contacts, kept up to date: send a campaign to one.
          </p>
        </div>
        <button type="button" className={primaryButton} onClick={(e) => openEditor(null, e.currentTarget)}>
          <Plus className="h-4 w-4" aria-hidden="true" />
          New segment
        </button>
      </div>

      {segments.isPending ? (
        <LoadingState label="Loading segments…" />
      ) : segments.isError ? (
        <ErrorState
          title="Failed to load segments"
          message={messageOr(segments.error, '')}
          onRetry={() => void segments.refetch()}
        />
      ) : !segments.data.length ? (
        <EmptyState icon={Filter} title="No segments yet">
          A segment keeps a rule, such as “company contains Dental and has tag vip”, and always counts who
          matches it now.
        </EmptyState>
      ) : (
        <ul aria-label="Segments" className="grid grid-cols-1 gap-3 lg:grid-cols-2">
          {segments.data.map((s) => (
            <SegmentCard
              key={s.id}
              segment={s}
              onEdit={(from) => openEditor(s, from)}
              onDelete={() => setDeleting(s)}
            />
          ))}
        </ul>
      )}

      <SegmentEditorDialog
        segment={editing}
        open={editorOpen}
        onOpenChange={setEditorOpen}
        onCloseAutoFocus={returnFocusTo(opener.current)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title="Delete segment"
        description={
          deleting
            ? `Delete the segment "${deleting.name}"? Its contacts stay; a draft sent to it must choose its audience again.`
            : ''
        }
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </div>
  );
}

function SegmentCard({
  segment: s,
  onEdit,
  onDelete,
}: {
  segment: Segment;
  onEdit: (from: HTMLElement) => void;
  onDelete: () => void;
}) {
  const id = useId();
  const books = useAddressBooks();
  const bookName = (bookId: number) =>
    books.data?.find((b) => b.id === bookId)?.name ?? `address book #${bookId}`;
  return (
    <li>
      <article
        aria-labelledby={`${id}-name`}
        className={clsx(cardClass, 'flex h-full flex-col p-4')}
        data-testid="segment-card"
      >
        <h3 id={`${id}-name`} className="text-base font-semibold break-words text-white">
          {s.name}
        </h3>
        <p className="mt-1 text-sm break-words text-slate-300" data-testid="segment-rule">
          {describeRule(s.rule, bookName)}
        </p>
        <SegmentCountLine segmentId={s.id} />
        <div className="mt-auto flex flex-wrap gap-2 pt-3">
          <button
            type="button"
            className={clsx(secondaryButton, 'px-2.5 py-1.5 text-xs')}
            aria-label={`Edit ${s.name}`}
            onClick={(e) => onEdit(e.currentTarget)}
          >
            <Pencil className="h-3.5 w-3.5" aria-hidden="true" />
            Edit
          </button>
          <button
            type="button"
            className={clsx(
              secondaryButton,
              'px-2.5 py-1.5 text-xs hover:border-red-400/70 hover:text-red-200',
            )}
            aria-label={`Delete ${s.name}`}
            onClick={onDelete}
          >
            <Trash2 className="h-3.5 w-3.5" aria-hidden="true" />
            Delete
          </button>
        </div>
      </article>
    </li>
  );
}

/** "12 recipients · 15 contacts", read for each segment on its own. */
function SegmentCountLine({ segmentId }: { segmentId: number }) {
  const count = useSegmentCount(segmentId);
  return (
    <p className="mt-2 flex items-center gap-2 text-sm text-slate-300" data-testid="segment-count">
      <Users className="h-4 w-4 shrink-0 text-brand" aria-hidden="true" />
      {count.data
        ? `${plural(count.data.recipients, 'recipient')} · ${plural(count.data.contacts, 'contact')}`
        : count.isError
          ? messageOr(count.error, 'Not counted')
          : 'Counting…'}
    </p>
  );
}
