import type { Campaign } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2, Pause, Play } from 'lucide-react';
import { useEffect } from 'react';
import { toast } from '../../../components/toast/index.ts';
import { ProgressBar, secondaryButton } from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { formatCount } from '../audience/api.ts';
import {
  listIsBehind,
  pauseCampaign,
  progressPath,
  refreshCampaigns,
  resumeCampaign,
  useCampaignProgress,
} from './api.ts';

/**
 * A send's live progress on its card (sent, failed, remaining, rate), read every second while
 * the campaign is sending; Pause and Resume. When the send stops, the list is read again so
 * the card's status and counts follow.
 */
export function CampaignProgressPanel({ campaign }: { campaign: Campaign }) {
  const queryClient = useQueryClient();
  const progress = useCampaignProgress(campaign);
  // Polled while sending; otherwise what the list says (paused, or the send's last figures).
  const p = campaign.status === 'sending' ? progress.data : campaign.progress;
  const behind = listIsBehind(campaign.status, progress.data, progress.isFetching);

  useEffect(() => {
    if (behind) void refreshCampaigns(queryClient);
  }, [behind, queryClient]);

  const toggle = useMutation({
    mutationFn: () =>
      campaign.status === 'paused' ? resumeCampaign(campaign.id) : pauseCampaign(campaign.id),
    onSuccess: async (c) => {
      toast({
        title: c.status === 'paused' ? 'Campaign paused' : 'Campaign resumed',
        description: `"${c.name}"`,
      });
      await refreshCampaigns(queryClient);
      await queryClient.invalidateQueries({ queryKey: [progressPath(campaign.id)] });
    },
    onError: (err) =>
      toast({ variant: 'destructive', title: 'Error', description: messageOr(err, 'Please try again.') }),
  });

  const done = p.sent + p.failed + p.unknown;
  const percent = p.total ? Math.round((done / p.total) * 100) : 0;
  const paused = campaign.status === 'paused';
  return (
    <div
      className="mt-3 rounded-xl border border-navy-700 bg-navy-950/40 p-3"
      data-testid="campaign-progress"
    >
      <div className="flex items-center justify-between gap-2 text-xs text-slate-400">
        <span>
          {paused ? 'Paused' : 'Sending'}
          {p.testMode ? ' (test mode)' : ''} · {percent}%
        </span>
        <button
          type="button"
          className={`${secondaryButton} px-2 py-1 text-xs`}
          disabled={toggle.isPending}
          onClick={() => toggle.mutate()}
        >
          {toggle.isPending ? (
            <Loader2 className="h-3.5 w-3.5 animate-spin" aria-hidden="true" />
          ) : paused ? (
            <Play className="h-3.5 w-3.5" aria-hidden="true" />
          ) : (
            <Pause className="h-3.5 w-3.5" aria-hidden="true" />
          )}
          {paused ? 'Resume' : 'Pause'}
        </button>
      </div>
      <ProgressBar label={`Sending progress of ${campaign.name}`} percent={percent} className="mt-2" />
      <dl className="mt-2 grid grid-cols-4 gap-2 text-center text-xs">
        <Figure label="Sent" value={formatCount(p.sent)} testId="progress-sent" />
        <Figure label="Failed" value={formatCount(p.failed)} testId="progress-failed" />
        <Figure label="Remaining" value={formatCount(p.remaining + p.sending)} testId="progress-remaining" />
        <Figure label="Rate" value={`${Math.round(p.rate)}/s`} testId="progress-rate" />
      </dl>
      {p.unknown ? (
        <p className="mt-2 text-xs text-amber-200" data-testid="progress-unknown">
          {formatCount(p.unknown)} with an unknown outcome (a worker stopped mid-send); never resent blindly.
        </p>
      ) : null}
    </div>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <dt className="text-slate-400">{label}</dt>
      <dd className="font-semibold text-white tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
