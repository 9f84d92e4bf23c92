import type { SentMailDetail } from '@parley/contracts';
import { CalendarDays, Download } from 'lucide-react';
import { useState } from 'react';
import { type TabDef, Tabs } from '../../../components/tabs.tsx';
import { formatShortDateTime } from '../../../lib/time.ts';
import { Badge, ErrorState, LoadingState, secondaryButton } from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { download, kindLabel, STATUS_BADGE, TRANSPORT_LABELS, useSentMail } from './api.ts';

type View = 'html' | 'text' | 'headers' | 'raw' | 'calendar';

/** One message: HTML (sanitised by the service, in a sandboxed frame), text, headers, raw MIME, calendar. */
export function SentMailDetailPanel({ id }: { id: string }) {
  const mail = useSentMail(id);
  if (mail.isPending) return <LoadingState label="Loading message…" />;
  if (mail.isError)
    return (
      <ErrorState
        title="Failed to load the message"
        message={messageOr(mail.error, 'Please try again.')}
        onRetry={() => void mail.refetch()}
      />
    );
  return <MessageView mail={mail.data} />;
}

function MessageView({ mail }: { mail: SentMailDetail }) {
  const [view, setView] = useState<View>('html');
  const tabs: TabDef<View>[] = [
    { key: 'html', label: 'HTML' },
    { key: 'text', label: 'Text' },
    { key: 'headers', label: 'Headers' },
    { key: 'raw', label: 'Raw' },
    ...(mail.calendar ? [{ key: 'calendar' as const, label: 'Calendar' }] : []),
  ];
  return (
    <article aria-labelledby="sent-mail-subject" data-testid="sent-mail-detail">
      <header className="mb-4 space-y-2">
        <h2 id="sent-mail-subject" className="text-lg font-semibold text-white">
          {mail.subject}
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-400">From</dt>
          <dd className="break-all text-slate-200">{mail.from}</dd>
          <dt className="text-slate-400">To</dt>
          <dd className="break-all text-slate-200">{mail.to}</dd>
          <dt className="text-slate-400">Date</dt>
          <dd className="text-slate-200">{formatShortDateTime(mail.sentAt ?? mail.createdAt)}</dd>
          <dt className="text-slate-400">Message-ID</dt>
          <dd className="break-all font-mono text-xs text-slate-300">{mail.messageId}</dd>
        </dl>
        <div className="flex flex-wrap items-center gap-2">
          <Badge>{kindLabel(mail.kind)}</Badge>
          <Badge className={STATUS_BADGE[mail.status]}>{mail.status}</Badge>
          {mail.transport ? <Badge>{TRANSPORT_LABELS[mail.transport] ?? mail.transport}</Badge> : null}
          {mail.tracking ? (
            <Badge>
              {mail.tracking.openCount} opens · {mail.tracking.clickCount} clicks
              {mail.tracking.proxyOpenCount ? ` · ${mail.tracking.proxyOpenCount} proxy opens` : ''}
            </Badge>
          ) : null}
        </div>
        {mail.lastError ? (
          <p role="note" className="text-sm text-red-200">
            {mail.lastError}
          </p>
        ) : null}
        {mail.rendered ? (
          <p role="note" className="text-xs text-slate-400" data-testid="sent-mail-rendered">
            {mail.contentNote ??
              'Campaign mail is kept as a record; its content is rebuilt from the campaign as it was sent (the same message, before any DKIM signature).'}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={secondaryButton}
            onClick={() => download(`${mail.id}.eml`, 'message/rfc822', mail.raw)}
          >
            <Download className="h-4 w-4" aria-hidden="true" />
            Download .eml
          </button>
          {mail.attachments.map((a) => (
            <button
              key={a.filename}
              type="button"
              className={secondaryButton}
              onClick={() => download(a.filename, 'text/calendar', mail.calendar ?? '')}
            >
              <CalendarDays className="h-4 w-4" aria-hidden="true" />
              {a.filename}
            </button>
          ))}
        </div>
      </header>
      <Tabs<View> label="Message parts" tabs={tabs} selected={view} onSelect={setView}>
        {view === 'html' ? (
          mail.html ? (
            // sandbox="": no script, no same-origin access, no navigation out of the frame.
            <iframe
              title={`HTML of ${mail.subject}`}
              sandbox=""
              srcDoc={mail.html}
              className="mt-3 h-[32rem] w-full rounded-lg border border-navy-700 bg-white"
            />
          ) : (
            <p className="mt-3 text-sm text-slate-400">This message has no HTML part.</p>
          )
        ) : view === 'text' ? (
          <Pre label="Text part">{mail.text ?? ''}</Pre>
        ) : view === 'headers' ? (
          <table className="mt-3 w-full text-left text-xs">
            <caption className="sr-only">Headers</caption>
            <tbody>
              {mail.headers.map((h, i) => (
                // Header names repeat (Received, ...): the position keeps keys unique.
                // biome-ignore lint/suspicious/noArrayIndexKey: headers are an ordered list
                <tr key={i} className="border-b border-navy-800 align-top">
                  <th
                    scope="row"
                    className="py-1 pr-3 font-mono font-medium whitespace-nowrap text-slate-400"
                  >
                    {h.name}
                  </th>
                  <td className="py-1 font-mono break-all text-slate-200">{h.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : view === 'raw' ? (
          <Pre label="Raw message">{mail.raw}</Pre>
        ) : (
          <Pre label="Calendar (invite.ics)">{mail.calendar ?? ''}</Pre>
        )}
      </Tabs>
    </article>
  );
}

function Pre({ label, children }: { label: string; children: string }) {
  return (
    // A scrollable region: named, and reachable by keyboard so it can be scrolled.
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus
      tabIndex={0}
      className="mt-3 max-h-[32rem] overflow-auto rounded-lg border border-navy-700 bg-navy-950/60 p-3"
    >
      <pre className="font-mono text-xs whitespace-pre-wrap break-all text-slate-200">{children}</pre>
    </section>
  );
}
