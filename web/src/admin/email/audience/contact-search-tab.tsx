import { CONTACT_PICKER_PAGE_SIZE, type Contact } from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import clsx from 'clsx';
import { Info, ListPlus, Search, X } from 'lucide-react';
import { useId, useMemo, useRef, useState } from 'react';
import { returnFocusTo } from '../../../components/dialog-focus.ts';
import { toast } from '../../../components/toast/index.ts';
import { useDebounced } from '../../../lib/use-debounced.ts';
import {
  Badge,
  cardClass,
  ErrorState,
  inputClass,
  LoadingState,
  primaryButton,
  secondaryButton,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import {
  contactName,
  formatCount,
  STATUS_BADGE,
  STATUS_LABELS,
  useAddressBooks,
  useContacts,
} from './api.ts';
import { BookSelect } from './book-select.tsx';
import { ContactDetailsDialog } from './contact-details-dialog.tsx';
import { Pager } from './pager.tsx';
import {
  addRecipients,
  clearRecipients,
  type Recipient,
  removeRecipient,
  useRecipients,
} from './recipients.ts';

/** Typing settles this long before a search is sent. */
const SEARCH_DEBOUNCE_MS = 250;

/**
 * Contact search and the picker (email marketing §2, §9): a contains-search over name, email
 * and company, 50 a page with Previous and Next, Select All (capped at 50), Add Selected to the
 * campaign recipients, and a details dialog per contact with Add to Campaign. Only active
 * contacts can be picked: only they receive a send.
 */
export function ContactSearchTab() {
  const id = useId();
  const [q, setQ] = useState('');
  const query = useDebounced(q, SEARCH_DEBOUNCE_MS);
  const [bookId, setBookId] = useState<number | null>(null);
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<Map<number, Contact>>(new Map());
  const [details, setDetails] = useState<Contact | null>(null);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const books = useAddressBooks();
  const recipients = useRecipients();
  const chosen = useMemo(() => new Set(recipients.map((r) => r.id)), [recipients]);
  const contacts = useContacts({ limit: CONTACT_PICKER_PAGE_SIZE, offset, q: query, addressBookId: bookId });

  const page = contacts.data;
  const selectable = (page?.contacts ?? []).filter((c) => c.status === 'active' && !chosen.has(c.id));
  const selectAllCount = Math.min(CONTACT_PICKER_PAGE_SIZE, selectable.length);
  const allSelected =
    selectAllCount > 0 && selectable.slice(0, selectAllCount).every((c) => selected.has(c.id));

  const toggle = (c: Contact) =>
    setSelected((s) => {
      const next = new Map(s);
      if (next.has(c.id)) next.delete(c.id);
      else next.set(c.id, c);
      return next;
    });
  const selectAll = (on: boolean) =>
    setSelected((s) => {
      const next = new Map(s);
      for (const c of selectable.slice(0, CONTACT_PICKER_PAGE_SIZE))
        if (on) next.set(c.id, c);
        else next.delete(c.id);
      return next;
    });
  const add = (list: Recipient[]) => {
    const n = addRecipients(list);
    toast({
      title: 'Added to campaign recipients',
      description: n ? `${plural(n, 'contact was', 'contacts were')} added.` : 'They were already there.',
    });
  };

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="min-w-0">
        <div className="mb-3 flex flex-wrap gap-3">
          <div className="min-w-0 flex-1 basis-64">
            <label htmlFor={`${id}-q`} className="sr-only">
              Search contacts
            </label>
            <div className="relative">
              <Search
                className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-slate-500"
                aria-hidden="true"
              />
              <input
                id={`${id}-q`}
                type="search"
                value={q}
                onChange={(e) => {
                  setQ(e.target.value);
                  setOffset(0);
                }}
                placeholder="Search contacts by name, email, company..."
                className={clsx(inputClass, 'pl-9')}
              />
            </div>
          </div>
          <BookSelect
            id={`${id}-book`}
            books={books.data ?? []}
            value={bookId}
            onChange={(next) => {
              setBookId(next);
              setOffset(0);
            }}
            labelClassName="sr-only"
            width="w-52"
          />
        </div>

        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <label className="flex items-center gap-2 text-sm text-slate-200">
            <input
              type="checkbox"
              className="h-4 w-4 accent-cyan-500"
              checked={allSelected}
              disabled={selectAllCount === 0}
              onChange={(e) => selectAll(e.target.checked)}
            />
            Select All ({selectAllCount})
          </label>
          <button
            type="button"
            className={primaryButton}
            disabled={selected.size === 0}
            onClick={() => {
              add([...selected.values()]);
              setSelected(new Map());
            }}
          >
            <ListPlus className="h-4 w-4" aria-hidden="true" />
            Add Selected ({selected.size})
          </button>
        </div>

        {contacts.isPending ? (
          <LoadingState label="Searching contacts…" />
        ) : contacts.isError ? (
          <ErrorState
            title="Failed to fetch contacts"
            message={messageOr(contacts.error, '')}
            onRetry={() => void contacts.refetch()}
          />
        ) : !page?.contacts.length ? (
          <p
            className={clsx(cardClass, 'px-4 py-10 text-center text-sm text-slate-400')}
            data-testid="search-empty"
          >
            {query.trim()
              ? `No contact matches “${query.trim()}”.`
              : 'No contacts yet. Import your first contacts to get started.'}
          </p>
        ) : (
          <>
            <p className="mb-2 text-sm text-slate-400" data-testid="search-total">
              {page.meta.totalExact
                ? plural(page.meta.total, 'contact')
                : `More than ${formatCount(page.meta.total)} contacts`}
              {query.trim() ? ' match' : ''}
            </p>
            <ul aria-label="Search results" className={clsx(cardClass, 'divide-y divide-navy-800')}>
              {page.contacts.map((c) => {
                const inCampaign = chosen.has(c.id);
                const name = contactName(c) || c.email;
                return (
                  <li key={c.id} className="flex items-center gap-3 px-3 py-2.5" data-testid="search-row">
                    <input
                      type="checkbox"
                      className="h-4 w-4 shrink-0 accent-cyan-500"
                      aria-label={`Select ${c.email}`}
                      checked={selected.has(c.id) || inCampaign}
                      disabled={inCampaign || c.status !== 'active'}
                      onChange={() => toggle(c)}
                    />
                    <div className="min-w-0 flex-1">
                      <p className="truncate text-sm font-medium text-white">{name}</p>
                      <p className="truncate text-xs text-slate-400">
                        {c.email}
                        {c.company ? ` · ${c.company}` : ''}
                      </p>
                    </div>
                    {c.status !== 'active' ? (
                      <Badge className={STATUS_BADGE[c.status]}>{STATUS_LABELS[c.status]}</Badge>
                    ) : inCampaign ? (
                      <Badge className="border-brand/50 bg-brand/10 text-cyan-200">In campaign</Badge>
                    ) : null}
                    <button
                      type="button"
                      className={clsx(secondaryButton, 'px-2 py-1')}
                      aria-label={`Details of ${c.email}`}
                      onClick={(e) => {
                        opener.current = e.currentTarget;
                        setDetails(c);
                        setDetailsOpen(true);
                      }}
                    >
                      <Info className="h-4 w-4" aria-hidden="true" />
                      <span className="hidden sm:inline">Details</span>
                    </button>
                  </li>
                );
              })}
            </ul>
            <Pager
              offset={offset}
              pageSize={CONTACT_PICKER_PAGE_SIZE}
              hasMore={page.meta.hasMore}
              loading={contacts.isFetching}
              onChange={setOffset}
            />
          </>
        )}
      </div>

      <aside
        aria-labelledby={`${id}-tray`}
        className={clsx(cardClass, 'h-fit p-4')}
        data-testid="recipients-tray"
      >
        <div className="flex items-center justify-between gap-2">
          <h2 id={`${id}-tray`} className="text-sm font-semibold text-white">
            Campaign recipients ({formatCount(recipients.length)})
          </h2>
          {recipients.length ? (
            <button
              type="button"
              className="text-xs text-slate-400 hover:text-white"
              onClick={clearRecipients}
            >
              Clear
            </button>
          ) : null}
        </div>
        <p className="mt-1 text-xs text-slate-500">
          Kept in this browser tab: a campaign's Recipients can use them (Manual Create, Edit, Send).
        </p>
        {recipients.length ? (
          <ul className="mt-3 max-h-72 space-y-1 overflow-y-auto text-sm" aria-label="Chosen recipients">
            {recipients.map((r) => (
              <li key={r.id} className="flex items-center justify-between gap-2">
                <span className="truncate text-slate-200">{r.email}</span>
                <button
                  type="button"
                  aria-label={`Remove ${r.email}`}
                  className="rounded p-0.5 text-slate-500 hover:text-white"
                  onClick={() => removeRecipient(r.id)}
                >
                  <X className="h-3.5 w-3.5" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </aside>

      <ContactDetailsDialog
        contact={details}
        books={books.data ?? []}
        open={detailsOpen}
        onOpenChange={setDetailsOpen}
        added={details ? chosen.has(details.id) : false}
        onAddToCampaign={(c) => add([c])}
        onSaved={setDetails}
        onCloseAutoFocus={returnFocusTo(opener.current)}
      />
    </div>
  );
}
