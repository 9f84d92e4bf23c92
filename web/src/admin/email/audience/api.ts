import type {
  AddressBook,
  AddressBookInput,
  AddressBookList,
  Contact,
  ContactAttributeKeyList,
  ContactList,
  ContactResponse,
  ContactStatus,
  ContactUpdate,
  DeletedResponse,
  ImportJob,
  ImportJobList,
  ImportMergeMode,
  ImportPreview,
  ImportResult,
  ResubscribeResponse,
  Segment,
  SegmentCount,
  SegmentInput,
  SegmentList,
  SegmentResponse,
  SegmentRule,
} from '@parley/contracts';
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { apiErrorOf, apiErrorOfXhr } from '../../../lib/api.ts';
import { adminQueryRetry, adminRequest } from '../../lib/api.ts';

/**
 * The audience's calls (email marketing §7, admin back office §7; job and export paths as in
 * the gateway's route table): address books, contacts, re-subscribe, imports and their jobs.
 */

export const BOOKS_PATH = '/api/admin/address-books';
export const CONTACTS_PATH = '/api/admin/email/contacts';
export const IMPORTS_PATH = '/api/admin/email/imports';
export const BOOK_IMPORT_PATH = '/api/admin/contacts/import-csv';
export const EMAIL_IMPORT_PATH = '/api/admin/email/import-csv';
export const MANUAL_IMPORT_PATH = '/api/admin/email/import-manual';
export const IMPORT_PREVIEW_PATH = '/api/admin/email/import-preview';
export const MANUAL_IMPORT_PREVIEW_PATH = '/api/admin/email/import-manual/preview';
export const CONTACT_ATTRIBUTES_PATH = '/api/admin/email/contact-attributes';
export const SEGMENTS_PATH = '/api/admin/email/segments';
export const SEGMENT_COUNT_PATH = `${SEGMENTS_PATH}/count`;

/** Contacts stay fresh this long (spec §9: 1 to 5 minutes); writes refresh them at once. */
const CONTACTS_FRESH_MS = 60_000;
/** A running import's progress is read this often. */
export const IMPORT_POLL_MS = 500;

export const bookPath = (id: number) => `${BOOKS_PATH}/${id}`;
export const exportPath = (id: number) => `${BOOKS_PATH}/${id}/export`;
export const segmentPath = (id: number) => `${SEGMENTS_PATH}/${id}`;

export function useAddressBooks(search = '') {
  const q = search.trim();
  return useQuery<AddressBookList>({
    queryKey: [q ? `${BOOKS_PATH}?search=${encodeURIComponent(q)}` : BOOKS_PATH],
    placeholderData: keepPreviousData,
    staleTime: CONTACTS_FRESH_MS,
    ...adminQueryRetry,
  });
}

export interface ContactQuery {
  limit: number;
  offset: number;
  q?: string;
  status?: ContactStatus | '';
  addressBookId?: number | null;
}

export function contactsKey(query: ContactQuery): string {
  const params = new URLSearchParams({ limit: String(query.limit), offset: String(query.offset) });
  if (query.q?.trim()) params.set('q', query.q.trim());
  if (query.status) params.set('status', query.status);
  if (query.addressBookId) params.set('addressBookId', String(query.addressBookId));
  return `${CONTACTS_PATH}?${params}`;
}

export function useContacts(query: ContactQuery, enabled = true) {
  return useQuery<ContactList>({
    queryKey: [contactsKey(query)],
    placeholderData: keepPreviousData,
    staleTime: CONTACTS_FRESH_MS,
    enabled,
    ...adminQueryRetry,
  });
}

const startsWith = (prefix: string) => (q: { queryKey: readonly unknown[] }) =>
  String(q.queryKey[0]).startsWith(prefix);

/**
 * After any change to contacts: every contacts page, every book's counts and every segment's
 * count are read again.
 */
export async function refreshAudience(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ predicate: startsWith(CONTACTS_PATH) }),
    queryClient.invalidateQueries({ predicate: startsWith(BOOKS_PATH) }),
    queryClient.invalidateQueries({ predicate: startsWith(IMPORTS_PATH) }),
    queryClient.invalidateQueries({ queryKey: [CONTACT_ATTRIBUTES_PATH] }),
    refreshSegments(queryClient),
  ]);
}

/** The contacts' attribute names in use (the merge-field menu), read when asked for, a minute fresh. */
export function useAttributeKeys(enabled: boolean) {
  return useQuery({
    queryKey: [CONTACT_ATTRIBUTES_PATH],
    queryFn: () => adminRequest<ContactAttributeKeyList>('GET', CONTACT_ATTRIBUTES_PATH),
    enabled,
    staleTime: 60_000,
    ...adminQueryRetry,
  });
}

// ── segments (docs/adr/0070-segments.md) ──────────────────────────────────

/** The saved segments, by name. */
export function useSegments() {
  return useQuery<SegmentList, Error, Segment[]>({
    queryKey: [SEGMENTS_PATH],
    select: (r) => r.segments,
    staleTime: CONTACTS_FRESH_MS,
    ...adminQueryRetry,
  });
}

/** A saved segment's count now (its recipients and matching contacts). */
export function useSegmentCount(id: number) {
  return useQuery<SegmentCount>({
    queryKey: [`${segmentPath(id)}/count`],
    staleTime: CONTACTS_FRESH_MS,
    ...adminQueryRetry,
  });
}

/**
 * The count of a rule not saved yet (the editor's live count). The last count stays shown while
 * the next is asked for; a rule the server refuses fails the read with its 400 message.
 */
export function useRuleCount(rule: SegmentRule | null) {
  return useQuery<SegmentCount>({
    queryKey: [SEGMENT_COUNT_PATH, rule],
    queryFn: () => adminRequest<SegmentCount>('POST', SEGMENT_COUNT_PATH, { rule }),
    enabled: rule !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: 0,
    ...adminQueryRetry,
  });
}

/** After a segment changes (or the contacts do): the list and every count are read again. */
export function refreshSegments(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: startsWith(SEGMENTS_PATH) });
}

export const createSegment = (input: SegmentInput) =>
  adminRequest<SegmentResponse>('POST', SEGMENTS_PATH, input);
export const updateSegment = (id: number, input: SegmentInput) =>
  adminRequest<SegmentResponse>('PUT', segmentPath(id), input);
export const deleteSegment = (id: number) => adminRequest<DeletedResponse>('DELETE', segmentPath(id));

export const createBook = (input: AddressBookInput) => adminRequest<AddressBook>('POST', BOOKS_PATH, input);
export const updateBook = (id: number, input: AddressBookInput) =>
  adminRequest<AddressBook>('PUT', bookPath(id), input);
export const deleteBook = (id: number) => adminRequest<DeletedResponse>('DELETE', bookPath(id));
export const deleteContact = (id: number) =>
  adminRequest<DeletedResponse>('DELETE', `${CONTACTS_PATH}/${id}`);
export const updateContact = (id: number, patch: ContactUpdate) =>
  adminRequest<ContactResponse>('PATCH', `${CONTACTS_PATH}/${id}`, patch);
export const resubscribeContact = (id: number) =>
  adminRequest<ResubscribeResponse>('POST', `/api/admin/contacts/${id}/resubscribe`);
export const cancelImport = (id: string) => adminRequest<ImportJob>('POST', `${IMPORTS_PATH}/${id}/cancel`);
export const importManual = (contacts: string, addressBookId: number | null, mergeMode: ImportMergeMode) =>
  adminRequest<ImportResult>('POST', MANUAL_IMPORT_PATH, {
    contacts,
    ...(addressBookId ? { addressBookId } : {}),
    mergeMode,
  });

export const previewManualImport = (contacts: string, addressBookId: number | null) =>
  adminRequest<ImportPreview>('POST', MANUAL_IMPORT_PREVIEW_PATH, {
    contacts,
    ...(addressBookId ? { addressBookId } : {}),
  });

/** The preview of a file import: the file read as the import would read it, nothing written. */
export async function previewFileImport(file: File, fields: Record<string, string>): Promise<ImportPreview> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', file);
  const res = await fetch(IMPORT_PREVIEW_PATH, {
    method: 'POST',
    body: form,
    credentials: 'include',
    headers: { 'X-Requested-With': 'parley' },
  });
  if (!res.ok) throw await apiErrorOf(res);
  return (await res.json()) as ImportPreview;
}

export const runningImportKey = (bookId: number) => [
  `${IMPORTS_PATH}?status=running&addressBookId=${bookId}&limit=1`,
];

/** The running import of a book, if any (how a dialog finds its import again after a reload). */
export function useRunningImport(bookId: number | null, enabled: boolean) {
  return useQuery<ImportJobList, Error, ImportJob | null>({
    queryKey: runningImportKey(bookId ?? 0),
    select: (r) => r.imports[0] ?? null,
    enabled: enabled && bookId !== null,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.imports.length ? IMPORT_POLL_MS : false),
    ...adminQueryRetry,
  });
}

/** Every running import (the address-book cards show theirs), read again while any runs. */
export function useRunningImports() {
  return useQuery<ImportJobList, Error, ImportJob[]>({
    queryKey: [`${IMPORTS_PATH}?status=running&limit=100`],
    select: (r) => r.imports,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.imports.length ? 1000 : false),
    ...adminQueryRetry,
  });
}

/** One import job, polled until it has finished. */
export function useImportJob(id: string | null) {
  return useQuery<ImportJob>({
    queryKey: [IMPORTS_PATH, id ?? ''],
    enabled: Boolean(id),
    staleTime: 0,
    refetchInterval: (q) => (!q.state.data || q.state.data.status === 'running' ? IMPORT_POLL_MS : false),
    ...adminQueryRetry,
  });
}

/**
 * Uploads a file to an import call as multipart (fields first, then `file`) with
 * XMLHttpRequest, whose upload progress fetch does not offer. Marked for the gateway's CSRF
 * rule. 200 = finished, 202 = still running (poll the job); errors read like the data layer's:
 * `Error("{status}: {body}")`.
 */
export function uploadImport(
  path: string,
  file: File,
  fields: Record<string, string>,
  onProgress: (sent: number, total: number) => void,
  signal?: AbortSignal,
): Promise<{ status: number; result: ImportResult }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('X-Requested-With', 'parley');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          return resolve({ status: xhr.status, result: JSON.parse(xhr.responseText) as ImportResult });
        } catch {
          return reject(new Error('Invalid response from the import'));
        }
      }
      reject(apiErrorOfXhr(xhr));
    };
    xhr.onerror = () => reject(new Error('Upload failed'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', file);
    xhr.send(form);
  });
}

// ── display ─────────────────────────────────────────────────────────────────

export const contactName = (c: Pick<Contact, 'firstName' | 'lastName'>) =>
  [c.firstName, c.lastName].filter(Boolean).join(' ');

export const STATUS_LABELS: Record<ContactStatus, string> = {
  active: 'Active',
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
};

export const STATUS_BADGE: Record<ContactStatus, string> = {
  active: 'border-emerald-400/40 bg-emerald-400/10 text-emerald-200',
  unsubscribed: 'border-amber-400/40 bg-amber-400/10 text-amber-200',
  bounced: 'border-red-400/40 bg-red-400/10 text-red-200',
};

export const formatCount = (n: number) => n.toLocaleString('en-US');
