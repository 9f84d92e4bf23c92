import { lazy, Suspense, useEffect, useState } from 'react';
import { useToast } from './use-toast.ts';

const RadixToaster = lazy(async () => ({ default: (await import('./toaster.tsx')).Toaster }));

/**
 * The notification region, kept out of the entry chunk (Radix Toast is about a tenth of it):
 * mounted when the browser is first idle (so F8 finds it) or at the first toast, whichever
 * comes first. The toast store itself is tiny and always loaded, so nothing shown is lost.
 */
export function Toaster() {
  const { toasts } = useToast();
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(() => setIdle(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(() => setIdle(true), 1000);
    return () => clearTimeout(id);
  }, []);
  if (!idle && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <RadixToaster />
    </Suspense>
  );
}
