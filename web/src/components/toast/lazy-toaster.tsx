import { Component, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useToast } from './use-toast.ts';

const load = async () => ({ default: (await import('./toaster.tsx')).Toaster });

/**
 * A notification region whose chunk failed to arrive shows nothing rather than taking the whole
 * app down with it: it sits above the router, outside every route's error boundary, and an
 * uncaught error there would leave a blank page (issue 35, item 8).
 */
class ToasterBoundary extends Component<{ children: ReactNode; onError: () => void }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch() {
    this.props.onError();
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * The notification region, kept out of the entry chunk (Radix Toast is about a tenth of it):
 * mounted when the browser is first idle (so F8 finds it) or at the first toast, whichever
 * comes first. The toast store itself is tiny and always loaded, so nothing shown is lost. If
 * its chunk fails to load, the next toast asks for it again.
 */
export function Toaster() {
  const { toasts } = useToast();
  const [idle, setIdle] = useState(false);
  // A fresh lazy component per attempt: React keeps a failed one's error for good.
  const [RadixToaster, setRadixToaster] = useState(() => lazy(load));
  const [attempt, setAttempt] = useState(0);
  /** The newest toast when the chunk failed (undefined: none); null while it has not failed. */
  const [failedAt, setFailedAt] = useState<string | undefined | null>(null);
  useEffect(() => {
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(() => setIdle(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(() => setIdle(true), 1000);
    return () => clearTimeout(id);
  }, []);
  const newest = toasts[0]?.id;
  useEffect(() => {
    if (failedAt === null || newest === undefined || newest === failedAt) return;
    setFailedAt(null);
    setRadixToaster(() => lazy(load));
    setAttempt((a) => a + 1);
  }, [failedAt, newest]);
  if ((!idle && toasts.length === 0) || failedAt !== null) return null;
  return (
    <ToasterBoundary key={attempt} onError={() => setFailedAt(newest)}>
      <Suspense fallback={null}>
        <RadixToaster />
      </Suspense>
    </ToasterBoundary>
  );
}
