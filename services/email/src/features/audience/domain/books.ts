import { type AddressBookInput, AUDIENCE_LIMITS, DEFAULT_BOOK_COLOR } from '@parley/contracts';
import { cleanText, parseWords } from './contacts.ts';

/** Address book input rules (spec: name required; description, color, tags, keywords optional). */

export interface BookFields {
  name: string;
  description: string | null;
  color: string;
  tags: string[];
  keywords: string[];
}

export type BookInputResult<T> = { ok: true; value: T } | { ok: false; message: string };

const HEX = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i;

/** '#06B6D4', '06b6d4' or '#0bd' as the stored '#rrggbb'; null when it is not a colour. */
export function normalizeColor(input: string): string | null {
  const m = HEX.exec(input.trim());
  if (!m?.[1]) return null;
  const hex = m[1].toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

function common(input: AddressBookInput): BookInputResult<Partial<BookFields>> {
  const out: Partial<BookFields> = {};
  if (input.name !== undefined) {
    const name = cleanText(input.name).replace(/\s+/g, ' ');
    if (!name) return { ok: false, message: 'Name is required' };
    if (name.length > AUDIENCE_LIMITS.bookName)
      return { ok: false, message: `Name must be at most ${AUDIENCE_LIMITS.bookName} characters` };
    out.name = name;
  }
  if (input.description !== undefined) {
    const d = cleanText(input.description ?? '');
    if (d.length > AUDIENCE_LIMITS.bookDescription)
      return {
        ok: false,
        message: `Description must be at most ${AUDIENCE_LIMITS.bookDescription} characters`,
      };
    out.description = d || null;
  }
  if (input.color !== undefined && input.color !== null && input.color !== '') {
    const color = normalizeColor(input.color);
    if (!color) return { ok: false, message: 'Color must be a hex colour such as #06b6d4' };
    out.color = color;
  }
  if (input.keywords !== undefined)
    out.keywords = parseWords(input.keywords, AUDIENCE_LIMITS.keywords, AUDIENCE_LIMITS.keyword);
  if (input.tags !== undefined)
    out.tags = parseWords(input.tags, AUDIENCE_LIMITS.tags, AUDIENCE_LIMITS.keyword);
  return { ok: true, value: out };
}

/** A new book's fields (defaults: cyan, no description, no tags or keywords). */
export function newBookFields(input: AddressBookInput): BookInputResult<BookFields> {
  if (input.name === undefined) return { ok: false, message: 'Name is required' };
  const r = common(input);
  if (!r.ok) return r;
  return {
    ok: true,
    value: {
      name: r.value.name ?? '',
      description: r.value.description ?? null,
      color: r.value.color ?? DEFAULT_BOOK_COLOR,
      tags: r.value.tags ?? [],
      keywords: r.value.keywords ?? [],
    },
  };
}

/** The fields an update changes (absent fields stay as they are). */
export const bookChanges = (input: AddressBookInput): BookInputResult<Partial<BookFields>> => common(input);
