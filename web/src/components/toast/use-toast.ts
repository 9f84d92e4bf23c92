import { type ReactNode, useSyncExternalStore } from 'react';

/**
 * A tiny global toast store (spec §8 "Notifications"): at most one toast is visible, a new
 * one replaces the old; a dismissed toast is kept (closed) for TOAST_REMOVE_DELAY so its
 * exit animation can play, then removed. `toast()` works anywhere, inside React or not.
 */

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;
export const TOAST_DURATION = 5000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds before auto-dismiss; defaults to the provider's 5000. */
  duration?: number;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

let counter = 0;
let toasts: ToastItem[] = [];
const listeners = new Set<() => void>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(next: ToastItem[]) {
  toasts = next;
  for (const l of listeners) l();
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      emit(toasts.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY),
  );
}

/** Closes one toast, or every toast when no id is given. */
export function dismissToast(id?: string) {
  for (const t of toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id);
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
}

const plainText = (node: ReactNode) =>
  typeof node === 'string'
    ? node
        .trim()
        .replace(/[.!]+$/, '')
        .toLowerCase()
    : null;

/**
 * A toast says a thing once (issue 35): a description that only repeats the title (a service
 * answered "Test emails sent successfully" under that very title) is left out.
 */
export function withoutRepeat(input: ToastInput): ToastInput {
  const title = plainText(input.title);
  if (title === null || title !== plainText(input.description)) return input;
  const { description: _repeat, ...rest } = input;
  return rest;
}

/** Shows a toast, replacing whatever is visible. Returns its id and a dismiss function. */
export function toast(raw: ToastInput): { id: string; dismiss: () => void } {
  const input = withoutRepeat(raw);
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  for (const t of toasts) {
    const timer = removeTimers.get(t.id);
    if (timer) clearTimeout(timer);
    removeTimers.delete(t.id);
  }
  emit([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = () => toasts;

export function useToast() {
  const items = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts: items, toast, dismiss: dismissToast };
}
