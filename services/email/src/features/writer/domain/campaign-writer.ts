import {
  CAMPAIGN_GOAL_LABELS,
  type CampaignGoal,
  type CompanyContext,
  EMAIL_AI_LIMITS,
  SUBJECT_TIP_LENGTH,
} from '@parley/contracts';
import { escapeMarkup as esc } from '@parley/kit/markup';
import { GOAL_PALETTES } from '../../../shared/header-banner.ts';

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
 */

// ── the company ──────────────────────────────────────────────────────────────────

export interface Company {
  name: string;
  industry: string | null;
  audience: string | null;
  valueProposition: string | null;
  tone: string | null;
  website: string | null;
  address: string | null;
  keywords: string[];
  brandColor: string | null;
  /** Free text the admin wrote that fits no field. */
  notes: string | null;
}

const clean = (s: string | null | undefined, max: number = EMAIL_AI_LIMITS.companyField): string | null => {
  const v = (s ?? '').replace(/\s+/g, ' ').trim().slice(0, max);
  return v || null;
};

/** "Label: value" lines of free-text context, by the field they fill. */
const FREE_TEXT_FIELDS: Array<[RegExp, keyof CompanyContext]> = [
  [/^(company|company name|brand|brand name|business|name)$/i, 'companyName'],
  [/^(industry|sector|market|vertical)$/i, 'industry'],
  [/^(audience|target audience|customers|target|for)$/i, 'audience'],
  [/^(value proposition|value prop|tagline|promise|usp|offer)$/i, 'valueProposition'],
  [/^(tone|voice|brand voice|style)$/i, 'tone'],
  [/^(website|site|url|web)$/i, 'website'],
  [/^(address|postal address|location)$/i, 'address'],
  [/^(keywords|key words|topics)$/i, 'keywords'],
];

/**
 * The company as the writer uses it: the structured context, or free text (lines such as
 * "Industry: dental clinics" fill fields, anything else is kept as notes), completed with
 * the brand name and website of the settings.
 */
export function companyFrom(
  context: string | CompanyContext | null | undefined,
  defaults: { name: string; website: string | null },
): Company {
  let c: CompanyContext = {};
  let notes: string[] = [];
  if (typeof context === 'string') {
    for (const line of context.split(/\r?\n|;\s+/)) {
      const m = /^\s*([A-Za-z][A-Za-z ]{1,30}?)\s*[:=-]\s*(.+)$/.exec(line);
      const field = m ? FREE_TEXT_FIELDS.find(([re]) => re.test((m[1] ?? '').trim()))?.[1] : undefined;
      if (m && field === 'keywords') c.keywords = (m[2] ?? '').split(/[,;]/).map((k) => k.trim());
      else if (m && field) (c as Record<string, string>)[field] = (m[2] ?? '').trim();
      else if (line.trim()) notes.push(line.trim());
    }
  } else if (context) c = context;
  const color = c.brandColor && /^#[0-9a-f]{6}$/i.test(c.brandColor) ? c.brandColor.toLowerCase() : null;
  notes = notes.filter(Boolean);
  return {
    name: clean(c.companyName) ?? defaults.name,
    industry: clean(c.industry),
    audience: clean(c.audience),
    valueProposition: clean(c.valueProposition),
    tone: clean(c.tone),
    website: clean(c.website) ?? defaults.website,
    address: clean(c.address),
    keywords: (c.keywords ?? [])
      .map((k) => clean(k, 60))
      .filter((k): k is string => k !== null)
      .slice(0, EMAIL_AI_LIMITS.keywords),
    brandColor: color,
    notes: notes.length ? clean(notes.join(' '), EMAIL_AI_LIMITS.companyContext) : null,
  };
}

// ── reading the prompt ───────────────────────────────────────────────────────────

interface Industry {
  key: string;
  re: RegExp;
  /** Who the campaign is for, plural ("practices"). */
  audience: string;
  /** Who calls them. */
  callers: string;
  tasks: [string, string, string];
}

const INDUSTRIES: Industry[] = [
  {
    key: 'healthcare',
    re: /\b(health\w*|clinics?|patients?|medical|dental|dentists?|doctors?|hospitals?|pharmac\w+|therap\w+|physio\w*|veterinar\w+|vets?)\b/i,
    audience: 'practices',
    callers: 'patients',
    tasks: [
      'booking and moving appointments',
      'answering insurance and opening-hours questions',
      'reminder calls that cut no-shows',
    ],
  },
  {
    key: 'real estate',
    re: /\b(real estate|realtors?|propert(y|ies)|listings?|brokers?|brokerage|rentals?|tenants?|landlords?|estate agents?)\b/i,
    audience: 'agencies',
    callers: 'buyers, sellers and tenants',
    tasks: [
      'qualifying buyers before an agent calls back',
      'scheduling showings',
      'answering listing questions at any hour',
    ],
  },
  {
    key: 'legal',
    re: /\b(law|legal|lawyers?|attorneys?|law firms?|paralegals?|litigation|counsel)\b/i,
    audience: 'firms',
    callers: 'prospective and current clients',
    tasks: ['first-call intake', 'booking consultations', 'taking messages while attorneys are in court'],
  },
  {
    key: 'financial services',
    re: /\b(financ\w+|banks?|banking|insurance|insurers?|loans?|mortgages?|accounting|accountants?|wealth|advisors?|credit)\b/i,
    audience: 'firms',
    callers: 'customers and applicants',
    tasks: [
      'answering account and policy questions',
      'collecting application details',
      'booking meetings with advisors',
    ],
  },
  {
    key: 'hospitality',
    re: /\b(hotels?|restaurants?|hospitality|reservations?|guests?|travel|resorts?|catering|venues?)\b/i,
    audience: 'venues',
    callers: 'guests',
    tasks: [
      'taking and changing reservations',
      'answering questions about menus, rooms and amenities',
      'handling calls in the guest’s language',
    ],
  },
  {
    key: 'home services',
    re: /\b(plumb\w+|hvac|electricians?|roofing|roofers?|contractors?|landscap\w+|cleaning|home services?|repairs?|pest control)\b/i,
    audience: 'businesses',
    callers: 'customers',
    tasks: [
      'booking service visits',
      'quoting common jobs',
      'passing urgent calls to the on-call technician',
    ],
  },
];

const GENERAL: Industry = {
  key: 'general',
  re: /$^/,
  audience: 'teams',
  callers: 'customers',
  tasks: ['answering common questions', 'booking appointments', 'qualifying new leads'],
};

export function industryOf(...texts: Array<string | null>): Industry {
  const text = texts.filter(Boolean).join(' ');
  return INDUSTRIES.find((i) => i.re.test(text)) ?? GENERAL;
}

/** Words written in capitals whatever the prompt's typing. */
const ACRONYMS = new Map(
  [
    'AI',
    'API',
    'CRM',
    'FAQ',
    'HIPAA',
    'GDPR',
    'ROI',
    'SMS',
    'IVR',
    'KPI',
    'SaaS',
    'B2B',
    'B2C',
    'HVAC',
    'US',
    'UK',
  ].map((w) => [w.toLowerCase(), w]),
);
const SMALL = new Set('a an and as at by for from in into of on or the to with vs via per'.split(' '));

const fixedCase = (w: string): string | null =>
  ACRONYMS.get(w.toLowerCase().replace(/[^a-z0-9]/g, '')) !== undefined
    ? w.replace(/[A-Za-z0-9]+/, (x) => ACRONYMS.get(x.toLowerCase()) ?? x)
    : /[A-Z]/.test(w.slice(1))
      ? w
      : null;

/** "Sentence case": acronyms and words typed with inner capitals kept, the rest lower case. */
export const sentenceCase = (s: string): string =>
  s
    .split(' ')
    .map((w, i) => fixedCase(w) ?? (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1).toLowerCase() : w))
    .join(' ');

const inSentence = (s: string): string =>
  s
    .split(' ')
    .map((w, i) => fixedCase(w) ?? (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w))
    .join(' ');

export const titleCase = (s: string): string =>
  s
    .split(' ')
    .map((w, i) => {
      const fixed = fixedCase(w);
      if (fixed) return fixed;
      return i > 0 && SMALL.has(w.toLowerCase()) ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1);
    })
    .join(' ');

/** Cut at a word boundary to at most `max` characters (no ellipsis: subjects and names). */
export function clipWords(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = s.slice(0, max + 1);
  const cut = /\s/.test(head) ? head.replace(/\s+\S*$/, '') : s.slice(0, max);
  return cut.replace(/[\s,;:–—-]+$/, '');
}

/** An instruction's opening ("Write an email campaign about ..."), which is not the topic. */
const INSTRUCTION =
  /^(?:please\s+)?(?:(?:can|could) you\s+)?(?:write|create|draft|generate|make|compose|build|prepare|send|plan|design)\s+(?:me\s+|us\s+)?(?:an?\s+|the\s+|our\s+|some\s+)?(?:(?:short|quick|friendly|professional|catchy|compelling|engaging|new|monthly|weekly|promotional|marketing|b2b|cold|follow-up)\s+)*(?:e-?mail|mail|campaign|newsletter|message|announcement|blast|sequence|promo(?:tion)?)s?(?:\s+(?:campaign|newsletter|blast|sequence))?\s*(?:(?:that|which)\s+)?/i;
/** A label opening ("Monthly newsletter about ...", "Case study: ..."). */
const LABEL =
  /^(?:(?:our|a|an|the)\s+)?(?:(?:monthly|weekly|quarterly|short|quick|new|b2b|promotional)\s+)*(?:e-?mail|newsletter|campaign|announcement|update|case study|customer story|blast)(?:\s+(?:campaign|newsletter))?\s*(?::|[-–—]|about|on|for|regarding|covering)?\s+/i;
/** What the campaign is meant to do ("inviting", "to announce"), which is not the topic either. */
const PURPOSE =
  /^(?:about\s+|on\s+|regarding\s+)?(?:to\s+)?(?:invit\w*|announc\w*|introduc\w*|promot\w*|launch\w*|remind\w*|re-?engag\w*|encourag\w*|ask\w*|tell\w*|thank\w*|shar\w*|celebrat\w*|highlight\w*|showcas\w*|present\w*|get|getting|win back|bring back|follow up with|reach out to|welcome)\s+/i;
const AUDIENCE_NOUNS =
  'clinics|practices|firms|agencies|teams|businesses|owners|managers|customers|clients|companies|restaurants|hotels|offices|dentists|doctors|lawyers|attorneys|realtors|agents|brokers|contractors|plumbers|startups|retailers|shops|stores|schools|users|subscribers|leads|prospects|partners|members|patients|buyers|landlords|venues|providers|organi[sz]ations|professionals|founders|marketers|executives|operators';
const AUDIENCE_AT_START = new RegExp(`^((?:[\\w'-]+\\s+){0,3}?(?:${AUDIENCE_NOUNS}))\\b`, 'i');
const AUDIENCE_AFTER = new RegExp(
  `\\b(?:for|inviting|invite|targeting|aimed at|among)\\s+((?:(?!for\\b|to\\b|and\\b|our\\b)[\\w'-]+\\s+){0,3}?(?:${AUDIENCE_NOUNS}))\\b`,
  'i',
);
/** Where a topic ends: a clause that explains, instructs or dates it. */
const TOPIC_END =
  /\s*(?:[.;!?]|,\s|\s[–—-]\s|\s(?:so that|so|that|which|who|because|to|before|after|until|by|during|in time for|this|next|offering|and ask|and invite|and encourage|with a|including|mention\w*|highlight\w*|focus\w*|emphasi\w+|in a\s+\w+\s+tone)\s)/i;
/** Words that make a phrase the sender's own product ("our" reads right before it). */
const PRODUCT =
  /\b(?:agents?|receptionists?|assistants?|platform|app|feature|integrations?|tools?|dashboard|product|service|bots?|system|solution|plans?|release|version|API|add-on|module|line|widget|reminders?|calls?)$/i;

/** The campaign's subject matter, as the writer refers to it. */
export interface Topic {
  /** Without a determiner: "AI receptionist", "after-hours call coverage". */
  phrase: string;
  /** In a sentence: "our AI receptionist", "the scheduling integration", "after-hours call coverage". */
  ref: string;
  /** "our", "the" or "". */
  det: string;
  /** The audience the prompt names ("dental clinics"), or null. */
  audience: string | null;
}

const cutTopic = (s: string) => {
  const end = TOPIC_END.exec(s);
  return (end && end.index >= 3 ? s.slice(0, end.index) : s).trim();
};

/**
 * The campaign's topic, read from the prompt: the instruction, label and purpose openings
 * dropped ("Write an email inviting ..."), the audience taken apart ("dental clinics"), the
 * sender's own product preferred ("... a demo of our AI receptionist" gives "AI
 * receptionist"), cut at the first clause that explains, instructs or dates it, at most 40
 * characters.
 */
export function topicOf(prompt: string): Topic {
  const t = prompt.replace(/\s+/g, ' ').trim().replace(INSTRUCTION, '').replace(LABEL, '');
  const purposeless = t.replace(PURPOSE, '');
  const audience =
    (purposeless !== t ? AUDIENCE_AT_START.exec(purposeless)?.[1] : undefined) ??
    AUDIENCE_AFTER.exec(t)?.[1] ??
    null;
  let phrase: string;
  let det = '';
  const ours = /\b(?:our|my)\s+(?:(?:new|latest|upcoming|brand-new)\s+)?([^,.;!?]+)/i.exec(t);
  if (ours?.[1]) {
    phrase = cutTopic(ours[1]);
    det = 'our';
  } else {
    let rest = purposeless;
    if (audience && rest.toLowerCase().startsWith(audience.toLowerCase()))
      rest = rest
        .slice(audience.length)
        .replace(
          /^\s*(?:to\s+\w+\s+(?:(?:a|an|the)\s+)?(?:(?:demo|trial|look|call|meeting)\s+)?(?:of|at|about|with|on)?\s*)?/i,
          '',
        );
    const the = /^(?:who|that|which)\b.*\b(?:the|your)\s+([^,.;!?]+)$/i.exec(rest);
    if (the?.[1]) {
      phrase = cutTopic(the[1]);
      det = 'the';
    } else phrase = cutTopic(rest);
  }
  if (audience)
    phrase = phrase.replace(
      new RegExp(`\\s+(?:for|to)\\s+${audience.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i'),
      '',
    );
  const lead = /^(?:(a|an|the|new)\s+)+/i.exec(phrase);
  if (lead) {
    phrase = phrase.slice(lead[0].length);
    if (!det && /\bthe\b/i.test(lead[0])) det = 'the';
  }
  phrase = clipWords(phrase.replace(/["“”'‘’.!?,:;]+$/g, '').trim(), 40);
  if (!phrase) return { phrase: 'latest news', det: 'our', ref: 'our latest news', audience };
  if (!det && PRODUCT.test(phrase)) det = 'our';
  // As typed, unless the prompt began with it (then its capital was the sentence's).
  const atStart = t.toLowerCase().startsWith(phrase.toLowerCase());
  const inner = atStart ? inSentence(phrase) : phrase;
  return {
    phrase: inner,
    det,
    ref: det ? `${det} ${inner}` : inner,
    audience: audience ? audience.toLowerCase() : null,
  };
}

/** An offer the prompt states ("20% off the first three months", "a free trial until June 30"). */
export function offerOf(prompt: string): string | null {
  const m =
    /\b(\d{1,3}\s?% off\b[^.,;!?\n]*|(?:a\s+)?free\s+(?:trial|month|months|setup|set-up|consultation|audit|upgrade|onboarding)\b[^.,;!?\n]*|\$\d[\d,]*(?:\.\d\d)?\s+off\b[^.,;!?\n]*)/i.exec(
      prompt,
    );
  if (!m?.[1]) return null;
  const offer = clipWords(
    m[1]
      .replace(/\s+/g, ' ')
      .replace(/[\s,]+(?:and|to|so)$/i, '')
      .trim(),
    120,
  );
  return offer.charAt(0).toUpperCase() + offer.slice(1);
}

/** A result with a figure the prompt states ("cut no-shows by 32%"), for case studies. */
export function figureOf(prompt: string): string | null {
  for (const sentence of prompt.split(/(?<=[.;!?])\s+|\n/)) {
    const m =
      /[^.;!?\n]*\b\d[\d,.]*\s?(?:%|x\b|percent\b|times\b|hours?\b|calls\b|appointments\b|bookings\b|leads\b|customers\b|clients\b|patients\b|minutes\b)[^.;!?\n]*/i.exec(
        sentence,
      );
    if (m) {
      const text = m[0]
        .trim()
        .replace(INSTRUCTION, '')
        .replace(LABEL, '')
        .replace(
          /^(?:\s*(?:and|about|how|showing|that|where|with|featuring|highlighting|mention(?:ing)?)\s+)+/i,
          '',
        )
        .trim();
      if (text.length >= 8 && !/%\s*off\b/i.test(text)) return clipWords(text, 140);
    }
  }
  return null;
}

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

// ── rendering ────────────────────────────────────────────────────────────────────

export interface RenderOptions {
  company: Company;
  goal: CampaignGoal;
  /** An absolute PNG/JPEG URL for the header image, or null for a coloured band with the name. */
  headerImageUrl: string | null;
}

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const DARK_TEXT = '#111827';

/** The text colour with the higher contrast on the colour: white or near-black. */
export function textOn(hex: string): string {
  const l = luminance(hex);
  const white = 1.05 / (l + 0.05);
  const dark = (l + 0.05) / (luminance(DARK_TEXT) + 0.05);
  return white >= dark ? '#ffffff' : DARK_TEXT;
}

const FONT = 'Arial, Helvetica, sans-serif';
const P = `margin:0 0 16px;font-family:${FONT};font-size:16px;line-height:24px;color:#1f2937;`;
const hostOf = (url: string) => {
  try {
    return new URL(/^https?:\/\//i.test(url) ? url : `https://${url}`).host;
  } catch {
    return url;
  }
};
const linkOf = (url: string) => (/^https?:\/\//i.test(url) ? url : `https://${url}`);

/** Responsive e-mail HTML and the matching text part of a campaign's copy. */
export function renderCampaign(copy: CampaignCopy, opts: RenderOptions): { html: string; text: string } {
  const { company, goal } = opts;
  const accent = company.brandColor ?? GOAL_PALETTES[goal].accent;
  const onAccent = textOn(accent);
  const co = esc(company.name);
  const para = (s: string) => `<p style="${P}">${esc(s)}</p>`;
  const header = opts.headerImageUrl
    ? `<tr><td style="padding:16px 32px;font-family:${FONT};font-size:15px;font-weight:bold;color:#111827;" class="px">${co}</td></tr>
<tr><td style="padding:0;"><img src="${esc(opts.headerImageUrl)}" width="600" alt="" style="display:block;width:100%;max-width:600px;height:auto;border:0;outline:none;text-decoration:none;"></td></tr>`
    : `<tr><td bgcolor="${accent}" class="px" style="background-color:${accent};padding:20px 32px;font-family:${FONT};font-size:18px;font-weight:bold;color:${onAccent};">${co}</td></tr>`;
  const highlight = copy.highlight
    ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;"><tr><td style="border-left:4px solid ${accent};background-color:#f3f4f6;padding:12px 16px;font-family:${FONT};font-size:16px;line-height:24px;font-weight:bold;color:#111827;">${esc(copy.highlight)}</td></tr></table>`
    : '';
  const list = copy.bullets.length
    ? `${copy.listTitle ? `<p style="margin:0 0 8px;font-family:${FONT};font-size:16px;line-height:24px;font-weight:bold;color:#111827;">${esc(copy.listTitle)}</p>` : ''}<ul style="margin:0 0 16px;padding:0 0 0 22px;font-family:${FONT};font-size:16px;line-height:24px;color:#1f2937;">${copy.bullets.map((b) => `<li style="margin:0 0 6px;">${esc(b)}</li>`).join('')}</ul>`
    : '';
  const button = `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;"><tr><td align="center" bgcolor="${accent}" style="border-radius:6px;background-color:${accent};"><a href="${esc(copy.cta.url)}" target="_blank" style="display:inline-block;padding:14px 28px;font-family:${FONT};font-size:16px;font-weight:bold;line-height:20px;color:${onAccent};text-decoration:none;border-radius:6px;">${esc(copy.cta.label)}</a></td></tr></table>`;
  const [lead, team] = copy.signOff.split('\n');
  const footerLines = [
    [co, company.address ? esc(company.address) : null].filter(Boolean).join(' · '),
    `You are receiving this email because you are in touch with ${co}.`,
    `<a href="{{unsubscribeUrl}}" data-no-track style="color:#6b7280;text-decoration:underline;">Unsubscribe</a>${company.website ? ` · <a href="${esc(linkOf(company.website))}" style="color:#6b7280;text-decoration:underline;">${esc(hostOf(company.website))}</a>` : ''}`,
  ];
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<title>${esc(copy.subject)}</title>
<style>
@media only screen and (max-width:620px){.container{width:100% !important;}.px{padding-left:20px !important;padding-right:20px !important;}.h1{font-size:24px !important;line-height:30px !important;}}
</style>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;">
<div class="parley-preheader" style="display:none;max-height:0;overflow:hidden;mso-hide:all;font-size:1px;line-height:1px;color:#f3f4f6;opacity:0;">${esc(copy.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#f3f4f6" style="background-color:#f3f4f6;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" class="container" width="600" cellpadding="0" cellspacing="0" border="0" bgcolor="#ffffff" style="width:600px;max-width:600px;background-color:#ffffff;border-radius:8px;">
${header}
<tr><td class="px" style="padding:32px;font-family:${FONT};font-size:16px;line-height:24px;color:#1f2937;">
<h1 class="h1" style="margin:0 0 20px;font-family:${FONT};font-size:28px;line-height:34px;font-weight:bold;color:#111827;">${esc(copy.headline)}</h1>
${para(copy.greeting)}
${copy.paragraphs.map(para).join('\n')}
${highlight}
${list}
${button}
${copy.closing.map(para).join('\n')}
<p style="margin:24px 0 0;font-family:${FONT};font-size:16px;line-height:24px;color:#1f2937;">${esc(lead ?? '')}<br>${esc(team ?? '')}</p>
</td></tr>
<tr><td class="px" align="center" style="padding:20px 32px;background-color:#f9fafb;border-top:1px solid #e5e7eb;font-family:${FONT};font-size:12px;line-height:18px;color:#6b7280;text-align:center;">${footerLines.join('<br>')}</td></tr>
</table>
</td></tr></table>
</body>
</html>`;

  const text = [
    copy.headline,
    '',
    copy.greeting,
    '',
    ...copy.paragraphs.flatMap((p) => [p, '']),
    ...(copy.highlight ? [copy.highlight, ''] : []),
    ...(copy.bullets.length
      ? [...(copy.listTitle ? [copy.listTitle] : []), ...copy.bullets.map((b) => `- ${b}`), '']
      : []),
    `${copy.cta.label}: ${copy.cta.url}`,
    '',
    ...copy.closing.flatMap((p) => [p, '']),
    copy.signOff,
    '',
    '--',
    [company.name, company.address].filter(Boolean).join(' · '),
    ...(company.website ? [linkOf(company.website)] : []),
    'Unsubscribe: {{unsubscribeUrl}}',
  ].join('\n');
  return { html, text: `${text}\n` };
}
