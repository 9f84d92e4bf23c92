import { hasMergeField, type OptimizeGoal } from '@parley/contracts';
import { escapeMarkup as esc } from '@parley/kit/markup';
import {
  actionFor,
  deadlineOf,
  FILLER,
  HEDGES,
  type OptimizeContext,
  type Optimized,
  replaceAll,
  tidy,
  URGENT,
  WEAK_LINK,
  WORDY,
} from './content-optimizer.ts';
import {
  beforeCta,
  bodyStart,
  contentEnd,
  ctaOf,
  type Link,
  mapText,
  paragraphAround,
  paragraphStyle,
  visibleText,
} from './html-reader.ts';

/**
 * The content optimizer's HTML rewrites: an e-mail body toward one of the six goals, each
 * insertion marked with a `parley-*` class so a second pass adds nothing.
 */

const insertAt = (html: string, at: number, block: string) =>
  `${html.slice(0, at)}\n${block}\n${html.slice(at)}`;
const has = (html: string, cls: string) => new RegExp(`class="[^"]*\\b${cls}\\b`).test(html);

/** Rewrites e-mail HTML toward the goal. */
export function optimizeHtml(html: string, goal: OptimizeGoal, ctx: OptimizeContext): Optimized {
  let h = html;
  const changes: string[] = [];
  const style = paragraphStyle(h);
  const line = (cls: string, inner: string, extra = '') =>
    style || extra
      ? `<p class="${cls}" style="${esc(style)}${extra}">${inner}</p>`
      : `<p class="${cls}">${inner}</p>`;

  switch (goal) {
    case 'engagement': {
      if (!has(h, 'parley-preheader') && !/<div[^>]*display\s*:\s*none/i.test(h)) {
        const preview = visibleText(h)
          .replace(/^(?:hi|hello|hey|dear|greetings)\b[^,.!]{0,40}[,!]\s*/i, '')
          .slice(0, 110)
          .replace(/\s+\S*$/, '');
        if (preview) {
          h = insertAt(
            h,
            bodyStart(h),
            `<div class="parley-preheader" style="display:none;max-height:0;overflow:hidden;mso-hide:all;font-size:1px;line-height:1px;opacity:0;">${esc(preview)}…</div>`,
          );
          changes.push(`Added a preheader, the preview line inboxes show after the subject: “${preview}…”.`);
        }
      }
      if (!has(h, 'parley-question')) {
        h = insertAt(
          h,
          beforeCta(h, ctaOf(h)),
          line(
            'parley-question',
            'What is the one question you would want answered first? Just reply to this email: we read every answer.',
          ),
        );
        changes.push(
          'Added a question inviting a reply before the call to action: replies are the engagement mailbox providers reward.',
        );
      }
      if (!changes.length)
        changes.push('The body already has a preheader and a reply question; left as it is.');
      break;
    }
    case 'conversion': {
      let cta = ctaOf(h);
      if (!cta) {
        const url = `${ctx.origin}/book-demo`;
        h = insertAt(
          h,
          contentEnd(h),
          `<table role="presentation" class="parley-cta" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;"><tr><td align="center" bgcolor="#0891b2" style="border-radius:6px;background-color:#0891b2;"><a href="${esc(url)}" target="_blank" style="display:inline-block;padding:14px 28px;font-family:Arial, Helvetica, sans-serif;font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">Book your demo</a></td></tr></table>`,
        );
        changes.push(
          `The body had no link: added a “Book your demo” button to ${url} (change the link if your offer lives elsewhere).`,
        );
        break;
      }
      const text = cta.inner.replace(/<[^>]*>/g, '').trim();
      if (WEAK_LINK.test(text) || !text) {
        const label = actionFor(cta.href);
        h = `${h.slice(0, cta.start)}${cta.open}${esc(label)}</a>${h.slice(cta.end)}`;
        changes.push(
          `Rewrote the button text “${text || '(empty)'}” → “${label}”: it says what happens on click.`,
        );
        cta = ctaOf(h) as Link;
      }
      if (!cta.button) {
        const styled = /\bstyle\s*=\s*"/i.test(cta.open)
          ? cta.open.replace(
              /\bstyle\s*=\s*"/i,
              'style="display:inline-block;padding:12px 24px;background-color:#0891b2;color:#ffffff;font-weight:bold;text-decoration:none;border-radius:6px;',
            )
          : cta.open.replace(
              /^<a\b/i,
              '<a style="display:inline-block;padding:12px 24px;background-color:#0891b2;color:#ffffff;font-weight:bold;text-decoration:none;border-radius:6px;"',
            );
        h = `${h.slice(0, cta.start)}${styled}${h.slice(cta.start + cta.open.length)}`;
        changes.push(
          'Styled the main link as a button: a button is seen and tapped far more often than a text link.',
        );
        cta = ctaOf(h) as Link;
      }
      if (!has(h, 'parley-ps')) {
        const label = cta.inner.replace(/<[^>]*>/g, '').trim();
        h = insertAt(
          h,
          contentEnd(h),
          line(
            'parley-ps',
            `P.S. Ready when you are: <a href="${esc(cta.href)}" style="color:inherit;font-weight:bold;">${esc(label)}</a>.`,
            'margin-top:16px;',
          ),
        );
        changes.push('Added a P.S. repeating the call to action: many readers skim straight to the end.');
      }
      if (!changes.length)
        changes.push('The call to action is already a specific button with a P.S.; left as it is.');
      break;
    }
    case 'clarity': {
      const found: string[] = [];
      let fillers = 0;
      let split = 0;
      h = mapText(h, (t) => {
        let out = replaceAll(t, WORDY, found);
        out = out.replace(FILLER, () => {
          fillers++;
          return '';
        });
        // Sentences over 25 words split at the ", and" / "; " nearest their middle.
        out = out.replace(/[^.!?]+[.!?]?/g, (s) => {
          const words = s.trim().split(/\s+/).length;
          if (words <= 25) return s;
          const cuts = [...s.matchAll(/,\s+(?:and|but|so|which)\s+|;\s+/g)];
          if (!cuts.length) return s;
          const mid = s.length / 2;
          const cut = cuts.reduce((a, b) =>
            Math.abs((b.index ?? 0) - mid) < Math.abs((a.index ?? 0) - mid) ? b : a,
          );
          const at = cut.index ?? 0;
          const rest = s.slice(at + cut[0].length).replace(/^which\s+/i, 'This ');
          split++;
          return `${s.slice(0, at)}. ${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
        });
        return out === t ? t : tidy(out);
      });
      if (found.length)
        changes.push(
          `Plainer wording: ${[...new Set(found)].slice(0, 8).join(', ')}${found.length > 8 ? ` and ${found.length - 8} more` : ''}.`,
        );
      if (fillers)
        changes.push(
          `Removed ${fillers} filler word${fillers === 1 ? '' : 's'} (very, really, just, actually…).`,
        );
      if (split)
        changes.push(`Split ${split} sentence${split === 1 ? '' : 's'} of more than 25 words in two.`);
      if (!changes.length)
        changes.push('No filler, wordy phrase or over-long sentence found; left as it is.');
      break;
    }
    case 'personalization': {
      if (!hasMergeField(h, 'firstName')) {
        const greeting =
          /(<p\b[^>]*>\s*)(hi|hello|hey|dear|good (?:morning|afternoon|evening)|greetings)\b([^<,!]*)([,!]?)/i;
        const first = greeting.exec(h.slice(bodyStart(h)));
        if (first && first.index < 2000) {
          const at = bodyStart(h) + first.index;
          const word = first[2] as string;
          const replaced = `${first[1]}${word} {{firstName|there}}${first[4] || ','}`;
          h = h.slice(0, at) + replaced + h.slice(at + first[0].length);
          changes.push(
            `Greeting now uses the reader's name: “${word}${first[3] ?? ''}” → “${word} {{firstName}}”.`,
          );
        } else {
          const firstP = h.slice(bodyStart(h)).search(/<p\b/i);
          const at = firstP >= 0 ? bodyStart(h) + firstP : beforeCta(h, ctaOf(h));
          h = insertAt(h, at, line('parley-greeting', 'Hi {{firstName|there}},'));
          changes.push('Added a greeting with {{firstName}} at the top.');
        }
      } else changes.push('The body already uses {{firstName}}.');
      if (!hasMergeField(h, 'company')) {
        let done = '';
        h = mapText(h, (t) =>
          done
            ? t
            : t.replace(/\byour (?:business|company|organi[sz]ation|practice|firm|agency)\b/i, (m) => {
                done = m;
                // The words it replaces stay as the fallback for a contact without a company.
                return `{{company|${m}}}`;
              }),
        );
        if (done) changes.push(`“${done}” → “{{company}}”: the reader's company by name.`);
        else changes.push('No “your business / company / practice” to name: {{company}} was not added.');
      }
      break;
    }
    case 'urgency': {
      const { date } = deadlineOf(ctx.now);
      let cta = ctaOf(h);
      if (cta) {
        const text = cta.inner.replace(/<[^>]*>/g, '').trim();
        const label = WEAK_LINK.test(text) || !text ? actionFor(cta.href) : text;
        const urgent = URGENT.test(label) ? label : `${label.replace(/[.!]+$/, '')} now`;
        if (urgent !== text) {
          h = `${h.slice(0, cta.start)}${cta.open}${esc(urgent)}</a>${h.slice(cta.end)}`;
          changes.push(`Call to action made immediate: “${text}” → “${urgent}”.`);
          cta = ctaOf(h);
        }
      }
      if (!has(h, 'parley-deadline')) {
        h = insertAt(
          h,
          beforeCta(h, cta),
          line(
            'parley-deadline',
            `Don’t leave it for later: act by <strong>${esc(date)}</strong>.`,
            'font-weight:bold;color:#b91c1c;',
          ),
        );
        changes.push(
          `Added a deadline line before the call to action (${date}, a week from today): replace it with your real deadline.`,
        );
      }
      if (!changes.length)
        changes.push('The body already has a deadline and an immediate call to action; left as it is.');
      break;
    }
    case 'authority': {
      const found: string[] = [];
      h = mapText(h, (t) => {
        const out = replaceAll(t, HEDGES, found);
        return out === t ? t : tidy(out);
      });
      if (found.length) changes.push(`Removed hedging: ${[...new Set(found)].join(', ')}.`);
      if (!has(h, 'parley-proof')) {
        const text = visibleText(h);
        // Sentence by sentence (a bounded test each: the body may be 200,000 characters).
        const figure = text
          .split(/(?<=[.!?])\s+/)
          .find(
            (sentence) =>
              sentence.length <= 400 &&
              /\b\d[\d,.]*\s?(?:%|x\b|percent\b|times\b|customers\b|clients\b|businesses\b|companies\b|teams\b|calls\b|hours\b|patients\b|bookings\b|appointments\b)/i.test(
                sentence,
              ),
          );
        const proofStyle =
          'border-left:4px solid #0f766e;background-color:#f0fdfa;padding:12px 16px;font-weight:bold;';
        const paragraph = figure ? paragraphAround(h, figure.trim()) : null;
        if (figure && paragraph) {
          // The paragraph that states it becomes the proof line (no second copy of the claim).
          const tag = h.slice(paragraph.start, paragraph.end);
          const styled = /\bstyle\s*=\s*"/i.test(tag)
            ? tag.replace(
                /\bstyle\s*=\s*"([^"]*)"/i,
                (_m, st: string) => `style="${st}${st && !st.trim().endsWith(';') ? ';' : ''}${proofStyle}"`,
              )
            : tag.replace(/^<p\b/i, `<p style="${proofStyle}"`);
          h = `${h.slice(0, paragraph.start)}${styled.replace(/^<p\b/i, '<p class="parley-proof"')}${h.slice(paragraph.end)}`;
          changes.push(`Highlighted the proof the body states as a callout: “${figure.trim()}”.`);
        } else if (figure) {
          h = insertAt(
            h,
            beforeCta(h, ctaOf(h)),
            line('parley-proof', `<strong>By the numbers:</strong> ${esc(figure.trim())}`, proofStyle),
          );
          changes.push(`Lifted a figure into a highlighted proof line: “${figure.trim()}”.`);
        } else
          changes.push(
            'No figure or measured result found to highlight: add one (for example “cut missed calls by 40%”): proof convinces more than adjectives.',
          );
      }
      const brand = ctx.brand.toLowerCase();
      if (
        !has(h, 'parley-signature') &&
        !new RegExp(`the ${brand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} team`, 'i').test(visibleText(h))
      ) {
        h = insertAt(h, contentEnd(h), line('parley-signature', `— The ${esc(ctx.brand)} team`));
        changes.push(`Signed the message “— The ${ctx.brand} team”: a named sender is more credible.`);
      }
      if (!changes.length)
        changes.push(
          'The body already carries its proof and a named sender, without hedging; left as it is.',
        );
      break;
    }
  }
  return { value: h, changes };
}
