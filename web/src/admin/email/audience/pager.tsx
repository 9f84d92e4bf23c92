import { ChevronLeft, ChevronRight } from 'lucide-react';
import { secondaryButton } from '../../components/ui.tsx';

/** Previous / Next paging of a contact list (spec §2: paging with previous and next). */
export function Pager({
  offset,
  pageSize,
  hasMore,
  loading,
  onChange,
}: {
  offset: number;
  pageSize: number;
  hasMore: boolean;
  loading: boolean;
  onChange: (offset: number) => void;
}) {
  const page = Math.floor(offset / pageSize) + 1;
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-3">
      <button
        type="button"
        className={secondaryButton}
        disabled={offset === 0 || loading}
        onClick={() => onChange(Math.max(0, offset - pageSize))}
      >
        <ChevronLeft className="h-4 w-4" aria-hidden="true" />
        Previous
      </button>
      <span className="text-sm text-slate-400" aria-live="polite">
        Page {page}
      </span>
      <button
        type="button"
        className={secondaryButton}
        disabled={!hasMore || loading}
        onClick={() => onChange(offset + pageSize)}
      >
        Next
        <ChevronRight className="h-4 w-4" aria-hidden="true" />
      </button>
    </nav>
  );
}
