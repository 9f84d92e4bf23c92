import {
  type AddressBook,
  BOOK_CARD_KEYWORDS,
  type ImportJob,
  POPULAR_BOOK_KEYWORDS,
} from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import clsx from 'clsx';
import { BookUser, Download, Loader2, Pencil, Plus, Search, Trash2, Upload, Users } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../../../components/toast/index.ts';
import { errorStatus } from '../../../../lib/api.ts';
import { formatDate } from '../../../../lib/time.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import {
  Badge,
  cardClass,
  EmptyState,
  ErrorState,
  inputClass,
  LoadingState,
  PageHeader,
  primaryButton,
  secondaryButton,
} from '../../../components/ui.tsx';
import { messageOr } from '../../../lib/api.ts';
import { deleteBook, exportPath, refreshAudience, useAddressBooks, useRunningImports } from '../api.ts';
import { BookDialog } from './book-dialog.tsx';
import { BookImportDialog } from './import-dialog.tsx';

/**
 * Address books (admin back office §2 "Address books") at /admin/address-books: a grid of
 * cards with a search (name, description, keywords) and the popular keyword chips; create,
 * edit, delete (never the default book), import a .csv/.xlsx per book with live progress, and
 * export a book as CSV.
 */
/** The Contacts tab of the email page, showing one book's contacts. */
export const contactsPath = (bookId: number) => `/admin/email?book=${bookId}`;

export default function AddressBooksPage() {
  const searchId = useId();
  const [search, setSearch] = useState('');
  const books = useAddressBooks(search);
  const running = useRunningImports();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<AddressBook | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [importing, setImporting] = useState<AddressBook | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  const [deleting, setDeleting] = useState<AddressBook | null>(null);

  const remove = useMutation({
    mutationFn: (book: AddressBook) => deleteBook(book.id),
    onSuccess: async (_res, book) => {
      toast({
        title: 'Address book deleted successfully',
        description: `"${book.name}" and its contacts were deleted.`,
      });
      setDeleting(null);
      await refreshAudience(queryClient);
    },
    onError: (err) => {
      setDeleting(null);
      if (errorStatus(err) === 409 && /default address book/i.test(messageOr(err, '')))
        toast({ variant: 'destructive', title: 'Cannot Delete', description: messageOr(err, '') });
      else
        toast({
          variant: 'destructive',
          title: 'Error',
          description: `Failed to delete address book: ${messageOr(err, 'Please try again.')}`,
        });
    },
  });

  const runningOf = (book: AddressBook): ImportJob | undefined =>
    running.data?.find((j) => j.addressBookId === book.id);
  const toggleChip = (k: string) => setSearch((s) => (s.trim().toLowerCase() === k ? '' : k));

  return (
    <section>
      <title>Address Books · Parley Admin</title>
      <PageHeader
        title="Address Books"
        description="Lists of contacts: import them from .csv or .xlsx files, keep them up to date, send to them."
        actions={
          <button
            type="button"
            className={primaryButton}
            onClick={() => {
              setEditing(null);
              setFormOpen(true);
            }}
          >
            <Plus className="h-4 w-4" aria-hidden="true" />
            New Address Book
          </button>
        }
      />

      <div className="mb-3 max-w-md">
        <label htmlFor={searchId} className="sr-only">
          Search address books
        </label>
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-slate-500"
            aria-hidden="true"
          />
          <input
            id={searchId}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Search by name, description or keyword…"
            className={clsx(inputClass, 'pl-9')}
          />
        </div>
      </div>
      <ul aria-label="Popular keywords" className="mb-6 flex flex-wrap gap-2">
        {POPULAR_BOOK_KEYWORDS.map((k) => {
          const active = search.trim().toLowerCase() === k;
          return (
            <li key={k}>
              <button
                type="button"
                aria-pressed={active}
                onClick={() => toggleChip(k)}
                className={clsx(
                  'rounded-full border px-3 py-1 text-xs transition',
                  active
                    ? 'border-brand bg-brand/15 text-cyan-100'
                    : 'border-navy-600 text-slate-300 hover:border-brand/60 hover:text-white',
                )}
              >
                {k}
              </button>
            </li>
          );
        })}
      </ul>

      {books.isPending ? (
        <LoadingState label="Loading address books…" />
      ) : books.isError ? (
        <ErrorState
          title="Failed to load address books"
          message={messageOr(books.error, '')}
          onRetry={() => void books.refetch()}
        />
      ) : books.data.length === 0 ? (
        <EmptyState icon={BookUser} title={search ? 'No address book matches' : 'No address books yet'}>
          {search ? 'Try another word, or clear the search.' : 'Create one, then import its contacts.'}
        </EmptyState>
      ) : (
        <ul aria-label="Address books" className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {books.data.map((b) => (
            <BookCard
              key={b.id}
              book={b}
              running={runningOf(b)}
              onImport={() => {
                setImporting(b);
                setImportOpen(true);
              }}
              onEdit={() => {
                setEditing(b);
                setFormOpen(true);
              }}
              onDelete={() => setDeleting(b)}
            />
          ))}
        </ul>
      )}

      <BookDialog book={editing} open={formOpen} onOpenChange={setFormOpen} />
      {importing ? (
        <BookImportDialog
          key={importing.id}
          book={importing}
          open={importOpen}
          onOpenChange={setImportOpen}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title="Delete address book"
        description={deleting ? `Delete "${deleting.name}" and all its contacts?` : ''}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </section>
  );
}

function BookCard({
  book: b,
  running,
  onImport,
  onEdit,
  onDelete,
}: {
  book: AddressBook;
  running: ImportJob | undefined;
  onImport: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const id = useId();
  const shown = b.keywords.slice(0, BOOK_CARD_KEYWORDS);
  const more = b.keywords.length - shown.length;
  const percent =
    running?.bytesTotal && running.bytesTotal > 0
      ? Math.min(100, Math.round((running.bytesReceived / running.bytesTotal) * 100))
      : null;
  return (
    <li>
      <article
        aria-labelledby={`${id}-name`}
        className={clsx(cardClass, 'flex h-full flex-col p-4 sm:p-5')}
        data-testid="book-card"
      >
        <div className="flex items-start gap-3">
          <span
            className="mt-1.5 h-3 w-3 shrink-0 rounded-full"
            style={{ backgroundColor: b.color }}
            aria-hidden="true"
            data-testid="book-color"
          />
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h2 id={`${id}-name`} className="truncate text-base font-semibold text-white">
                {/* The card opens its contacts (the Contacts tab, filtered to this book). */}
                <Link to={contactsPath(b.id)} className="underline-offset-2 hover:text-brand hover:underline">
                  {b.name}
                </Link>
              </h2>
              {b.isDefault ? (
                <Badge className="border-brand/50 bg-brand/10 text-cyan-200">Default</Badge>
              ) : null}
            </div>
            {b.description ? <p className="mt-1 text-sm text-slate-400">{b.description}</p> : null}
          </div>
        </div>
        {/* Each part keeps its words together; the date goes under the count when space runs out. */}
        <p className="mt-3 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-300">
          <Users className="h-4 w-4 shrink-0 text-brand" aria-hidden="true" />
          <span className="whitespace-nowrap" data-testid="book-count">
            {plural(b.contactCount, 'contact')}
          </span>
          <span className="whitespace-nowrap text-slate-400">· Updated {formatDate(b.updatedAt)}</span>
        </p>
        {shown.length ? (
          <ul aria-label="Keywords" className="mt-3 flex flex-wrap gap-1.5">
            {shown.map((k) => (
              <li key={k}>
                <Badge>{k}</Badge>
              </li>
            ))}
            {more > 0 ? (
              <li>
                <Badge className="border-navy-600 text-slate-400">+{more} more</Badge>
              </li>
            ) : null}
          </ul>
        ) : null}
        {running ? (
          <p
            role="status"
            className="mt-3 flex items-center gap-2 text-xs text-cyan-200"
            data-testid="book-importing"
          >
            <Loader2 className="h-3.5 w-3.5 animate-spin motion-reduce:animate-none" aria-hidden="true" />
            Importing… {plural(running.rowsRead, 'row')} read{percent !== null ? ` (${percent}%)` : ''}
          </p>
        ) : null}
        <div className="mt-auto flex flex-wrap gap-2 pt-4">
          <Link to={contactsPath(b.id)} className={secondaryButton} aria-label={`Contacts of ${b.name}`}>
            <Users className="h-4 w-4" aria-hidden="true" />
            Contacts
          </Link>
          <button
            type="button"
            className={secondaryButton}
            onClick={onImport}
            aria-label={`Import contacts into ${b.name}`}
          >
            <Upload className="h-4 w-4" aria-hidden="true" />
            Import
          </button>
          <button type="button" className={secondaryButton} onClick={onEdit} aria-label={`Edit ${b.name}`}>
            <Pencil className="h-4 w-4" aria-hidden="true" />
            Edit
          </button>
          <a
            href={exportPath(b.id)}
            download
            className={secondaryButton}
            aria-label={`Export ${b.name} as CSV`}
          >
            <Download className="h-4 w-4" aria-hidden="true" />
            Export
          </a>
          {b.isDefault ? null : (
            <button
              type="button"
              className={clsx(secondaryButton, 'hover:border-red-400/70 hover:text-red-200')}
              onClick={onDelete}
              aria-label={`Delete ${b.name}`}
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              Delete
            </button>
          )}
        </div>
      </article>
    </li>
  );
}
