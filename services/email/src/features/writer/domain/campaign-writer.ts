import { CAMPAIGN_GOAL_LABELS, type CampaignGoal, SUBJECT_TIP_LENGTH } from '@parley/contracts';
import type { Company } from './company.ts';
import {
  clipWords,
  figureOf,
  industryOf,
  inSentence,
  offerOf,
  type Topic,
  titleCase,
  topicOf,
} from './prompt-reader.ts';

/**
 * The local campaign writer: from the admin's prompt, the goal and what is known of the
 * company, it plans a campaign (name, subject under 50 characters, preheader, headline,
 * greeting, paragraphs, a list, a call to action chosen by the goal, closing, sign-off) and
 * renders it as responsive e-mail HTML (tables and inline styles, a bulletproof button, the
 * {{firstName|there}} / {{company|your team}} merge fields (with fallbacks), a footer with the address and the
 * {{unsubscribeUrl}} link) with a matching text part. No network, no model: template-driven
 * writing from the prompt's topic, the industry it names, any offer, date or figure it
 * states, and the company context. The same input always gives the same campaign.
 *
 * The OpenAI writer (openai-writer.ts) writes the same {@link CampaignCopy}
 * and goes through the same renderer, so the layout, merge fields and footer never depend on
 * what a model returned.
 *
 * This file holds the copy (what any writer produces, the calls to action, the local plan);
 * the company is read in company.ts, the prompt in prompt-reader.ts, and the copy is rendered
 * in campaign-renderer.ts.
 */

// ── the copy ─────────────────────────────────────────────────────────────────────

/** A campaign's words and its one call to action: what any writer (local or OpenAI) produces. */
export interface CampaignCopy {
  name: string;
  subject: string;
  preheader: string;
  headline: string;
  greeting: string;
  paragraphs: string[];
  /** A highlighted line (the offer, the result), or null. */
  highlight: string | null;
  listTitle: string | null;
  bullets: string[];
  cta: { label: string; url: string };
  closing: string[];
  signOff: string;
}

export interface CopyBrief {
  prompt: string;
  goal: CampaignGoal;
  company: Company;
  /** The site's public origin: the calls to action link there. */
  origin: string;
}

/** Each goal's call to action: a page of the public site. */
export const GOAL_CTA: Record<CampaignGoal, { label: string; path: string }> = {
  lead_generation: { label: 'See how it works', path: '/use-cases' },
  product_launch: { label: 'Explore the platform', path: '/agent-platform' },
  demo_booking: { label: 'Book your demo', path: '/book-demo' },
  customer_retention: { label: 'Tell us what you need', path: '/#contact' },
  feature_announcement: { label: 'Try it yourself', path: '/voice-agent-preview' },
  case_study: { label: 'Read more customer stories', path: '/use-cases' },
  newsletter: { label: 'Read more on our blog', path: '/blog' },
};

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);

/** The goal's landing page with campaign tags (analytics tools read utm_*; the click route keeps them). */
export function ctaUrl(origin: string, goal: CampaignGoal, name: string): string {
  const { path } = GOAL_CTA[goal];
  const [p, hash] = path.split('#');
  const q = new URLSearchParams({
    utm_source: 'email',
    utm_medium: 'email',
    utm_campaign: slug(name) || goal,
  });
  return `${origin}${p}?${q.toString()}${hash ? `#${hash}` : ''}`;
}

/** Deterministic choice: the same prompt picks the same wording, prompts differ. */
function chooser(seedText: string) {
  let h = 2166136261;
  for (const ch of seedText.toLowerCase()) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return <T>(list: readonly T[], salt = 0): T =>
    list[Math.abs((h >>> 0) + salt * 2654435761) % list.length] as T;
}

/** What a subject shows in an inbox: merge fields count as a typical first name (8 letters). */
export const visibleLength = (subject: string) =>
  subject.replace(/\{\{\s*\w+\s*(?:\|[^{}|]*)?\}\}/g, 'Jennifer').length;

/** The topic in the two forms subjects use: in a sentence ("our AI receptionist") and as a label ("AI receptionist"). */
interface TopicForms {
  ref: string;
  label: string;
}

/**
 * The first of the subjects (starting at a prompt-chosen one) under the 50-character tip; with
 * none short enough, the topic is shortened, then a topic-free subject is used.
 */
function subjectFor(
  candidates: Array<(t: TopicForms) => string>,
  topic: Topic,
  fallback: string,
  start: number,
): string {
  for (const max of [40, 26, 16]) {
    const phrase = clipWords(topic.phrase, max);
    const forms = { ref: topic.det ? `${topic.det} ${phrase}` : phrase, label: capital(phrase) };
    for (let i = 0; i < candidates.length; i++) {
      const s = (candidates[(start + i) % candidates.length] as (t: TopicForms) => string)(forms);
      if (visibleLength(s) < SUBJECT_TIP_LENGTH) return s;
    }
  }
  return fallback;
}

const sentence = (s: string) => {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
};
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const DEFAULT_PROMISE =
  'AI voice agents that answer every call, book appointments and follow up, day and night';

/** The local writer's plan of a campaign. */
export function planCopy(brief: CopyBrief): CampaignCopy {
  const { goal, company } = brief;
  // A prompt is plain text: markup in it is dropped, not quoted.
  const prompt = brief.prompt
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const pick = chooser(`${goal}|${prompt}`);
  const start = pick([0, 1, 2, 3]);
  const topic = topicOf(prompt);
  const { ref } = topic;
  const Ref = capital(ref);
  const Label = capital(topic.phrase);
  const ind = industryOf(prompt, company.industry, company.audience);
  const aud =
    company.audience ??
    topic.audience ??
    (ind.key === 'general' ? 'growing teams' : `${ind.key} ${ind.audience}`);
  const co = company.name;
  const promise = company.valueProposition ?? DEFAULT_PROMISE;
  const promiseLine = `At ${co}, our promise is simple: ${sentence(inSentence(promise))}`;
  const offer = offerOf(prompt);
  const figure = figureOf(prompt);
  const [t1, t2, t3] = ind.tasks;
  const friendly = /\b(casual|friendly|playful|warm|fun|relaxed|conversational)\b/i.test(company.tone ?? '');
  const formal = /\b(formal|corporate|authoritative|serious)\b/i.test(company.tone ?? '');
  const greeting = formal ? 'Hello {{firstName|there}},' : 'Hi {{firstName|there}},';
  const signOff = `${formal ? 'Kind regards' : friendly ? 'Cheers' : 'Best regards'},\nThe ${co} team`;
  const name = clipWords(`${titleCase(topic.phrase)} – ${CAMPAIGN_GOAL_LABELS[goal]}`, 200);
  const cta = { label: GOAL_CTA[goal].label, url: ctaUrl(brief.origin, goal, name) };

  const base = { name, greeting, signOff, cta };
  switch (goal) {
    case 'lead_generation':
      return {
        ...base,
        subject: subjectFor(
          [
            (t) => `How ${aud} use ${t.ref}`,
            (t) => `{{firstName}}, a question about ${t.ref}`,
            (t) => `${t.label}: never miss another call`,
            (t) => `${t.label} for ${aud}`,
          ],
          topic,
          '{{firstName}}, never miss another call',
          start,
        ),
        preheader: clipWords(`How ${aud} use ${ref} so their ${ind.callers} always reach someone.`, 140),
        headline: pick([
          `${Label}, without the missed calls`,
          `A better way to answer every call`,
          `${Label} for ${aud}`,
        ]),
        paragraphs: [
          `Every call that goes unanswered is a customer who tries someone else. That is why more ${aud} are looking at ${ref}: the phone is answered at once, day and night, without adding to a team that already has a full day.`,
          `${promiseLine} The agent takes the routine conversations (${t1}, ${t2}, ${t3}) so your people spend their time where it matters, and every call leaves a transcript and a summary.`,
          `We put together a short overview of how this looks for teams like {{company|yours}}.`,
        ],
        highlight: offer,
        listTitle: 'What teams like yours get:',
        bullets: [
          'Every call answered on the first ring, day and night',
          `${capital(t1)} and ${t2}, handled end to end`,
          'A clean hand-over to a person whenever a caller needs one',
        ],
        closing: ['If it looks like a fit, reply to this email and we will set up a time to talk.'],
      };
    case 'product_launch':
      return {
        ...base,
        subject: subjectFor(
          [
            (t) => `Introducing ${t.ref}`,
            (t) => `${capital(t.ref)} is here`,
            (t) => `{{firstName}}, meet ${t.ref}`,
            (t) => `Just launched: ${t.label}`,
          ],
          topic,
          `Something new from ${co}`,
          start,
        ),
        preheader: clipWords(`${Ref} is live today: what it does and how to get started.`, 140),
        headline: pick([`Introducing ${ref}`, `${Ref} is here`, `Say hello to ${ref}`]),
        paragraphs: [
          `Today we are launching ${ref}. We built it for ${aud} who want their ${ind.callers} to get a real answer every time they call, not a voicemail box.`,
          `${promiseLine} ${Ref} brings that to ${t1} and ${t2}, and it works with the calendars and systems you already use.`,
          'Here is what changes for {{company|your team}} from today:',
        ],
        highlight: offer,
        listTitle: null,
        bullets: [
          `${capital(t1)}, handled the moment a call comes in`,
          `${capital(t2)}, based on your own calendars, prices and policies`,
          'Transcripts and summaries of every call, ready for your team',
        ],
        closing: ['Take a look and tell us what you think: every reply reaches the team that built it.'],
      };
    case 'demo_booking':
      return {
        ...base,
        subject: subjectFor(
          [
            (t) => `See ${t.ref} in action, {{firstName}}`,
            (t) => `{{firstName}}, want a demo of ${t.ref}?`,
            (t) => `Your live demo: ${t.label}`,
            (t) => `Book a demo: ${t.label}`,
          ],
          topic,
          '{{firstName}}, want a quick demo?',
          start,
        ),
        preheader: clipWords(
          `Pick a time that suits you: a live walkthrough of ${ref}, your questions answered.`,
          140,
        ),
        headline: pick([`See ${ref} in action`, `Your live demo of ${ref}`, `Watch ${ref} take a real call`]),
        paragraphs: [
          `The quickest way to know whether ${ref} fits {{company|your business}} is to see it work. In a live demo we take the calls your ${ind.callers} actually make, and you can ask anything along the way.`,
          promiseLine,
        ],
        highlight: offer,
        listTitle: 'In the demo you will see:',
        bullets: [
          `${capital(t1)}, handled from the first ring to the end of the call`,
          `${capital(t2)}, based on your own calendars, prices and policies`,
          'The hand-over to a person when a caller asks for one',
          'The transcript and summary your team receives after each call',
        ],
        closing: [
          'Pick a time that suits you on the booking page: a calendar invitation follows straight away.',
        ],
      };
    case 'customer_retention':
      return {
        ...base,
        subject: subjectFor(
          [
            (t) => `Getting more from ${t.ref}`,
            (t) => `{{firstName}}, a few ideas for ${t.ref}`,
            () => `Thank you, {{firstName}}: what's next`,
            (t) => `Three tips for ${t.ref}`,
          ],
          topic,
          `{{firstName}}, thank you for being with ${co}`,
          start,
        ),
        preheader: clipWords(`A few ways to get more from ${ref}, and a direct line to our team.`, 140),
        headline: pick([`Getting more from ${ref}`, 'Thank you for being with us', `What’s next for ${ref}`]),
        paragraphs: [
          `Thank you for working with ${co}. We want {{company|your team}} to get everything it can from ${ref}, so here are the things customers tell us make the biggest difference.`,
          `${promiseLine} If something is not working the way you expected, we want to hear it.`,
        ],
        highlight: offer,
        listTitle: 'Three things worth checking this month:',
        bullets: [
          `Read a few call transcripts: they show what your ${ind.callers} ask most`,
          `Hand over one more call type, such as ${t3}`,
          'Keep opening hours, prices and policies up to date, so every answer stays right',
        ],
        closing: [
          'Reply to this email or use the button above: a person from our team will get back to you.',
        ],
      };
    case 'feature_announcement':
      return {
        ...base,
        subject: subjectFor(
          [
            (t) => `New: ${t.label}`,
            (t) => `${capital(t.ref)} just landed`,
            (t) => `Now available: ${t.label}`,
            (t) => `{{firstName}}, meet ${t.ref}`,
          ],
          topic,
          `New in ${co}`,
          start,
        ),
        preheader: clipWords(`${Ref} is now available: what it does, and how to turn it on.`, 140),
        headline: pick([`New: ${Label}`, `${Ref} is now available`, `Meet ${ref}`]),
        paragraphs: [
          `${Ref} is now available. We built it with ${aud} in mind, and it makes ${t1} simpler for your team and your ${ind.callers}.`,
          `${promiseLine} There is nothing to install: it is ready for {{company|your team}} today.`,
        ],
        highlight: offer,
        listTitle: 'What it means for you:',
        bullets: [
          `Less time spent on ${t1}`,
          `${capital(t2)}, handled the same way every time`,
          'Every conversation recorded in a transcript and summary',
        ],
        closing: ['Try it yourself and tell us what you think: we read every reply.'],
      };
    case 'case_study':
      return {
        ...base,
        subject: subjectFor(
          [
            (t) => `Case study: ${t.label}`,
            (t) => `How ${aud} use ${t.ref}`,
            (t) => `${t.label}: a customer story`,
            (t) => `What ${t.ref} changed for one team`,
          ],
          topic,
          'A customer story worth reading',
          start,
        ),
        preheader: clipWords(
          `A customer story about ${ref}: the problem, what changed and what it took.`,
          140,
        ),
        headline: pick([
          `Case study: ${Label}`,
          `How one team put ${ref} to work`,
          `${Label}: a customer story`,
        ]),
        paragraphs: [
          `Like many ${aud}, this team had more calls than people to answer them. ${capital(t1)} and ${t2} took hours every week, and calls after hours went to voicemail.`,
          `They started small with ${ref}: one call type, handed over after hours first, with transcripts reviewed every day. Once the answers matched what their own staff would say, they extended it to business hours.`,
          `${promiseLine} Here is what changed:`,
        ],
        highlight: figure ? `The result: ${figure}` : offer,
        listTitle: null,
        bullets: [
          'Calls answered on the first ring, including evenings and weekends',
          `${capital(t3)}, handled without anyone picking up the phone`,
          'Staff time back for the conversations that need a person',
        ],
        closing: [
          'Curious what the same approach would look like for {{company|your business}}? Reply and we will walk you through it.',
        ],
      };
    case 'newsletter':
      return {
        ...base,
        subject: subjectFor(
          [
            (t) => `This month: ${t.label}`,
            (t) => `${t.label}, and more from ${co}`,
            (t) => `Your ${co} update: ${t.label}`,
            (t) => `{{firstName}}, this month: ${t.label}`,
          ],
          topic,
          `Your ${co} update`,
          start,
        ),
        preheader: clipWords(`In this issue: ${ref}, a practical tip and what is new at ${co}.`, 140),
        headline: pick([`This month: ${Label}`, `${Label}, and what’s new`, `The ${co} update`]),
        paragraphs: [
          `Welcome to this month's update. Our main story is ${ref}: what it means for ${aud} like {{company|yours}}, and how to make the most of it.`,
          `${promiseLine} As always, the blog has the full articles behind each point below.`,
        ],
        highlight: offer,
        listTitle: 'In this issue:',
        bullets: [
          `${Label}: what changes and why it matters`,
          `A practical tip: ${t1} without the back-and-forth`,
          'From the team: what we are working on next',
        ],
        closing: ['Have a topic you would like us to cover? Reply to this email: we read every suggestion.'],
      };
  }
}
