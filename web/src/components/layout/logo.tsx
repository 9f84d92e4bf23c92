import clsx from 'clsx';

/** The Parley mark: a small sound-wave glyph next to the word. */
export function Logo({ className }: { className?: string }) {
  return (
    <span className={clsx('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <svg viewBox="0 0 32 32" className="h-7 w-7" aria-hidden="true">
        <rect width="32" height="32" rx="8" className="fill-navy-800" />
        <path
          d="M8 18v-4M12 21V11M16 24V8M20 21V11M24 18v-4"
          className="stroke-brand"
          strokeWidth="2.5"
          strokeLinecap="round"
        />
      </svg>
      <span className="text-lg text-white">Parley</span>
    </span>
  );
}
