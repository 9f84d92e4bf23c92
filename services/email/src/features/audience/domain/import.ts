import { AUDIENCE_LIMITS, type ImportRowError } from '@parley/contracts';
import {
  cleanText,
  emailKey,
  field,
  normalizeEmail,
  parseCount,
  parseRating,
  parseWords,
  splitName,
} from './contacts.ts';

/**
 * Import rules, independent of the file format: which column means what, how a record
 * becomes a contact (or a reported error), and the staging line written to PostgreSQL.
 */

/** A problem with the input itself (no email column, not a spreadsheet): the caller's 4xx. */
export class ImportInputError extends Error {
  override name = 'ImportInputError';
  constructor(
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
  }
}

export const CONTACT_FIELDS = [
  'email',
  'firstName',
  'lastName',
  'name',
  'company',
  'phone',
  'website',
  'address',
  'category',
  'rating',
  'reviews',
  'description',
  'tags',
] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

/**
 * Header names per field, compared case-insensitively without spaces, hyphens, underscores
 * or dots: both column sets of the spec (email, firstName, lastName, company, phone; and
 * Name, Email, Phone, Address, Category, Website, Rating, Reviews, Description), our own
 * export's headers, and the usual spellings of other tools.
 */
const ALIASES: Record<ContactField, readonly string[]> = {
  email: ['email', 'emailaddress', 'mail', 'emailid', 'mailaddress', 'primaryemail', 'workemail'],
  firstName: ['firstname', 'first', 'givenname', 'fname', 'forename'],
  lastName: ['lastname', 'last', 'surname', 'familyname', 'lname'],
  name: ['name', 'fullname', 'contactname', 'contact', 'displayname'],
  company: ['company', 'companyname', 'organization', 'organisation', 'business', 'businessname', 'account'],
  phone: ['phone', 'phonenumber', 'telephone', 'tel', 'mobile', 'cell', 'phoneno', 'mobilephone'],
  website: ['website', 'url', 'web', 'site', 'homepage', 'websiteurl', 'domain'],
  address: ['address', 'streetaddress', 'fulladdress', 'location', 'mailingaddress'],
  category: ['category', 'industry', 'type', 'businesstype', 'segment'],
  rating: ['rating', 'stars', 'googlerating', 'averagerating'],
  reviews: ['reviews', 'reviewcount', 'numberofreviews', 'reviewscount', 'totalreviews', 'ratingcount'],
  description: ['description', 'notes', 'note', 'about', 'comments', 'comment'],
  tags: ['tags', 'labels'],
};
const FIELD_OF = new Map<string, ContactField>(
  Object.entries(ALIASES).flatMap(([f, names]) => names.map((n) => [n, f as ContactField] as const)),
);

/** Column order of a file without a header, and of manual entry (spec §5). */
export const SPEC_ORDER: readonly ContactField[] = ['email', 'firstName', 'lastName', 'company', 'phone'];

export type ColumnMap = Partial<Record<ContactField, number>>;

export const normalizeHeader = (h: string) =>
  cleanText(h)
    .toLowerCase()
    .replace(/[\s._\-/]+/g, '');

/**
 * The meaning of each column from a header row (the first column naming a field wins), or
 * null when no column is an email column.
 */
export function mapHeader(cells: readonly string[]): ColumnMap | null {
  const map: ColumnMap = {};
  cells.forEach((cell, i) => {
    const f = FIELD_OF.get(normalizeHeader(cell));
    if (f && map[f] === undefined) map[f] = i;
  });
  return map.email === undefined ? null : map;
}

/** A first row that holds an address is data: the columns are then in the spec's order. */
export function looksHeaderless(cells: readonly string[]): boolean {
  return cells.some((c) => normalizeEmail(c) !== null);
}

export const positionalMap = (): ColumnMap =>
  Object.fromEntries(SPEC_ORDER.map((f, i) => [f, i])) as ColumnMap;

export const NO_EMAIL_COLUMN =
  'The file has no Email column. Its first row must name the columns, for example Name, Email, Phone, Address, Category, Website, Rating, Reviews, Description or email, firstName, lastName, company, phone.';

/** A contact ready for the staging table. */
export interface StagedContact {
  line: number;
  email: string;
  emailKey: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  phone: string | null;
  website: string | null;
  address: string | null;
  category: string | null;
  rating: number | null;
  reviewCount: number | null;
  description: string | null;
  tags: string[];
}

export type RowOutcome =
  | { kind: 'contact'; contact: StagedContact }
  | { kind: 'error'; error: ImportRowError }
  | { kind: 'empty' };

const L = AUDIENCE_LIMITS;

/** One record (its cells, its line in the file) as a contact, an error to report, or nothing. */
export function toContact(cells: readonly string[], map: ColumnMap, line: number): RowOutcome {
  const rawEmail = cleanText(cellAt(cells, map.email));
  if (!rawEmail) {
    if (isBlank(cells)) return { kind: 'empty' };
    return { kind: 'error', error: { line, email: null, message: 'Missing email address' } };
  }
  const email = normalizeEmail(rawEmail);
  if (!email) {
    const shown = rawEmail.length > 80 ? `${rawEmail.slice(0, 80)}…` : rawEmail;
    return { kind: 'error', error: { line, email: shown, message: `Invalid email address "${shown}"` } };
  }
  let firstName = map.firstName === undefined ? null : field(cellAt(cells, map.firstName), L.name);
  let lastName = map.lastName === undefined ? null : field(cellAt(cells, map.lastName), L.name);
  if (!firstName && !lastName && map.name !== undefined)
    ({ firstName, lastName } = splitName(field(cellAt(cells, map.name), L.name * 2)));
  return {
    kind: 'contact',
    contact: {
      line,
      email,
      emailKey: emailKey(email),
      firstName,
      lastName,
      company: map.company === undefined ? null : field(cellAt(cells, map.company), L.company),
      phone: map.phone === undefined ? null : field(cellAt(cells, map.phone), L.phone),
      website: map.website === undefined ? null : field(cellAt(cells, map.website), L.website),
      address: map.address === undefined ? null : field(cellAt(cells, map.address), L.address),
      category: map.category === undefined ? null : field(cellAt(cells, map.category), L.category),
      rating: map.rating === undefined ? null : parseRating(cellAt(cells, map.rating)),
      reviewCount: map.reviews === undefined ? null : parseCount(cellAt(cells, map.reviews)),
      description:
        map.description === undefined ? null : field(cellAt(cells, map.description), L.description),
      tags: map.tags === undefined ? [] : parseWords(cellAt(cells, map.tags), L.tags, L.keyword),
    },
  };
}

function cellAt(cells: readonly string[], i: number | undefined): string {
  return i === undefined ? '' : (cells[i] ?? '');
}

const isBlank = (cells: readonly string[]) => cells.every((c) => cleanText(c) === '');

/**
 * Manual entry: one contact per line (email, firstName, lastName, company, phone), or a line
 * of addresses separated by commas (every cell an address), each its own contact.
 */
export function manualRecords(cells: readonly string[]): string[][] {
  const filled = cells.map(cleanText).filter(Boolean);
  if (filled.length > 1 && filled.every((c) => normalizeEmail(c) !== null)) return filled.map((c) => [c]);
  return [cells as string[]];
}

const NEEDS_COPY_ESCAPE = /[\\\t\n\r]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value in PostgreSQL's COPY text format (\N for null; backslash, tab, newline, CR escaped). */
export function copyValue(v: string | number | null): string {
  if (v === null) return '\\N';
  if (typeof v === 'number') return String(v);
  return NEEDS_COPY_ESCAPE.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c] ?? c) : v;
}

const arrayValue = (words: string[]) =>
  `{${words.map((w) => `"${w.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;

/** Columns of the staging table, in COPY order. */
export const STAGING_COLUMNS = [
  'line',
  'email',
  'email_key',
  'first_name',
  'last_name',
  'company',
  'phone',
  'website',
  'address',
  'category',
  'rating',
  'review_count',
  'description',
  'tags',
] as const;

/** One line of the staging COPY (tab separated, newline terminated). */
export function copyLine(c: StagedContact): string {
  return `${c.line}\t${copyValue(c.email)}\t${copyValue(c.emailKey)}\t${copyValue(c.firstName)}\t${copyValue(
    c.lastName,
  )}\t${copyValue(c.company)}\t${copyValue(c.phone)}\t${copyValue(c.website)}\t${copyValue(c.address)}\t${copyValue(
    c.category,
  )}\t${copyValue(c.rating)}\t${copyValue(c.reviewCount)}\t${copyValue(c.description)}\t${
    c.tags.length ? copyValue(arrayValue(c.tags)) : '\\N'
  }\n`;
}

/**
 * A batch of staging lines as UTF-8 bytes, written as each line is made: a line's strings
 * (slices of the decoded upload) become garbage at once instead of living, with the text they
 * point into, until the batch is sent. Memory per batch is its bytes.
 */
export class CopyBatch {
  private static readonly CHUNK = 1 << 20;
  readonly chunks: Buffer[] = [];
  private current = Buffer.allocUnsafe(CopyBatch.CHUNK);
  private used = 0;
  rows = 0;

  add(line: string): void {
    // A line is at most a few kilobytes (every field is capped), far less than a chunk.
    if (this.used + Buffer.byteLength(line) > this.current.length) this.seal();
    this.used += this.current.write(line, this.used);
    this.rows++;
  }

  /** The batch's bytes, in order (the batch is finished afterwards). */
  finish(): Buffer[] {
    this.seal();
    return this.chunks;
  }

  private seal(): void {
    if (this.used) this.chunks.push(this.current.subarray(0, this.used));
    this.current = Buffer.allocUnsafe(CopyBatch.CHUNK);
    this.used = 0;
  }
}

/** How an error reads in the spec's `errors[]` of an import answer. */
export const errorLine = (e: ImportRowError) =>
  e.line === null ? e.message : `Line ${e.line}: ${e.message}`;
