import type { SegmentCount } from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import clsx from 'clsx';
import { Users } from 'lucide-react';
import { useMemo } from 'react';
import { useDebounced } from '../../../../lib/use-debounced.ts';
import { messageOr } from '../../../lib/api.ts';
import { useRuleCount } from '../api.ts';
import type { BuiltRule } from './rule-form.ts';

/** The rule settles this long before it is counted (typing a value asks once, not per key). */
export const RULE_COUNT_DEBOUNCE_MS = 400;

/** "12 recipients (15 contacts match)": what a send would reach, and every matching contact. */
export const countWords = (c: SegmentCount) =>
  `${plural(c.recipients, 'recipient')} (${plural(c.contacts, 'contact')} ${c.contacts === 1 ? 'matches' : 'match'})`;

/**
 * The editor's live count: the rule as it stands, counted by the server a moment after the last
 * change. A rule the server refuses (a condition without its value) shows the server's words in
 * place of a count: it is a rule being written, not a failure to toast.
 */
export function RuleCount({ built }: { built: BuiltRule }) {
  // Compared as text: the rule is a new object on every render.
  const typed = JSON.stringify(built);
  const settled = useDebounced(typed, RULE_COUNT_DEBOUNCE_MS);
  const current = useMemo(() => JSON.parse(settled) as BuiltRule, [settled]);
  const count = useRuleCount('rule' in current ? current.rule : null);
  const waiting = typed !== settled || count.isFetching;
  const problem =
    'problem' in current
      ? current.problem
      : count.isError
        ? messageOr(count.error, 'This rule could not be counted. Please try again.')
        : null;
  return (
    <div
      className="flex items-start gap-2 rounded-lg border border-navy-700 bg-navy-950/40 px-3 py-2 text-sm"
      data-testid="segment-live-count"
    >
      <Users className="mt-0.5 h-4 w-4 shrink-0 text-brand" aria-hidden="true" />
      <p
        role="status"
        aria-busy={waiting}
        className={clsx(problem ? 'text-amber-200' : 'text-slate-100', waiting && 'opacity-70')}
      >
        {problem ?? (count.data ? countWords(count.data) : 'Counting…')}
      </p>
    </div>
  );
}
