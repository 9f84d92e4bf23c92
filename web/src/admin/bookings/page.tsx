import { plural } from '@parley/contracts/plural';
import {
  CalendarCheck,
  CalendarClock,
  CalendarDays,
  CalendarX,
  Clock,
  Filter,
  RefreshCw,
} from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Tabs } from '../../components/tabs.tsx';
import { EmptyState, ErrorState, LoadingState, StatCard, secondaryButton } from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import {
  type BookingFilters,
  filterBookings,
  filtersApply,
  groupByDay,
  NO_FILTERS,
  summarize,
} from './api.ts';
import { BookingCard } from './booking-card.tsx';
import { BookingFilterPanel } from './booking-filters.tsx';
import { ContactRequests } from './contact-requests.tsx';
import { useBookings, useNow, useUpdateBookingStatus } from './use-bookings.ts';

type View = 'bookings' | 'contacts';

/**
 * Booking management (spec §2): summary cards, Show/Hide Filters, 'Showing X of Y total
 * bookings', bookings grouped by day with a status selector each; and the contact requests.
 */
export function BookingManagement() {
  const id = useId();
  const now = useNow();
  const query = useBookings();
  const update = useUpdateBookingStatus();
  const [view, setView] = useState<View>('bookings');
  const [showFilters, setShowFilters] = useState(false);
  const [filters, setFilters] = useState<BookingFilters>(NO_FILTERS);

  const all = query.data;
  const summary = useMemo(() => summarize(all ?? [], now), [all, now]);
  const filtered = useMemo(() => filterBookings(all ?? [], filters, now), [all, filters, now]);
  const groups = useMemo(() => groupByDay(filtered), [filtered]);
  const filtering = filtersApply(filters);
  const pendingId = update.isPending ? update.variables?.id : undefined;

  return (
    <section aria-labelledby={`${id}-title`}>
      <title>Booking Management · Parley Admin</title>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 id={`${id}-title`} className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
            Booking Management
          </h1>
          <p className="mt-1 text-sm text-slate-400">
            Demo appointments booked by visitors, and contact requests.
          </p>
        </div>
        <button
          type="button"
          className={secondaryButton}
          onClick={() => void query.refetch()}
          disabled={query.isFetching}
        >
          <RefreshCw className={`h-4 w-4 ${query.isFetching ? 'animate-spin' : ''}`} aria-hidden="true" />
          Refresh
        </button>
      </div>

      <div className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Total Bookings" value={all ? summary.total : '—'} icon={CalendarDays} />
        <StatCard label="Confirmed" value={all ? summary.confirmed : '—'} icon={CalendarCheck} />
        <StatCard
          label="This Week"
          value={all ? summary.thisWeek : '—'}
          icon={CalendarClock}
          hint="Next 7 days"
        />
        <StatCard label="Next 24hrs" value={all ? summary.next24h : '—'} icon={Clock} />
      </div>

      <Tabs<View>
        label="Booking views"
        tabs={[
          { key: 'bookings', label: 'Bookings' },
          { key: 'contacts', label: 'Contact Requests' },
        ]}
        selected={view}
        onSelect={setView}
      >
        {view === 'contacts' ? (
          <ContactRequests />
        ) : query.isPending ? (
          <LoadingState label="Loading bookings..." />
        ) : query.isError ? (
          <ErrorState
            title="Failed to fetch bookings"
            message={messageOr(query.error, '')}
            onRetry={() => void query.refetch()}
          />
        ) : query.data.length === 0 ? (
          <EmptyState icon={CalendarX} title="No bookings yet">
            Customer appointments will appear here once they book through the calendar widget.
          </EmptyState>
        ) : (
          <div className="space-y-4">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <button
                type="button"
                className={secondaryButton}
                aria-expanded={showFilters}
                aria-controls={`${id}-filters`}
                onClick={() => setShowFilters((s) => !s)}
              >
                <Filter className="h-4 w-4" aria-hidden="true" />
                {showFilters ? 'Hide Filters' : 'Show Filters'}
              </button>
              <p className="text-sm text-slate-400" aria-live="polite" data-testid="bookings-count">
                Showing {filtered.length} of {query.data.length} total bookings
                {filtering ? ' ' : null}
                {filtering ? <span className="text-brand">(filtered)</span> : null}
              </p>
            </div>
            {showFilters ? (
              <BookingFilterPanel id={`${id}-filters`} value={filters} onChange={setFilters} />
            ) : null}
            {groups.length === 0 ? (
              <EmptyState icon={Filter} title="No bookings found matching your filters">
                Try another status, date range or search.
              </EmptyState>
            ) : (
              groups.map((g) => (
                <section key={g.key} aria-labelledby={`${id}-day-${g.key}`} data-testid="booking-day">
                  <div className="mb-2 flex items-baseline gap-2">
                    <h2
                      id={`${id}-day-${g.key}`}
                      className="text-sm font-semibold tracking-wide text-slate-300"
                    >
                      {g.heading}
                    </h2>
                    <span className="text-xs text-slate-500">{plural(g.bookings.length, 'booking')}</span>
                  </div>
                  <div className="space-y-3">
                    {g.bookings.map((b) => (
                      <BookingCard
                        key={b.id}
                        booking={b}
                        now={now}
                        updating={pendingId === b.id}
                        onStatusChange={(status) => update.mutate({ id: b.id, status })}
                      />
                    ))}
                  </div>
                </section>
              ))
            )}
          </div>
        )}
      </Tabs>
    </section>
  );
}

export default function BookingsPage() {
  return <BookingManagement />;
}
