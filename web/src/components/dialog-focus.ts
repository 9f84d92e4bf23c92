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
