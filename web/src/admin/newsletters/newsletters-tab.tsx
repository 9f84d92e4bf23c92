import type { Newsletter } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Newspaper } from 'lucide-react';
import { useRef, useState } from 'react';
import { returnFocusTo } from '../../components/dialog-focus.ts';
import { toast } from '../../components/toast/index.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { EmptyState, ErrorState, LoadingState } from '../components/ui.tsx';
import { EngagementReportDialog, type ReportSource } from '../email/analytics/engagement-report-dialog.tsx';
import { messageOr } from '../lib/api.ts';
import {
  deleteNewsletter,
  failureToast,
  newsletterReportPath,
  refreshNewsletters,
  resumeNewsletter,
  unscheduleNewsletter,
  useNewsletters,
} from './api.ts';
import { type NewsletterAction, NewsletterCard } from './newsletter-card.tsx';
import { NewsletterPreviewDialog } from './preview-dialog.tsx';
import { ScheduleNewsletterDialog } from './schedule-dialog.tsx';
import { SendNewsletterDialog } from './send-dialog.tsx';

type Open = Exclude<NewsletterAction, 'unschedule' | 'resume'> | null;

const REPORT: ReportSource = {
  title: 'Newsletter Engagement Report',
  noun: 'newsletter',
  path: newsletterReportPath,
};

/**
 * The Newsletters tab (email marketing §2): a card per newsletter with its actions and their
 * dialogs (preview, send, schedule, resend, engagement report, delete); unschedule and resume are direct.
 */
export function NewslettersTab() {
  const queryClient = useQueryClient();
  const newsletters = useNewsletters();
  const [open, setOpen] = useState<Open>(null);
  const [current, setCurrent] = useState<Newsletter | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const dialog = (what: Exclude<Open, null>) => ({
    open: open === what,
    onOpenChange: (o: boolean) => setOpen(o ? what : null),
    onCloseAutoFocus: returnFocusTo(opener.current),
  });

  const remove = useMutation({
    mutationFn: (n: Newsletter) => deleteNewsletter(n.id),
    onSuccess: async (_r, n) => {
      toast({ title: 'Newsletter deleted', description: `"${n.name}"` });
      setOpen(null);
      await refreshNewsletters(queryClient);
    },
    onError: (err) => {
      setOpen(null);
      toast(failureToast('delete', err));
    },
  });
  const unschedule = useMutation({
    mutationFn: (n: Newsletter) => unscheduleNewsletter(n.id),
    onSuccess: async (r) => {
      toast({ title: 'Newsletter unscheduled', description: `"${r.newsletter.name}" is a draft again.` });
      await refreshNewsletters(queryClient);
    },
    onError: (err) => toast(failureToast('unschedule', err)),
  });
  const resume = useMutation({
    mutationFn: (n: Newsletter) => resumeNewsletter(n.id),
    onSuccess: async (r) => {
      toast({ title: 'Newsletter sending resumed', description: `"${r.newsletter.name}" is sending again.` });
      await refreshNewsletters(queryClient);
    },
    onError: (err) => toast(failureToast('resume', err)),
  });

  const onAction = (action: NewsletterAction, n: Newsletter, from: HTMLElement) => {
    opener.current = from;
    setCurrent(n);
    if (action === 'unschedule') unschedule.mutate(n);
    else if (action === 'resume') resume.mutate(n);
    else setOpen(action);
  };

  const list = newsletters.data ?? [];
  if (newsletters.isPending) return <LoadingState label="Loading newsletters…" />;
  return (
    <div>
      {newsletters.isError ? (
        <ErrorState
          title="Failed to load newsletters"
          message={messageOr(newsletters.error, '')}
          onRetry={() => void newsletters.refetch()}
        />
      ) : !list.length ? (
        <EmptyState icon={Newspaper} title="No newsletters created yet">
          Convert a published blog post or create one by hand.
        </EmptyState>
      ) : (
        <ul aria-label="Newsletters" className="grid grid-cols-1 gap-3 xl:grid-cols-2">
          {list.map((n) => (
            <NewsletterCard
              key={n.id}
              newsletter={n}
              busy={
                (remove.isPending && remove.variables?.id === n.id) ||
                (unschedule.isPending && unschedule.variables?.id === n.id) ||
                (resume.isPending && resume.variables?.id === n.id)
              }
              onAction={onAction}
            />
          ))}
        </ul>
      )}
      <NewsletterPreviewDialog newsletter={current} {...dialog('preview')} />
      <SendNewsletterDialog newsletter={current} {...dialog('send')} />
      <SendNewsletterDialog newsletter={current} resend {...dialog('resend')} />
      <ScheduleNewsletterDialog newsletter={current} {...dialog('schedule')} />
      <EngagementReportDialog campaign={current} source={REPORT} {...dialog('report')} />
      <ConfirmDialog
        open={open === 'delete'}
        onOpenChange={(o) => (o ? undefined : setOpen(null))}
        title="Delete newsletter"
        description={current ? `Delete "${current.name}"? This cannot be undone.` : ''}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => current && remove.mutate(current)}
      />
    </div>
  );
}
