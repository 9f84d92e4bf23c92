import * as ToastPrimitive from '@radix-ui/react-toast';
import clsx from 'clsx';
import { X } from 'lucide-react';
import { closeTopDialog } from '../dialog-focus.ts';
import { dismissToast, TOAST_DURATION, useToast } from './use-toast.ts';

/**
 * The notification region (spec §8): Radix Toast with a 5 s default duration, swipe right
 * past 50 px to dismiss, F8 to focus the region (Radix default hotkey), at most 420 px wide
 * from the md breakpoint up. Mounted once at the root.
 */
export function Toaster() {
  const { toasts } = useToast();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION} swipeDirection="right" swipeThreshold={50}>
      {toasts.map(({ id, title, description, variant = 'default', duration, open }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          duration={duration}
          type={variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
          onEscapeKeyDown={(e) => {
            // Escape is the open dialog's (the toast stays until its time); a focused toast's own.
            if (e.target instanceof Element && e.target.closest('[data-testid="toasts"]')) return;
            if (closeTopDialog()) e.preventDefault();
          }}
          data-variant={variant}
          className={clsx(
            'toast group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-xl border p-4 pr-9 shadow-xl',
            variant === 'destructive'
              ? 'border-red-500/60 bg-red-600 text-white'
              : 'border-slate-700 bg-slate-900 text-slate-100',
          )}
        >
          <div className="grid gap-1">
            {title ? (
              <ToastPrimitive.Title className="text-sm font-semibold">{title}</ToastPrimitive.Title>
            ) : null}
            {description ? (
              <ToastPrimitive.Description className="text-sm opacity-90">
                {description}
              </ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close
            aria-label="Close notification"
            className="absolute top-2 right-2 rounded-md p-1 opacity-70 transition hover:opacity-100 focus:opacity-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-cyan-400"
          >
            <X className="h-4 w-4" aria-hidden="true" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        data-testid="toasts"
        className="fixed top-0 z-[100] flex max-h-screen w-full flex-col-reverse gap-2 p-4 outline-none sm:top-auto sm:right-0 sm:bottom-0 sm:flex-col md:max-w-[420px]"
      />
    </ToastPrimitive.Provider>
  );
}
