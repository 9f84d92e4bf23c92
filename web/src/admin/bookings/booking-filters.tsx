import { Search, X } from 'lucide-react';
import { useId } from 'react';
import { inputClass, labelClass, secondaryButton, selectClass } from '../components/ui.tsx';
import {
  type BookingFilters,
  DATE_RANGES,
  type DateRange,
  filtersApply,
  NO_FILTERS,
  STATUS_OPTIONS,
} from './api.ts';

/** Status, date range, free-text search and Clear Filters (spec §2, §5). */
export function BookingFilterPanel({
  id: givenId,
  value,
  onChange,
}: {
  id?: string;
  value: BookingFilters;
  onChange: (next: BookingFilters) => void;
}) {
  const autoId = useId();
  const id = givenId ?? autoId;
  return (
    <fieldset
      id={id}
      className="grid gap-4 rounded-2xl border border-navy-700 bg-navy-900 p-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_2fr_auto] lg:items-end"
    >
      <legend className="sr-only">Filter bookings</legend>
      <div>
        <label htmlFor={`${id}-status`} className={labelClass}>
          Status
        </label>
        <select
          id={`${id}-status`}
          className={selectClass}
          value={value.status}
          onChange={(e) => onChange({ ...value, status: e.target.value as BookingFilters['status'] })}
        >
          <option value="all">All</option>
          {STATUS_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-range`} className={labelClass}>
          Date Range
        </label>
        <select
          id={`${id}-range`}
          className={selectClass}
          value={value.range}
          onChange={(e) => onChange({ ...value, range: e.target.value as DateRange })}
        >
          {DATE_RANGES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </div>
      <div className="sm:col-span-2 lg:col-span-1">
        <label htmlFor={`${id}-search`} className={labelClass}>
          Search
        </label>
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-500"
            aria-hidden="true"
          />
          <input
            id={`${id}-search`}
            type="search"
            placeholder="Name, email, company or phone"
            className={`${inputClass} pl-9`}
            value={value.search}
            onChange={(e) => onChange({ ...value, search: e.target.value })}
          />
        </div>
      </div>
      <button
        type="button"
        className={secondaryButton}
        disabled={!filtersApply(value)}
        onClick={() => onChange(NO_FILTERS)}
      >
        <X className="h-4 w-4" aria-hidden="true" />
        Clear Filters
      </button>
    </fieldset>
  );
}
