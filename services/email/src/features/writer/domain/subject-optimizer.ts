import { hasMergeField, type OptimizeGoal, SUBJECT_TIP_LENGTH } from '@parley/contracts';
import { visibleLength } from './campaign-writer.ts';
import {
  ACRONYMS,
  ACTION_VERBS,
  deadlineOf,
  FILLER,
  HEDGES,
  type OptimizeContext,
  type Optimized,
  replaceAll,
  SHOUT,
  tidy,
  URGENT,
  WORDY,
} from './content-optimizer.ts';

/**
 * The content optimizer's subject rewrites: a subject line toward one of the six goals, each
 * change named, with a note when the result passes the length tip.
 */

// ── subjects ─────────────────────────────────────────────────────────────────────

const tooLong = (s: string) => visibleLength(s) >= SUBJECT_TIP_LENGTH;
const lengthNote = (before: string, after: string) =>
  tooLong(after) && !tooLong(before)
    ? [`Note: the subject is now ${visibleLength(after)} characters; the tip is under ${SUBJECT_TIP_LENGTH}.`]
    : [];

const lowerFirst = (s: string) =>
  /^[A-Z][a-z]/.test(s) && !/^[A-Z][a-z]*[A-Z]/.test(s.split(' ')[0] ?? '')
    ? s.charAt(0).toLowerCase() + s.slice(1)
    : s;

/** Rewrites a subject line toward the goal. */
export function optimizeSubject(subject: string, goal: OptimizeGoal, ctx: OptimizeContext): Optimized {
  const before = subject.replace(/\s+/g, ' ').trim();
  let s = before;
  const changes: string[] = [];
  switch (goal) {
    case 'engagement': {
      if (/\?\s*$/.test(s)) {
        changes.push('The subject already asks a question; left as it is.');
        break;
      }
      const bare = s.replace(/[.!]+$/, '');
      s = ACTION_VERBS.test(bare) ? `Ready to ${lowerFirst(bare)}?` : `${bare}: what do you think?`;
      changes.push(
        `Turned the subject into a question (“${s}”): a question invites the reader in and tends to lift opens.`,
      );
      break;
    }
    case 'conversion': {
      const spam: string[] = [];
      const cleaned = s
        .replace(/!{2,}/g, (m) => {
          spam.push(m);
          return '!';
        })
        .replace(/(?:\bclick here\b|\bact now\b|\b100% free\b|\${2,})\s*/gi, (m) => {
          spam.push(m.trim());
          return '';
        })
        .trim();
      if (cleaned !== s) {
        changes.push(
          `Removed spam-trigger wording (${spam.map((w) => `“${w}”`).join(', ')}): it hurts inbox placement.`,
        );
        s = cleaned;
      }
      const opener = /^(introducing|announcing|new:?)\s+/i.exec(s);
      if (opener) {
        const verb = /^new/i.test(opener[1] ?? '') ? 'Try the new' : 'Meet';
        s = `${verb} ${s.slice(opener[0].length)}`;
        changes.push(`Opened with an action (“${verb}”) instead of “${opener[1]}”.`);
      }
      if (!/\s[—–-]\s(?:book|get|see|save|join)\b/i.test(s) && !ACTION_VERBS.test(s)) {
        const next = /demo|call|consult/i.test(s)
          ? 'book your demo'
          : /guide|report|checklist|e-?book|template/i.test(s)
            ? 'get your copy'
            : /webinar|event|workshop|session/i.test(s)
              ? 'save your seat'
              : 'see how';
        s = `${s.replace(/[.!]+$/, '')} — ${next}`;
        changes.push(
          `Added the next step (“${next}”): a subject that says what to do converts better than a label.`,
        );
      } else if (!opener) changes.push('The subject already leads with an action; left as it is.');
      break;
    }
    case 'clarity': {
      const found: string[] = [];
      s = replaceAll(s, WORDY, found);
      s = s.replace(FILLER, (m) => {
        found.push(`“${m.trim()}” removed`);
        return '';
      });
      if (found.length) changes.push(`Plainer wording: ${found.join(', ')}.`);
      const calm = s.replace(SHOUT, (w) => (ACRONYMS.has(w) ? w : w.charAt(0) + w.slice(1).toLowerCase()));
      if (calm !== s) {
        changes.push('Calmed words in capitals: shouting reads as spam.');
        s = calm;
      }
      const punct = s.replace(/([!?.])\1+/g, '$1');
      if (punct !== s) {
        changes.push('Repeated punctuation reduced to one mark.');
        s = punct;
      }
      if (tooLong(s)) {
        const cut = /^(.{12,}?)\s*(?:[|:–—]|\s-\s)\s*.+$/.exec(s);
        if (cut?.[1] && !tooLong(cut[1])) {
          s = cut[1].trim();
          changes.push(
            `Cut the subject to its first clause (${visibleLength(s)} characters; the tip is under ${SUBJECT_TIP_LENGTH}).`,
          );
        } else
          changes.push(
            `The subject is ${visibleLength(s)} characters: consider cutting it under ${SUBJECT_TIP_LENGTH}.`,
          );
      }
      s = tidy(s);
      if (!changes.length) changes.push('The subject is already short and plain; left as it is.');
      break;
    }
    case 'personalization': {
      if (hasMergeField(s, 'firstName')) {
        changes.push('The subject already greets the reader by {{firstName}}; left as it is.');
        break;
      }
      s = `{{firstName|Hi}}, ${lowerFirst(s)}`;
      changes.push(
        'Added {{firstName}} at the start: every recipient sees their own first name ("Hi" where there is none).',
      );
      break;
    }
    case 'urgency': {
      if (URGENT.test(s)) {
        changes.push('The subject already carries a time cue; left as it is.');
        break;
      }
      const { weekday, date } = deadlineOf(ctx.now);
      s = `${s.replace(/[.!]+$/, '')} — ends ${weekday}`;
      changes.push(
        `Added a deadline (“ends ${weekday}”, ${date}, a week from today): replace it with your offer's real end date.`,
      );
      break;
    }
    case 'authority': {
      const found: string[] = [];
      s = tidy(replaceAll(s, HEDGES, found));
      if (found.length) changes.push(`Removed hedging: ${found.join(', ')}.`);
      if (!s.toLowerCase().includes(ctx.brand.toLowerCase())) {
        s = `${ctx.brand}: ${s}`;
        changes.push(
          `Named the sender (“${ctx.brand}:”): a known source is trusted more than an anonymous claim.`,
        );
      }
      if (!changes.length)
        changes.push('The subject already names the sender and makes no hedged claim; left as it is.');
      break;
    }
  }
  return { value: s, changes: [...changes, ...lengthNote(before, s)] };
}
