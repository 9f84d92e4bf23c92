/**
 * Reading the admin's prompt: the industry it names, the campaign's topic, any offer or
 * figure it states, and the casing and clipping helpers the copy shares.
 */

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

export const inSentence = (s: string): string =>
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
