import clsx from 'clsx';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cardClass } from '../../components/ui.tsx';

/**
 * A figure card as the admin's StatCard, with its hint in a colour that keeps 4.5:1 contrast
 * on the card (axe checks these screens).
 */
export function MetricCard({
  label,
  value,
  icon: Icon,
  hint,
}: {
  label: string;
  value: ReactNode;
  icon: LucideIcon;
  hint?: ReactNode;
}) {
  return (
    <div className={clsx(cardClass, 'p-4 sm:p-5')} data-testid="stat-card">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-medium text-slate-400">{label}</p>
        <Icon className="h-5 w-5 text-brand" aria-hidden="true" />
      </div>
      <p className="mt-2 text-3xl font-bold text-white tabular-nums">{value}</p>
      {hint ? <p className="mt-1 text-xs text-slate-400">{hint}</p> : null}
    </div>
  );
}
