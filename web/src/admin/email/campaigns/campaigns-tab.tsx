import type { Campaign, GenerateCampaignResponse } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  MailOpen,
  Megaphone,
  MousePointerClick,
  PenSquare,
  Percent,
  RefreshCw,
  Send,
  Sparkles,
} from 'lucide-react';
import { useRef, useState } from 'react';
import { returnFocusTo } from '../../../components/dialog-focus.ts';
import { toast } from '../../../components/toast/index.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import {
  EmptyState,
  ErrorState,
  LoadingState,
  primaryButton,
  StatCard,
  secondaryButton,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { regenerateSeed } from '../ai/api.ts';
import { GeneratorDialog, type GeneratorSeed } from '../ai/generator-dialog.tsx';
import { EngagementReportDialog } from '../analytics/engagement-report-dialog.tsx';
import { formatCount } from '../audience/api.ts';
import {
  cancelCampaign,
  deleteCampaign,
  duplicateCampaign,
  formatRate,
  refreshCampaigns,
  useCampaigns,
} from './api.ts';
import { type CampaignAction, CampaignCard } from './campaign-card.tsx';
import { CampaignDialog } from './campaign-dialog.tsx';
import type { CampaignForm } from './campaign-form.ts';
import { PreviewDialog } from './preview-dialog.tsx';
import { SendDialog } from './send-dialog.tsx';
import { TestSendDialog } from './test-send-dialog.tsx';

type Open = 'edit' | 'preview' | 'test' | 'send' | 'resend' | 'delete' | 'cancel' | 'report' | 'ai' | null;

/**
 * The Campaigns tab (email marketing §2): a summary (sent, opens, clicks, open rate) with
 * Refresh analytics, Manual Create, and a card per campaign with its actions and dialogs.
 */
export function CampaignsTab() {
  const queryClient = useQueryClient();
  const campaigns = useCampaigns();
  const [open, setOpen] = useState<Open>(null);
  const [current, setCurrent] = useState<Campaign | null>(null);
  const [seed, setSeed] = useState<GeneratorSeed | null>(null);
  /** A generated campaign's fields, which the create/edit dialog starts from. */
  const [prefill, setPrefill] = useState<Partial<CampaignForm> | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const show = (what: Open, c: Campaign | null, from: HTMLElement | null) => {
    opener.current = from;
    setCurrent(c);
    setPrefill(null);
    setOpen(what);
  };
  const dialog = (what: Exclude<Open, null>) => ({
    open: open === what,
    onOpenChange: (o: boolean) => setOpen(o ? what : null),
    onCloseAutoFocus: returnFocusTo(opener.current),
  });

  const duplicate = useMutation({
    mutationFn: (c: Campaign) => duplicateCampaign(c.id),
    onSuccess: async (copy) => {
      toast({ title: 'Campaign duplicated', description: `"${copy.name}" is a new draft.` });
      await refreshCampaigns(queryClient);
      show('edit', copy, opener.current);
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: messageOr(err, 'Failed to duplicate campaign'),
      }),
  });
  const remove = useMutation({
    mutationFn: (c: Campaign) => deleteCampaign(c.id),
    onSuccess: async (_r, c) => {
      toast({ title: 'Campaign deleted', description: `"${c.name}"` });
      setOpen(null);
      await refreshCampaigns(queryClient);
    },
    onError: (err) => {
      setOpen(null);
      toast({
        variant: 'destructive',
        title: 'Error',
        description: messageOr(err, 'Failed to delete campaign'),
      });
    },
  });

  const cancel = useMutation({
    mutationFn: (c: Campaign) => cancelCampaign(c.id),
    onSuccess: async (c, was) => {
      toast(
        was.status === 'scheduled'
          ? { title: 'Schedule cancelled', description: `"${c.name}" is a draft again; nothing was sent.` }
          : { title: 'Campaign cancelled', description: `"${c.name}": what was sent stays sent.` },
      );
      setOpen(null);
      await refreshCampaigns(queryClient);
    },
    onError: (err) => {
      setOpen(null);
      toast({
        variant: 'destructive',
        title: 'Error',
        description: messageOr(err, 'Failed to cancel campaign'),
      });
    },
  });

  /**
   * A generated campaign goes into the create dialog (a new draft; regenerating a sent or
   * scheduled campaign keeps its recipients) or, regenerating a draft, into that draft's edit
   * dialog with the new subject and content. Nothing is saved until the admin saves the form.
   */
  const takeGenerated = (r: GenerateCampaignResponse, source: Campaign | null) => {
    const content = { subject: r.subject, htmlContent: r.htmlContent, textContent: r.textContent };
    const draft = source?.status === 'draft' ? source : null;
    show('edit', draft, opener.current);
    setPrefill(
      draft
        ? content
        : {
            ...content,
            name: r.name,
            fromName: r.fromName,
            fromEmail: r.fromEmail,
            ...(source
              ? {
                  addressBookIds: source.targetAddressBookIds,
                  contactIds: source.targetContactIds,
                  segmentIds: source.targetSegmentIds,
                }
              : {}),
          },
    );
  };

  const onAction = (action: CampaignAction, c: Campaign, from: HTMLElement) => {
    if (action === 'regenerate') {
      setSeed({ ...regenerateSeed(c), source: c });
      show('ai', c, from);
      return;
    }
    if (action === 'duplicate') {
      opener.current = from;
      duplicate.mutate(c);
    } else show(action === 'launch' ? 'send' : action, c, from);
  };

  const list = campaigns.data ?? [];
  const sent = list.reduce((n, c) => n + c.sentCount, 0);
  const opens = list.reduce((n, c) => n + c.openCount, 0);
  const clicks = list.reduce((n, c) => n + c.clickCount, 0);
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-white">Email campaigns</h2>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={secondaryButton}
            disabled={campaigns.isFetching}
            onClick={() => void refreshCampaigns(queryClient)}
          >
            <RefreshCw
              className={`h-4 w-4 ${campaigns.isFetching ? 'animate-spin' : ''}`}
              aria-hidden="true"
            />
            Refresh analytics
          </button>
          <button
            type="button"
            className={secondaryButton}
            onClick={(e) => {
              setSeed(null);
              show('ai', null, e.currentTarget);
            }}
          >
            <Sparkles className="h-4 w-4" aria-hidden="true" />
            AI Generate
          </button>
          <button
            type="button"
            className={primaryButton}
            onClick={(e) => show('edit', null, e.currentTarget)}
          >
            <PenSquare className="h-4 w-4" aria-hidden="true" />
            Manual Create
          </button>
        </div>
      </div>

      <section
        aria-label="Campaign summary"
        className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-4"
        data-testid="campaign-summary"
      >
        <StatCard label="Total sent" value={formatCount(sent)} icon={Send} />
        <StatCard label="Opens" value={formatCount(opens)} icon={MailOpen} />
        <StatCard label="Clicks" value={formatCount(clicks)} icon={MousePointerClick} />
        <StatCard label="Open rate" value={formatRate(sent ? (opens / sent) * 100 : 0)} icon={Percent} />
      </section>

      {campaigns.isPending ? (
        <LoadingState label="Loading campaigns…" />
      ) : campaigns.isError ? (
        <ErrorState
          title="Failed to load campaigns"
          message={messageOr(campaigns.error, '')}
          onRetry={() => void campaigns.refetch()}
        />
      ) : !list.length ? (
        <EmptyState icon={Megaphone} title="No campaigns">
          No campaigns yet. Create your first email campaign to get started.
        </EmptyState>
      ) : (
        <ul aria-label="Campaigns" className="grid grid-cols-1 gap-3 xl:grid-cols-2">
          {list.map((c) => (
            <CampaignCard
              key={c.id}
              campaign={c}
              busy={
                (duplicate.isPending && duplicate.variables?.id === c.id) ||
                (remove.isPending && remove.variables?.id === c.id)
              }
              onAction={onAction}
            />
          ))}
        </ul>
      )}

      <CampaignDialog campaign={current} initial={prefill} {...dialog('edit')} />
      <GeneratorDialog seed={seed} onUse={takeGenerated} {...dialog('ai')} />
      <PreviewDialog campaign={current} {...dialog('preview')} />
      <TestSendDialog campaign={current} {...dialog('test')} />
      <SendDialog campaign={current} {...dialog('send')} />
      <SendDialog campaign={current} resend {...dialog('resend')} />
      <EngagementReportDialog campaign={current} {...dialog('report')} />
      <ConfirmDialog
        open={open === 'delete'}
        onOpenChange={(o) => (o ? undefined : setOpen(null))}
        title="Delete campaign"
        description={current ? `Delete the draft "${current.name}"? This cannot be undone.` : ''}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => current && remove.mutate(current)}
      />
      {/* Its buttons say what each keeps or stops: "Cancel" would be ambiguous here. */}
      {current?.status === 'scheduled' ? (
        <ConfirmDialog
          open={open === 'cancel'}
          onOpenChange={(o) => (o ? undefined : setOpen(null))}
          title="Cancel schedule"
          description={`Cancel the schedule of "${current.name}"? It becomes a draft again and nothing is sent.`}
          confirmLabel="Cancel schedule"
          cancelLabel="Keep schedule"
          pending={cancel.isPending}
          onConfirm={() => cancel.mutate(current)}
        />
      ) : (
        <ConfirmDialog
          open={open === 'cancel'}
          onOpenChange={(o) => (o ? undefined : setOpen(null))}
          title="Stop campaign"
          description={
            current
              ? `Stop "${current.name}" for good? Mail already sent stays sent; nobody else receives it.`
              : ''
          }
          confirmLabel="Stop campaign"
          cancelLabel="Keep sending"
          pending={cancel.isPending}
          onConfirm={() => current && cancel.mutate(current)}
        />
      )}
    </div>
  );
}
