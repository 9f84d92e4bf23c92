import {
  type ComponentProps,
  type FormEvent,
  type ReactElement,
  type RefObject,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';

/**
 * The one rule for an admin form submitted with problems (issue 35, item 6): the first field in
 * error (the first `aria-invalid="true"` element, in page order) is scrolled to the middle of
 * whatever scrolls it (the page, a dialog's body) and takes the focus, and a live region says
 * what is wrong, so a submit never fails without a visible and audible sign. Every admin form
 * uses it: `AdminForm` for a <form>, `useFormFeedback` for a group of fields without one.
 */

/**
 * What a validation found: messages by field (an errors object: fields without a message are
 * fine), or a list of messages.
 */
export type Problems = ReadonlyArray<string | null | undefined | false> | object;

/** The messages of a validation result, in order: the ones actually set. */
export function problemsOf(problems: unknown): string[] {
  if (!problems || typeof problems !== 'object') return [];
  const values: ReadonlyArray<unknown> = Array.isArray(problems) ? problems : Object.values(problems);
  return values.filter((v): v is string => typeof v === 'string' && v.length > 0);
}

/** The sentence the live region reads for these messages. */
export function announcementOf(messages: readonly string[]): string {
  if (messages.length === 0) return '';
  return `Please correct the form: ${messages.map((m) => (/[.!?]$/.test(m) ? m : `${m}.`)).join(' ')}`;
}

const FOCUSABLE = 'input:not([type="hidden"]), select, textarea, button, [href], [tabindex]';

/**
 * Brings the first field in error into view and focuses it; without a marked field (a problem of
 * the form as a whole, such as no recipients), its alert. False when neither is on the page.
 */
export function revealFirstProblem(container: HTMLElement | null): boolean {
  const target =
    container?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
    container?.querySelector<HTMLElement>('[data-form-error]');
  if (!target) return false;
  // A marked group (a file input's wrapper, an alert) hands the focus to its first control.
  let focus = target.matches(FOCUSABLE) ? target : target.querySelector<HTMLElement>(FOCUSABLE);
  if (!focus) {
    target.tabIndex = -1;
    focus = target;
  }
  // Centred, not at an edge: the field's label above it and its error below it show too.
  target.scrollIntoView({ block: 'center', inline: 'nearest' });
  focus.focus({ preventScroll: true });
  return true;
}

export interface FormFeedback<T extends HTMLElement> {
  /** The form, or the element around the fields. */
  ref: RefObject<T | null>;
  /**
   * After a validation: with problems, reveals the first field in error (once the errors are on
   * the page) and announces them; resolves true when there were problems.
   */
  report: (problems: Problems | null | undefined) => boolean;
  /** The live region: render it once inside the form. */
  announcer: ReactElement;
}

export function useFormFeedback<T extends HTMLElement = HTMLFormElement>(): FormFeedback<T> {
  const ref = useRef<T>(null);
  // `round` changes on every failed submit, so the same message is announced (and the field
  // revealed) again when the admin submits twice without changing anything.
  const [note, setNote] = useState<{ text: string; round: number }>({ text: '', round: 0 });
  const pending = useRef(false);

  useEffect(() => {
    if (note.round === 0 || !pending.current) return;
    pending.current = false;
    revealFirstProblem(ref.current);
  }, [note]);

  const report = useCallback((problems: Problems | null | undefined) => {
    const messages = problemsOf(problems);
    if (messages.length === 0) {
      setNote((n) => (n.text ? { text: '', round: n.round } : n));
      return false;
    }
    pending.current = true;
    setNote((n) => ({ text: announcementOf(messages), round: n.round + 1 }));
    return true;
  }, []);

  const announcer = (
    // A live region without a role: the forms' own alerts (a failed sign-in) keep theirs alone.
    <p aria-live="assertive" aria-atomic="true" className="sr-only" data-testid="form-problems">
      {note.text}
      {/* A changed text is what a screen reader announces: the same problems twice differ by this. */}
      {note.round % 2 ? '\u00a0' : ''}
    </p>
  );
  return { ref, report, announcer };
}

/**
 * An admin <form> (no browser validation bubbles: the form's own messages show): `onSubmit`
 * validates (setting its field errors) and submits when all is well; it returns the problems
 * it found, which this form reveals and announces. A form that learns of problems later (the
 * server refused a field) passes its own `feedback` and reports them with it.
 */
export function AdminForm({
  onSubmit,
  feedback,
  children,
  ...props
}: Omit<ComponentProps<'form'>, 'onSubmit' | 'noValidate' | 'ref'> & {
  /** Returns the `Problems` found, or nothing when it submitted. */
  onSubmit: (e: FormEvent<HTMLFormElement>) => unknown;
  feedback?: FormFeedback<HTMLFormElement>;
}) {
  const own = useFormFeedback<HTMLFormElement>();
  const fb = feedback ?? own;
  return (
    <form
      {...props}
      ref={fb.ref}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        // A dialog's form inside another form's dialog: its submit is its own.
        e.stopPropagation();
        fb.report(onSubmit(e) as Problems | undefined);
      }}
    >
      {fb.announcer}
      {children}
    </form>
  );
}
