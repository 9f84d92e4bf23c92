/**
 * The local writer's word lists: the words it treats apart when it reads a topic (acronyms,
 * names, small title words, auxiliaries, imperatives…), where a long topic may be cut, and the
 * requests an admin wraps around a topic. The logic that reads them: local-writer-topic.ts.
 */

/**
 * Words an editor writes in capitals whatever the topic's typing: AI, CRM, FAQ, HIPAA...
 * ("it" and "us" are left out: typed in lower case they are the pronouns, as in "worth it").
 */
export const ACRONYMS: Record<string, string> = Object.fromEntries(
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
export const PROPER = new Set(
  `English Spanish French German Italian Portuguese Chinese Mandarin Cantonese Vietnamese Korean
  Japanese Arabic Russian Hindi Monday Tuesday Wednesday Thursday Friday Saturday Sunday January
  February March April May June July August September October November December Christmas`.split(/\s+/),
);

/** Words a title keeps in lower case unless they open it or follow a colon or question mark. */
export const TITLE_SMALL = new Set(
  'a an the and but or nor as at by for from in into of off on onto per to via vs with'.split(' '),
);

/** Auxiliaries: a topic that opens with one (or a wh-word and one) is a question. */
export const AUX = new Set(
  'is are was were can could do does did should will would has have may might must am'.split(' '),
);
export const WH = new Set('how why what when where which who whom whose'.split(' '));
export const QUANTITY = new Set('much many long often well far soon'.split(' '));
/** Verbs a headline opens with in the imperative: "Stop losing leads to voicemail". */
export const IMPERATIVE = new Set(
  `stop start reduce cut boost increase improve automate turn make get never avoid let build choose
  keep grow win save double capture convert end fix prevent use answer book`.split(/\s+/),
);
/** Words ending in -ing that are not verbs. */
export const NOT_GERUND = new Set(
  'thing something nothing anything everything spring string morning evening ceiling'.split(' '),
);
/** Number words a list headline opens with: "Five ways to …". */
export const NUMBER_WORDS = new Set('three four five six seven eight nine ten twelve'.split(' '));
/** Where a long topic may be cut: before these words, or after a comma. */
export const CUT_BEFORE = new Set(
  `with without before after when while so because by through using via and or that who which
  during over for in at on to from into across if but`.split(/\s+/),
);
/** Words a shortened topic may not end on. */
export const DANGLING = new Set(
  `a an the and or but of to for with in on at by from into via vs your our their my its his her
  is are was were can could should will would do does did has have more most very who which that
  this these those as if so than`.split(/\s+/),
);
/** Nouns that name an audience a topic may already address ("why every salon needs …"). */
export const AUDIENCE_WORDS =
  /\b(businesses|business owners|companies|startups|contractors|plumbers|electricians|salons?|spas?|shops|stores|retailers|agencies|teams|owners|offices|franchises|dealerships|garages|gyms)\b/i;

/** A request wrapped around the topic: "Write an article about …", "Blog post: …". */
export const REQUESTS = [
  /^(please\s+)?(write|create|generate|draft|give me|make)\s+(me\s+|us\s+)?((a|an|the|one)\s+)?((short|long|quick|detailed|new)\s+)?(blog\s+)?(post|article|piece|blog|guide)\s+(about|on|explaining|covering)\s+/i,
  /^(i|we)\s+(want|need|would like)\s+((a|an)\s+)?(blog\s+)?(post|article)\s+(about|on|explaining|covering)\s+/i,
  /^((a|an)\s+)?((short|detailed)\s+)?(blog\s+)?(post|article)\s+(about|on|explaining|covering)\s+/i,
  /^(blog post|article|topic)\s*[:\-–—]\s*/i,
  // "A guide to AI receptionists": the writer adds its own "guide".
  /^((a|an|the|our)\s+)?((complete|ultimate|practical|quick|short|simple|beginner['’]?s)\s+)?(guide|introduction|intro|primer)\s+(to|on)\s+/i,
];
