import { NEWSLETTER_LIMITS, NEWSLETTER_MESSAGES } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import clsx from 'clsx';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { AdminForm } from '../components/form-feedback.tsx';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  FormAlert,
  inputClass,
  labelClass,
} from '../components/ui.tsx';
import { AudienceDialog } from '../email/audience/audience-dialog.tsx';
import { MERGE_FIELD_HELP, MergeFieldMenu } from '../email/campaigns/merge-field-menu.tsx';
import { createNewsletter, failureToast, refreshNewsletters } from './api.ts';

interface Form {
  name: string;
  subject: string;
  preheader: string;
  htmlContent: string;
  textContent: string;
}

const EMPTY: Form = { name: '', subject: '', preheader: '', htmlContent: '', textContent: '' };
const REQUIRED = ['name', 'subject', 'htmlContent'] as const;

/**
 * Create New Newsletter (email marketing §2, §5): name, subject and HTML content required
 * ('Please fill in all required fields'), preheader and text content optional. A new
 * newsletter is a draft.
 */
export function CreateNewsletterDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(EMPTY);
  const [tried, setTried] = useState(false);
  // The merge-field menu inserts at the cursor of these.
  const refs = {
    subject: useRef<HTMLInputElement>(null),
    preheader: useRef<HTMLInputElement>(null),
    htmlContent: useRef<HTMLTextAreaElement>(null),
    textContent: useRef<HTMLTextAreaElement>(null),
  };

  useEffect(() => {
    if (!open) return;
    setForm(EMPTY);
    setTried(false);
  }, [open]);

  const create = useMutation({
    mutationFn: () =>
      createNewsletter({
        name: form.name.trim(),
        subject: form.subject.trim(),
        preheader: form.preheader.trim() || null,
        htmlContent: form.htmlContent,
        textContent: form.textContent.trim() ? form.textContent : null,
      }),
    onSuccess: async (n) => {
      toast({ title: 'Newsletter created', description: `"${n.name}" is a new draft.` });
      onOpenChange(false);
      await refreshNewsletters(queryClient);
    },
    onError: (err) => toast(failureToast('create', err)),
  });

  const missing = REQUIRED.filter((k) => !form[k].trim());
  const bad = (k: keyof Form) => tried && (REQUIRED as readonly string[]).includes(k) && !form[k].trim();
  const set = (k: keyof Form) => (value: string) => setForm((f) => ({ ...f, [k]: value }));
  const alertId = `${id}-alert`;

  const input = (k: 'name' | 'subject' | 'preheader', label: string, max: number, optional = false) => (
    <div>
      <label htmlFor={`${id}-${k}`} className={labelClass}>
        {label}
        {optional ? <span className="font-normal text-slate-400"> (optional)</span> : null}
      </label>
      <input
        id={`${id}-${k}`}
        ref={k === 'name' ? undefined : refs[k]}
        className={inputClass}
        value={form[k]}
        maxLength={max}
        required={!optional}
        aria-invalid={bad(k) ? true : undefined}
        aria-describedby={bad(k) ? alertId : undefined}
        onChange={(e) => set(k)(e.target.value)}
      />
      {k === 'name' ? null : (
        <MergeFieldMenu target={refs[k]} value={form[k]} onChange={set(k)} fieldLabel={label} />
      )}
    </div>
  );

  return (
    <AudienceDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create New Newsletter"
      description="Write a newsletter by hand; it starts as a draft."
      wide
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      <AdminForm
        className="space-y-4"
        onSubmit={() => {
          setTried(true);
          if (missing.length) return [NEWSLETTER_MESSAGES.required];
          create.mutate();
        }}
      >
        {input('name', 'Name', NEWSLETTER_LIMITS.name)}
        {input('subject', 'Subject', NEWSLETTER_LIMITS.subject)}
        {input('preheader', 'Preheader', NEWSLETTER_LIMITS.preheader, true)}
        <div>
          <label htmlFor={`${id}-html`} className={labelClass}>
            HTML content
          </label>
          <textarea
            id={`${id}-html`}
            ref={refs.htmlContent}
            rows={8}
            className={clsx(inputClass, 'font-mono text-xs')}
            value={form.htmlContent}
            required
            aria-invalid={bad('htmlContent') ? true : undefined}
            aria-describedby={clsx(`${id}-html-hint`, bad('htmlContent') && alertId)}
            onChange={(e) => set('htmlContent')(e.target.value)}
          />
          <p id={`${id}-html-hint`} className="mt-1 text-xs text-slate-400">
            {MERGE_FIELD_HELP}
          </p>
          <MergeFieldMenu
            target={refs.htmlContent}
            value={form.htmlContent}
            onChange={set('htmlContent')}
            fieldLabel="HTML content"
          />
        </div>
        <div>
          <label htmlFor={`${id}-text`} className={labelClass}>
            Text content <span className="font-normal text-slate-400">(optional)</span>
          </label>
          <textarea
            id={`${id}-text`}
            rows={4}
            className={clsx(inputClass, 'font-mono text-xs')}
            value={form.textContent}
            aria-describedby={`${id}-text-hint`}
            onChange={(e) => set('textContent')(e.target.value)}
          />
          <p id={`${id}-text-hint`} className="mt-1 text-xs text-slate-400">
            For mail clients that show no HTML; made from the HTML when left empty.
          </p>
          <MergeFieldMenu
            target={refs.textContent}
            value={form.textContent}
            onChange={set('textContent')}
            fieldLabel="Text content"
          />
        </div>
        <div id={alertId}>
          <FormAlert message={tried && missing.length ? NEWSLETTER_MESSAGES.required : null} />
        </div>
        <DialogActions>
          <CancelButton onCancel={() => onOpenChange(false)} />
          <BusyButton busy={create.isPending}>Create Newsletter</BusyButton>
        </DialogActions>
      </AdminForm>
    </AudienceDialog>
  );
}
