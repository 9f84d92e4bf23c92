import {
  AUDIENCE_LIMITS,
  CONTACT_MESSAGES,
  type ContactAttributes,
  type ContactUpdate,
} from '@parley/contracts';
import { cleanText, field, normalizeEmail, parseWords } from './contacts.ts';

/**
 * An admin's edit of one contact, as the columns it changes: the same cleaning an import
 * applies (no NUL, no lone surrogate, trimmed; '' clears a field), the address normalised as
 * an import stores it, tags as the books' (lower case, no repeats). The schema has already
 * bounded every length; what is left is what a schema cannot say.
 */

export interface ContactChanges {
  email?: string;
  first_name?: string | null;
  last_name?: string | null;
  company?: string | null;
  phone?: string | null;
  website?: string | null;
  address?: string | null;
  category?: string | null;
  description?: string | null;
  tags?: string[];
  custom_fields?: ContactAttributes;
}

export type ContactEditResult = { ok: true; changes: ContactChanges } | { ok: false; message: string };

const TEXT_FIELDS = [
  ['firstName', 'first_name', AUDIENCE_LIMITS.name],
  ['lastName', 'last_name', AUDIENCE_LIMITS.name],
  ['company', 'company', AUDIENCE_LIMITS.company],
  ['phone', 'phone', AUDIENCE_LIMITS.phone],
  ['website', 'website', AUDIENCE_LIMITS.website],
  ['address', 'address', AUDIENCE_LIMITS.address],
  ['category', 'category', AUDIENCE_LIMITS.category],
  ['description', 'description', AUDIENCE_LIMITS.description],
] as const satisfies ReadonlyArray<readonly [keyof ContactUpdate, keyof ContactChanges, number]>;

export function contactEdit(input: ContactUpdate): ContactEditResult {
  const changes: ContactChanges = {};
  if (input.email !== undefined) {
    const email = normalizeEmail(input.email);
    if (!email) return { ok: false, message: CONTACT_MESSAGES.invalidEmail };
    changes.email = email;
  }
  for (const [name, column, max] of TEXT_FIELDS) {
    const value = input[name];
    if (value !== undefined) changes[column] = field(value ?? '', max);
  }
  if (input.tags !== undefined)
    changes.tags = parseWords(input.tags, AUDIENCE_LIMITS.tags, AUDIENCE_LIMITS.keyword);
  if (input.attributes !== undefined) {
    const attributes: ContactAttributes = {};
    for (const [key, value] of Object.entries(input.attributes)) {
      if (typeof value === 'number' && !Number.isFinite(value))
        return { ok: false, message: `Attribute ${key} must be a finite number` };
      attributes[key] = typeof value === 'string' ? cleanText(value) : value;
    }
    changes.custom_fields = attributes;
  }
  return { ok: true, changes };
}
