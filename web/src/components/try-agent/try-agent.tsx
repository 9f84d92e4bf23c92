import { PhoneCall } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { OPEN_TRY_AGENT_EVENT } from '../../lib/events.ts';

const loadPanel = () => import('./try-agent-panel.tsx');
const TryAgentPanel = lazy(loadPanel);

/**
 * The floating Try AI Agent widget (spec §2, §4), mounted once in the public layout. Only
 * this launcher is in the entry chunk; the panel (a dialog with the call flow) is its own
 * chunk, fetched when the browser is idle so the first opening is instant. It opens from the
 * launcher or the window event 'openTryAgent' (e.g. the Use Cases page's 'Try AI Agent').
 */
export function TryAgent() {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  const launcherRef = useRef<HTMLButtonElement>(null);
  // Where focus goes back to on close: whatever opened the widget.
  const opener = useRef<HTMLElement | null>(null);

  const isOpen = useRef(false);

  const show = useCallback((source: 'launcher' | 'event') => {
    if (isOpen.current) return;
    isOpen.current = true;
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    trackEvent('try_agent', { category: 'engagement', label: `open_${source}` });
    setMounted(true);
    setOpen(true);
  }, []);

  const hide = useCallback(() => {
    isOpen.current = false;
    setOpen(false);
  }, []);

  useEffect(() => {
    const onOpen = () => show('event');
    window.addEventListener(OPEN_TRY_AGENT_EVENT, onOpen);
    return () => window.removeEventListener(OPEN_TRY_AGENT_EVENT, onOpen);
  }, [show]);

  useEffect(() => {
    const prefetch = () => void loadPanel().catch(() => undefined);
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(prefetch, { timeout: 3000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(prefetch, 1500);
    return () => clearTimeout(id);
  }, []);

  const restoreFocus = useCallback(() => {
    const target = opener.current;
    opener.current = null;
    if (target?.isConnected && target !== document.body && target !== launcherRef.current) target.focus();
    else launcherRef.current?.focus();
  }, []);

  return (
    <>
      {open ? null : (
        <button
          ref={launcherRef}
          type="button"
          onClick={() => show('launcher')}
          onPointerEnter={() => void loadPanel().catch(() => undefined)}
          className="fixed right-4 bottom-4 z-40 inline-flex items-center gap-2 rounded-full bg-brand py-3 pr-5 pl-4 text-sm font-semibold text-navy-950 shadow-lg shadow-cyan-500/30 transition hover:bg-brand-strong sm:right-8 sm:bottom-8"
        >
          <span
            className="flex h-7 w-7 items-center justify-center rounded-full bg-navy-950/15"
            aria-hidden="true"
          >
            <PhoneCall className="h-4 w-4" />
          </span>
          Try the AI Agent
        </button>
      )}
      {mounted ? (
        <Suspense fallback={null}>
          <TryAgentPanel open={open} onClose={hide} restoreFocus={restoreFocus} />
        </Suspense>
      ) : null}
    </>
  );
}
