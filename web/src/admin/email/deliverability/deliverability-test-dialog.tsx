import type { Campaign } from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import { TEST_EMAIL_MAX } from '@parley/contracts/settings';
import { useMutation } from '@tanstack/react-query';
import { CheckCircle2, Plus, Send, X, XCircle } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { toast } from '../../../components/toast/index.ts';
import { AdminForm } from '../../components/form-feedback.tsx';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  inputClass,
  labelClass,
  secondaryButton,
  selectClass,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { useSettings } from '../../settings/api.ts';
import { parseSavedAddresses } from '../../settings/testing-rules.ts';
import { AudienceDialog } from '../audience/audience-dialog.tsx';
import { sendTest } from '../campaigns/api.ts';
import { hasHtmlContent, usableTestAddresses } from './test-addresses.ts';

interface Outcome {
  to: string;
  ok: boolean;
  message: string;
}

/**
 * The deliverability test (spec §2 dialogs, §5): a draft campaign to up to five addresses,
 * one test mail per address through POST /api/admin/email/send-test (one address per call),
 * each outcome shown. Only entries containing an @ are used: none gives "No Valid Emails"; a
 * campaign without HTML gives "No Content". Starts from the saved test addresses.
 */
export function DeliverabilityTestDialog({
  drafts,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  drafts: Campaign[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const id = useId();
  const settings = useSettings();
  const [campaignId, setCampaignId] = useState<number | null>(null);
  const [rows, setRows] = useState<string[]>(['']);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [skipped, setSkipped] = useState<string[]>([]);
  /** What the last submit found wrong: no usable address, or a campaign without HTML. */
  const [problem, setProblem] = useState<'addresses' | 'content' | null>(null);

  const saved = parseSavedAddresses(settings.data?.get('test_email_addresses')?.value);
  const savedKey = Array.isArray(saved) ? saved.join('\n') : '';
  useEffect(() => {
    if (!open) return;
    setRows(savedKey ? savedKey.split('\n') : ['']);
    setOutcomes([]);
    setSkipped([]);
    setCampaignId(null);
  }, [open, savedKey]);

  const campaign = drafts.find((c) => c.id === campaignId) ?? drafts[0] ?? null;

  const run = useMutation({
    mutationFn: async ({ c, to }: { c: Campaign; to: string[] }) => {
      const done: Outcome[] = [];
      // One address per call, in order, so each answer is that address's outcome.
      for (const address of to) {
        try {
          const r = await sendTest({ campaignId: c.id, testRecipients: address, isTest: true });
          done.push({
            to: address,
            ok: r.success && r.result === 'sent',
            message: r.success && r.result === 'sent' ? `sent (${r.transport})` : (r.error ?? r.message),
          });
        } catch (err) {
          done.push({ to: address, ok: false, message: messageOr(err, 'Failed to send test email') });
        }
        setOutcomes([...done]);
      }
      return done;
    },
    onSuccess: (done) => {
      const sent = done.filter((d) => d.ok).length;
      if (sent === done.length)
        toast({
          title: 'Deliverability Test Sent',
          description: `${plural(sent, 'test email')} sent. Check each inbox and its spam folder.`,
        });
      else
        toast({
          variant: 'destructive',
          title: 'Test Send Failed',
          description: `${done.length - sent} of ${done.length} test emails could not be sent.`,
        });
    },
  });

  const submit = () => {
    if (!campaign || run.isPending) return;
    const to = usableTestAddresses(rows);
    if (!to.length) {
      const description = 'Please enter at least one email address (an entry with an @).';
      setProblem('addresses');
      toast({ variant: 'destructive', title: 'No Valid Emails', description });
      return [description];
    }
    if (!hasHtmlContent(campaign.htmlContent)) {
      const description = `"${campaign.name}" has no HTML content to test. Edit the campaign and add it first.`;
      setProblem('content');
      toast({ variant: 'destructive', title: 'No Content', description });
      return [description];
    }
    setProblem(null);
    setOutcomes([]);
    setSkipped(rows.map((r) => r.trim()).filter((r) => r && !r.includes('@')));
    run.mutate({ c: campaign, to });
  };

  return (
    <AudienceDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Deliverability Test"
      description={`Send a draft campaign to up to ${TEST_EMAIL_MAX} of your own inboxes (Gmail, Outlook, Yahoo…) and see where it lands. Test mails are marked [TEST] and never count toward the hourly limit.`}
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      {drafts.length === 0 ? (
        <p className="text-sm text-slate-300">
          There is no draft campaign to test. Create one on the Campaigns tab first: only drafts can be
          tested.
        </p>
      ) : (
        <AdminForm className="space-y-4" onSubmit={submit}>
          <div>
            <label htmlFor={`${id}-campaign`} className={labelClass}>
              Campaign
            </label>
            <select
              id={`${id}-campaign`}
              className={selectClass}
              value={campaign?.id ?? ''}
              aria-invalid={problem === 'content' ? true : undefined}
              onChange={(e) => {
                setCampaignId(Number(e.target.value));
                setProblem(null);
              }}
            >
              {drafts.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <fieldset>
            <legend className={labelClass}>Test email addresses (up to {TEST_EMAIL_MAX})</legend>
            <ul className="space-y-2">
              {rows.map((value, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their position.
                <li key={i} className="flex items-center gap-2">
                  <label htmlFor={`${id}-row-${i}`} className="sr-only">
                    Test address {i + 1}
                  </label>
                  <input
                    id={`${id}-row-${i}`}
                    type="email"
                    autoComplete="off"
                    maxLength={320}
                    placeholder="name@example.com"
                    className={inputClass}
                    value={value}
                    aria-invalid={problem === 'addresses' ? true : undefined}
                    onChange={(e) => {
                      const v = e.target.value;
                      setRows((r) => r.map((x, j) => (j === i ? v : x)));
                      setProblem(null);
                    }}
                  />
                  {rows.length > 1 ? (
                    <button
                      type="button"
                      className={`${secondaryButton} shrink-0 px-2`}
                      aria-label={`Remove test address ${i + 1}`}
                      onClick={() => setRows((r) => r.filter((_, j) => j !== i))}
                    >
                      <X className="h-4 w-4" aria-hidden="true" />
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
            <button
              type="button"
              className={`${secondaryButton} mt-2`}
              disabled={rows.length >= TEST_EMAIL_MAX}
              onClick={() => setRows((r) => [...r, ''])}
            >
              <Plus className="h-4 w-4" aria-hidden="true" />
              Add Address
            </button>
          </fieldset>
          {skipped.length && outcomes.length ? (
            <p className="text-xs text-slate-400" data-testid="test-skipped">
              Not used (no @): {skipped.join(', ')}
            </p>
          ) : null}
          {outcomes.length ? (
            <ul
              className="space-y-1"
              aria-label="Test results"
              aria-live="polite"
              data-testid="test-outcomes"
            >
              {outcomes.map((o) => (
                <li key={o.to} className="flex items-start gap-2 text-sm">
                  {o.ok ? (
                    <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-emerald-400" aria-hidden="true" />
                  ) : (
                    <XCircle className="mt-0.5 h-4 w-4 shrink-0 text-red-400" aria-hidden="true" />
                  )}
                  <span className={o.ok ? 'text-slate-200' : 'text-red-200'}>
                    <span className="font-medium">{o.to}</span>
                    <span className="sr-only">{o.ok ? ': sent' : ': failed'}</span> — {o.message}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
          <DialogActions>
            <CancelButton onCancel={() => onOpenChange(false)} />
            <BusyButton busy={run.isPending} icon={Send}>
              Send Test
            </BusyButton>
          </DialogActions>
        </AdminForm>
      )}
    </AudienceDialog>
  );
}
