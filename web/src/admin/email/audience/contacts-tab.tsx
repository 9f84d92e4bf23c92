import type { Contact, ContactStatus } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Upload, Users } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from '../../../components/toast/index.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ErrorState, LoadingState, primaryButton, selectClass } from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import {
  deleteContact,
  formatCount,
  refreshAudience,
  resubscribeContact,
  STATUS_LABELS,
  useAddressBooks,
  useContacts,
} from './api.ts';
import { BookSelect } from './book-select.tsx';
import { ContactCard } from './contact-card.tsx';
import { Pager } from './pager.tsx';

export const CONTACTS_PAGE_SIZE = 50;

/**
 * The Contacts tab (email marketing §2): contact cards newest first, 50 a page with Previous
 * and Next, filters by address book and status, Import contacts, Re-subscribe, Delete.
 */
export function ContactsTab({ onImport }: { onImport: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  // The book filter lives in the address (?book=): an address-book card opens its contacts here.
  const [params, setParams] = useSearchParams();
  const bookId = Number(params.get('book')) || null;
  const setBookId = (next: number | null) =>
    setParams(
      (p) => {
        const out = new URLSearchParams(p);
        if (next) out.set('book', String(next));
        else out.delete('book');
        return out;
      },
      { replace: true },
    );
  const [status, setStatus] = useState<ContactStatus | ''>('');
  const books = useAddressBooks();
  const contacts = useContacts({ limit: CONTACTS_PAGE_SIZE, offset, addressBookId: bookId, status });
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const failedOnce = useRef(false);

  useEffect(() => {
    // The spec's notice for a failed read, once per failure.
    if (contacts.isError && !failedOnce.current) {
      failedOnce.current = true;
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to fetch contacts' });
    }
    if (!contacts.isError) failedOnce.current = false;
  }, [contacts.isError]);

  const [resubscribing, setResubscribing] = useState<Contact | null>(null);
  const [consent, setConsent] = useState(false);
  const resubscribe = useMutation({
    mutationFn: (c: Contact) => resubscribeContact(c.id),
    onSuccess: async (r) => {
      toast({ title: 'Contact re-subscribed', description: r.message });
      setResubscribing(null);
      await refreshAudience(queryClient);
    },
    onError: () => {
      setResubscribing(null);
      toast({
        variant: 'destructive',
        title: 'Error',
        description: 'Failed to re-subscribe contact. Please try again.',
      });
    },
  });
  const remove = useMutation({
    mutationFn: (c: Contact) => deleteContact(c.id),
    onSuccess: async (_r, c) => {
      toast({ title: 'Contact deleted', description: c.email });
      setDeleting(null);
      await refreshAudience(queryClient);
    },
    onError: (err) => {
      setDeleting(null);
      toast({
        variant: 'destructive',
        title: 'Error',
        description: messageOr(err, 'Failed to delete contact'),
      });
    },
  });

  const page = contacts.data;
  const filtered = bookId !== null || status !== '';
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap gap-3">
          <BookSelect
            id={`${id}-book`}
            books={books.data ?? []}
            value={bookId}
            onChange={(next) => {
              setBookId(next);
              setOffset(0);
            }}
            labelClassName="mb-1 block text-xs font-medium text-slate-400"
            width="w-56"
          />
          <div>
            <label htmlFor={`${id}-status`} className="mb-1 block text-xs font-medium text-slate-400">
              Status
            </label>
            <select
              id={`${id}-status`}
              className={`${selectClass} w-40`}
              value={status}
              onChange={(e) => {
                setStatus(e.target.value as ContactStatus | '');
                setOffset(0);
              }}
            >
              <option value="">All statuses</option>
              {(Object.keys(STATUS_LABELS) as ContactStatus[]).map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="button" className={primaryButton} onClick={onImport}>
          <Upload className="h-4 w-4" aria-hidden="true" />
          Import contacts
        </button>
      </div>

      {contacts.isPending ? (
        <LoadingState label="Loading contacts…" />
      ) : contacts.isError ? (
        <ErrorState
          title="Failed to fetch contacts"
          message={messageOr(contacts.error, '')}
          onRetry={() => void contacts.refetch()}
        />
      ) : !page?.contacts.length ? (
        <div className="flex flex-col items-center rounded-2xl border border-navy-700 bg-navy-900 px-6 py-12 text-center">
          <Users className="h-10 w-10 text-slate-500" aria-hidden="true" />
          <p className="mt-3 text-sm text-slate-300" data-testid="contacts-empty">
            {filtered
              ? 'No contacts match these filters.'
              : 'No contacts yet. Import your first contacts to get started.'}
          </p>
        </div>
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-400" data-testid="contacts-range">
            Showing {formatCount(offset + 1)}–{formatCount(offset + page.contacts.length)} of{' '}
            {formatCount(page.meta.total)}
          </p>
          <ul aria-label="Contacts" className="grid grid-cols-1 gap-3 lg:grid-cols-2">
            {page.contacts.map((c) => (
              <ContactCard
                key={c.id}
                contact={c}
                resubscribing={resubscribe.isPending && resubscribe.variables?.id === c.id}
                deleting={remove.isPending && remove.variables?.id === c.id}
                onResubscribe={() => {
                  setConsent(false);
                  setResubscribing(c);
                }}
                onDelete={() => setDeleting(c)}
              />
            ))}
          </ul>
          <Pager
            offset={offset}
            pageSize={CONTACTS_PAGE_SIZE}
            hasMore={page.meta.hasMore}
            loading={contacts.isFetching}
            onChange={setOffset}
          />
        </>
      )}
      {/* Mailing someone who unsubscribed again needs their consent: asked before, not after. */}
      <ConfirmDialog
        open={resubscribing !== null}
        onOpenChange={(o) => (o ? undefined : setResubscribing(null))}
        title="Re-subscribe contact"
        description={
          resubscribing
            ? `${resubscribing.email} ${resubscribing.status === 'bounced' ? 'bounced' : 'unsubscribed'}. Re-subscribing sends them campaigns and newsletters again.`
            : ''
        }
        confirmLabel="Re-subscribe"
        cancelLabel="Keep unsubscribed"
        tone="primary"
        confirmDisabled={!consent}
        pending={resubscribe.isPending}
        onConfirm={() => resubscribing && resubscribe.mutate(resubscribing)}
      >
        <p className="mt-3 rounded-lg border border-amber-400/40 bg-amber-400/10 px-3 py-2 text-sm text-amber-100">
          Consent is required: only re-subscribe a contact who has asked to receive your mail again.
        </p>
        <label className="mt-3 flex items-start gap-2 text-sm text-slate-200">
          <input
            type="checkbox"
            className="mt-0.5 h-4 w-4 accent-cyan-500"
            checked={consent}
            onChange={(e) => setConsent(e.target.checked)}
          />
          This contact has given consent to receive email again.
        </label>
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title="Delete contact"
        description={deleting ? `Delete ${deleting.email} from its address book? This cannot be undone.` : ''}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </div>
  );
}
