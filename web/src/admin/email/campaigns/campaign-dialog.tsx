import { type Campaign, EMAIL_AI_MESSAGES, type OptimizeField, SUBJECT_TIP_LENGTH } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import clsx from 'clsx';
import { Sparkles } from 'lucide-react';
import { type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { toast } from '../../../components/toast/index.ts';
import { AdminForm } from '../../components/form-feedback.tsx';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  FieldError,
  inputClass,
  labelClass,
  secondaryButton,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { useSettings } from '../../settings/api.ts';
import { OptimizerDialog } from '../ai/optimizer-dialog.tsx';
import { AudienceDialog } from '../audience/audience-dialog.tsx';
import { createCampaign, refreshCampaigns, updateCampaign } from './api.ts';
import {
  type CampaignForm,
  type FormErrors,
  formOf,
  inputOf,
  subjectTooLong,
  validateCampaign,
} from './campaign-form.ts';
import { MERGE_FIELD_HELP, MergeFieldMenu } from './merge-field-menu.tsx';
import { TargetPicker } from './target-picker.tsx';

/**
 * Create or edit a campaign (email marketing §2, §5): name, subject (with the under-50
 * tip), from name and from email (required, a valid address), HTML and text content, an
 * optional schedule, and the recipients. New campaigns start from the SMTP settings' sender.
 */
export function CampaignDialog({
  campaign,
  initial,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  campaign: Campaign | null;
  /** Fields to start from over the campaign's (a generated campaign: AI Generate, Regenerate with AI). */
  initial?: Partial<CampaignForm> | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const settings = useSettings();
  const [form, setForm] = useState<CampaignForm>(() => formOf(null, { fromName: '', fromEmail: '' }));
  const [errors, setErrors] = useState<FormErrors>({});
  // The merge-field menu inserts at the cursor of these.
  const subjectRef = useRef<HTMLInputElement>(null);
  const htmlRef = useRef<HTMLTextAreaElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);

  // Strings, not the settings map (a new Map on every render): the form resets only on opening.
  const fromName = settings.data?.get('smtp_from_name')?.value ?? '';
  const fromEmail = settings.data?.get('smtp_from_email')?.value ?? '';
  useEffect(() => {
    if (!open) return;
    setForm({ ...formOf(campaign, { fromName, fromEmail }), ...initial });
    setErrors({});
  }, [open, campaign, fromName, fromEmail, initial]);

  // The AI content optimizer on the subject or the HTML; an empty field has nothing to optimize.
  const [optimizing, setOptimizing] = useState<OptimizeField | null>(null);
  const optimize = (field: OptimizeField) => {
    if (!form[field].trim())
      toast({
        variant: 'destructive',
        title: 'Nothing to optimize',
        description: EMAIL_AI_MESSAGES.emptyField(field),
      });
    else setOptimizing(field);
  };

  const save = useMutation({
    mutationFn: () => (campaign ? updateCampaign(campaign.id, inputOf(form)) : createCampaign(inputOf(form))),
    onSuccess: async (saved) => {
      toast({ title: campaign ? 'Campaign updated' : 'Campaign created', description: `"${saved.name}"` });
      onOpenChange(false);
      await refreshCampaigns(queryClient);
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: `Failed to save campaign${messageOr(err, '') ? `: ${messageOr(err, '')}` : ''}`,
      }),
  });

  const set = (key: keyof CampaignForm) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const field = (
    key: 'name' | 'subject' | 'fromName' | 'fromEmail',
    label: string,
    extra?: ReactNode,
    after?: ReactNode,
  ) => (
    <div>
      <label htmlFor={`${id}-${key}`} className={labelClass}>
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        ref={key === 'subject' ? subjectRef : undefined}
        className={inputClass}
        type={key === 'fromEmail' ? 'email' : 'text'}
        value={form[key]}
        required
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={
          clsx(errors[key] && `${id}-${key}-error`, extra && `${id}-${key}-hint`) || undefined
        }
        onChange={(e) => set(key)(e.target.value)}
      />
      <FieldError id={`${id}-${key}-error`} message={errors[key]} />
      {extra}
      {after}
    </div>
  );
  const long = subjectTooLong(form.subject);

  return (
    <AudienceDialog
      open={open}
      onOpenChange={onOpenChange}
      title={campaign ? 'Edit Campaign' : 'Create Campaign'}
      description={
        campaign
          ? `Change "${campaign.name}".`
          : initial
            ? 'Review the generated campaign, then create it as a draft.'
            : 'Write an email campaign by hand.'
      }
      wide
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      <AdminForm
        className="space-y-4"
        onSubmit={() => {
          const found = validateCampaign(form);
          setErrors(found);
          if (Object.keys(found).length === 0) save.mutate();
          return found;
        }}
      >
        {field('name', 'Campaign name')}
        {field(
          'subject',
          'Subject',
          <p
            id={`${id}-subject-hint`}
            className={clsx('mt-1 text-xs', long ? 'text-amber-200' : 'text-slate-400')}
            data-testid="subject-tip"
          >
            Tip: keep the subject under {SUBJECT_TIP_LENGTH} characters ({form.subject.trim().length}/
            {SUBJECT_TIP_LENGTH}).
          </p>,
          <MergeFieldMenu
            target={subjectRef}
            value={form.subject}
            onChange={set('subject')}
            fieldLabel="Subject"
          />,
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          {field('fromName', 'From name')}
          {field('fromEmail', 'From email')}
        </div>
        <TextArea
          id={`${id}-html`}
          label="HTML content"
          rows={8}
          value={form.htmlContent}
          onChange={set('htmlContent')}
          textareaRef={htmlRef}
        >
          {MERGE_FIELD_HELP}
        </TextArea>
        <div className="flex flex-wrap items-center gap-2" data-testid="content-optimizer">
          <span className="text-xs text-slate-400">AI content optimizer:</span>
          {(['subject', 'htmlContent'] as const).map((f) => (
            <button
              key={f}
              type="button"
              className={clsx(secondaryButton, 'px-2.5 py-1.5 text-xs')}
              onClick={() => optimize(f)}
            >
              <Sparkles className="h-3.5 w-3.5" aria-hidden="true" />
              {f === 'subject' ? 'Optimize subject' : 'Optimize HTML'}
            </button>
          ))}
        </div>
        <TextArea
          id={`${id}-text`}
          label="Text content"
          rows={4}
          value={form.textContent}
          onChange={set('textContent')}
          textareaRef={textRef}
        >
          The plain-text version for mail clients that show no HTML.
        </TextArea>
        <div>
          <label htmlFor={`${id}-when`} className={labelClass}>
            Schedule (optional)
          </label>
          <input
            id={`${id}-when`}
            type="datetime-local"
            className={inputClass}
            value={form.scheduledAt}
            onChange={(e) => set('scheduledAt')(e.target.value)}
          />
        </div>
        <TargetPicker
          targets={{ bookIds: form.addressBookIds, contactIds: form.contactIds, segmentIds: form.segmentIds }}
          onChange={({ bookIds, contactIds, segmentIds }) =>
            setForm((f) => ({ ...f, addressBookIds: bookIds, contactIds, segmentIds }))
          }
        />
        <DialogActions className="pt-1">
          <CancelButton onCancel={() => onOpenChange(false)} />
          <BusyButton busy={save.isPending}>{campaign ? 'Save Changes' : 'Create Campaign'}</BusyButton>
        </DialogActions>
      </AdminForm>
      <OptimizerDialog
        field={optimizing ?? 'subject'}
        content={{ subject: form.subject, htmlContent: form.htmlContent }}
        open={optimizing !== null}
        onOpenChange={(o) => (o ? undefined : setOptimizing(null))}
        onApply={(patch) => {
          setForm((f) => ({ ...f, ...patch }));
          setErrors((e) => ({ ...e, subject: undefined }));
        }}
      />
    </AudienceDialog>
  );
}

function TextArea({
  id,
  label,
  rows,
  value,
  onChange,
  textareaRef,
  children,
}: {
  id: string;
  label: string;
  rows: number;
  value: string;
  onChange: (v: string) => void;
  textareaRef: RefObject<HTMLTextAreaElement | null>;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <textarea
        id={id}
        ref={textareaRef}
        rows={rows}
        className={clsx(inputClass, 'font-mono text-xs')}
        value={value}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-400">
        {children}
      </p>
      <MergeFieldMenu target={textareaRef} value={value} onChange={onChange} fieldLabel={label} />
    </div>
  );
}
