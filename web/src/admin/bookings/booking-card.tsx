import type { Booking, BookingStatus } from '@parley/contracts';
import { BOOKING_STATUSES } from '@parley/contracts/enums';
import { Building2, Clock, Loader2, Mail, Phone, StickyNote, Users } from 'lucide-react';
import { useId } from 'react';
import { Badge, cardClass, secondaryButton, selectClass } from '../components/ui.tsx';
import { CARD_STATUS_LABELS, formatBookingTime } from './api.ts';

/**
 * One booking (spec §2 "Booking card"): name, company, status select, Upcoming badge for a
 * future slot, time with zone, email and phone links, notes, guests, Email and Call buttons.
 */
export function BookingCard({
  booking: b,
  now,
  updating,
  onStatusChange,
}: {
  booking: Booking;
  now: Date;
  updating: boolean;
  onStatusChange: (status: BookingStatus) => void;
}) {
  const id = useId();
  const upcoming = Date.parse(b.timeSlot) > now.getTime();
  const phone = b.phone?.trim() || null;
  return (
    <article aria-labelledby={`${id}-name`} className={`${cardClass} p-4 sm:p-5`} data-testid="booking-card">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={`${id}-name`} className="truncate text-base font-semibold text-white">
              {b.name}
            </h3>
            {upcoming ? <Badge className="border-brand/50 bg-brand/10 text-cyan-200">Upcoming</Badge> : null}
          </div>
          {b.company ? <p className="mt-0.5 truncate text-sm text-slate-400">{b.company}</p> : null}
        </div>
        <div className="flex items-center gap-2">
          {updating ? (
            <Loader2 className="h-4 w-4 animate-spin text-brand" aria-label="Saving status" />
          ) : null}
          <label htmlFor={`${id}-status`} className="sr-only">
            Status for {b.name}
          </label>
          <select
            id={`${id}-status`}
            className={`${selectClass} w-40`}
            value={b.status}
            disabled={updating}
            onChange={(e) => onStatusChange(e.target.value as BookingStatus)}
          >
            {BOOKING_STATUSES.map((s) => (
              <option key={s} value={s}>
                {CARD_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      </div>

      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div className="flex items-center gap-2 text-slate-300">
          <dt>
            <Clock className="h-4 w-4 text-slate-500" aria-hidden="true" />
            <span className="sr-only">Time</span>
          </dt>
          <dd>{formatBookingTime(b)}</dd>
        </div>
        <div className="flex min-w-0 items-center gap-2">
          <dt>
            <Mail className="h-4 w-4 text-slate-500" aria-hidden="true" />
            <span className="sr-only">Email</span>
          </dt>
          <dd className="min-w-0 truncate">
            <a href={`mailto:${b.email}`} className="text-brand underline-offset-2 hover:underline">
              {b.email}
            </a>
          </dd>
        </div>
        {phone ? (
          <div className="flex items-center gap-2">
            <dt>
              <Phone className="h-4 w-4 text-slate-500" aria-hidden="true" />
              <span className="sr-only">Phone</span>
            </dt>
            <dd>
              <a
                href={`tel:${phone.replace(/[^\d+]/g, '')}`}
                className="text-brand underline-offset-2 hover:underline"
              >
                {phone}
              </a>
            </dd>
          </div>
        ) : null}
        {b.company ? (
          <div className="flex min-w-0 items-center gap-2 text-slate-300">
            <dt>
              <Building2 className="h-4 w-4 text-slate-500" aria-hidden="true" />
              <span className="sr-only">Company</span>
            </dt>
            <dd className="min-w-0 truncate">{b.company}</dd>
          </div>
        ) : null}
        {b.guests.length > 0 ? (
          <div className="flex items-start gap-2 text-slate-300 sm:col-span-2">
            <dt>
              <Users className="mt-0.5 h-4 w-4 text-slate-500" aria-hidden="true" />
              <span className="sr-only">Guests</span>
            </dt>
            <dd>{b.guests.map((g) => (g.name ? `${g.name} <${g.email}>` : g.email)).join(', ')}</dd>
          </div>
        ) : null}
        {b.notes ? (
          <div className="flex items-start gap-2 text-slate-300 sm:col-span-2">
            <dt>
              <StickyNote className="mt-0.5 h-4 w-4 text-slate-500" aria-hidden="true" />
              <span className="sr-only">Notes</span>
            </dt>
            <dd className="whitespace-pre-line break-words">{b.notes}</dd>
          </div>
        ) : null}
      </dl>

      <div className="mt-4 flex flex-wrap gap-2">
        <a href={`mailto:${b.email}`} className={secondaryButton} aria-label={`Email ${b.name}`}>
          <Mail className="h-4 w-4" aria-hidden="true" />
          Email
        </a>
        {phone ? (
          <a
            href={`tel:${phone.replace(/[^\d+]/g, '')}`}
            className={secondaryButton}
            aria-label={`Call ${b.name}`}
          >
            <Phone className="h-4 w-4" aria-hidden="true" />
            Call
          </a>
        ) : null}
      </div>
    </article>
  );
}
