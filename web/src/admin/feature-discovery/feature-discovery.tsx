import * as Dialog from '@radix-ui/react-dialog';
import { useQuery } from '@tanstack/react-query';
import { Loader2, Sparkles } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { keepOpenOnToast } from '../../components/dialog-focus.ts';
import { meQuery } from '../lib/api.ts';
import { useFeatureInsights, useFeatureRecommendations } from './api.ts';
import { FeatureDiscoveryPanel } from './panel.tsx';
import { FIRST_VISIT_DELAY_MS, isFirstVisit, markVisited, pageOf, waitBeforeOpening } from './rules.ts';

/** What counts as the admin doing something. */
const INPUT_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
/** A dialog on the page (the panel itself is one only once open). */
const OPEN_DIALOG = '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]';
/** A field being filled. */
const FIELD = 'input, textarea, select, [contenteditable="true"]';
/** While a dialog or a field holds the admin, look again this often. */
const RECHECK_MS = 1000;

/**
 * The feature-discovery panel of every admin screen (spec §2, §4): a button above the screen
 * opens it; on a first visit (no marker in local storage) it opens by itself once, 10 s later,
 * and only when the admin is idle (5 s without a click or a key), with no dialog open and no
 * field being filled: it never covers the page mid-task (issue 35).
 * It is a side panel that leaves the screen usable: opened by itself it takes no focus and
 * a click elsewhere closes it; opened by the button it takes the focus, and Escape or Close
 * gives it back to the button.
 */
export function FeatureDiscovery() {
  return (
    <FeatureDiscoveryGuard>
      <FeatureDiscoveryLauncher />
    </FeatureDiscoveryGuard>
  );
}

/**
 * Admin only (spec §2): 'Checking authentication...' while the current-admin check runs, and
 * nothing without an admin. The redirect to /admin/login is the admin frame's guard's alone:
 * a second one here would race the frame's own navigations (Logout goes to the home page).
 */
function FeatureDiscoveryGuard({ children }: { children: ReactNode }) {
  const me = useQuery(meQuery);
  if (me.isPending)
    return (
      <p role="status" className="mb-4 flex items-center justify-end gap-2 text-sm text-slate-400">
        <Loader2 className="h-4 w-4 animate-spin text-brand" aria-hidden="true" />
        Checking authentication...
      </p>
    );
  if (me.isError || !me.data) return null;
  return children;
}

function FeatureDiscoveryLauncher() {
  const { pathname, search } = useLocation();
  const recommendations = useFeatureRecommendations(pageOf(pathname, search));
  const insights = useFeatureInsights();
  const [open, setOpen] = useState(false);
  /** Opened by itself: it must not take the focus from what the admin is doing. */
  const [byItself, setByItself] = useState(false);

  useEffect(() => {
    if (!isFirstVisit()) return;
    const visitedAt = Date.now();
    let lastInputAt = visitedAt;
    const onInput = () => {
      lastInputAt = Date.now();
    };
    for (const type of INPUT_EVENTS) window.addEventListener(type, onInput, { capture: true, passive: true });
    let timer: ReturnType<typeof setTimeout>;
    const look = () => {
      // Opened meanwhile (here or in another tab): the first visit is over.
      if (!isFirstVisit()) return;
      const wait = waitBeforeOpening({
        now: Date.now(),
        visitedAt,
        lastInputAt,
        dialogOpen: document.querySelector(OPEN_DIALOG) !== null,
        editing: document.activeElement?.matches(FIELD) ?? false,
      });
      if (wait === null) timer = setTimeout(look, RECHECK_MS);
      else if (wait > 0) timer = setTimeout(look, wait);
      else {
        markVisited();
        setByItself(true);
        setOpen(true);
      }
    };
    timer = setTimeout(look, FIRST_VISIT_DELAY_MS);
    return () => {
      clearTimeout(timer);
      for (const type of INPUT_EVENTS) window.removeEventListener(type, onInput, { capture: true });
    };
  }, []);

  const onOpenChange = (next: boolean) => {
    if (next) {
      markVisited();
      setByItself(false);
    }
    setOpen(next);
  };
  const urgent = recommendations.data?.recommendations.filter((r) => r.urgencyLevel === 'high').length ?? 0;

  return (
    <div className="mb-4 flex justify-end">
      <Dialog.Root open={open} onOpenChange={onOpenChange} modal={false}>
        <Dialog.Trigger className="inline-flex items-center gap-2 rounded-full border border-brand/40 bg-brand/10 px-3 py-1.5 text-sm font-medium text-cyan-100 transition hover:border-brand hover:bg-brand/20">
          <Sparkles className="h-4 w-4 text-brand" aria-hidden="true" />
          AI Feature Discovery
          {urgent ? (
            <span
              className="rounded-full bg-brand px-1.5 text-xs font-semibold text-navy-950 tabular-nums"
              data-testid="feature-discovery-urgent"
            >
              {urgent}
              <span className="sr-only"> high priority</span>
            </span>
          ) : null}
        </Dialog.Trigger>
        <Dialog.Portal>
          <Dialog.Content
            onOpenAutoFocus={(e) => {
              if (byItself) e.preventDefault();
            }}
            onInteractOutside={keepOpenOnToast}
            className="fixed inset-y-0 right-0 z-40 flex w-full flex-col border-l border-navy-700 bg-navy-900 shadow-2xl shadow-black/50 focus:outline-none data-[state=open]:animate-fade-in sm:max-w-md"
          >
            <FeatureDiscoveryPanel
              recommendations={recommendations}
              insights={insights}
              onNavigate={() => setOpen(false)}
            />
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  );
}
