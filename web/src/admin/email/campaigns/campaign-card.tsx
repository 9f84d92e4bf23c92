import type { Campaign } from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import clsx from 'clsx';
import {
  Ban,
  BarChart3,
  Copy,
  Eye,
  FlaskConical,
  ListChecks,
  Pencil,
  Repeat,
  Rocket,
  Sparkles,
  Trash2,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatShortDateTime } from '../../../lib/time.ts';
import { Badge, cardClass, primaryButton, secondaryButton } from '../../components/ui.tsx';
import { formatCount, useAddressBooks, useSegments } from '../audience/api.ts';
import { CAMPAIGN_STATUS_BADGE, CAMPAIGN_STATUS_LABELS, formatRate } from './api.ts';
import { CampaignProgressPanel } from './campaign-progress.tsx';
import { TestSendsLine } from './test-sends.tsx';

export type CampaignAction =
  | 'preview'
  | 'duplicate'
  | 'resend'
  | 'test'
  | 'launch'
  | 'edit'
  | 'delete'
  | 'cancel'
  | 'report'
  | 'regenerate';

/**
 * One campaign (email marketing §2): name, status, subject, from, schedule, recipients, sent,
 * opens, clicks and open rate (live mail); live progress while it sends; its test-mode sends
 * apart. Every campaign can be previewed
 * and duplicated and has an engagement report; a sent one resent; a scheduled, sending or
 * paused one cancelled; only a draft tested, launched, edited or deleted.
 */
export function CampaignCard({
  campaign: c,
  busy,
  onAction,
}: {
  campaign: Campaign;
  busy: boolean;
  onAction: (action: CampaignAction, campaign: Campaign, opener: HTMLElement) => void;
}) {
  const draft = c.status === 'draft';
  // Never sent: who it goes to is resolved at the send (active contacts, once each).
  const unsent = (draft || c.status === 'scheduled') && c.totalRecipients === 0;
  const act = (action: CampaignAction, label: string, icon: ReactNode, primary = false) => (
    <button
      type="button"
      className={clsx(primary ? primaryButton : secondaryButton, 'px-2.5 py-1.5 text-xs')}
      aria-label={`${label} ${c.name}`}
      disabled={busy}
      onClick={(e) => onAction(action, c, e.currentTarget)}
    >
      {icon}
      {label}
    </button>
  );
  const icon = 'h-3.5 w-3.5';
  return (
    <li className={clsx(cardClass, 'flex flex-col p-4')} data-testid="campaign-card">
      <div className="flex items-start justify-between gap-3">
        <h3 className="min-w-0 text-base font-semibold break-words text-white">{c.name}</h3>
        <span data-testid="campaign-status">
          <Badge className={CAMPAIGN_STATUS_BADGE[c.status]}>{CAMPAIGN_STATUS_LABELS[c.status]}</Badge>
        </span>
      </div>
      <p className="mt-1 text-sm break-words text-slate-300" data-testid="campaign-subject">
        {c.subject}
      </p>
      <p className="mt-0.5 text-xs break-all text-slate-400">
        From {c.fromName} &lt;{c.fromEmail}&gt;
      </p>
      {c.status === 'scheduled' && c.scheduledAt ? (
        <p className="mt-0.5 text-xs text-slate-400" data-testid="campaign-scheduled">
          Scheduled {formatShortDateTime(c.scheduledAt)}
        </p>
      ) : null}
      {unsent ? <Targets campaign={c} /> : null}
      <dl
        className="mt-3 grid grid-cols-3 gap-2 text-center text-xs sm:grid-cols-5"
        data-testid="campaign-stats"
      >
        <Stat
          label="Recipients"
          value={unsent ? '—' : formatCount(c.totalRecipients)}
          note={unsent ? 'counted when it is sent' : undefined}
        />
        <Stat label="Sent" value={formatCount(c.sentCount)} />
        <Stat label="Opens" value={formatCount(c.openCount)} />
        <Stat label="Clicks" value={formatCount(c.clickCount)} />
        <Stat label="Open rate" value={formatRate(c.openRate)} />
      </dl>
      {c.status === 'sending' || c.status === 'paused' ? <CampaignProgressPanel campaign={c} /> : null}
      <TestSendsLine testSends={c.testSends} />
      <div className="min-h-3 flex-1" />
      <div className="flex flex-wrap gap-2 border-t border-navy-800 pt-3">
        {act('preview', 'Preview', <Eye className={icon} aria-hidden="true" />)}
        {draft ? act('test', 'Preview Test', <FlaskConical className={icon} aria-hidden="true" />) : null}
        {draft ? act('edit', 'Edit', <Pencil className={icon} aria-hidden="true" />) : null}
        {act('duplicate', 'Duplicate', <Copy className={icon} aria-hidden="true" />)}
        {act('regenerate', 'Regenerate with AI', <Sparkles className={icon} aria-hidden="true" />)}
        {act('report', 'Engagement report', <BarChart3 className={icon} aria-hidden="true" />)}
        {c.progress.sendId !== null ? (
          <Link
            to={`/admin/email/campaigns/${c.id}/delivery`}
            className={clsx(secondaryButton, 'px-2.5 py-1.5 text-xs')}
            aria-label={`Delivery log ${c.name}`}
          >
            <ListChecks className={icon} aria-hidden="true" />
            Delivery log
          </Link>
        ) : null}
        {c.status === 'sent' ? act('resend', 'Resend', <Repeat className={icon} aria-hidden="true" />) : null}
        {c.status === 'scheduled'
          ? act('cancel', 'Cancel schedule', <Ban className={icon} aria-hidden="true" />)
          : c.status === 'sending' || c.status === 'paused'
            ? act('cancel', 'Stop campaign', <Ban className={icon} aria-hidden="true" />)
            : null}
        {draft ? act('delete', 'Delete', <Trash2 className={icon} aria-hidden="true" />) : null}
        {draft
          ? act('launch', 'Launch Campaign', <Rocket className={icon} aria-hidden="true" />, true)
          : null}
      </div>
    </li>
  );
}

function Stat({ label, value, note }: { label: string; value: string; note?: string | undefined }) {
  return (
    <div className="rounded-lg bg-navy-950/40 px-1 py-1.5">
      <dt className="text-slate-400">{label}</dt>
      <dd className="font-semibold text-white tabular-nums">
        <span aria-hidden={note ? true : undefined}>{value}</span>
        {note ? <span className="sr-only">{note}</span> : null}
      </dd>
    </div>
  );
}

/** Whom an unsent campaign targets: its address books and segments by name, and its chosen contacts. */
function Targets({ campaign: c }: { campaign: Campaign }) {
  const books = useAddressBooks();
  const segments = useSegments();
  const names = c.targetAddressBookIds.map(
    (id) => books.data?.find((b) => b.id === id)?.name ?? `address book #${id}`,
  );
  const segmentNames = c.targetSegmentIds.map((id) => {
    const name = segments.data?.find((s) => s.id === id)?.name;
    return name ? `segment “${name}”` : segments.data ? 'a deleted segment' : `segment #${id}`;
  });
  const contacts = c.targetContactIds.length;
  const parts = [...names, ...segmentNames, ...(contacts ? [plural(contacts, 'chosen contact')] : [])];
  return (
    <p
      className={clsx('mt-0.5 text-xs break-words', parts.length ? 'text-slate-300' : 'text-amber-200')}
      data-testid="campaign-targets"
    >
      {parts.length
        ? `To: ${parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0]}`
        : 'To: no recipients chosen yet'}
    </p>
  );
}
