import { MAX_GUESTS } from '@parley/contracts/booking';
import { CalendarClock, Loader2, Plus, Trash2, UserPlus } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef } from 'react';
import { formatLongDate, formatSlotTime } from './format.ts';
import { PhoneInput } from './phone-input.tsx';

export interface GuestRow {
  key: number;
  name: string;
  email: string;
}

export interface DetailsValues {
  name: string;
  email: string;
  phone: string;
  company: string;
  notes: string;
  guests: GuestRow[];
}

export const EMPTY_DETAILS: DetailsValues = {
  name: '',
  email: '',
  phone: '',
  company: '',
  notes: '',
  guests: [],
};

const inputClass =
  'w-full rounded-lg border border-navy-600 bg-navy-800 px-3 py-2 text-sm text-white placeholder:text-slate-400 transition focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40';
const labelClass = 'mb-1 block text-sm font-medium text-slate-300';
const secondaryButton =
  'rounded-lg border border-navy-600 px-3 py-1.5 text-sm text-slate-200 transition hover:border-brand/70 hover:text-white disabled:opacity-50';

let guestKey = 0;

/** Visitor details for the chosen slot: name*, email*, phone, company, notes and guests. */
export function DetailsStep({
  date,
  slot,
  values,
  onChange,
  onChangeDate,
  onChangeTime,
  onSubmit,
  pending,
}: {
  date: string;
  slot: string;
  values: DetailsValues;
  onChange: (next: DetailsValues) => void;
  onChangeDate: () => void;
  onChangeTime: () => void;
  onSubmit: () => void;
  pending: boolean;
}) {
  const id = useId();
  const focusGuest = useRef<number | null>(null);
  const set = <K extends keyof DetailsValues>(key: K, value: DetailsValues[K]) =>
    onChange({ ...values, [key]: value });

  useEffect(() => {
    if (focusGuest.current === null) return;
    document.getElementById(`${id}-guest-${focusGuest.current}-name`)?.focus();
    focusGuest.current = null;
  });

  const addGuest = () => {
    if (values.guests.length >= MAX_GUESTS) return;
    const key = ++guestKey;
    focusGuest.current = key;
    set('guests', [...values.guests, { key, name: '', email: '' }]);
  };
  const updateGuest = (key: number, patch: Partial<GuestRow>) =>
    set(
      'guests',
      values.guests.map((g) => (g.key === key ? { ...g, ...patch } : g)),
    );
  const removeGuest = (key: number) =>
    set(
      'guests',
      values.guests.filter((g) => g.key !== key),
    );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!pending) onSubmit();
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-label="Your details">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-cyan-400/30 bg-cyan-400/10 px-4 py-3">
        <p className="flex items-center gap-2 text-sm text-cyan-100" data-testid="booking-summary">
          <CalendarClock className="h-4 w-4 text-brand" aria-hidden="true" />
          <span>
            {formatLongDate(date)} at {formatSlotTime(slot)}
          </span>
        </p>
        <div className="flex gap-2">
          <button type="button" className={secondaryButton} onClick={onChangeDate}>
            Change Date
          </button>
          <button type="button" className={secondaryButton} onClick={onChangeTime}>
            Change Time
          </button>
        </div>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-name`} className={labelClass}>
            Name{' '}
            <span className="text-brand" aria-hidden="true">
              *
            </span>
          </label>
          <input
            id={`${id}-name`}
            name="name"
            autoComplete="name"
            aria-required="true"
            maxLength={200}
            className={inputClass}
            value={values.name}
            onChange={(e) => set('name', e.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${id}-email`} className={labelClass}>
            Email{' '}
            <span className="text-brand" aria-hidden="true">
              *
            </span>
          </label>
          <input
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="email"
            aria-required="true"
            maxLength={254}
            className={inputClass}
            value={values.email}
            onChange={(e) => set('email', e.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${id}-phone`} className={labelClass}>
            Phone
          </label>
          <PhoneInput
            id={`${id}-phone`}
            name="phone"
            className={inputClass}
            value={values.phone}
            onValueChange={(phone) => set('phone', phone)}
          />
        </div>
        <div>
          <label htmlFor={`${id}-company`} className={labelClass}>
            Company
          </label>
          <input
            id={`${id}-company`}
            name="company"
            autoComplete="organization"
            maxLength={200}
            className={inputClass}
            value={values.company}
            onChange={(e) => set('company', e.target.value)}
          />
        </div>
      </div>

      <div>
        <label htmlFor={`${id}-notes`} className={labelClass}>
          Notes
        </label>
        <textarea
          id={`${id}-notes`}
          name="notes"
          rows={3}
          maxLength={5000}
          placeholder="What would you like the demo to cover?"
          className={inputClass}
          value={values.notes}
          onChange={(e) => set('notes', e.target.value)}
        />
      </div>

      <fieldset className="space-y-2">
        <legend className="flex w-full items-center justify-between text-sm font-medium text-slate-300">
          <span>Guests</span>
        </legend>
        {values.guests.length === 0 ? (
          <p className="text-xs text-slate-400">Invite colleagues; they receive the invitation too.</p>
        ) : null}
        <ul className="space-y-2">
          {values.guests.map((g, i) => (
            <li key={g.key} className="flex items-center gap-2" data-testid="guest-row">
              <label htmlFor={`${id}-guest-${g.key}-name`} className="sr-only">
                Guest {i + 1} name
              </label>
              <input
                id={`${id}-guest-${g.key}-name`}
                placeholder="Name"
                autoComplete="off"
                maxLength={200}
                className={inputClass}
                value={g.name}
                onChange={(e) => updateGuest(g.key, { name: e.target.value })}
              />
              <label htmlFor={`${id}-guest-${g.key}-email`} className="sr-only">
                Guest {i + 1} email
              </label>
              <input
                id={`${id}-guest-${g.key}-email`}
                type="email"
                placeholder="Email"
                autoComplete="off"
                maxLength={254}
                className={inputClass}
                value={g.email}
                onChange={(e) => updateGuest(g.key, { email: e.target.value })}
              />
              <button
                type="button"
                onClick={() => removeGuest(g.key)}
                aria-label={`Remove guest ${i + 1}`}
                className="shrink-0 rounded-lg border border-navy-600 p-2 text-slate-400 transition hover:border-red-400/60 hover:text-red-300"
              >
                <Trash2 className="h-4 w-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          onClick={addGuest}
          disabled={values.guests.length >= MAX_GUESTS}
          className={`${secondaryButton} inline-flex items-center gap-1.5`}
        >
          {values.guests.length === 0 ? (
            <UserPlus className="h-4 w-4" aria-hidden="true" />
          ) : (
            <Plus className="h-4 w-4" aria-hidden="true" />
          )}
          Add Guest
        </button>
        {values.guests.length >= MAX_GUESTS ? (
          <p className="text-xs text-slate-400">You can invite up to {MAX_GUESTS} guests.</p>
        ) : null}
      </fieldset>

      <button
        type="submit"
        disabled={pending}
        aria-busy={pending}
        className="flex w-full items-center justify-center gap-2 rounded-xl bg-brand px-4 py-3 text-sm font-semibold text-navy-950 shadow-lg shadow-cyan-500/20 transition hover:bg-brand-strong disabled:cursor-wait disabled:opacity-70"
      >
        {pending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : null}
        {pending ? 'Booking...' : 'Book Demo'}
      </button>
    </form>
  );
}
