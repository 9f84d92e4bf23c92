import type { Newsletter } from '@parley/contracts';
import { useQueryClient } from '@tanstack/react-query';
import clsx from 'clsx';
import {
  BarChart3,
  CalendarClock,
  CalendarX,
  Eye,
  ListChecks,
  Play,
  Repeat,
  Send,
  Trash2,
} from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { formatShortDateTime } from '../../lib/time.ts';
import { Badge, cardClass, ProgressBar, primaryButton, secondaryButton } from '../components/ui.tsx';
import { formatCount } from '../email/audience/api.ts';
import { CAMPAIGN_STATUS_BADGE, CAMPAIGN_STATUS_LABELS } from '../email/campaigns/api.ts';
import { TestSendsLine } from '../email/campaigns/test-sends.tsx';
import { refreshNewsletters, useSendingNewsletter } from './api.ts';

export type NewsletterAction =
  | 'preview'
  | 'send'
  | 'schedule'
  | 'unschedule'
  | 'resume'
  | 'resend'
  | 'report'
  | 'delete';

/**
 * One newsletter (email marketing §2): name, subject, status, the dates Created, Sent and
 * Scheduled, and the Recipients count; while it sends, its progress. Preview and Delete always;
 * Send and Schedule for a draft; Unschedule for a scheduled one; Resume for one paused (the
 * cooling period after connection failures pauses sends); Resend and the engagement report
 * once it is sent.
 */
export function NewsletterCard({
  newsletter: n,
  busy,
  onAction,
}: {
  newsletter: Newsletter;
  busy: boolean;
  onAction: (action: NewsletterAction, newsletter: Newsletter, opener: HTMLElement) => void;
}) {
  const icon = 'h-3.5 w-3.5';
  const act = (action: NewsletterAction, label: string, glyph: ReactNode, primary = false) => (
    <button
      type="button"
      className={clsx(primary ? primaryButton : secondaryButton, 'px-2.5 py-1.5 text-xs')}
      aria-label={`${label} ${n.name}`}
      disabled={busy}
      onClick={(e) => onAction(action, n, e.currentTarget)}
    >
      {glyph}
      {label}
    </button>
  );
  const draft = n.status === 'draft';
  const sent = n.status === 'sent';
  return (
    <li className={clsx(cardClass, 'flex min-w-0 flex-col p-4')} data-testid="newsletter-card">
      <div className="flex items-start justify-between gap-3">
        <h3 className="min-w-0 text-base font-semibold break-words text-white">{n.name}</h3>
        <span data-testid="newsletter-status">
          <Badge className={CAMPAIGN_STATUS_BADGE[n.status]}>{CAMPAIGN_STATUS_LABELS[n.status]}</Badge>
        </span>
      </div>
      <p className="mt-1 text-sm break-words text-slate-300" data-testid="newsletter-subject">
        {n.subject}
      </p>
      <dl className="mt-3 grid grid-cols-2 gap-2 text-xs sm:grid-cols-4" data-testid="newsletter-facts">
        <Fact label="Created" value={formatShortDateTime(n.createdAt)} />
        <Fact label="Sent" value={n.sentAt ? formatShortDateTime(n.sentAt) : '—'} />
        <Fact
          label="Scheduled"
          value={n.scheduledAt ? formatShortDateTime(n.scheduledAt) : '—'}
          testId="newsletter-scheduled"
        />
        <Fact label="Recipients" value={formatCount(n.totalRecipients)} testId="newsletter-recipients" />
      </dl>
      {n.status === 'sending' || n.status === 'paused' ? <SendProgress newsletter={n} /> : null}
      <TestSendsLine testSends={n.testSends} />
      <div className="min-h-3 flex-1" />
      <div className="flex flex-wrap gap-2 border-t border-navy-800 pt-3">
        {act('preview', 'Preview', <Eye className={icon} aria-hidden="true" />)}
        {draft ? act('schedule', 'Schedule', <CalendarClock className={icon} aria-hidden="true" />) : null}
        {n.status === 'scheduled'
          ? act('unschedule', 'Unschedule', <CalendarX className={icon} aria-hidden="true" />)
          : null}
        {n.status === 'paused'
          ? act('resume', 'Resume', <Play className={icon} aria-hidden="true" />, true)
          : null}
        {sent ? act('report', 'Engagement report', <BarChart3 className={icon} aria-hidden="true" />) : null}
        {n.campaignId !== null && n.status !== 'draft' && n.status !== 'scheduled' ? (
          <Link
            to={`/admin/email/campaigns/${n.campaignId}/delivery`}
            className={clsx(secondaryButton, 'px-2.5 py-1.5 text-xs')}
            aria-label={`Delivery log ${n.name}`}
          >
            <ListChecks className={icon} aria-hidden="true" />
            Delivery log
          </Link>
        ) : null}
        {sent ? act('resend', 'Resend', <Repeat className={icon} aria-hidden="true" />) : null}
        {act('delete', 'Delete', <Trash2 className={icon} aria-hidden="true" />)}
        {draft ? act('send', 'Send', <Send className={icon} aria-hidden="true" />, true) : null}
      </div>
    </li>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="min-w-0 rounded-lg bg-navy-950/40 px-2 py-1.5">
      <dt className="text-slate-400">{label}</dt>
      <dd className="font-medium break-words text-white tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/**
 * A send's progress, read every second while the newsletter is sending (its `progress`); when
 * the send stops the list is read again so the card's status and counts follow.
 */
function SendProgress({ newsletter }: { newsletter: Newsletter }) {
  const queryClient = useQueryClient();
  const live = useSendingNewsletter(newsletter);
  const current = newsletter.status === 'sending' ? live.data : newsletter;
  const p = current.progress;
  const wasSending = useRef(newsletter.status === 'sending');
  useEffect(() => {
    if (wasSending.current && current.status !== 'sending') void refreshNewsletters(queryClient);
    wasSending.current = current.status === 'sending';
  }, [current.status, queryClient]);

  const total = p?.total ?? newsletter.totalRecipients;
  const done = p ? p.sent + p.failed + p.unknown : newsletter.sentCount;
  const percent = total ? Math.min(100, Math.round((done / total) * 100)) : 0;
  const paused = current.status === 'paused';
  return (
    <div
      className="mt-3 rounded-xl border border-navy-700 bg-navy-950/40 p-3"
      data-testid="newsletter-progress"
    >
      <p className="text-xs text-slate-300">
        {paused ? 'Paused' : 'Sending'}
        {p?.testMode ? ' (test mode)' : ''} · {percent}% · {formatCount(p?.sent ?? newsletter.sentCount)} of{' '}
        {formatCount(total)} sent
        {p?.failed ? `, ${formatCount(p.failed)} failed` : ''}
      </p>
      <ProgressBar label={`Sending progress of ${newsletter.name}`} percent={percent} className="mt-2" />
    </div>
  );
}
