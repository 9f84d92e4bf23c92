import { lazy, Suspense, useEffect, useState } from 'react';
import { OPEN_CALENDAR_EVENT } from '../../lib/events.ts';

const loadDialog = () => import('./booking-dialog.tsx');
const BookingDialog = lazy(loadDialog);

/**
 * The booking modal, mounted once in the public layout. It opens on the window event
 * 'openCalendar' (which every 'Request Demo' button fires). The dialog itself is a separate
 * chunk, fetched when the browser is idle so the first opening is instant without weighing
 * on the first paint; once mounted it stays mounted so progress survives a close.
 */
export function BookingModal() {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);

  useEffect(() => {
    const onOpen = () => {
      setMounted(true);
      setOpen(true);
    };
    window.addEventListener(OPEN_CALENDAR_EVENT, onOpen);
    return () => window.removeEventListener(OPEN_CALENDAR_EVENT, onOpen);
  }, []);

  useEffect(() => {
    const prefetch = () => void loadDialog().catch(() => undefined);
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(prefetch, { timeout: 3000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(prefetch, 1500);
    return () => clearTimeout(id);
  }, []);

  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <BookingDialog open={open} setOpen={setOpen} />
    </Suspense>
  );
}
