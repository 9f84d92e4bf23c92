import clsx from 'clsx';
import { ChevronDown, LayoutDashboard, Sparkles } from 'lucide-react';
import { type KeyboardEvent as ReactKeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { trackEvent } from '../../lib/analytics.ts';

/** The Resources entries (spec §2 "Navigation bar"). */
export const RESOURCES = [
  { to: '/voice-agent-preview', label: 'Voice Agent Platform', icon: LayoutDashboard },
  { to: '/use-cases', label: 'Use Cases & Examples', icon: Sparkles },
] as const;

/**
 * The desktop Resources dropdown: a disclosure (button + list of links, the pattern the
 * ARIA practices recommend for site navigation rather than an application menu). Enter,
 * Space or ArrowDown open it, arrows move between the links, Escape closes it and returns
 * focus to the button; a click outside or focus leaving it closes it too.
 */
export function ResourcesMenu({ linkClass }: { linkClass: string }) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  const items = () =>
    Array.from(rootRef.current?.querySelectorAll<HTMLAnchorElement>('[data-menu-item]') ?? []);

  useEffect(() => {
    if (!open) return;
    const inside = (target: EventTarget | null) =>
      target instanceof Node && !!rootRef.current?.contains(target);
    const onPointerDown = (e: PointerEvent) => {
      if (!inside(e.target)) setOpen(false);
    };
    // Tabbing out past the button or the last link closes the list.
    const onFocusIn = (e: FocusEvent) => {
      if (!inside(e.target)) setOpen(false);
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      if (inside(document.activeElement)) buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const onButtonKeyDown = (e: ReactKeyboardEvent<HTMLButtonElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      // The list renders in this same event's commit; focus it on the next frame.
      requestAnimationFrame(() => {
        const list = items();
        (e.key === 'ArrowUp' ? list.at(-1) : list[0])?.focus();
      });
    }
  };

  const onPanelKeyDown = (e: ReactKeyboardEvent<HTMLUListElement>) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLAnchorElement);
    const move = (to: number) => {
      e.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(index + 1);
    else if (e.key === 'ArrowUp') move(index - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(list.length - 1);
  };

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={onButtonKeyDown}
        className={clsx(linkClass, 'inline-flex items-center gap-1')}
      >
        Resources
        <ChevronDown
          className={clsx('h-4 w-4 transition-transform', open && 'rotate-180')}
          aria-hidden="true"
        />
      </button>
      <ul
        id={panelId}
        hidden={!open}
        onKeyDown={onPanelKeyDown}
        className="absolute top-full left-1/2 mt-2 w-64 -translate-x-1/2 rounded-xl border border-navy-700 bg-navy-900 p-2 shadow-2xl shadow-black/40"
      >
        {RESOURCES.map(({ to, label, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              data-menu-item=""
              onClick={() => {
                trackEvent('navigation', { category: 'navigation', label });
                setOpen(false);
              }}
              className="flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-slate-200 transition hover:bg-navy-800 hover:text-white focus-visible:bg-navy-800"
            >
              <Icon className="h-4 w-4 text-brand" aria-hidden="true" />
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
