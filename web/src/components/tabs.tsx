import clsx from 'clsx';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';

export interface TabDef<K extends string> {
  key: K;
  label: ReactNode;
  icon?: ReactNode;
}

/**
 * Which ends of a scrolling strip hide tabs: a narrow screen scrolls the strip sideways, and a
 * fade with a chevron on that side says so (a cut-off last tab gives no hint by itself).
 */
function useHiddenEnds(strip: React.RefObject<HTMLDivElement | null>) {
  const [ends, setEnds] = useState({ start: false, end: false });
  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    const update = () => {
      // Within the strip's own padding of an end counts as there: a tab scrolled into view
      // stops at the scrollport's edge, a few pixels short of the padded end.
      const slack = 6;
      const start = el.scrollLeft > slack;
      const end = el.scrollLeft + el.clientWidth < el.scrollWidth - slack;
      setEnds((prev) => (prev.start === start && prev.end === end ? prev : { start, end }));
    };
    update();
    el.addEventListener('scroll', update, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    resize?.observe(el);
    return () => {
      el.removeEventListener('scroll', update);
      resize?.disconnect();
    };
  }, [strip]);
  return ends;
}

/**
 * Accessible tabs for public and admin screens (WAI-ARIA pattern, automatic activation): arrow keys, Home
 * and End move between tabs and select them; only the selected tab is in the tab order; the
 * panel is labelled by its tab and focusable so keyboard users reach its content next. On a
 * narrow screen the strip scrolls, shows which side hides tabs, and keeps the selected one in view.
 */
export function Tabs<K extends string>({
  label,
  tabs,
  selected,
  onSelect,
  children,
}: {
  label: string;
  tabs: TabDef<K>[];
  selected: K;
  onSelect: (key: K) => void;
  children: ReactNode;
}) {
  const id = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const strip = useRef<HTMLDivElement>(null);
  const hidden = useHiddenEnds(strip);
  const mounted = useRef(false);
  useEffect(() => {
    // On a change only: opening a screen must not scroll the page to its tabs.
    if (mounted.current)
      refs.current.get(selected)?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    mounted.current = true;
  }, [selected]);
  const onKeyDown = (e: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.key === selected);
    const next =
      e.key === 'ArrowRight'
        ? (i + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (i - 1 + tabs.length) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    const key = tabs[next]!.key;
    onSelect(key);
    refs.current.get(key)?.focus();
  };
  return (
    <div>
      <div className="relative w-fit max-w-full">
        <div
          ref={strip}
          role="tablist"
          aria-label={label}
          onKeyDown={onKeyDown}
          className="flex w-fit max-w-full gap-1 overflow-x-auto rounded-xl border border-navy-700 bg-navy-900 p-1 [scrollbar-width:thin]"
        >
          {tabs.map((t) => (
            <button
              key={t.key}
              ref={(el) => {
                if (el) refs.current.set(t.key, el);
                else refs.current.delete(t.key);
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${t.key}`}
              aria-selected={t.key === selected}
              aria-controls={`${id}-panel`}
              tabIndex={t.key === selected ? 0 : -1}
              onClick={() => onSelect(t.key)}
              className={clsx(
                'inline-flex shrink-0 items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition',
                t.key === selected
                  ? 'bg-brand text-navy-950'
                  : 'text-slate-300 hover:bg-navy-800 hover:text-white',
              )}
            >
              {t.icon}
              {t.label}
            </button>
          ))}
        </div>
        {hidden.start ? (
          <span
            aria-hidden="true"
            data-testid="tabs-more-start"
            className="pointer-events-none absolute inset-y-px left-px flex w-8 items-center rounded-l-xl bg-gradient-to-r from-navy-900 via-navy-900/80 to-transparent pl-0.5 text-slate-300"
          >
            <ChevronLeft className="h-4 w-4" />
          </span>
        ) : null}
        {hidden.end ? (
          <span
            aria-hidden="true"
            data-testid="tabs-more-end"
            className="pointer-events-none absolute inset-y-px right-px flex w-8 items-center justify-end rounded-r-xl bg-gradient-to-l from-navy-900 via-navy-900/80 to-transparent pr-0.5 text-slate-300"
          >
            <ChevronRight className="h-4 w-4" />
          </span>
        ) : null}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${selected}`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the WAI-ARIA tabs pattern makes the panel focusable.
        tabIndex={0}
        className="mt-4 rounded-2xl focus-visible:outline-offset-4"
      >
        {children}
      </div>
    </div>
  );
}
