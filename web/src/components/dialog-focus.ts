/** Handlers the app's Radix dialogs share. */

/** onInteractOutside: dismissing or swiping a toast must not close the dialog behind it. */
export function keepOpenOnToast(e: { target: EventTarget | null; preventDefault(): void }): void {
  if (e.target instanceof Element && e.target.closest('[data-testid="toasts"]')) e.preventDefault();
}

/**
 * onCloseAutoFocus for a dialog opened without a Dialog.Trigger: focus goes back to the
 * button that opened it, when that button is still on the page.
 */
export function returnFocusTo(button: HTMLElement | null | undefined) {
  return (e: Event): void => {
    if (button?.isConnected) {
      e.preventDefault();
      button.focus();
    }
  };
}

/** The open dialogs' close functions, the last opened last. */
const openDialogs: Array<() => void> = [];

/** Records an open dialog (DialogFrame does it); the returned function forgets it. */
export function registerOpenDialog(close: () => void): () => void {
  openDialogs.push(close);
  return () => {
    const i = openDialogs.lastIndexOf(close);
    if (i >= 0) openDialogs.splice(i, 1);
  };
}

/**
 * Closes the dialog opened last; false when none is open. A toast above a dialog takes Escape
 * first (both are Radix layers, and the newest layer gets the key): the toaster hands it on
 * here, so Escape keeps closing the dialog while a toast shows (issue 35).
 */
export function closeTopDialog(): boolean {
  const close = openDialogs.at(-1);
  if (!close) return false;
  close();
  return true;
}
