import type { ContactBody } from '@parley/contracts';
import { COMPANY_SIZES, type CompanySize } from '@parley/contracts/enums';
import { useMutation } from '@tanstack/react-query';
import clsx from 'clsx';
import { Loader2, Send } from 'lucide-react';
import { type FormEvent, type InputHTMLAttributes, useId, useRef, useState } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { apiRequest, errorMessage, errorStatus } from '../../lib/api.ts';
import { isEmail } from '../../lib/email.ts';
import { toast } from '../toast/index.ts';

export interface ContactValues {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  companySize: CompanySize | '';
  message: string;
}

export const EMPTY_CONTACT: ContactValues = {
  firstName: '',
  lastName: '',
  email: '',
  company: '',
  companySize: '',
  message: '',
};

const REQUIRED = ['firstName', 'lastName', 'email', 'company'] as const;

const inputClass =
  'w-full rounded-lg border bg-navy-800 px-3 py-2 text-sm text-white placeholder:text-slate-400 transition focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40';
const labelClass = 'mb-1 block text-sm font-medium text-slate-200';

/**
 * The demo-request form (spec §2 "Contact section", §5, §8): first name, last name, email and
 * company are required, company size and message optional. It posts JSON to POST /api/contact,
 * shows 'Submitting...' while pending, and clears itself on success. Reused by the home page's
 * contact section and the Use Cases 'Request Demo' dialog: give each instance its own
 * `idPrefix` and `source` (the analytics label).
 */
export function ContactForm({
  idPrefix,
  source = 'contact_section',
  submitLabel = 'Send Message',
  onSubmitted,
  className,
}: {
  /** Prefix of the field ids, so two forms on one page never share an id. */
  idPrefix?: string;
  /** Where the form sits, reported with the form_submit and contact_form events. */
  source?: string;
  submitLabel?: string;
  /** Called after a successful submission (a dialog closes itself with it). */
  onSubmitted?: () => void;
  className?: string;
}) {
  const generated = useId();
  const prefix = idPrefix ?? `contact-${generated}`;
  const [values, setValues] = useState<ContactValues>(EMPTY_CONTACT);
  // Required fields are marked invalid only after a submit attempt, not while typing.
  const [attempted, setAttempted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const set = <K extends keyof ContactValues>(key: K, value: ContactValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const fieldId = (key: keyof ContactValues) => `${prefix}-${key}`;

  const mutation = useMutation({
    mutationFn: (body: ContactBody) => apiRequest('POST', '/api/contact', body),
    onSuccess: () => {
      trackEvent('contact_form', { category: 'conversion', label: source });
      toast({
        title: 'Demo Request Submitted',
        description: "Thank you! We'll get back to you within 2 hours.",
      });
      setValues(EMPTY_CONTACT);
      setAttempted(false);
      onSubmitted?.();
    },
    onError: (err) => {
      toast({
        variant: 'destructive',
        title: 'Submission Failed',
        // A network failure has no useful text of its own; a server answer does.
        description:
          (errorStatus(err) !== undefined ? errorMessage(err) : undefined) ?? 'Please try again later.',
      });
    },
  });

  const isMissing = (key: (typeof REQUIRED)[number]) => attempted && !values[key].trim();
  const emailInvalid = attempted && values.email.trim() !== '' && !isEmail(values.email.trim());

  const focusField = (key: keyof ContactValues) =>
    formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(fieldId(key))}`)?.focus();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mutation.isPending) return;
    setAttempted(true);
    const missing = REQUIRED.find((key) => !values[key].trim());
    if (missing) {
      toast({ title: 'Missing Information', description: 'Please fill in all required fields.' });
      focusField(missing);
      return;
    }
    const email = values.email.trim();
    if (!isEmail(email)) {
      toast({ title: 'Invalid Email', description: 'Please enter a valid email address.' });
      focusField('email');
      return;
    }
    trackEvent('form_submit', { category: 'contact', label: source });
    mutation.mutate({
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      email,
      company: values.company.trim(),
      companySize: values.companySize || null,
      message: values.message.trim() || null,
    });
  };

  const requiredField = (
    key: (typeof REQUIRED)[number],
    label: string,
    props: InputHTMLAttributes<HTMLInputElement>,
  ) => {
    const invalid = isMissing(key) || (key === 'email' && emailInvalid);
    return (
      <div>
        <label htmlFor={fieldId(key)} className={labelClass}>
          {label}{' '}
          <span className="text-red-300" aria-hidden="true">
            *
          </span>
        </label>
        <input
          id={fieldId(key)}
          name={key}
          required
          aria-invalid={invalid || undefined}
          value={values[key]}
          onChange={(e) => set(key, e.target.value)}
          className={clsx(inputClass, invalid ? 'border-red-400' : 'border-navy-600')}
          {...props}
        />
      </div>
    );
  };

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={submit}
      aria-label="Demo request"
      className={clsx('space-y-4', className)}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        {requiredField('firstName', 'First Name', { autoComplete: 'given-name', maxLength: 100 })}
        {requiredField('lastName', 'Last Name', { autoComplete: 'family-name', maxLength: 100 })}
      </div>
      {requiredField('email', 'Email', {
        type: 'email',
        autoComplete: 'email',
        inputMode: 'email',
        maxLength: 254,
        placeholder: 'you@company.com',
      })}
      {requiredField('company', 'Company', { autoComplete: 'organization', maxLength: 200 })}
      <div>
        <label htmlFor={fieldId('companySize')} className={labelClass}>
          Company Size
        </label>
        <select
          id={fieldId('companySize')}
          name="companySize"
          value={values.companySize}
          onChange={(e) => set('companySize', e.target.value as CompanySize | '')}
          className={clsx(inputClass, 'border-navy-600')}
        >
          <option value="">Select company size</option>
          {COMPANY_SIZES.map((size) => (
            <option key={size} value={size}>
              {size} employees
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={fieldId('message')} className={labelClass}>
          Message
        </label>
        <textarea
          id={fieldId('message')}
          name="message"
          rows={4}
          maxLength={5000}
          value={values.message}
          onChange={(e) => set('message', e.target.value)}
          placeholder="Tell us about your call volume and what you'd like the agent to handle."
          className={clsx(inputClass, 'resize-y border-navy-600')}
        />
      </div>
      <p className="text-xs text-slate-300">
        <span aria-hidden="true">* </span>Required fields. We'll only use your details to respond to this
        request.
      </p>
      <button
        type="submit"
        disabled={mutation.isPending}
        className="inline-flex w-full items-center justify-center gap-2 rounded-xl bg-brand px-6 py-3 text-base font-semibold text-navy-950 shadow-lg shadow-cyan-500/20 transition hover:bg-brand-strong disabled:cursor-not-allowed disabled:opacity-70"
      >
        {mutation.isPending ? (
          <>
            <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" />
            Submitting...
          </>
        ) : (
          <>
            <Send className="h-5 w-5" aria-hidden="true" />
            {submitLabel}
          </>
        )}
      </button>
    </form>
  );
}
