import type { TestSends } from '@parley/contracts';
import { FlaskConical } from 'lucide-react';
import { formatShortDateTime } from '../../../lib/time.ts';
import { formatCount } from '../audience/api.ts';

/**
 * A campaign's or newsletter's test-mode sends, apart from its live ones (issue 35): they go
 * to the saved test addresses only, leave it as it was (a draft stays a draft) and count in no
 * report unless test mail is asked for.
 */
export function TestSendsLine({ testSends }: { testSends: TestSends }) {
  const last = testSends.last;
  if (!last) return null;
  const when = last.finishedAt ?? last.startedAt;
  const outcome =
    last.status === 'sending'
      ? 'sending now'
      : last.status === 'scheduled'
        ? 'scheduled'
        : last.status === 'cancelled'
          ? `stopped, ${formatCount(last.sent)} sent`
          : `${formatCount(last.sent)} sent${last.failed ? `, ${formatCount(last.failed)} failed` : ''}`;
  return (
    <p
      className="mt-2 flex items-start gap-1.5 rounded-lg border border-navy-700 bg-navy-950/40 px-2 py-1.5 text-xs text-slate-300"
      data-testid="test-sends"
    >
      <FlaskConical className="mt-0.5 h-3.5 w-3.5 shrink-0 text-brand" aria-hidden="true" />
      <span>
        {`Test sends: ${formatCount(testSends.count)} (not in the reports). Last: ${formatCount(last.recipients)} test address${last.recipients === 1 ? '' : 'es'} standing in for ${formatCount(last.originalRecipients)} recipient${last.originalRecipients === 1 ? '' : 's'}, ${outcome}${when ? `, ${formatShortDateTime(when)}` : ''}.`}
      </span>
    </p>
  );
}
