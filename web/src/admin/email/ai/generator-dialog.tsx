import {
  type Campaign,
  type CampaignGoal,
  EMAIL_AI_LIMITS,
  EMAIL_AI_MESSAGES,
  type GenerateCampaignResponse,
} from '@parley/contracts';
import { useMutation } from '@tanstack/react-query';
import clsx from 'clsx';
import { RefreshCw, Sparkles } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { toast } from '../../../components/toast/index.ts';
import { AdminForm } from '../../components/form-feedback.tsx';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  FieldError,
  inputClass,
  labelClass,
  primaryButton,
  secondaryButton,
  selectClass,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { useBrandSettings } from '../../settings/api.ts';
import { AudienceDialog } from '../audience/audience-dialog.tsx';
import { personalize, SAMPLE } from '../campaigns/personalize.ts';
import { sanitizeHtml } from '../campaigns/sanitize.ts';
import {
  type CompanyFields,
  companyContextOf,
  companyFromBrand,
  EMPTY_COMPANY,
  GOAL_OPTIONS,
  generateCampaign,
} from './api.ts';

/** What the generator opens with: empty (AI Generate) or an existing campaign (Regenerate with AI). */
export interface GeneratorSeed {
  prompt: string;
  goal: CampaignGoal;
  /** The campaign being regenerated, or null. */
  source: Campaign | null;
}

const COMPANY_FIELDS: Array<{ key: keyof CompanyFields; label: string; placeholder: string }> = [
  { key: 'companyName', label: 'Company name', placeholder: 'Parley' },
  { key: 'industry', label: 'Industry', placeholder: 'Dental clinics' },
  { key: 'audience', label: 'Audience', placeholder: 'Practice managers in Ohio' },
  { key: 'valueProposition', label: 'Value proposition', placeholder: 'Never miss a call again' },
  { key: 'tone', label: 'Tone', placeholder: 'Friendly, expert' },
  { key: 'website', label: 'Website', placeholder: 'https://example.com' },
  { key: 'address', label: 'Postal address (footer)', placeholder: '1 Main St, Springfield' },
  { key: 'keywords', label: 'Keywords (comma separated)', placeholder: 'voice agents, scheduling' },
  { key: 'brandColor', label: 'Button colour (#rrggbb)', placeholder: '#0e7490' },
];

/**
 * The AI campaign generator (email marketing §2, §5, §8): a prompt (required), one of the seven
 * goals, a header image (on by default) and the company context, prefilled from the brand
 * settings when there are any. The result is shown (subject, sender, the rendered mail with
 * the sample contact) and "Use this campaign" hands it to the create or edit dialog.
 */
export function GeneratorDialog({
  seed,
  open,
  onOpenChange,
  onUse,
  onCloseAutoFocus,
}: {
  seed: GeneratorSeed | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onUse: (result: GenerateCampaignResponse, source: Campaign | null) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const id = useId();
  const brand = useBrandSettings();
  const [prompt, setPrompt] = useState('');
  const [goal, setGoal] = useState<CampaignGoal>('lead_generation');
  const [includeImage, setIncludeImage] = useState(true);
  const [company, setCompany] = useState<CompanyFields>(EMPTY_COMPANY);
  const [promptError, setPromptError] = useState<string | undefined>();
  const [result, setResult] = useState<GenerateCampaignResponse | null>(null);
  const fromBrand = useMemo(() => companyFromBrand(brand.data), [brand.data]);
  const hasBrand = Object.values(fromBrand).some(Boolean);

  // The form starts over on every opening (with the seed); the brand settings fill the
  // company fields when they arrive.
  useEffect(() => {
    if (!open) return;
    setPrompt(seed?.prompt ?? '');
    setGoal(seed?.goal ?? 'lead_generation');
    setIncludeImage(true);
    setPromptError(undefined);
    setResult(null);
  }, [open, seed]);
  useEffect(() => {
    if (open) setCompany(fromBrand);
  }, [open, fromBrand]);

  const generate = useMutation({
    mutationFn: () =>
      generateCampaign({
        prompt: prompt.trim(),
        goal,
        includeImage,
        companyContext: companyContextOf(company),
      }),
    onSuccess: (r) => setResult(r),
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: EMAIL_AI_MESSAGES.generationFailed,
        description: messageOr(err, 'The writer did not answer. Please try again.'),
      }),
  });

  const submit = () => {
    if (!prompt.trim()) {
      setPromptError(EMAIL_AI_MESSAGES.promptRequired);
      toast({
        variant: 'destructive',
        title: 'Prompt required',
        description: EMAIL_AI_MESSAGES.promptRequired,
      });
      return [EMAIL_AI_MESSAGES.promptRequired];
    }
    generate.mutate();
  };

  const preview = useMemo(
    () => (result ? sanitizeHtml(personalize(result.htmlContent, SAMPLE, true)) : ''),
    [result],
  );
  const source = seed?.source ?? null;

  return (
    <AudienceDialog
      open={open}
      onOpenChange={onOpenChange}
      title={source ? 'Regenerate with AI' : 'AI Campaign Generator'}
      description={
        source
          ? source.status === 'draft'
            ? `A new version of "${source.name}": using it opens the draft for editing.`
            : `A new version of "${source.name}": using it starts a new draft for the same recipients.`
          : 'Describe the campaign; the writer drafts the subject, the HTML and the text version.'
      }
      wide="xl"
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      <AdminForm className="space-y-4" aria-busy={generate.isPending} onSubmit={submit}>
        <div>
          <label htmlFor={`${id}-prompt`} className={labelClass}>
            Campaign prompt
          </label>
          <textarea
            id={`${id}-prompt`}
            rows={3}
            className={inputClass}
            value={prompt}
            maxLength={EMAIL_AI_LIMITS.prompt}
            required
            placeholder="e.g. Invite dental clinics to book a demo of our AI receptionist"
            aria-invalid={promptError ? true : undefined}
            aria-describedby={clsx(`${id}-prompt-hint`, promptError && `${id}-prompt-error`)}
            onChange={(e) => {
              setPrompt(e.target.value);
              setPromptError(undefined);
            }}
          />
          <FieldError id={`${id}-prompt-error`} message={promptError} />
          <p id={`${id}-prompt-hint`} className="mt-1 text-xs text-slate-400">
            What the campaign is about, for whom, and any offer or date it must mention ({prompt.length}/
            {EMAIL_AI_LIMITS.prompt}).
          </p>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-goal`} className={labelClass}>
              Goal
            </label>
            <select
              id={`${id}-goal`}
              className={selectClass}
              value={goal}
              onChange={(e) => setGoal(e.target.value as CampaignGoal)}
            >
              {GOAL_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
          <label className="flex items-center gap-2 self-end pb-2 text-sm text-slate-200">
            <input
              type="checkbox"
              className="h-4 w-4 accent-cyan-500"
              checked={includeImage}
              onChange={(e) => setIncludeImage(e.target.checked)}
            />
            Include image
          </label>
        </div>
        <details className="rounded-lg border border-navy-700 px-3 py-2" data-testid="company-context">
          <summary className="cursor-pointer text-sm font-medium text-slate-200">
            Company context{' '}
            <span className="font-normal text-slate-400">
              {brand.isPending
                ? '(loading the brand settings…)'
                : hasBrand
                  ? '(filled from your brand settings)'
                  : '(no brand settings yet: Settings → Brand fills it)'}
            </span>
          </summary>
          <div className="mt-3 grid gap-3 sm:grid-cols-2">
            {COMPANY_FIELDS.map((f) => (
              <div key={f.key}>
                <label htmlFor={`${id}-${f.key}`} className={labelClass}>
                  {f.label}
                </label>
                <input
                  id={`${id}-${f.key}`}
                  className={inputClass}
                  value={company[f.key]}
                  maxLength={EMAIL_AI_LIMITS.companyField}
                  placeholder={f.placeholder}
                  onChange={(e) => setCompany((c) => ({ ...c, [f.key]: e.target.value }))}
                />
              </div>
            ))}
          </div>
        </details>

        <div aria-live="polite" className="text-sm text-slate-300">
          {generate.isPending ? (
            <p className="flex items-center gap-2" data-testid="generator-progress">
              <Sparkles className="h-4 w-4 animate-pulse text-brand" aria-hidden="true" />
              Writing your campaign: subject, HTML and text version…
            </p>
          ) : null}
        </div>

        {result ? (
          <section aria-label="Generated campaign" className="space-y-3" data-testid="generated-campaign">
            <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
              <dt className="text-slate-400">Name</dt>
              <dd className="text-white" data-testid="generated-name">
                {result.name}
              </dd>
              <dt className="text-slate-400">Subject</dt>
              <dd className="text-white" data-testid="generated-subject">
                {result.subject}{' '}
                <span className="text-xs text-slate-400">({result.subject.length} characters)</span>
              </dd>
              <dt className="text-slate-400">From</dt>
              <dd className="text-slate-200">
                {result.fromName} &lt;{result.fromEmail}&gt;
              </dd>
              <dt className="text-slate-400">Written by</dt>
              <dd className="text-slate-200" data-testid="generated-provider">
                {result.provider === 'openai'
                  ? `OpenAI (${result.model})`
                  : 'The local writer (no AI service configured)'}
              </dd>
              <dt className="text-slate-400">Header</dt>
              <dd className="text-slate-200">{result.header.note}</dd>
            </dl>
            <iframe
              title={`Preview of ${result.name}`}
              sandbox=""
              srcDoc={preview}
              data-testid="generated-preview"
              className="block h-[26rem] w-full rounded border border-navy-700 bg-white"
            />
          </section>
        ) : null}

        <DialogActions className="pt-1">
          <CancelButton onCancel={() => onOpenChange(false)} />
          {result ? (
            <>
              <BusyButton busy={generate.isPending} icon={RefreshCw} className={secondaryButton}>
                Generate again
              </BusyButton>
              <button type="button" className={primaryButton} onClick={() => onUse(result, source)}>
                Use this campaign
              </button>
            </>
          ) : (
            <BusyButton busy={generate.isPending} icon={Sparkles}>
              {generate.isPending ? 'Generating…' : 'Generate'}
            </BusyButton>
          )}
        </DialogActions>
      </AdminForm>
    </AudienceDialog>
  );
}
