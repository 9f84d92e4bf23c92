import { NEWSLETTER_CONTACT_FETCH_LIMIT } from '@parley/contracts';
import { nounFor, plural } from '@parley/contracts/plural';
import { Building2, UserCheck, Users } from 'lucide-react';
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type TabDef, Tabs } from '../../components/tabs.tsx';
import { useDebounced } from '../../lib/use-debounced.ts';
import { ErrorState, inputClass, LoadingState, secondaryButton } from '../components/ui.tsx';
import { contactName, formatCount } from '../email/audience/api.ts';
import { messageOr } from '../lib/api.ts';
import { useAudienceCount, useAudienceSummary, useNewsletterContacts } from './api.ts';
import {
  audienceOf,
  companyMatches,
  contactMatches,
  type RecipientChoice,
  type RecipientTab,
  selectAllState,
  toggleAll,
  toggleOne,
} from './recipients.ts';

/** At most this many rows are drawn at once; select all still takes every match. */
const SHOWN_ROWS = 300;
const SEARCH_DEBOUNCE_MS = 300;

/**
 * How many a choice reaches: All Contacts' server total, the ticked contacts, or the server's
 * count of the ticked companies' contacts (deduplicated). null while it is being counted.
 */
export function useRecipientCount(choice: RecipientChoice, enabled: boolean): number | null {
  const summary = useAudienceSummary(enabled);
  const companies = useAudienceCount(choice.companies, enabled && choice.tab === 'companies');
  if (choice.tab === 'all') return summary.data?.totalContacts ?? null;
  if (choice.tab === 'contacts') return choice.contactIds.length;
  if (!choice.companies.length) return 0;
  return companies.data?.recipients ?? null;
}

/** Whether the choice can be sent: something ticked (the server refuses the rest). */
export const hasRecipients = (choice: RecipientChoice) => audienceOf(choice) !== null;

/**
 * The send and schedule dialogs' recipients (email marketing §2): All Contacts (the server's
 * total), Individual (search by name, email or company; select all and one by one) and By
 * Industry (companies with their counts, search, select all, and the will-receive count).
 */
export function RecipientChooser({
  value,
  onChange,
  count,
  open,
}: {
  value: RecipientChoice;
  onChange: (next: RecipientChoice) => void;
  count: number | null;
  /** The dialog is open: read the audience. */
  open: boolean;
}) {
  const icon = 'h-4 w-4';
  const tabs: TabDef<RecipientTab>[] = [
    { key: 'all', label: 'All Contacts', icon: <Users className={icon} aria-hidden="true" /> },
    { key: 'contacts', label: 'Individual', icon: <UserCheck className={icon} aria-hidden="true" /> },
    { key: 'companies', label: 'By Industry', icon: <Building2 className={icon} aria-hidden="true" /> },
  ];
  return (
    <div data-testid="recipient-chooser">
      <p className="mb-2 text-sm font-medium text-slate-300">Recipients</p>
      <Tabs<RecipientTab>
        label="Recipients"
        tabs={tabs}
        selected={value.tab}
        onSelect={(tab) => onChange({ ...value, tab })}
      >
        {value.tab === 'all' ? (
          <AllPanel count={count} open={open} />
        ) : value.tab === 'contacts' ? (
          <IndividualPanel
            selected={value.contactIds}
            onChange={(contactIds) => onChange({ ...value, contactIds })}
            open={open}
          />
        ) : (
          <IndustryPanel
            selected={value.companies}
            onChange={(companies) => onChange({ ...value, companies })}
            count={count}
            open={open}
          />
        )}
      </Tabs>
    </div>
  );
}

function AllPanel({ count, open }: { count: number | null; open: boolean }) {
  const summary = useAudienceSummary(open);
  if (summary.isError)
    return (
      <ErrorState
        title="Failed to count contacts"
        message={messageOr(summary.error, '')}
        onRetry={() => void summary.refetch()}
      />
    );
  return (
    <p className="rounded-lg border border-navy-700 bg-navy-950/40 px-3 py-3 text-sm text-slate-200">
      Every active contact of every address book, once per address:{' '}
      <strong className="text-white tabular-nums" data-testid="all-contacts-count">
        {count === null ? '…' : formatCount(count)}
      </strong>{' '}
      {nounFor(count ?? 0, 'contact')}.
    </p>
  );
}

function IndividualPanel({
  selected,
  onChange,
  open,
}: {
  selected: number[];
  onChange: (ids: number[]) => void;
  open: boolean;
}) {
  const id = useId();
  const [search, setSearch] = useState('');
  const settled = useDebounced(search, SEARCH_DEBOUNCE_MS);
  const first = useNewsletterContacts('', open);
  // Beyond the fetch limit the list holds only the first 5,000: a search asks the server.
  const truncated = first.data?.hasMore === true;
  const serverQ = truncated ? settled.trim() : '';
  const searched = useNewsletterContacts(serverQ, open && serverQ !== '');
  // Until the server's answer comes, the list stays what the admin sees filtered here: it
  // emptying for the moment of the search undid a "Select all" ticked just then.
  const source = serverQ && searched.data ? searched : first;
  const active = useMemo(
    () => (source.data?.contacts ?? []).filter((c) => c.status === 'active'),
    [source.data],
  );
  const inactive = (source.data?.contacts.length ?? 0) - active.length;
  const matches = useMemo(() => active.filter((c) => contactMatches(c, search)), [active, search]);
  const matchIds = useMemo(() => matches.map((c) => c.id), [matches]);
  const state = selectAllState(selected, matchIds);
  const chosen = new Set(selected);

  if (first.isPending) return <LoadingState label="Loading contacts…" />;
  if (first.isError)
    return (
      <ErrorState
        title="Failed to fetch contacts"
        message={messageOr(first.error, '')}
        onRetry={() => void first.refetch()}
      />
    );
  return (
    <div className="space-y-2">
      <SearchField
        id={`${id}-q`}
        label="Search contacts"
        placeholder="Search by name, email or company"
        value={search}
        onChange={setSearch}
        describedBy={truncated ? `${id}-more` : undefined}
      />
      {truncated ? (
        <p id={`${id}-more`} className="text-xs text-amber-200" data-testid="contacts-truncated">
          More than {formatCount(NEWSLETTER_CONTACT_FETCH_LIMIT)} contacts: the first{' '}
          {formatCount(NEWSLETTER_CONTACT_FETCH_LIMIT)} are listed, and a search looks through all of them on
          the server. To reach everyone, use All Contacts or By Industry.
        </p>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <SelectAll
          state={state}
          label={`Select all (${formatCount(matchIds.length)})`}
          disabled={!matchIds.length}
          onChange={(on) => onChange(toggleAll(selected, matchIds, on))}
        />
        <span className="flex items-center gap-2 text-xs text-slate-300">
          <span data-testid="contacts-selected">{formatCount(selected.length)} selected</span>
          {selected.length ? (
            <button
              type="button"
              className={`${secondaryButton} px-2 py-1 text-xs`}
              onClick={() => onChange([])}
            >
              Clear
            </button>
          ) : null}
        </span>
      </div>
      {serverQ && searched.isError ? (
        <ErrorState
          title="Failed to fetch contacts"
          message={messageOr(searched.error, '')}
          onRetry={() => void searched.refetch()}
        />
      ) : null}
      {serverQ && (searched.isPending || searched.isPlaceholderData) ? (
        <LoadingState label="Searching all contacts…" />
      ) : null}
      <CheckList
        label="Contacts"
        empty={
          serverQ && (searched.isPending || searched.isError)
            ? ''
            : matches.length === 0
              ? 'No contacts match.'
              : null
        }
      >
        {matches.slice(0, SHOWN_ROWS).map((c) => (
          <li key={c.id}>
            <label className="flex cursor-pointer items-start gap-2 rounded-md px-1.5 py-1 text-sm hover:bg-navy-800">
              <input
                type="checkbox"
                className="mt-0.5 h-4 w-4 shrink-0 accent-cyan-500"
                checked={chosen.has(c.id)}
                onChange={(e) => onChange(toggleOne(selected, c.id, e.target.checked))}
              />
              <span className="min-w-0">
                <span className="block break-words text-slate-100">{contactName(c) || c.email}</span>
                <span className="block text-xs break-all text-slate-400">
                  {c.email}
                  {c.company ? ` · ${c.company}` : ''}
                </span>
              </span>
            </label>
          </li>
        ))}
      </CheckList>
      {matches.length > SHOWN_ROWS ? (
        <p className="text-xs text-slate-400">
          {formatCount(SHOWN_ROWS)} of {formatCount(matches.length)} shown; search to narrow the list. Select
          all takes all {formatCount(matches.length)}.
        </p>
      ) : null}
      {inactive > 0 ? (
        <p className="text-xs text-slate-400">
          {formatCount(inactive)} unsubscribed or bounced {nounFor(inactive, 'contact is', 'contacts are')}{' '}
          not listed: they receive no newsletter.
        </p>
      ) : null}
    </div>
  );
}

function IndustryPanel({
  selected,
  onChange,
  count,
  open,
}: {
  selected: string[];
  onChange: (companies: string[]) => void;
  count: number | null;
  open: boolean;
}) {
  const id = useId();
  const [search, setSearch] = useState('');
  const summary = useAudienceSummary(open);
  const companies = summary.data?.companies ?? [];
  const matches = companies.filter((c) => companyMatches(c.company, search));
  const names = matches.map((c) => c.company);
  const chosen = new Set(selected);

  if (summary.isPending) return <LoadingState label="Loading companies…" />;
  if (summary.isError)
    return (
      <ErrorState
        title="Failed to load companies"
        message={messageOr(summary.error, '')}
        onRetry={() => void summary.refetch()}
      />
    );
  return (
    <div className="space-y-2">
      <SearchField
        id={`${id}-q`}
        label="Search companies"
        placeholder="Company name"
        value={search}
        onChange={setSearch}
      />
      <SelectAll
        state={selectAllState(selected, names)}
        label={`Select all (${formatCount(names.length)})`}
        disabled={!names.length}
        onChange={(on) => onChange(toggleAll(selected, names, on))}
      />
      <CheckList
        label="Companies"
        empty={
          !companies.length
            ? 'No contact has a company yet.'
            : matches.length === 0
              ? 'No companies match.'
              : null
        }
      >
        {matches.slice(0, SHOWN_ROWS).map((c) => (
          <li key={c.company}>
            <label className="flex cursor-pointer items-center gap-2 rounded-md px-1.5 py-1 text-sm hover:bg-navy-800">
              <input
                type="checkbox"
                className="h-4 w-4 shrink-0 accent-cyan-500"
                checked={chosen.has(c.company)}
                onChange={(e) => onChange(toggleOne(selected, c.company, e.target.checked))}
              />
              <span className="min-w-0 flex-1 break-words text-slate-100">{c.company}</span>
              <span className="shrink-0 text-xs text-slate-400 tabular-nums">
                {plural(c.count, 'contact')}
              </span>
            </label>
          </li>
        ))}
      </CheckList>
      {matches.length > SHOWN_ROWS ? (
        <p className="text-xs text-slate-400">
          {formatCount(SHOWN_ROWS)} of {formatCount(matches.length)} shown; search to narrow the list.
        </p>
      ) : null}
      <p role="status" className="text-sm text-slate-200" data-testid="industry-count">
        {selected.length === 0 ? (
          'Choose one or more companies.'
        ) : (
          <>
            <strong className="text-white tabular-nums">{count === null ? '…' : formatCount(count)}</strong>{' '}
            {nounFor(count ?? 0, 'contact')} will receive it ({formatCount(selected.length)}{' '}
            {nounFor(selected.length, 'company', 'companies')}).
          </>
        )}
      </p>
    </div>
  );
}

function SelectAll({
  state,
  label,
  disabled,
  onChange,
}: {
  state: 'all' | 'some' | 'none';
  label: string;
  disabled: boolean;
  onChange: (on: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some';
  }, [state]);
  return (
    <label className="flex items-center gap-2 text-sm text-slate-200">
      <input
        ref={ref}
        type="checkbox"
        className="h-4 w-4 accent-cyan-500"
        checked={state === 'all'}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      {label}
    </label>
  );
}

/** A scrolling list of checkboxes; `empty` replaces it (a text, or '' for nothing at all). */
function CheckList({ label, empty, children }: { label: string; empty: string | null; children: ReactNode }) {
  if (empty === '') return null;
  if (empty) return <p className="py-3 text-center text-sm text-slate-400">{empty}</p>;
  return (
    <ul
      aria-label={label}
      className="max-h-60 space-y-0.5 overflow-y-auto rounded-lg border border-navy-700 p-1.5"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling list must be reachable by keyboard (WCAG 2.1.1).
      tabIndex={0}
    >
      {children}
    </ul>
  );
}

/** A chooser's labelled search box. */
function SearchField(props: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  describedBy?: string | undefined;
}) {
  return (
    <div>
      <label htmlFor={props.id} className="mb-1 block text-xs text-slate-400">
        {props.label}
      </label>
      <input
        id={props.id}
        type="search"
        className={inputClass}
        placeholder={props.placeholder}
        value={props.value}
        aria-describedby={props.describedBy}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}
