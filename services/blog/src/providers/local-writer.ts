import { BLOG_LIMITS } from '@parley/contracts';
import type { Article } from './types.ts';

/**
 * The local writer: builds a structured article (introduction, five sections, a rollout
 * plan, measures, pitfalls, conclusion) from the topic, with industry-specific detail
 * when the topic names an industry, and wording varied by topic. No network, no model:
 * honest template-driven writing, labelled `provider: "local"` by the service.
 *
 * The topic is read first (readTopic): the request around it dropped, its case and a/an
 * fixed, and its grammatical form found, so that each form gets titles and sentences it fits
 * (a question keeps its question mark, "how to …" is never wrapped in "Getting … Right"), and
 * an audience the topic already names is not added again. test/local-writer-grammar.test.ts
 * holds the corpus of topics and the checks every title, excerpt and heading must pass.
 */

/** Lengths of the generated copy: whole words and sentences, never clipped with "…". */
const TITLE_MAX = 100;
const META_TITLE_MAX = 60;
const EXCERPT_MAX = 300;
const META_DESCRIPTION_MAX = 155;

interface Industry {
  name: string;
  tag: string;
  /** Words that name the industry; the one with most distinct hits wins, ties by order. */
  keywords: RegExp;
  /** Who the post is for, when the topic names no audience itself ("for law firms"). */
  audience: string;
  /** Where the work happens, after "In": "In healthcare", "In most small businesses". */
  field: string;
  /** Who to ask about the phones. */
  manager: string;
  callers: string;
  tasks: string[];
  rules: string;
  metric: string;
}

const INDUSTRIES: Industry[] = [
  {
    name: 'healthcare',
    tag: 'Healthcare',
    keywords:
      /\b(health|healthcare|clinics?|patients?|medical|dental|dentists?|doctors?|physicians?|nurses?|hospitals?|pharmacy|pharmacies|therapy|therapists?|hipaa)\b/gi,
    audience: 'healthcare teams',
    field: 'healthcare',
    manager: 'practice manager',
    callers: 'patients',
    tasks: [
      'booking and moving appointments',
      'answering questions about opening hours and insurance',
      'sending reminders that cut no-shows',
      'routing urgent symptoms to a nurse line',
    ],
    rules:
      'patient privacy rules such as HIPAA, which limit what may be said on a call and how recordings are stored',
    metric: 'no-show rate',
  },
  {
    name: 'real estate',
    tag: 'Real Estate',
    keywords:
      /\b(real estate|realtors?|realty|property|properties|listings?|brokers?|brokerages?|rentals?|tenants?|landlords?|home buyers?|showings?)\b/gi,
    audience: 'real estate teams',
    field: 'real estate',
    manager: 'brokerage manager',
    callers: 'buyers, sellers and tenants',
    tasks: [
      'qualifying buyers before an agent calls back',
      'scheduling showings',
      'answering questions about a listing at any hour',
      'logging maintenance requests from tenants',
    ],
    rules: 'fair-housing rules, which require every caller to get the same answers',
    metric: 'showings booked per lead',
  },
  {
    name: 'legal',
    tag: 'Legal',
    keywords:
      /\b(law|legal|lawyers?|attorneys?|paralegals?|intake|litigation|counsel|personal injury|court)\b/gi,
    audience: 'law firms',
    field: 'legal practice',
    manager: 'law firm manager',
    callers: 'prospective and current clients',
    tasks: [
      'running first-call intake',
      'checking which practice area a matter belongs to',
      'booking consultations',
      'taking messages for attorneys in court',
    ],
    rules:
      'confidentiality and conflict-check duties, which decide what an agent may collect before a lawyer reviews the matter',
    metric: 'consultations booked from new enquiries',
  },
  {
    name: 'financial services',
    tag: 'Finance',
    keywords:
      /\b(finance|financial|banks?|banking|insurance|insurers?|loans?|lenders?|mortgages?|accounting|accountants?|wealth|advisors?|credit|claims?|policyholders?|tax)\b/gi,
    audience: 'financial services teams',
    field: 'financial services',
    manager: 'branch manager',
    callers: 'customers and applicants',
    tasks: [
      'answering account and policy questions',
      'collecting application details',
      'booking meetings with advisors',
      'explaining claim steps',
    ],
    rules:
      'identity verification and record-keeping requirements, which shape how a caller is authenticated and what gets logged',
    metric: 'first-call resolution',
  },
  {
    name: 'hospitality',
    tag: 'Hospitality',
    keywords:
      /\b(hotels?|restaurants?|hospitality|reservations?|booking desk|guests?|travel|resorts?|catering|venues?|dinner)\b/gi,
    audience: 'hospitality teams',
    field: 'hospitality',
    manager: 'front-of-house manager',
    callers: 'guests',
    tasks: [
      'taking and changing reservations',
      'answering questions about menus, rooms and amenities',
      'handling calls in the guest’s language',
      'upselling upgrades and special requests',
    ],
    rules: 'payment-card rules, which keep card numbers out of transcripts',
    metric: 'reservations captured during peak hours',
  },
];

const GENERAL: Industry = {
  name: 'small business',
  tag: 'Small Business',
  keywords: /$^/g,
  audience: 'small businesses',
  field: 'most small businesses',
  manager: 'small business owner',
  callers: 'customers',
  tasks: [
    'answering common questions',
    'booking appointments',
    'qualifying new leads',
    'taking detailed messages',
  ],
  rules: 'consumer-protection and call-recording consent rules',
  metric: 'calls answered on the first ring',
};

/** Deterministic variety: the same topic always gives the same article, topics differ. */
function seeded(topic: string) {
  let h = 2166136261;
  for (const ch of topic.toLowerCase()) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return <T>(list: readonly T[], salt = 0): T => list[Math.abs(h + salt * 2654435761) % list.length] as T;
}

/**
 * Words an editor writes in capitals whatever the topic's typing: AI, CRM, FAQ, HIPAA...
 * ("it" and "us" are left out: typed in lower case they are the pronouns, as in "worth it").
 */
const ACRONYMS: Record<string, string> = Object.fromEntries(
  [
    'AI',
    'API',
    'CRM',
    'ERP',
    'FAQ',
    'FAQs',
    'HIPAA',
    'GDPR',
    'HVAC',
    'ROI',
    'SMS',
    'IVR',
    'KPI',
    'KPIs',
    'SEO',
    'SaaS',
    'B2B',
    'B2C',
    'HR',
    'AI-powered',
    'UK',
  ].map((w) => [w.toLowerCase(), w]),
);

/** Names that keep their capital mid-sentence: languages, days, months. */
const PROPER = new Set(
  `English Spanish French German Italian Portuguese Chinese Mandarin Cantonese Vietnamese Korean
  Japanese Arabic Russian Hindi Monday Tuesday Wednesday Thursday Friday Saturday Sunday January
  February March April May June July August September October November December Christmas`.split(/\s+/),
);

/** Words a title keeps in lower case unless they open it or follow a colon or question mark. */
const TITLE_SMALL = new Set(
  'a an the and but or nor as at by for from in into of off on onto per to via vs with'.split(' '),
);

/** Auxiliaries: a topic that opens with one (or a wh-word and one) is a question. */
const AUX = new Set(
  'is are was were can could do does did should will would has have may might must am'.split(' '),
);
const WH = new Set('how why what when where which who whom whose'.split(' '));
const QUANTITY = new Set('much many long often well far soon'.split(' '));
/** Verbs a headline opens with in the imperative: "Stop losing leads to voicemail". */
const IMPERATIVE = new Set(
  `stop start reduce cut boost increase improve automate turn make get never avoid let build choose
  keep grow win save double capture convert end fix prevent use answer book`.split(/\s+/),
);
/** Words ending in -ing that are not verbs. */
const NOT_GERUND = new Set(
  'thing something nothing anything everything spring string morning evening ceiling'.split(' '),
);
/** Number words a list headline opens with: "Five ways to …". */
const NUMBER_WORDS = new Set('three four five six seven eight nine ten twelve'.split(' '));
/** Where a long topic may be cut: before these words, or after a comma. */
const CUT_BEFORE = new Set(
  `with without before after when while so because by through using via and or that who which
  during over for in at on to from into across if but`.split(/\s+/),
);
/** Words a shortened topic may not end on. */
const DANGLING = new Set(
  `a an the and or but of to for with in on at by from into via vs your our their my its his her
  is are was were can could should will would do does did has have more most very who which that
  this these those as if so than`.split(/\s+/),
);
/** Nouns that name an audience a topic may already address ("why every salon needs …"). */
const AUDIENCE_WORDS =
  /\b(businesses|business owners|companies|startups|contractors|plumbers|electricians|salons?|spas?|shops|stores|retailers|agencies|teams|owners|offices|franchises|dealerships|garages|gyms)\b/i;

/** "a" or "an" before a word, by its sound (an AI, a CRM, an SMS, an hour, a user). */
function articleFor(word: string): 'a' | 'an' {
  const acronym = ACRONYMS[word.toLowerCase()];
  if (acronym && acronym === word) {
    if (acronym === 'HIPAA' || acronym === 'SaaS') return 'a';
    return /^[AEFHILMNORSX]/.test(acronym) ? 'an' : 'a';
  }
  const w = word.toLowerCase();
  if (/^\d/.test(w)) return /^(8|11|18|80)/.test(w) ? 'an' : 'a';
  if (/^(hour|honest|honou?r|heir)/.test(w)) return 'an';
  if (/^(uni(?!n)|unan|use|usu|uti|ure|uro|eu|ewe|one\b|one-|once|ubiq)/.test(w)) return 'a';
  return /^[aeiou]/.test(w) ? 'an' : 'a';
}

type Form =
  /** A noun or gerund phrase: "AI receptionists for dental clinics", "Handling reservations". */
  | 'phrase'
  /** A list headline: "5 ways AI receptionists save money". */
  | 'list'
  /** "How to …" */
  | 'howto'
  /** A direct question: "Can AI receptionists help dental clinics?" */
  | 'question'
  /** A wh-clause headline: "Why every salon needs an AI receptionist". */
  | 'wh'
  /** An imperative headline: "Stop losing leads to voicemail". */
  | 'imperative'
  /** A statement: "Missed calls are costing you customers". */
  | 'statement';

/** A topic read as an editor would: its words as they stand in a sentence, and its form. */
interface Topic {
  form: Form;
  /** The words, acronyms and names in capitals, everything else in lower case as typed. */
  words: string[];
}

/** A request wrapped around the topic: "Write an article about …", "Blog post: …". */
const REQUESTS = [
  /^(please\s+)?(write|create|generate|draft|give me|make)\s+(me\s+|us\s+)?((a|an|the|one)\s+)?((short|long|quick|detailed|new)\s+)?(blog\s+)?(post|article|piece|blog|guide)\s+(about|on|explaining|covering)\s+/i,
  /^(i|we)\s+(want|need|would like)\s+((a|an)\s+)?(blog\s+)?(post|article)\s+(about|on|explaining|covering)\s+/i,
  /^((a|an)\s+)?((short|detailed)\s+)?(blog\s+)?(post|article)\s+(about|on|explaining|covering)\s+/i,
  /^(blog post|article|topic)\s*[:\-–—]\s*/i,
  // "A guide to AI receptionists": the writer adds its own "guide".
  /^((a|an|the|our)\s+)?((complete|ultimate|practical|quick|short|simple|beginner['’]?s)\s+)?(guide|introduction|intro|primer)\s+(to|on)\s+/i,
];

/** A word as it stands mid-sentence: acronyms and names in capitals, inner capitals kept. */
function inSentence(word: string): string {
  const acronym = ACRONYMS[word.toLowerCase()];
  if (acronym) return acronym;
  if (/[A-Z]/.test(word.slice(1)) && /[a-z]/.test(word)) return word; // HubSpot, iPhone
  const head = word.split(/[-’']/)[0] as string;
  if (PROPER.has(head.charAt(0).toUpperCase() + head.slice(1).toLowerCase())) {
    return word.charAt(0).toUpperCase() + word.slice(1);
  }
  return word;
}

/** Reads what the admin typed: drops the request around it, fixes case, a/an, and finds the form. */
function readTopic(raw: string): Topic {
  let text = raw.trim().replace(/\s+/g, ' ').slice(0, BLOG_LIMITS.topic);
  for (let again = true; again; ) {
    again = false;
    for (const re of REQUESTS) {
      const next = text.replace(re, '');
      if (next !== text && next.trim()) {
        text = next;
        again = true;
      }
    }
  }
  text = text.replace(/^[-–—•*"“'‘\s]+/, '').replace(/["”'’\s]+$/, '');
  const asked = /[A-Za-z0-9][^A-Za-z0-9]*\?[\s?!.]*$/.test(text);
  text = text
    .replace(/[\s.?!…,;:\-–—]+$/, '')
    .replace(/\bvs\.(?=\s)/gi, 'vs')
    .replace(/\s+([,;:])/g, '$1');
  // Nothing but punctuation ("?!"): write about the product rather than about nothing.
  let words = text.split(' ').filter(Boolean);
  if (!/[A-Za-z0-9]/.test(text)) words = ['AI', 'voice', 'agents'];
  const letters = text.replace(/[^A-Za-z]/g, '');
  const isAcronym = (w: string) => ACRONYMS[w.replace(/[^A-Za-z0-9-]/g, '').toLowerCase()] !== undefined;
  // Shouted ("MISSED CALLS ARE COSTING YOU CUSTOMERS") or Title Cased ("Hotel Front Desk
  // Automation"): back to lower case, so that the topic can stand inside a sentence.
  const shouted = letters.length > 3 && letters === letters.toUpperCase() && words.some((w) => !isAcronym(w));
  const plain = words.filter(
    (w) => /^[A-Za-z]/.test(w) && !isAcronym(w) && !TITLE_SMALL.has(w.toLowerCase()),
  );
  const titled = plain.length >= 2 && plain.every((w) => /^[A-Z][a-z]/.test(w) || /^[A-Z]$/.test(w));
  if (shouted || titled) words = words.map((w) => (isAcronym(w) ? w : w.toLowerCase()));
  words = words.map((w, i) => {
    const fixed = inSentence(w);
    if (fixed !== w) return fixed;
    // The first word's capital only began the topic: "Handling …" → "handling …".
    return i === 0 && /^[A-Z][a-z]*$/.test(w) ? w.toLowerCase() : w;
  });
  // "a AI receptionist" → "an AI receptionist", "an clinic" → "a clinic".
  words = words.map((w, i) => {
    const next = words[i + 1];
    if (!next || !/^an?$/i.test(w)) return w;
    const right = articleFor(next.replace(/^[^A-Za-z0-9]+/, ''));
    return w.charAt(0) === 'A' ? right.charAt(0).toUpperCase() + right.slice(1) : right;
  });
  const lower = words.map((w) => w.toLowerCase().replace(/[^a-z0-9'’-]/g, ''));
  const [w0 = '', w1 = ''] = lower;
  let form: Form = 'phrase';
  if (w0 === 'how' && w1 === 'to') form = 'howto';
  else if (
    asked ||
    AUX.has(w0) ||
    (WH.has(w0) && AUX.has(w1)) ||
    // "How much does …", "how many calls do clinics miss"
    (WH.has(w0) && QUANTITY.has(w1) && lower.slice(2, 5).some((w) => AUX.has(w)))
  ) {
    form = 'question';
  } else if (WH.has(w0)) form = 'wh';
  else if (
    (/^\d+$/.test(w0) || NUMBER_WORDS.has(w0) || (w0 === 'top' && /^\d+$/.test(w1))) &&
    words.length > 2
  ) {
    form = 'list';
  } else if (IMPERATIVE.has(w0) && words.length > 1 && !/^(cases?|rates?|times?|to)$/.test(w1))
    form = 'imperative';
  else if (/^[a-z]{3,}ing$/.test(w0) && !NOT_GERUND.has(w0)) form = 'phrase';
  else {
    // A statement has a verb of its own: an auxiliary not inside a relative clause.
    const verb = lower.findIndex((w, i) => i > 0 && AUX.has(w));
    const relative = lower.findIndex((w) => /^(that|who|which|when|where|while|if|because)$/.test(w));
    if (verb > 0 && (relative < 0 || relative > verb)) form = 'statement';
  }
  return { form, words };
}

/** Title Case: every word capitalised but small words inside; acronyms and names kept. */
function titleCase(words: readonly string[]): string {
  let segmentStart = true;
  return words
    .map((w) => {
      const opens = segmentStart;
      segmentStart = /[:?]$/.test(w);
      return w
        .split(/(?<=[-/])/)
        .map((part, j) => {
          const bare = part.replace(/[-/:?,;]+$/, '');
          const tail = part.slice(bare.length);
          if (ACRONYMS[bare.toLowerCase()] || (/[A-Z]/.test(bare.slice(1)) && /[a-z]/.test(bare))) {
            return inSentence(bare) + tail;
          }
          if (!(opens && j === 0) && TITLE_SMALL.has(bare.toLowerCase())) return bare.toLowerCase() + tail;
          return bare.charAt(0).toUpperCase() + bare.slice(1) + tail;
        })
        .join('');
    })
    .join(' ');
}

/** The words as they open a sentence (or a quotation): the first letter in capitals. */
const sentenceStart = (words: readonly string[]) => {
  const s = words.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
};

/**
 * A long topic cut to at most `max` characters where a phrase ends (before "with", "and",
 * "before"…, or after a comma), never on a word that leaves it hanging ("for", "the", "your").
 */
function shorten(words: readonly string[], max: number): string[] {
  if (words.join(' ').length <= max) return [...words];
  let best: string[] | null = null;
  let fallback: string[] | null = null;
  for (let n = 1; n < words.length; n++) {
    const head = words.slice(0, n).map((w, i) => (i === n - 1 ? w.replace(/[,;:]$/, '') : w));
    if (head.join(' ').length > max) break;
    const last = (head[n - 1] as string).toLowerCase();
    if (DANGLING.has(last)) continue;
    fallback = head;
    const next = (words[n] as string).toLowerCase();
    if (n >= 2 && (CUT_BEFORE.has(next) || /[,;:]$/.test(words[n - 1] as string))) best = head;
  }
  return best ?? fallback ?? [...words.slice(0, 1)];
}

/** Content words of a text (four letters or more), to keep added wording from repeating it. */
const contentWords = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9'’-]+/)
      .filter((w) => w.length >= 4 && !DANGLING.has(w) && !CUT_BEFORE.has(w)),
  );
const shares = (a: string, b: string) => {
  const words = contentWords(b);
  return [...contentWords(a)].some((w) => words.has(w));
};
/** Pairs of neighbouring words a text shares with another ("voice agents"). */
const sharesPair = (a: string, b: string) => {
  const pairs = (t: string) => {
    const w = t
      .toLowerCase()
      .split(/[^a-z0-9'’-]+/)
      .filter(Boolean);
    return new Set(w.slice(1).map((x, i) => `${w[i]} ${x}`));
  };
  const pb = pairs(b);
  return [...pairs(a)].some((p) => pb.has(p));
};

/** Industry named by the topic: the one with most distinct keyword hits, ties by order. */
function industryOf(topic: string): Industry {
  let best = GENERAL;
  let score = 0;
  for (const industry of INDUSTRIES) {
    const hits = new Set([...topic.matchAll(industry.keywords)].map((m) => m[0].toLowerCase())).size;
    if (hits > score) {
      best = industry;
      score = hits;
    }
  }
  return best;
}

/**
 * Tags an editor would file the post under: the topic's themes from a fixed vocabulary,
 * never a stray word of the topic (such as 'Cut').
 */
const THEMES: Array<[RegExp, string]> = [
  [/\b(appointments?|bookings?|schedul\w*|calendars?|showings?)\b/i, 'Appointment Scheduling'],
  [/\b(after[- ]hours|24\/7|overnight|nights?|weekends?|holidays?)\b/i, 'After-Hours Coverage'],
  [/\b(miss(?:ed|es)? calls?|voicemail|hold times?|wait times?|call volume|busy lines?)\b/i, 'Missed Calls'],
  [/\b(leads?|qualif\w*|sales|prospects?|conversions?)\b/i, 'Lead Qualification'],
  [/\b(intake|screening|triage)\b/i, 'Client Intake'],
  [/\b(costs?|sav(?:e|es|ing|ings)|roi|budgets?|spend\w*|cheaper|margins?)\b/i, 'Cost Savings'],
  [/\b(customer (?:service|experience|support)|support|satisfaction)\b/i, 'Customer Experience'],
  [/\b(complian\w*|hipaa|gdpr|privacy|consent|regulat\w*)\b/i, 'Compliance'],
  [/\b(no[- ]shows?|reminders?|follow[- ]ups?)\b/i, 'Reminders'],
  [/\b(receptionists?|front desk|answering services?)\b/i, 'Virtual Receptionist'],
  [/\b(staff\w*|burnout|hiring|workloads?)\b/i, 'Staffing'],
  [/\b(multilingual|languages?|spanish|bilingual)\b/i, 'Multilingual Support'],
  [/\b(crm|integrat\w*|api)\b/i, 'Integrations'],
];

const themes = (topic: string): string[] => THEMES.filter(([re]) => re.test(topic)).map(([, tag]) => tag);

/** Two "for"s in one clause ("for dental clinics for healthcare teams") read as a stutter. */
const stutters = (text: string) => text.split(/[:?,;.]/).some((c) => (c.match(/\bfor\b/gi) ?? []).length > 1);

export function writeLocalArticle(rawTopic: string): Article {
  const topic = readTopic(rawTopic);
  const { form, words } = topic;
  const plain = words.join(' ');
  const pick = seeded(plain);
  const industry = industryOf(plain);
  // A topic that names its industry or audience gets no second one ("… for law firms").
  const named = industry !== GENERAL || AUDIENCE_WORDS.test(plain);
  const { audience, callers } = industry;
  const Audience = titleCase(audience.split(' '));
  const asked = form === 'question';

  // The title: the topic in Title Case, with a subtitle that fits its form.
  const headline = (w: readonly string[]) => titleCase(w) + (asked ? '?' : '');
  const base = headline(words);
  const forAudience = named ? '' : ` for ${Audience}`;
  const options: Record<Form, string[]> = {
    phrase: [
      `${base}: A Practical Guide${forAudience}`,
      `${base}: What Works, What to Avoid, and Where to Start`,
      `A Practical Guide to ${base}${forAudience}`,
      `${base}: Where Voice Agents Help and How to Start`,
    ],
    list: [base],
    howto: [
      `${base}: A Practical Guide${forAudience}`,
      `${base}: What Works, What to Avoid, and Where to Start`,
      `${base}: A Step-by-Step Plan${forAudience}`,
    ],
    question: [
      `${base} A Practical Answer${forAudience}`,
      named ? `${base} What to Know Before You Start` : `${base} What ${Audience} Should Know`,
      `${base} The Short Answer and the Details`,
    ],
    wh: [
      `${base}: A Practical Guide${forAudience}`,
      `${base}: What Works, What to Avoid, and Where to Start`,
    ],
    imperative: [`${base}: A Practical Guide${forAudience}`, `${base}: Where to Start`],
    statement: [`${base}: What to Do About It`, `${base}: A Practical Guide${forAudience}`],
  };
  const fitting = (base.includes(':') ? [base] : options[form]).filter(
    (t) => t.length <= TITLE_MAX && !stutters(t) && (t === base || !shares(t.replace(base, ''), base)),
  );
  const title = fitting.length > 0 ? pick(fitting) : headline(shorten(words, TITLE_MAX - 1));
  const metaTitle =
    title.length <= META_TITLE_MAX
      ? title
      : base.length <= META_TITLE_MAX
        ? base
        : headline(shorten(words, META_TITLE_MAX - 1));

  // The excerpt: one sentence on the topic, one on what the article covers.
  const doc = pick(['guide', 'article'], 1);
  /** What the article is about, as the object of a sentence ("how to …", "why …"). */
  const about = (w: readonly string[]): string => {
    // A headline with its own subtitle ("AI receptionists: a buyer's guide"): its head.
    const colon = w.findIndex((x) => x.endsWith(':'));
    const head =
      colon > 0 && !asked
        ? w
            .slice(0, colon + 1)
            .join(' ')
            .replace(/:$/, '')
        : w.join(' ');
    if (form === 'imperative') return `how to ${head}`;
    if (form === 'statement') return `why ${head}`;
    if (form === 'list' && /^top\b/i.test(head)) return `the ${head}`;
    return head;
  };
  const verb = {
    phrase: pick(['covers', 'looks at'], 2),
    list: 'sets out',
    howto: pick(['explains', 'shows'], 2),
    wh: pick(['explains', 'shows'], 2),
    imperative: pick(['explains', 'shows'], 2),
    statement: 'explains',
  };
  const firstSentence = (w: readonly string[]): string =>
    form === 'question'
      ? pick(
          [
            `This ${doc} works through the question “${sentenceStart(w)}?” step by step.`,
            `This ${doc} takes up the question “${sentenceStart(w)}?” and answers it.`,
          ],
          2,
        )
      : `This ${doc} ${verb[form]} ${about(w)}.`;
  // What the article covers, with a verb the first sentence did not use, and no pair of
  // words the topic already has ("AI voice agents for restaurants" … "where voice agents").
  const first = firstSentence(words);
  const covers = (
    [
      ['shows', 'where voice agents help most, how to roll them out, and how to measure the results'],
      [
        'explains',
        'which calls to hand over first, how to roll out a voice agent, and which numbers to watch',
      ],
      [
        'sets out',
        'the first calls to hand over, a rollout plan that works, and the measures that show whether it pays off',
      ],
    ] as const
  )
    .filter(([v, what]) => !first.includes(` ${v} `) && !sharesPair(what, plain))
    .map(([v, what]) => `${named ? 'It' : `Written for ${audience}, it`} ${v} ${what}.`);
  const second = covers.length > 0 ? pick(covers, 3) : '';
  /** The excerpt in at most `max` characters: both sentences, the first alone, or a shorter topic. */
  const summary = (max: number) => {
    if (second && first.length + 1 + second.length <= max) return `${first} ${second}`;
    if (first.length <= max) return first;
    const frame = firstSentence([]).length;
    return firstSentence(shorten(words, max - frame - 2));
  };
  const excerpt = summary(EXCERPT_MAX);

  const intro = asked
    ? `This article takes up a question many ${audience} ask: “${sentenceStart(words)}?”`
    : `This article is about ${about(words)}.`;
  const [taskA, taskB, taskC, taskD] = industry.tasks as [string, string, string, string];
  const opener = pick([
    `Every missed call is a missed chance. For ${audience}, the phone still decides whether ${callers} reach someone when they need to. ${intro}`,
    `Ask any ${industry.manager} where the time goes, and the phone comes up first. ${intro}`,
    `${intro} It sounds like a technology topic, but it is really about ${callers}: how quickly they get an answer, and whether that answer is right.`,
  ]);

  const sections: Array<[string, string[]]> = [
    [
      'Why it matters now',
      [
        `${opener} Voice agents have improved quickly: they understand natural speech, keep the context of a conversation, and hand over to a person when they should.`,
        `The practical effect is coverage. Calls that arrive at lunch, after hours or during a rush are answered the same way as calls at ten in the morning, and staff spend their time on the conversations that need them.`,
      ],
    ],
    [
      'What it looks like in practice',
      [
        `In ${industry.field}, the first jobs to hand over are usually ${taskA} and ${taskB}. They are frequent, follow clear rules and are easy to check afterwards.`,
        `Next come ${taskC} and ${taskD}. Here the agent works from your own information (calendars, price lists, policies) so that its answers match what your team would say.`,
        `Every call leaves a transcript and a summary, so nothing depends on someone remembering to write a note.`,
      ],
    ],
    [
      'A rollout plan that works',
      [
        `1. Pick one call type with high volume and a clear outcome.\n2. Write down the questions callers ask and the answers you want given.\n3. Connect the calendar or system the agent needs, and nothing more.\n4. Run it after hours first, review transcripts daily, then extend to business hours.`,
        `Keep a person reachable at every step. A good agent knows when to transfer and says so plainly; ${callers} forgive an honest hand-over far more readily than a loop.`,
      ],
    ],
    [
      'Measuring the results',
      [
        `Decide before launch what success means. For most ${audience} the clearest signals are ${industry.metric}, the share of calls answered, and the time staff spend on the phone each week.`,
        `Compare a few weeks before and after, and read a sample of transcripts every week: the numbers tell you whether it works, the conversations tell you why.`,
      ],
    ],
    [
      'Pitfalls to avoid',
      [
        `The most common mistake is trying to automate everything at once. The second is forgetting ${industry.rules}. Settle both in the plan, not after the first complaint.`,
        `Finally, keep the script current. Opening hours, prices and policies change; an agent that gives last month's answer undoes the trust it was meant to build.`,
      ],
    ],
    [
      'Where to start',
      [
        `A voice agent pays off fastest when it starts small, is measured honestly and grows with what you learn. Start with one call type this month, and let the transcripts tell you what to hand over next.`,
      ],
    ],
  ];

  const content = sections.map(([heading, paras]) => [heading, ...paras].join('\n\n')).join('\n\n');
  const tags = [...new Set([industry.tag, 'AI Voice Agents', ...themes(plain)])].slice(0, 5);
  return {
    title,
    excerpt,
    content,
    metaTitle,
    metaDescription: summary(META_DESCRIPTION_MAX),
    tags,
  };
}
