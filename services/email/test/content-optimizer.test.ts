import { OPTIMIZE_GOALS } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { renderCampaign } from '../src/features/writer/domain/campaign-renderer.ts';
import { planCopy } from '../src/features/writer/domain/campaign-writer.ts';
import { companyFrom } from '../src/features/writer/domain/company.ts';
import { deadlineOf } from '../src/features/writer/domain/content-optimizer.ts';
import { optimizeHtml } from '../src/features/writer/domain/html-optimizer.ts';
import { mapText } from '../src/features/writer/domain/html-reader.ts';
import { optimizeSubject } from '../src/features/writer/domain/subject-optimizer.ts';
import { sanitizeEmailHtml } from '../src/shared/email-html.ts';

/** The local content optimizer: each goal's transforms, their explanations, idempotence. */

// Friday 27 November 2026: the deadline is a week later, Friday 4 December.
const ctx = { brand: 'Parley', origin: 'https://parley.test', now: new Date('2026-11-27T10:00:00Z') };

const BODY = `<!DOCTYPE html><html><head><title>Hello</title><style>p{color:#111}</style></head><body>
<p style="margin:0 0 16px;color:#1f2937">Hello,</p>
<p style="margin:0 0 16px;color:#1f2937">We are really very excited to let you know that in order to help your business grow, we have built a new feature that utilizes AI, and it is able to answer every single call that comes in while your team is busy with other things that matter, which means fewer missed calls.</p>
<p style="margin:0 0 16px;color:#1f2937">Customers cut missed calls by 40% in the first month.</p>
<p><a href="https://parley.test/book-demo">Learn more</a></p>
<p style="font-size:12px"><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>
</body></html>`;

const html = (goal: (typeof OPTIMIZE_GOALS)[number], input = BODY) => {
  const r = optimizeHtml(input, goal, ctx);
  return { ...r, value: sanitizeEmailHtml(r.value) };
};

describe('subjects', () => {
  const subject = (s: string, goal: (typeof OPTIMIZE_GOALS)[number]) => optimizeSubject(s, goal, ctx);

  it('engagement asks a question', () => {
    expect(subject('Spring launch', 'engagement').value).toBe('Spring launch: what do you think?');
    expect(subject('Book a live demo', 'engagement').value).toBe('Ready to book a live demo?');
  });

  it('conversion opens with an action, states the next step and drops spam triggers', () => {
    const r = subject('Introducing our AI receptionist!!!', 'conversion');
    expect(r.value).toBe('Meet our AI receptionist!');
    expect(r.changes.join(' ')).toContain('“!!!”');
    expect(subject('Our spring webinar', 'conversion').value).toBe('Our spring webinar — save your seat');
    expect(subject('Book a live demo', 'conversion').value).toBe('Book a live demo');
  });

  it('clarity removes filler and wordy phrases, calms capitals and cuts a long subject at a clause', () => {
    expect(subject('We really want to help in order to grow', 'clarity').value).toBe(
      'We want to help to grow',
    );
    expect(subject('HUGE NEWS for your team!!!', 'clarity').value).toBe('Huge News for your team!');
    const long = subject(
      'Our spring product update for clinics: everything new in scheduling and reminders',
      'clarity',
    );
    expect(long.value).toBe('Our spring product update for clinics');
    expect(long.changes.join(' ')).toContain('first clause');
  });

  it('personalization greets by {{firstName}}, once', () => {
    const r = subject('Spring launch', 'personalization');
    expect(r.value).toBe('{{firstName|Hi}}, spring launch');
    expect(subject(r.value, 'personalization').value).toBe(r.value);
    expect(subject('AI receptionists are here', 'personalization').value).toBe(
      '{{firstName|Hi}}, AI receptionists are here',
    );
  });

  it('urgency adds a deadline a week ahead and says to replace it', () => {
    const r = subject('Spring launch', 'urgency');
    expect(r.value).toBe('Spring launch — ends Friday');
    expect(r.changes[0]).toContain('Friday, 4 December');
    expect(r.changes[0]).toContain("replace it with your offer's real end date");
    expect(subject(r.value, 'urgency').value).toBe(r.value);
  });

  it('authority names the sender and removes hedging', () => {
    expect(subject('We think you might be able to save time', 'authority').value).toBe(
      'Parley: You can save time',
    );
    expect(subject('Parley: spring update', 'authority').value).toBe('Parley: spring update');
  });

  it('each goal explains what it did, and notes a subject pushed over the tip', () => {
    for (const goal of OPTIMIZE_GOALS)
      expect(subject('Spring launch', goal).changes.length).toBeGreaterThan(0);
    const r = subject('Introducing our new AI receptionist for clinics', 'engagement');
    expect(r.changes.at(-1)).toMatch(/now \d+ characters; the tip is under 50/);
  });
});

describe('HTML', () => {
  it('engagement adds a preheader (without the greeting) and a reply question before the call to action', () => {
    const r = html('engagement');
    expect(r.value).toMatch(
      /<body>\s*<div class="parley-preheader" style="display:none[^"]*">We are really very excited/,
    );
    const question = r.value.indexOf('parley-question');
    expect(question).toBeGreaterThan(r.value.indexOf('40%'));
    expect(question).toBeLessThan(r.value.indexOf('book-demo'));
    expect(r.changes).toHaveLength(2);
  });

  it('conversion names the button by its destination, styles it and repeats it in a P.S.', () => {
    const r = html('conversion');
    expect(r.value).toMatch(
      /<a style="display:inline-block;padding:12px 24px;background-color:#0891b2[^"]*" href="https:\/\/parley\.test\/book-demo">Book your demo<\/a>/,
    );
    expect(r.value).toMatch(
      /<p class="parley-ps"[^>]*>P\.S\. Ready when you are: <a href="https:\/\/parley\.test\/book-demo"/,
    );
    // The P.S. sits before the footer's unsubscribe line.
    expect(r.value.indexOf('parley-ps')).toBeLessThan(r.value.indexOf('{{unsubscribeUrl}}'));
    expect(r.changes.join(' ')).toContain('“Learn more” → “Book your demo”');
  });

  it('conversion adds a button when the body has no link', () => {
    const r = html('conversion', '<p>Hello</p><p>Our agent answers every call.</p>');
    expect(r.value).toContain('href="https://parley.test/book-demo"');
    expect(r.changes[0]).toContain('change the link');
  });

  it('clarity plainer words, fewer fillers, long sentences split; only in visible text', () => {
    const r = html('clarity');
    expect(r.value).toContain('We are excited to let you know that to help your business grow');
    expect(r.value).toContain('uses AI. It can answer every single call');
    expect(r.value).toContain('<title>Hello</title>');
    expect(r.changes).toEqual([
      'Plainer wording: “in order to” → “to”, “is able to” → “can”, “utilizes” → “uses”.',
      'Removed 2 filler words (very, really, just, actually…).',
      'Split 1 sentence of more than 25 words in two.',
    ]);
  });

  it('personalization puts {{firstName}} in the greeting and names {{company}}', () => {
    const r = html('personalization');
    expect(r.value).toContain('>Hello {{firstName|there}},</p>');
    // The words replaced stay as the fallback for a contact without a company.
    expect(r.value).toContain('to help {{company|your business}} grow');
    const noGreeting = html('personalization', '<body><p>Our agent answers every call.</p></body>');
    expect(noGreeting.value).toContain(
      '<p class="parley-greeting">Hi {{firstName|there}},</p>\n<p>Our agent',
    );
  });

  it('urgency adds a dated deadline line before the call to action and makes it immediate', () => {
    const r = html('urgency');
    expect(r.value).toContain('act by <strong>Friday, 4 December</strong>');
    expect(r.value).toContain('>Book your demo now</a>');
    expect(r.value.indexOf('parley-deadline')).toBeLessThan(r.value.indexOf('Book your demo now'));
    expect(deadlineOf(ctx.now)).toEqual({ weekday: 'Friday', date: 'Friday, 4 December' });
  });

  it('authority highlights the stated proof in place and signs the message', () => {
    const r = html('authority');
    expect(r.value).toMatch(
      /<p class="parley-proof" style="[^"]*border-left:4px solid #0f766e[^"]*">Customers cut missed calls by 40%/,
    );
    // Not quoted twice.
    expect(r.value.match(/40%/g)).toHaveLength(1);
    expect(r.value).toContain('— The Parley team');
    const none = html('authority', '<body><p>We think our agent might be able to help.</p></body>');
    expect(none.value).toContain('Our agent can help.');
    expect(none.changes.join(' ')).toContain('No figure or measured result found');
  });

  it('every goal is idempotent: optimizing twice changes nothing more', () => {
    for (const goal of OPTIMIZE_GOALS) {
      const once = html(goal).value;
      expect(html(goal, once).value, goal).toBe(once);
    }
  });

  it('works on the generated layout: insertions land inside the content, before the footer', () => {
    const company = companyFrom(null, { name: 'Parley', website: 'https://parley.test' });
    const copy = planCopy({
      prompt: 'our AI receptionist for clinics',
      goal: 'demo_booking',
      company,
      origin: 'https://parley.test',
    });
    const generated = sanitizeEmailHtml(
      renderCampaign(copy, { company, goal: 'demo_booking', headerImageUrl: null }).html,
    );
    for (const goal of OPTIMIZE_GOALS) {
      const r = html(goal, generated);
      const out = r.value;
      // The generated campaign already greets by {{firstName}} and names {{company}}.
      if (goal === 'personalization') expect(r.changes).toEqual(['The body already uses {{firstName}}.']);
      // ... and is signed by the team; it states no figure to lift (and none is invented).
      else if (goal === 'authority')
        expect(r.changes.join(' ')).toContain('No figure or measured result found');
      else expect(out, goal).not.toBe(generated);
      const footer = out.indexOf('You are receiving this email');
      for (const cls of ['parley-question', 'parley-ps', 'parley-deadline', 'parley-signature'])
        if (out.includes(cls)) expect(out.indexOf(cls), `${goal} ${cls}`).toBeLessThan(footer);
    }
  });

  it('mapText leaves tags, head, style and title alone', () => {
    const out = mapText(
      '<head><title>very</title><style>.very{}</style></head><body><p class="very">very good</p></body>',
      (t) => t.replace(/very/g, 'X'),
    );
    expect(out).toBe(
      '<head><title>very</title><style>.very{}</style></head><body><p class="very">X good</p></body>',
    );
  });

  it('the sanitised result keeps merge fields and loses script and handlers', () => {
    const r = html(
      'clarity',
      `${BODY.replace('</body>', '<script>alert(1)</script><img src="x" onerror="alert(1)"><a href="javascript:alert(1)">x</a></body>')}`,
    );
    expect(r.value).not.toMatch(/<script|onerror|javascript:/i);
    expect(r.value).toContain('href="{{unsubscribeUrl}}"');
  });
});
