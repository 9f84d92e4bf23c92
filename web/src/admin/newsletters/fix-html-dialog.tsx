import type { FixHtmlItem, FixHtmlKind, FixHtmlResponse } from '@parley/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import clsx from 'clsx';
import { Wrench } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import {
  Badge,
  BusyButton,
  CancelButton,
  DialogActions,
  ErrorState,
  FieldError,
  LoadingState,
} from '../components/ui.tsx';
import { formatCount } from '../email/audience/api.ts';
import { AudienceDialog } from '../email/audience/audience-dialog.tsx';
import { refreshCampaigns } from '../email/campaigns/api.ts';
import { messageOr } from '../lib/api.ts';
import { FIX_HTML_PATH, failureToast, fixHtml, refreshNewsletters } from './api.ts';

/**
 * Fix HTML Issues (email marketing §2, issue 35): nothing changes until the admin has seen what
 * would. A dry run lists each draft newsletter (and, when asked, each draft email campaign, named
 * as such) the fix would change: the changes in words and the HTML that goes and comes. The
 * admin ticks the ones to fix; those are fixed, each only if it was not edited since.
 */

const KIND_LABEL: Record<FixHtmlKind, string> = { newsletter: 'Newsletter', campaign: 'Email campaign' };
const key = (i: { kind: string; id: number }) => `${i.kind}-${i.id}`;
const drafts = (n: number) => `${formatCount(n)} draft${n === 1 ? '' : 's'}`;

/** The notice after the chosen fixes: how many were fixed, and why any was left. */
function appliedToast(r: FixHtmlResponse) {
  return {
    title: r.fixedCount ? `Fixed HTML in ${drafts(r.fixedCount)}` : 'Nothing was fixed',
    description: (
      <div data-testid="fix-html-result">
        <p>{r.message}.</p>
        {r.skipped.length ? (
          <ul className="mt-1 list-disc space-y-0.5 pl-4">
            {r.skipped.map((s) => (
              <li key={key(s)}>
                {s.name || `${KIND_LABEL[s.kind]} ${s.id}`}: {s.reason}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    ),
    duration: 10_000,
    ...(r.skipped.length && !r.fixedCount ? { variant: 'destructive' as const } : {}),
  };
}

export function FixHtmlDialog({
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
  const [withCampaigns, setWithCampaigns] = useState(false);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const kinds: FixHtmlKind[] = withCampaigns ? ['newsletter', 'campaign'] : ['newsletter'];

  useEffect(() => {
    if (open) setWithCampaigns(false);
  }, [open]);

  // Read on every opening, never from a cache: the drafts may have changed since.
  const dry = useQuery<FixHtmlResponse>({
    queryKey: [FIX_HTML_PATH, 'dry-run', kinds.join(',')],
    queryFn: () => fixHtml({ dryRun: true, kinds }),
    enabled: open,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const items = dry.data?.items ?? [];
  useEffect(() => {
    setChosen(new Set((dry.data?.items ?? []).map(key)));
    setError(null);
  }, [dry.data]);

  const apply = useMutation({
    mutationFn: (selected: FixHtmlItem[]) =>
      fixHtml({ apply: selected.map((i) => ({ kind: i.kind, id: i.id, fingerprint: i.fingerprint })) }),
    onSuccess: async (r) => {
      toast(appliedToast(r));
      onOpenChange(false);
      await Promise.all([refreshNewsletters(queryClient), refreshCampaigns(queryClient)]);
    },
    onError: (err) => toast(failureToast('fixHtml', err)),
  });

  const submit = () => {
    const selected = items.filter((i) => chosen.has(key(i)));
    if (!selected.length) {
      setError('Choose at least one draft to fix.');
      return;
    }
    apply.mutate(selected);
  };

  return (
    <AudienceDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Fix HTML Issues"
      description="See what would change in each draft, then fix the ones you choose. Nothing changes before that."
      wide="xl"
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      <div className="space-y-4">
        <label className="flex items-start gap-2 text-sm text-slate-200">
          <input
            type="checkbox"
            className="mt-0.5 h-4 w-4 accent-cyan-500"
            checked={withCampaigns}
            aria-describedby={`${id}-scope`}
            onChange={(e) => setWithCampaigns(e.target.checked)}
          />
          <span>Also check email-campaign drafts</span>
        </label>
        <p id={`${id}-scope`} className="-mt-3 ml-6 text-xs text-slate-400">
          {withCampaigns
            ? 'Draft newsletters and draft email campaigns (Email → Campaigns) are checked; each is named below.'
            : 'Only draft newsletters are checked; email campaigns are left alone.'}
        </p>
        {dry.isPending ? (
          <LoadingState label="Checking the drafts…" />
        ) : dry.isError ? (
          <ErrorState
            title="The drafts could not be checked"
            message={messageOr(dry.error, '')}
            onRetry={() => void dry.refetch()}
          />
        ) : (
          <>
            <p role="status" className="text-sm text-slate-300" data-testid="fix-html-summary">
              {items.length
                ? `${formatCount(items.length)} of ${drafts(dry.data.checkedCount)} can be fixed. Nothing has been changed yet.`
                : `No HTML issues found in ${drafts(dry.data.checkedCount)}: nothing to change.`}
            </p>
            {items.length ? (
              <fieldset>
                <legend className="sr-only">Drafts to fix</legend>
                <ul className="space-y-3" data-testid="fix-html-items">
                  {items.map((item) => (
                    <FixItem
                      key={key(item)}
                      item={item}
                      checked={chosen.has(key(item))}
                      onChange={(on) => {
                        setError(null);
                        setChosen((c) => {
                          const next = new Set(c);
                          if (on) next.add(key(item));
                          else next.delete(key(item));
                          return next;
                        });
                      }}
                    />
                  ))}
                </ul>
              </fieldset>
            ) : null}
            <FieldError id={`${id}-error`} message={error ?? undefined} />
          </>
        )}
        <DialogActions>
          <CancelButton onCancel={() => onOpenChange(false)} />
          {items.length ? (
            <BusyButton type="button" busy={apply.isPending} icon={Wrench} onClick={submit}>
              {`Fix ${drafts(items.filter((i) => chosen.has(key(i))).length)}`}
            </BusyButton>
          ) : null}
        </DialogActions>
      </div>
    </AudienceDialog>
  );
}

function FixItem({
  item,
  checked,
  onChange,
}: {
  item: FixHtmlItem;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  // Keys from the hunks' content, numbered when two say the same (two images alike).
  const seen = new Map<string, number>();
  const hunks = item.diff.hunks.map((h) => {
    const k = `${h.context}\u0000${h.before}\u0000${h.after}`;
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    return { ...h, key: `${k}\u0000${n}` };
  });
  return (
    <li className="rounded-lg border border-navy-700 p-3" data-testid="fix-html-item">
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          className="mt-1 h-4 w-4 accent-cyan-500"
          checked={checked}
          aria-describedby={`${id}-changes`}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span className="min-w-0 flex-1">
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-medium break-words text-white">{item.name}</span>
            <Badge
              className={clsx(
                item.kind === 'campaign'
                  ? 'border-violet-400/40 bg-violet-400/10 text-violet-200'
                  : 'border-cyan-400/40 bg-cyan-400/10 text-cyan-200',
              )}
            >
              {KIND_LABEL[item.kind]}
            </Badge>
          </span>
        </span>
      </label>
      <ul id={`${id}-changes`} className="mt-1 ml-6 list-disc pl-4 text-sm text-slate-300">
        {item.changes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      {hunks.length || item.textPart ? (
        <details className="mt-2 ml-6">
          <summary className="cursor-pointer text-xs text-brand">
            Show the changes
            {hunks.length
              ? ` (${formatCount(hunks.length)}${item.diff.truncated ? '+' : ''} in the HTML)`
              : ''}
          </summary>
          <div className="mt-2 space-y-2" data-testid="fix-html-diff">
            {hunks.map((h) => (
              <pre
                key={h.key}
                className="overflow-x-auto rounded bg-navy-950/60 p-2 font-mono text-xs whitespace-pre-wrap"
              >
                {h.context ? <span className="block text-slate-400">… {h.context}</span> : null}
                {h.before ? (
                  <del className="block text-red-200 no-underline">
                    <span aria-hidden="true">- </span>
                    <span className="sr-only">Removed: </span>
                    {h.before}
                  </del>
                ) : null}
                {h.after ? (
                  <ins className="block text-emerald-200 no-underline">
                    <span aria-hidden="true">+ </span>
                    <span className="sr-only">Added: </span>
                    {h.after}
                  </ins>
                ) : null}
              </pre>
            ))}
            {item.diff.truncated ? <p className="text-xs text-slate-400">More changes than shown.</p> : null}
            {item.textPart ? (
              <div>
                <p className="text-xs text-slate-400">The plain-text part it writes:</p>
                <pre className="mt-1 max-h-40 overflow-auto rounded bg-navy-950/60 p-2 font-mono text-xs whitespace-pre-wrap text-emerald-200">
                  {item.textPart}
                </pre>
              </div>
            ) : null}
          </div>
        </details>
      ) : null}
    </li>
  );
}
