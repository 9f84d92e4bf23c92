import {
  AUDIENCE_LIMITS,
  CONTACT_ATTRIBUTE_KEY_PATTERN,
  CONTACT_ATTRIBUTE_LIMITS,
  type Contact,
  type ContactAttributes,
  type ContactAttributeValue,
  type ContactUpdate,
} from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Plus, Save, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  FormAlert,
  inputClass,
  labelClass,
  secondaryButton,
  selectClass,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { refreshAudience, updateContact } from './api.ts';

/**
 * Edit a contact (issue 31: every field, tags, and custom attributes as typed key/values, as
 * listmonk has them). Only what changed is sent; the server cleans and checks it again and
 * answers the contact as saved, which the dialog then shows.
 */

type AttributeType = 'text' | 'number' | 'boolean';
interface AttributeRow {
  id: number;
  key: string;
  type: AttributeType;
  value: string;
}

const TEXT_FIELDS = [
  ['email', 'Email', AUDIENCE_LIMITS.email, 'email'],
  ['firstName', 'First name', AUDIENCE_LIMITS.name, 'text'],
  ['lastName', 'Last name', AUDIENCE_LIMITS.name, 'text'],
  ['company', 'Company', AUDIENCE_LIMITS.company, 'text'],
  ['phone', 'Phone', AUDIENCE_LIMITS.phone, 'tel'],
  ['website', 'Website', AUDIENCE_LIMITS.website, 'url'],
  ['address', 'Address', AUDIENCE_LIMITS.address, 'text'],
  ['category', 'Category', AUDIENCE_LIMITS.category, 'text'],
] as const;
type TextField = (typeof TEXT_FIELDS)[number][0] | 'description';

const KEY = new RegExp(CONTACT_ATTRIBUTE_KEY_PATTERN);
let nextRow = 1;

function rowsOf(attributes: ContactAttributes): AttributeRow[] {
  return Object.entries(attributes).map(([key, v]) => ({
    id: nextRow++,
    key,
    type: typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'text',
    value: String(v),
  }));
}

/** The rows as attributes, or the first problem with them. */
function attributesOf(rows: AttributeRow[]): { attributes: ContactAttributes } | { error: string } {
  const attributes: ContactAttributes = {};
  for (const r of rows) {
    const key = r.key.trim();
    if (!key && !r.value.trim()) continue;
    if (!KEY.test(key))
      return {
        error: `Attribute name “${key}”: start with a letter, then letters, digits or _ (at most ${CONTACT_ATTRIBUTE_LIMITS.key})`,
      };
    if (key in attributes) return { error: `Attribute ${key} appears twice` };
    let value: ContactAttributeValue;
    if (r.type === 'number') {
      value = Number(r.value.trim());
      if (r.value.trim() === '' || !Number.isFinite(value))
        return { error: `Attribute ${key} must be a number` };
    } else if (r.type === 'boolean') value = r.value === 'true';
    else value = r.value;
    attributes[key] = value;
  }
  if (Object.keys(attributes).length > CONTACT_ATTRIBUTE_LIMITS.keys)
    return { error: `At most ${CONTACT_ATTRIBUTE_LIMITS.keys} attributes` };
  return { attributes };
}

const sameAttributes = (a: ContactAttributes, b: ContactAttributes) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

export function ContactEditForm({
  contact,
  onSaved,
  onCancel,
}: {
  contact: Contact;
  onSaved: (c: Contact) => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const ids = useId();
  const [text, setText] = useState<Record<TextField, string>>(() => ({
    email: contact.email,
    firstName: contact.firstName ?? '',
    lastName: contact.lastName ?? '',
    company: contact.company ?? '',
    phone: contact.phone ?? '',
    website: contact.website ?? '',
    address: contact.address ?? '',
    category: contact.category ?? '',
    description: contact.description ?? '',
  }));
  const [tags, setTags] = useState(contact.tags.join(', '));
  const [rows, setRows] = useState<AttributeRow[]>(() => rowsOf(contact.attributes));
  const [error, setError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (patch: ContactUpdate) => updateContact(contact.id, patch),
    onSuccess: async (r) => {
      await refreshAudience(queryClient);
      onSaved(r.contact);
    },
    onError: (e) => setError(messageOr(e, 'The contact could not be saved. Please try again.')),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const patch: ContactUpdate = {};
    for (const [name] of [...TEXT_FIELDS, ['description'] as const]) {
      const was = name === 'email' ? contact.email : (contact[name] ?? '');
      if (text[name].trim() !== was) {
        if (name === 'email') patch.email = text.email.trim();
        else patch[name] = text[name].trim() || null;
      }
    }
    const tagList = tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (tagList.join(',') !== contact.tags.join(',')) patch.tags = tagList;
    const attrs = attributesOf(rows);
    if ('error' in attrs) return setError(attrs.error);
    if (!sameAttributes(attrs.attributes, contact.attributes)) patch.attributes = attrs.attributes;
    if (Object.keys(patch).length === 0) return onCancel();
    save.mutate(patch);
  };

  const setRow = (id: number, change: Partial<AttributeRow>) =>
    setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...change } : r)));

  return (
    <form onSubmit={submit} noValidate aria-label="Edit contact" className="space-y-4">
      <FormAlert message={error} />
      <div className="grid gap-3 sm:grid-cols-2">
        {TEXT_FIELDS.map(([name, label, max, type]) => (
          <div key={name} className={name === 'email' || name === 'address' ? 'sm:col-span-2' : undefined}>
            <label htmlFor={`${ids}-${name}`} className={labelClass}>
              {label}
            </label>
            <input
              id={`${ids}-${name}`}
              type={type}
              className={inputClass}
              maxLength={max}
              required={name === 'email'}
              value={text[name]}
              onChange={(e) => setText((t) => ({ ...t, [name]: e.target.value }))}
            />
          </div>
        ))}
      </div>
      <div>
        <label htmlFor={`${ids}-description`} className={labelClass}>
          Description
        </label>
        <textarea
          id={`${ids}-description`}
          className={inputClass}
          rows={3}
          maxLength={AUDIENCE_LIMITS.description}
          value={text.description}
          onChange={(e) => setText((t) => ({ ...t, description: e.target.value }))}
        />
      </div>
      <div>
        <label htmlFor={`${ids}-tags`} className={labelClass}>
          Tags
        </label>
        <input
          id={`${ids}-tags`}
          className={inputClass}
          aria-describedby={`${ids}-tags-hint`}
          value={tags}
          onChange={(e) => setTags(e.target.value)}
        />
        <p id={`${ids}-tags-hint`} className="mt-1 text-xs text-slate-400">
          Separated by commas; stored in lower case.
        </p>
      </div>
      <fieldset>
        <legend className={labelClass}>Attributes</legend>
        <p className="mb-2 text-xs text-slate-400">
          Your own fields, usable as merge fields. A name starts with a letter (letters, digits, _).
        </p>
        <ul className="space-y-2">
          {rows.map((r, i) => (
            <li key={r.id} className="grid grid-cols-[minmax(0,1fr)_6.5rem_minmax(0,1fr)_auto] gap-2">
              <input
                aria-label={`Attribute ${i + 1} name`}
                className={inputClass}
                value={r.key}
                maxLength={CONTACT_ATTRIBUTE_LIMITS.key}
                onChange={(e) => setRow(r.id, { key: e.target.value })}
              />
              <select
                aria-label={`Attribute ${i + 1} type`}
                className={selectClass}
                value={r.type}
                onChange={(e) =>
                  setRow(r.id, {
                    type: e.target.value as AttributeType,
                    value: e.target.value === 'boolean' ? 'true' : r.value,
                  })
                }
              >
                <option value="text">Text</option>
                <option value="number">Number</option>
                <option value="boolean">Yes / no</option>
              </select>
              {r.type === 'boolean' ? (
                <select
                  aria-label={`Attribute ${i + 1} value`}
                  className={selectClass}
                  value={r.value}
                  onChange={(e) => setRow(r.id, { value: e.target.value })}
                >
                  <option value="true">Yes</option>
                  <option value="false">No</option>
                </select>
              ) : (
                <input
                  aria-label={`Attribute ${i + 1} value`}
                  className={inputClass}
                  inputMode={r.type === 'number' ? 'decimal' : undefined}
                  maxLength={CONTACT_ATTRIBUTE_LIMITS.text}
                  value={r.value}
                  onChange={(e) => setRow(r.id, { value: e.target.value })}
                />
              )}
              <button
                type="button"
                className={secondaryButton}
                aria-label={`Remove attribute ${r.key || i + 1}`}
                onClick={() => setRows((rs) => rs.filter((x) => x.id !== r.id))}
              >
                <Trash2 className="h-4 w-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className={`${secondaryButton} mt-2`}
          disabled={rows.length >= CONTACT_ATTRIBUTE_LIMITS.keys}
          onClick={() => setRows((rs) => [...rs, { id: nextRow++, key: '', type: 'text', value: '' }])}
        >
          <Plus className="h-4 w-4" aria-hidden="true" />
          Add attribute
        </button>
      </fieldset>
      <DialogActions>
        <CancelButton onCancel={onCancel} />
        <BusyButton busy={save.isPending} icon={Save}>
          Save contact
        </BusyButton>
      </DialogActions>
    </form>
  );
}
