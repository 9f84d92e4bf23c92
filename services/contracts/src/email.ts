import { type Static, Type } from 'typebox';
import { PageOffset, RowId, UuidId } from './http.ts';
import { plural } from './plural.ts';
import { literalUnion } from './schema.ts';

/**
 * API contracts of the email service's audience: address books, contacts, the suppression
 * list, imports and exports (the mail half's schemas live in email-mail.ts), and the events
 * the audience publishes.
 */

const IsoDateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

// ── constants ────────────────────────────────────────────────────────────────

/** Colour of a new address book (spec: cyan, stored as #06b6d4). */
export const DEFAULT_BOOK_COLOR = '#06b6d4';
/** Popular keyword chips above the address-book grid (spec §2 "Address books"). */
export const POPULAR_BOOK_KEYWORDS = [
  'insurance',
  'law',
  'legal',
  'real estate',
  'healthcare',
  'medical',
  'leads',
  'prospects',
  'clients',
] as const;
/** Keywords shown on a card before '+N more'. */
export const BOOK_CARD_KEYWORDS = 5;
/** Contact picker page size; its Select All is capped at this many (spec §9). */
export const CONTACT_PICKER_PAGE_SIZE = 50;
/** Largest page of the contacts list (the newsletter screen asks for 5000). */
export const CONTACTS_MAX_LIMIT = 5000;
/**
 * A search counts its matches up to this many; beyond it `total` is this figure and
 * `totalExact` is false (the exact count of a contains-search over a million rows is a scan).
 */
export const CONTACT_SEARCH_COUNT_CAP = 1000;
/** Rejected rows an import lists (with their line numbers); the count covers them all. */
export const IMPORT_ERRORS_LISTED = 100;
/** Largest import request the gateway forwards (its route table's limit for the import calls). */
export const IMPORT_MAX_BYTES = 200 * 1024 * 1024;
/** Largest file an import accepts: the request's limit less room for the multipart envelope. */
export const IMPORT_MAX_FILE_BYTES = IMPORT_MAX_BYTES - 64 * 1024;

export const AUDIENCE_LIMITS = {
  bookName: 100,
  bookDescription: 500,
  keyword: 40,
  keywords: 30,
  tags: 30,
  email: 254,
  name: 100,
  company: 200,
  phone: 40,
  website: 500,
  address: 500,
  category: 200,
  description: 2000,
  search: 200,
  manualText: 1_000_000,
} as const;

export const CONTACT_STATUSES = ['active', 'unsubscribed', 'bounced'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];
export const ContactStatusSchema = literalUnion(CONTACT_STATUSES);

export const SUPPRESSION_REASONS = ['unsubscribed', 'bounced', 'complained'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
export const SuppressionReasonSchema = literalUnion(SUPPRESSION_REASONS);

export const IMPORT_STATUSES = ['running', 'completed', 'failed', 'cancelled'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const ImportStatusSchema = literalUnion(IMPORT_STATUSES);
/** receiving: the upload is being read and staged; saving: the last rows are written and committed. */
export const IMPORT_PHASES = ['receiving', 'saving', 'done'] as const;
export type ImportPhase = (typeof IMPORT_PHASES)[number];
/** Where an import's rows came from. */
export const IMPORT_KINDS = ['csv', 'xlsx', 'manual'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/**
 * Text encodings a CSV import can be told to read (WHATWG labels, as TextDecoder knows them).
 * 'auto' detects: a byte-order mark (UTF-8, UTF-16), else UTF-8 when the bytes are UTF-8,
 * else Windows-1252 (the Latin-1 superset Excel writes in Western locales).
 */
export const IMPORT_ENCODINGS = [
  'auto',
  'utf-8',
  'utf-16le',
  'utf-16be',
  'windows-1252',
  'windows-1250',
  'windows-1251',
  'iso-8859-2',
  'shift_jis',
  'gb18030',
] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];
/** An encoding a CSV was read in. */
export type TextEncoding = Exclude<ImportEncoding, 'auto'>;
export const ImportEncodingSchema = literalUnion(IMPORT_ENCODINGS);

/**
 * What an import does with a contact already in the book (Mautic's and Brevo's choices):
 * fill: only its empty fields take the file's values (the default: nothing it has is lost);
 * overwrite: the file's non-empty values replace what it has; skip: it is left as it is.
 * Tags are added in fill and overwrite. Status is never changed by an import.
 */
export const IMPORT_MERGE_MODES = ['fill', 'overwrite', 'skip'] as const;
export type ImportMergeMode = (typeof IMPORT_MERGE_MODES)[number];
export const ImportMergeModeSchema = literalUnion(IMPORT_MERGE_MODES);
export const DEFAULT_IMPORT_MERGE_MODE: ImportMergeMode = 'fill';
export const IMPORT_MERGE_MODE_LABELS: Record<ImportMergeMode, string> = {
  fill: 'Fill empty fields only',
  overwrite: 'Overwrite with the file',
  skip: 'Skip existing contacts',
};

// ── address books ──────────────────────────────────────────────────────────────

export const AddressBook = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  name: Type.String(),
  description: Nullable(Type.String()),
  color: Type.String(),
  isDefault: Type.Boolean(),
  /** Exact number of contacts in the book. */
  contactCount: Type.Integer({ minimum: 0 }),
  /** Of those, unsubscribed and bounced (the rest are active). */
  unsubscribedCount: Type.Integer({ minimum: 0 }),
  bouncedCount: Type.Integer({ minimum: 0 }),
  tags: Type.Array(Type.String()),
  keywords: Type.Array(Type.String()),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type AddressBook = Static<typeof AddressBook>;
export const AddressBookList = Type.Array(AddressBook);
export type AddressBookList = Static<typeof AddressBookList>;

export const AddressBookListQuery = Type.Object({
  /** Matches name, description, keywords and tags (case-insensitive, contains). */
  search: Type.Optional(Type.String({ maxLength: AUDIENCE_LIMITS.search })),
});
export type AddressBookListQuery = Static<typeof AddressBookListQuery>;

/** Keywords and tags: a list, or the form's comma-separated text. */
const WordList = Type.Union([
  Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 }),
  Type.String({ maxLength: 4000 }),
]);

/**
 * Create (POST) and update (PUT) of an address book. Name is required on create (the
 * service answers the spec's 'Name is required'); the colour is a #rrggbb hex.
 */
export const AddressBookInput = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 500 })),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  color: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  tags: Type.Optional(WordList),
  keywords: Type.Optional(WordList),
});
export type AddressBookInput = Static<typeof AddressBookInput>;

export const AddressBookIdParams = Type.Object({ id: RowId() });
export type AddressBookIdParams = Static<typeof AddressBookIdParams>;

export const DeletedResponse = Type.Object({ success: Type.Literal(true), message: Type.String() });
export type DeletedResponse = Static<typeof DeletedResponse>;

// ── contacts ─────────────────────────────────────────────────────────────────

/**
 * A contact's own attributes (listmonk's "attribs"): typed key/values an admin sets on the
 * contact, usable as merge fields. Keys start with a letter (letters, digits, `_`); values are
 * text, numbers or yes/no.
 */
export const CONTACT_ATTRIBUTE_LIMITS = { keys: 50, key: 40, text: 1000 } as const;
export const CONTACT_ATTRIBUTE_KEY_PATTERN = `^[A-Za-z][A-Za-z0-9_]{0,${CONTACT_ATTRIBUTE_LIMITS.key - 1}}$`;
export const ContactAttributeValue = Type.Union([
  Type.String({ maxLength: CONTACT_ATTRIBUTE_LIMITS.text }),
  Type.Number(),
  Type.Boolean(),
]);
export type ContactAttributeValue = Static<typeof ContactAttributeValue>;
export const ContactAttributes = Type.Record(
  Type.String({ pattern: CONTACT_ATTRIBUTE_KEY_PATTERN }),
  ContactAttributeValue,
  { additionalProperties: false, maxProperties: CONTACT_ATTRIBUTE_LIMITS.keys },
);
export type ContactAttributes = Static<typeof ContactAttributes>;
export const CONTACT_ATTRIBUTE_KINDS = ['text', 'number', 'boolean'] as const;
/** The attribute names in use (the merge-field menu's list), each with the type it was first saved as. */
export const ContactAttributeKeyList = Type.Object({
  attributes: Type.Array(Type.Object({ key: Type.String(), kind: literalUnion(CONTACT_ATTRIBUTE_KINDS) })),
});
export type ContactAttributeKeyList = Static<typeof ContactAttributeKeyList>;

export const Contact = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  addressBookId: Type.Integer({ minimum: 1 }),
  email: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  company: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  website: Nullable(Type.String()),
  address: Nullable(Type.String()),
  category: Nullable(Type.String()),
  rating: Nullable(Type.Number()),
  reviewCount: Nullable(Type.Integer()),
  description: Nullable(Type.String()),
  source: Type.String(),
  status: ContactStatusSchema,
  tags: Type.Array(Type.String()),
  attributes: ContactAttributes,
  subscribedAt: Nullable(IsoDateTime),
  unsubscribedAt: Nullable(IsoDateTime),
  lastContactedAt: Nullable(IsoDateTime),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type Contact = Static<typeof Contact>;

export const ContactListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: CONTACTS_MAX_LIMIT, default: 50 })),
  offset: PageOffset(),
  /** Contains-search over name, email and company (case-insensitive). */
  q: Type.Optional(Type.String({ maxLength: AUDIENCE_LIMITS.search })),
  status: Type.Optional(ContactStatusSchema),
  addressBookId: Type.Optional(RowId()),
});
export type ContactListQuery = Static<typeof ContactListQuery>;
export const BookContactsQuery = Type.Omit(ContactListQuery, ['addressBookId']);
export type BookContactsQuery = Static<typeof BookContactsQuery>;

export const ContactListMeta = Type.Object({
  hasMore: Type.Boolean(),
  /** Matching contacts: exact without a search; a search counts up to CONTACT_SEARCH_COUNT_CAP. */
  total: Type.Integer({ minimum: 0 }),
  /** False when `total` is the cap of a search that matches more. */
  totalExact: Type.Boolean(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
export type ContactListMeta = Static<typeof ContactListMeta>;

export const ContactList = Type.Object({ contacts: Type.Array(Contact), meta: ContactListMeta });
export type ContactList = Static<typeof ContactList>;

/** Contacts are `bigserial`: their ids go beyond `integer`. */
export const ContactIdParams = Type.Object({ id: RowId('bigint') });
export type ContactIdParams = Static<typeof ContactIdParams>;

/**
 * An edit of one contact (PATCH): only the fields sent change; null or '' clears a field. Tags
 * and attributes are replaced whole. The status is not edited here: unsubscribing and
 * re-subscribing have their own calls, which keep the suppression list right.
 */
export const ContactUpdate = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: AUDIENCE_LIMITS.email })),
    firstName: Type.Optional(Nullable(Type.String({ maxLength: AUDIENCE_LIMITS.name }))),
    lastName: Type.Optional(Nullable(Type.String({ maxLength: AUDIENCE_LIMITS.name }))),
    company: Type.Optional(Nullable(Type.String({ maxLength: AUDIENCE_LIMITS.company }))),
    phone: Type.Optional(Nullable(Type.String({ maxLength: AUDIENCE_LIMITS.phone }))),
    website: Type.Optional(Nullable(Type.String({ maxLength: AUDIENCE_LIMITS.website }))),
    address: Type.Optional(Nullable(Type.String({ maxLength: AUDIENCE_LIMITS.address }))),
    category: Type.Optional(Nullable(Type.String({ maxLength: AUDIENCE_LIMITS.category }))),
    description: Type.Optional(Nullable(Type.String({ maxLength: AUDIENCE_LIMITS.description }))),
    tags: Type.Optional(
      Type.Array(Type.String({ maxLength: AUDIENCE_LIMITS.keyword }), { maxItems: AUDIENCE_LIMITS.tags }),
    ),
    attributes: Type.Optional(ContactAttributes),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ContactUpdate = Static<typeof ContactUpdate>;

export const ContactResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  contact: Contact,
});
export type ContactResponse = Static<typeof ContactResponse>;

/** What the contact edit answers when the new address is taken in the contact's book. */
export const CONTACT_MESSAGES = {
  duplicate: 'Another contact in this address book already has this email address',
  invalidEmail: 'Enter a valid email address',
  updated: 'Contact saved',
} as const;

export const ResubscribeResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  contact: Contact,
  /** Contacts with the same address (in any book) that became active again. */
  reactivated: Type.Integer({ minimum: 0 }),
});
export type ResubscribeResponse = Static<typeof ResubscribeResponse>;

// ── imports ──────────────────────────────────────────────────────────────────

export const ImportRowError = Type.Object({
  /** Line of the file (1 = the first line, the header when there is one); null for a whole-file problem. */
  line: Nullable(Type.Integer()),
  email: Nullable(Type.String()),
  message: Type.String(),
});
export type ImportRowError = Static<typeof ImportRowError>;

/** An import job: its progress while it runs, its outcome after. */
export const ImportJob = Type.Object({
  id: Type.String(),
  addressBookId: Type.Integer(),
  kind: literalUnion(IMPORT_KINDS),
  fileName: Nullable(Type.String()),
  status: ImportStatusSchema,
  phase: literalUnion(IMPORT_PHASES),
  /** Bytes of the upload received so far, and the request's size when known. */
  bytesReceived: Type.Integer({ minimum: 0 }),
  bytesTotal: Nullable(Type.Integer({ minimum: 0 })),
  /** Data rows read (header and empty lines excluded). */
  rowsRead: Type.Integer({ minimum: 0 }),
  /** New contacts (final once status is completed; pending the commit while running). */
  imported: Type.Integer({ minimum: 0 }),
  /** Contacts already in the book whose details the file changed. */
  updated: Type.Integer({ minimum: 0 }),
  /** Duplicates: repeated in the file, or already in the book with nothing new. */
  skipped: Type.Integer({ minimum: 0 }),
  /** Rows refused (invalid or missing email, unreadable record). */
  errorCount: Type.Integer({ minimum: 0 }),
  /** The first IMPORT_ERRORS_LISTED refused rows with their line numbers. */
  errors: Type.Array(ImportRowError),
  /** The text encoding a CSV is read in (detected or chosen; null until known, and for .xlsx and manual entry). */
  encoding: Nullable(Type.String()),
  /** What it does with contacts already in the book. */
  mergeMode: ImportMergeModeSchema,
  message: Nullable(Type.String()),
  startedAt: IsoDateTime,
  finishedAt: Nullable(IsoDateTime),
});
export type ImportJob = Static<typeof ImportJob>;

export const ImportJobList = Type.Object({ imports: Type.Array(ImportJob) });
export type ImportJobList = Static<typeof ImportJobList>;

export const ImportListQuery = Type.Object({
  addressBookId: Type.Optional(RowId()),
  status: Type.Optional(ImportStatusSchema),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});
export type ImportListQuery = Static<typeof ImportListQuery>;

export const ImportIdParams = Type.Object({ id: UuidId() });
export type ImportIdParams = Static<typeof ImportIdParams>;

/**
 * The answer of the import calls (spec: `{imported, skipped, errors[], message}`), plus the
 * job's id and state. 200 once the import has finished; 202 when the upload was received but
 * the job still runs (poll GET /api/admin/email/imports/{importId}).
 */
export const ImportResult = Type.Object({
  importId: Type.String(),
  addressBookId: Type.Integer(),
  status: ImportStatusSchema,
  imported: Type.Integer({ minimum: 0 }),
  updated: Type.Integer({ minimum: 0 }),
  skipped: Type.Integer({ minimum: 0 }),
  rowsRead: Type.Integer({ minimum: 0 }),
  errorCount: Type.Integer({ minimum: 0 }),
  /** Rejected rows as 'Line N: reason' (the first IMPORT_ERRORS_LISTED). */
  errors: Type.Array(Type.String()),
  /** The text encoding the CSV was read in (null for .xlsx and manual entry). */
  encoding: Nullable(Type.String()),
  mergeMode: ImportMergeModeSchema,
  message: Type.String(),
});
export type ImportResult = Static<typeof ImportResult>;

export const ManualImportBody = Type.Object({
  /** One contact per line: email, firstName, lastName, company, phone (comma separated). */
  contacts: Type.String({ maxLength: AUDIENCE_LIMITS.manualText }),
  /** Target book; the default address book when absent. */
  addressBookId: Type.Optional(RowId()),
  /** Contacts already in the book: fill (the default), overwrite or skip. */
  mergeMode: Type.Optional(ImportMergeModeSchema),
});
export type ManualImportBody = Static<typeof ManualImportBody>;

/** What one merge choice would do to the contacts already in the book. */
export const ImportModeEffect = Type.Object({
  /** Existing contacts whose details would change. */
  changed: Type.Integer({ minimum: 0 }),
  /** Of those, contacts that would lose a value they have now (a phone replaced, ...). */
  valuesReplaced: Type.Integer({ minimum: 0 }),
});
export type ImportModeEffect = Static<typeof ImportModeEffect>;

/**
 * The preview of an import (POST /api/admin/email/import-preview, multipart like the import;
 * POST /api/admin/email/import-manual/preview): the file read as the import would read it,
 * nothing written. The first row of an address in the file counts, as in the import.
 */
export const ImportPreview = Type.Object({
  addressBookId: Type.Integer(),
  rowsRead: Type.Integer({ minimum: 0 }),
  errorCount: Type.Integer({ minimum: 0 }),
  /** Rejected rows as 'Line N: reason' (the first IMPORT_ERRORS_LISTED). */
  errors: Type.Array(Type.String()),
  encoding: Nullable(Type.String()),
  /** Addresses new to the book: added whatever the choice. */
  newContacts: Type.Integer({ minimum: 0 }),
  /** Addresses already in the book. */
  existing: Type.Integer({ minimum: 0 }),
  /** Later rows of an address the file already had (skipped whatever the choice). */
  repeated: Type.Integer({ minimum: 0 }),
  modes: Type.Object({ fill: ImportModeEffect, overwrite: ImportModeEffect, skip: ImportModeEffect }),
});
export type ImportPreview = Static<typeof ImportPreview>;

/** The spec's summary of a finished import ('Import Complete'), its nouns counted ("1 error"). */
export function importSummary(r: { imported: number; skipped: number; errorCount: number }): string {
  return `Imported ${plural(r.imported, 'contact')}, skipped ${plural(r.skipped, 'duplicate')}, ${plural(r.errorCount, 'error')}.`;
}

// ── events ───────────────────────────────────────────────────────────────────

export const AddressBookCreatedEvent = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  isDefault: Type.Boolean(),
  createdAt: IsoDateTime,
});
export type AddressBookCreatedEvent = Static<typeof AddressBookCreatedEvent>;

export const AddressBookDeletedEvent = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** Contacts deleted with it. */
  contactCount: Type.Integer({ minimum: 0 }),
  deletedAt: IsoDateTime,
});
export type AddressBookDeletedEvent = Static<typeof AddressBookDeletedEvent>;

/** An import finished (committed): what it added to which book (feature discovery counts these). */
export const ImportCompletedEvent = Type.Object({
  importId: Type.String(),
  addressBookId: Type.Integer(),
  kind: literalUnion(IMPORT_KINDS),
  rowsRead: Type.Integer({ minimum: 0 }),
  imported: Type.Integer({ minimum: 0 }),
  updated: Type.Integer({ minimum: 0 }),
  skipped: Type.Integer({ minimum: 0 }),
  errorCount: Type.Integer({ minimum: 0 }),
  /** The book's contact count after the import. */
  contactCount: Type.Integer({ minimum: 0 }),
  completedAt: IsoDateTime,
});
export type ImportCompletedEvent = Static<typeof ImportCompletedEvent>;

/**
 * An address was suppressed because its owner unsubscribed: every contact with it, in every
 * book, is unsubscribed and stays so through re-imports until an admin re-subscribes it.
 */
export const ContactUnsubscribedEvent = Type.Object({
  /** The address, lower-cased (the suppression list's key). */
  address: Type.String(),
  reason: SuppressionReasonSchema,
  /** What reported it: 'unsubscribe-link', 'list-unsubscribe', 'ses', 'admin', ... */
  source: Type.String(),
  contactIds: Type.Array(Type.Integer()),
  addressBookIds: Type.Array(Type.Integer()),
  unsubscribedAt: IsoDateTime,
});
export type ContactUnsubscribedEvent = Static<typeof ContactUnsubscribedEvent>;

/** An admin re-subscribed an address: its suppression is gone and its contacts are active. */
export const ContactResubscribedEvent = Type.Object({
  address: Type.String(),
  contactIds: Type.Array(Type.Integer()),
  resubscribedAt: IsoDateTime,
  /** The admin who did it. */
  by: Nullable(Type.String()),
});
export type ContactResubscribedEvent = Static<typeof ContactResubscribedEvent>;
