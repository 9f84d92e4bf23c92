import {
  EMAIL_AI_MESSAGES,
  OPTIMIZE_GOAL_LABELS,
  OPTIMIZE_GOALS,
  type OptimizeContentResponse,
  type OptimizeField,
  type OptimizeGoal,
} from '@parley/contracts';
import { useMutation } from '@tanstack/react-query';
import { Sparkles } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { toast } from '../../../components/toast/index.ts';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  labelClass,
  primaryButton,
  secondaryButton,
  selectClass,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { AudienceDialog } from '../audience/audience-dialog.tsx';
import { personalize, SAMPLE } from '../campaigns/personalize.ts';
import { sanitizeHtml } from '../campaigns/sanitize.ts';
import { optimizeContent } from './api.ts';

/** What each goal does, shown under the choice. */
const GOAL_HINTS: Record<OptimizeGoal, string> = {
  engagement: 'A question and a preview line that invite the reader in.',
  conversion: 'A specific, button-style call to action, repeated in a P.S.',
  clarity: 'Plainer words, no filler, shorter sentences.',
  personalization: '{{firstName}} and {{company}} where they read naturally.',
  urgency: 'A deadline (a week ahead: set your real one) and an immediate call to action.',
  authority: 'Proof highlighted, hedging removed, the sender named.',
};

export interface OptimizerContent {
  subject: string;
  htmlContent: string;
}

/** What Apply writes into the campaign form. */
export interface OptimizerPatch {
  subject?: string;
  htmlContent?: string;
  textContent?: string;
}

/**
 * The AI content optimizer (email marketing §2, §5, §8): rewrites the subject or the HTML of
 * the campaign being edited toward one of six goals, shows before and after with the list of
 * changes, and Apply writes the result into the form (nothing is saved until the form is).
 * No <form> here: the dialog sits inside the campaign form, and a submit would bubble to it.
 */
export function OptimizerDialog({
  field,
  content,
  open,
  onOpenChange,
  onApply,
}: {
  field: OptimizeField;
  content: OptimizerContent;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onApply: (patch: OptimizerPatch) => void;
}) {
  const id = useId();
  const [goal, setGoal] = useState<OptimizeGoal>('engagement');
  const [result, setResult] = useState<OptimizeContentResponse | null>(null);
  const [withText, setWithText] = useState(true);

  useEffect(() => {
    if (!open) return;
    setResult(null);
    setWithText(true);
  }, [open]);

  const optimize = useMutation({
    mutationFn: () => optimizeContent({ field, goal, content }),
    onSuccess: (r) => setResult(r),
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: EMAIL_AI_MESSAGES.optimizationFailed,
        description: messageOr(err, 'The optimizer did not answer. Please try again.'),
      }),
  });

  const html = field === 'htmlContent';
  const before = html ? content.htmlContent : content.subject;
  const after = result ? (html ? result.htmlContent : result.subject) : '';
  const frames = useMemo(
    () =>
      html && result
        ? {
            before: sanitizeHtml(personalize(content.htmlContent, SAMPLE, true)),
            after: sanitizeHtml(personalize(result.htmlContent, SAMPLE, true)),
          }
        : null,
    [html, result, content.htmlContent],
  );

  const apply = () => {
    if (!result) return;
    onApply(
      html
        ? {
            htmlContent: result.htmlContent,
            ...(withText && result.textContent !== null ? { textContent: result.textContent } : {}),
          }
        : { subject: result.subject },
    );
    onOpenChange(false);
  };

  return (
    <AudienceDialog
      open={open}
      onOpenChange={onOpenChange}
      title={html ? 'Optimize the HTML content' : 'Optimize the subject'}
      description="Choose a goal: the optimizer rewrites toward it and says what it changed. Apply puts the result into the form."
      wide={html ? 'xl' : true}
    >
      <div className="space-y-4" aria-busy={optimize.isPending}>
        <div>
          <label htmlFor={`${id}-goal`} className={labelClass}>
            Optimization goal
          </label>
          <select
            id={`${id}-goal`}
            className={selectClass}
            value={goal}
            aria-describedby={`${id}-goal-hint`}
            onChange={(e) => {
              setGoal(e.target.value as OptimizeGoal);
              setResult(null);
            }}
          >
            {OPTIMIZE_GOALS.map((g) => (
              <option key={g} value={g}>
                {OPTIMIZE_GOAL_LABELS[g]}
              </option>
            ))}
          </select>
          <p id={`${id}-goal-hint`} className="mt-1 text-xs text-slate-400">
            {GOAL_HINTS[goal]}
          </p>
        </div>

        {result ? (
          <section aria-label="Optimization result" className="space-y-3" data-testid="optimizer-result">
            {frames ? (
              <div className="grid gap-3 md:grid-cols-2">
                {(['before', 'after'] as const).map((k) => (
                  <figure key={k}>
                    <figcaption className="mb-1 text-xs font-medium text-slate-400 uppercase">
                      {k === 'before' ? 'Before' : 'After'}
                    </figcaption>
                    <iframe
                      title={k === 'before' ? 'The HTML before' : 'The HTML after'}
                      sandbox=""
                      srcDoc={frames[k]}
                      data-testid={`optimizer-${k}`}
                      className="block h-72 w-full rounded border border-navy-700 bg-white"
                    />
                  </figure>
                ))}
              </div>
            ) : (
              <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
                <dt className="text-slate-400">Before</dt>
                <dd className="break-words text-slate-300" data-testid="optimizer-before">
                  {before}
                </dd>
                <dt className="text-slate-400">After</dt>
                <dd className="break-words font-medium text-white" data-testid="optimizer-after">
                  {after}
                </dd>
              </dl>
            )}
            <div>
              <h3 className="text-sm font-medium text-slate-200">What changed</h3>
              <ul
                className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-300"
                data-testid="optimizer-changes"
              >
                {result.changes.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
              <p className="mt-2 text-xs text-slate-400">
                {result.provider === 'openai'
                  ? `Rewritten by OpenAI (${result.model}).`
                  : 'Rewritten by the local optimizer.'}
              </p>
            </div>
            {html ? (
              <label className="flex items-center gap-2 text-sm text-slate-200">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-cyan-500"
                  checked={withText}
                  onChange={(e) => setWithText(e.target.checked)}
                />
                Also replace the text version with the new HTML's text
              </label>
            ) : null}
          </section>
        ) : null}

        <DialogActions className="pt-1">
          <CancelButton onCancel={() => onOpenChange(false)} />
          <BusyButton
            type="button"
            busy={optimize.isPending}
            icon={Sparkles}
            className={result ? secondaryButton : primaryButton}
            onClick={() => optimize.mutate()}
          >
            {optimize.isPending ? 'Optimizing…' : result ? 'Optimize again' : 'Optimize'}
          </BusyButton>
          {result ? (
            <button type="button" className={primaryButton} onClick={apply}>
              Apply
            </button>
          ) : null}
        </DialogActions>
      </div>
    </AudienceDialog>
  );
}
