import type { ActiveSessionsResponse, AdminUserList } from '@parley/contracts';
import { useQuery } from '@tanstack/react-query';
import { Activity, ArrowRight, CalendarDays, Filter, Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useAdmin } from '../auth/session.tsx';
import {
  type BookingFilters,
  dayKey,
  filterBookings,
  formatBookingTime,
  formatDayHeading,
  NO_FILTERS,
  STATUS_BADGE,
  STATUS_LABELS,
} from '../bookings/api.ts';
import { BookingFilterPanel } from '../bookings/booking-filters.tsx';
import { useBookings, useNow } from '../bookings/use-bookings.ts';
import { Badge, cardClass, ErrorState, LoadingState, PageHeader, StatCard } from '../components/ui.tsx';
import { ADMIN_USERS_PATH, adminQueryRetry, messageOr } from '../lib/api.ts';

/** Dashboard: recent list size and the fixed session count (spec §9). */
export const RECENT_BOOKINGS = 5;

/**
 * The dashboard (spec §2): Total Bookings, Filtered Results, Admin Users, Active Sessions;
 * the filter panel; Recent Bookings, the first 5 filtered bookings.
 */
export function Dashboard() {
  const admin = useAdmin();
  const now = useNow();
  const bookings = useBookings();
  const superAdmin = admin.role === 'super_admin';
  const sessions = useQuery<ActiveSessionsResponse>({
    queryKey: ['/api/admin/sessions/active'],
    ...adminQueryRetry,
  });
  const users = useQuery<AdminUserList>({
    queryKey: [ADMIN_USERS_PATH],
    enabled: superAdmin,
    ...adminQueryRetry,
  });
  const [filters, setFilters] = useState<BookingFilters>(NO_FILTERS);
  const filtered = useMemo(
    () => filterBookings(bookings.data ?? [], filters, now),
    [bookings.data, filters, now],
  );
  const recent = filtered.slice(0, RECENT_BOOKINGS);

  const usersValue = !superAdmin ? '—' : users.data ? users.data.length : users.isError ? '!' : '…';
  const viewAll = (
    <>
      View all bookings
      <ArrowRight className="h-4 w-4" aria-hidden="true" />
    </>
  );
  const viewAllClass = 'inline-flex items-center gap-1 text-sm text-brand underline-offset-2 hover:underline';

  return (
    <div>
      <title>Dashboard · Parley Admin</title>
      <PageHeader
        title="Dashboard"
        description={`Welcome back, ${admin.firstName}. Here is what is happening with your bookings.`}
      />

      <div className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard
          label="Total Bookings"
          value={bookings.data ? bookings.data.length : '…'}
          icon={CalendarDays}
        />
        <StatCard label="Filtered Results" value={bookings.data ? filtered.length : '…'} icon={Filter} />
        <StatCard
          label="Admin Users"
          value={usersValue}
          icon={Users}
          hint={superAdmin ? undefined : 'Visible to super admins'}
        />
        <StatCard label="Active Sessions" value={sessions.data?.count ?? '—'} icon={Activity} />
      </div>

      <div className="mb-6">
        <BookingFilterPanel value={filters} onChange={setFilters} />
      </div>

      <div className={`${cardClass} p-4 sm:p-5`}>
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-lg font-semibold text-white">Recent Bookings</h2>
          <Link to="/bookings-admin" className={viewAllClass}>
            {viewAll}
          </Link>
        </div>
        {bookings.isPending ? (
          <LoadingState label="Loading bookings..." />
        ) : bookings.isError ? (
          <ErrorState
            title="Failed to fetch bookings"
            message={messageOr(bookings.error, '')}
            onRetry={() => void bookings.refetch()}
          />
        ) : recent.length === 0 ? (
          <p className="py-8 text-center text-sm text-slate-400">No bookings found matching your filters</p>
        ) : (
          <ul className="divide-y divide-navy-700" data-testid="recent-bookings">
            {recent.map((b) => (
              <li key={b.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="truncate font-medium text-white">
                    {b.name}
                    {b.company ? <span className="font-normal text-slate-400"> · {b.company}</span> : null}
                  </p>
                  <p className="truncate text-sm text-slate-400">{b.email}</p>
                </div>
                <div className="flex items-center gap-3 text-sm text-slate-300">
                  <time dateTime={b.timeSlot}>
                    {formatDayHeading(dayKey(new Date(b.timeSlot), b.timeZone))} · {formatBookingTime(b)}
                  </time>
                  <Badge className={STATUS_BADGE[b.status]}>{STATUS_LABELS[b.status]}</Badge>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

export default function DashboardPage() {
  return <Dashboard />;
}
