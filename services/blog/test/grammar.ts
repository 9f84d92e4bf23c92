/**
 * Mechanical grammar checks for generated blog copy (titles, excerpts, headings, body
 * sentences). Written apart from the writer, with its own word lists, so that the writer
 * cannot pass by sharing a mistake with its checker. Each check returns the problems it
 * finds as short messages; an empty list means the text passes.
 */

/** Acronyms as an editor writes them, and whether "an" goes before each (by its sound). */
const ACRONYMS: Record<string, 'a' | 'an' | 'either'> = {
  AI: 'an',
  API: 'an',
  CRM: 'a',
  ERP: 'an',
  FAQ: 'either',
  FAQs: 'either',
  GDPR: 'a',
  HIPAA: 'a',
  HR: 'an',
  HVAC: 'an',
  IVR: 'an',
  KPI: 'a',
  ROI: 'an',
  SEO: 'an',
  SMS: 'an',
  UK: 'a',
};
const ACRONYM_BY_LOWER = new Map(Object.keys(ACRONYMS).map((a) => [a.toLowerCase(), a]));

/** Capitalised words that may stand mid-sentence: names of languages and the like. */
const PROPER = new Set(['Spanish', 'English', 'HIPAA']);

/** Words a title keeps lower case unless they open it or follow a colon or question mark. */
const TITLE_SMALL = new Set(
  'a an the and but or nor as at by for from in into of off on onto per to via vs with'.split(' '),
);

/** Function words: never counted as a repeated "content" word. */
const FUNCTION_WORDS = new Set(
  `a an the and but or nor as at by for from in into of off on onto per to via vs with without
  is are be it its this that these those what where when why how which who whether your you our
  their they them we can do does should will not no more most than then there here about after
  before over under`.split(/\s+/),
);

/** Nouns that name an audience ("for dental clinics", "for healthcare teams"). */
const AUDIENCE =
  'teams|businesses|clinics|practices|firms|agencies|offices|brokers|managers|contractors|restaurants|hotels|resorts|banks|salons|plumbers|realtors|dentists|owners|companies|providers|landlords|lenders|insurers|startups';
const AUDIENCE_PHRASE = new RegExp(
  `\\b(?:for|at)\\s+(?:(?!(?:how|why|what|should|do|does|can|is|are)\\b)[\\w'’-]+\\s+){0,3}?(?:${AUDIENCE})\\b`,
  'gi',
);

const WH = 'how|why|what|when|where|which|who|whether';
const AUX = 'can|could|do|does|did|is|are|was|were|should|will|would|has|have';

/** Finite verbs a complete sentence of an excerpt can hang on. */
const FINITE =
  /\b(is|are|was|were|has|have|can|will|does|do|covers|explains|shows|answers|looks|sets|walks|takes|gives|offers|describes|helps|lists|starts|comes|brings|finds|puts|weighs|compares|asks|works|pays|goes|makes)\b/i;

/** "a" or "an" before this word, by its sound; null when either reads well. */
export function articleFor(word: string): 'a' | 'an' | null {
  const w = word.replace(/^[“"'(]+/, '');
  const acronym = ACRONYMS[w.replace(/[’'s]+$/, '')] ?? ACRONYMS[w];
  if (acronym) return acronym === 'either' ? null : acronym;
  if (/^[A-Z]{2,}\b/.test(w)) return /^[AEFHILMNORSX]/.test(w) ? 'an' : 'a';
  if (/^\d/.test(w)) return /^(8|11|18|80)/.test(w) ? 'an' : 'a';
  const lower = w.toLowerCase();
  if (/^(hour|honest|honou?r|heir)/.test(lower)) return 'an';
  if (/^(uni(?!n)|unan|use|usu|uti|ure|uro|eu|ewe|one\b|one-|once|ubiq)/.test(lower)) return 'a';
  return /^[aeiou]/.test(lower) ? 'an' : 'a';
}

/** Quoted spans (“…”) replaced by a neutral word, for checks that read the outer sentence. */
const unquote = (s: string) => s.replace(/“[^”]*”/g, 'Quoted');

/**
 * Sentences of a paragraph: split after . ? ! followed by a space, and after a quotation
 * that ends one ("… ask: “Is it worth it?” It …"); a quotation inside a sentence stays whole.
 */
export function sentences(paragraph: string): string[] {
  const quotes: string[] = [];
  const masked = paragraph.replace(/“[^”]*”/g, (q) => {
    quotes.push(q);
    return `\uE000${quotes.length - 1}\uE000`;
  });
  const endsSentence = (i: string) => /[.?!]”$/.test(quotes[Number(i)] as string);
  return masked
    .replace(/([.?!])\s+(?=\S)/g, '$1\uE001')
    .replace(/\uE000(\d+)\uE000\s+(?=[A-Z])/g, (m, i) => (endsSentence(i) ? `\uE000${i}\uE000\uE001` : m))
    .split('\uE001')
    .map((s) => s.replace(/\uE000(\d+)\uE000/g, (_, i) => quotes[Number(i)] as string));
}

/** Checks every kind of text shares: spacing, punctuation, repeats, a/an, acronyms, templates. */
export function commonProblems(text: string): string[] {
  const out: string[] = [];
  if (text !== text.trim()) out.push('leading or trailing space');
  if (/ {2,}/.test(text)) out.push('double space');
  if (/\s[,.;:?!]/.test(text)) out.push('space before punctuation');
  if (/[,;:][,.;:?!]|[.?!][,;:]|\.\.|[!?]{2,}|…/.test(text)) out.push('doubled or dangling punctuation');
  if (/[,;:\-–—]$/.test(text)) out.push('ends on dangling punctuation');
  if ((text.match(/“/g) ?? []).length !== (text.match(/”/g) ?? []).length) out.push('unbalanced quotes');
  if ((text.match(/\(/g) ?? []).length !== (text.match(/\)/g) ?? []).length) out.push('unbalanced brackets');
  const repeated = /\b([\w'’-]+)\s+\1\b/i.exec(text);
  if (repeated) out.push(`repeated word "${repeated[0]}"`);
  for (const m of text.matchAll(/\b([Aa]n?)\s+([“"(]?[\w'’-]+)/g)) {
    const want = articleFor(m[2] as string);
    if (want && (m[1] as string).toLowerCase() !== want) out.push(`"${m[0]}" should use "${want}"`);
  }
  for (const m of text.matchAll(/\b[\w]+\b/g)) {
    const canonical = ACRONYM_BY_LOWER.get(m[0].toLowerCase());
    if (canonical && m[0] !== canonical) out.push(`acronym written "${m[0]}" instead of "${canonical}"`);
  }
  const nested = new RegExp(
    `\\b(getting|guide to|guide for|lessons for|lessons on|look at|introduction to|case for|the way)\\s+(${WH}|${AUX})\\b`,
    'i',
  ).exec(text);
  if (nested) out.push(`nested template "${nested[0]}"`);
  const gettingRight = new RegExp(`\\bgetting\\b[^:.?]*\\b(${WH})\\b[^:.?]*\\bright\\b`, 'i').exec(text);
  if (gettingRight) out.push(`nested template "${gettingRight[0]}"`);
  return out;
}

/** "for X for Y" within one clause, and an audience named twice in one piece of copy. */
function duplicationProblems(text: string, audienceOnce: boolean): string[] {
  const out: string[] = [];
  for (const clause of unquote(text).split(/[:;,.?!—–]/)) {
    if ((clause.match(/\bfor\b/gi) ?? []).length >= 2) out.push(`"for … for" in "${clause.trim()}"`);
  }
  if (audienceOnce) {
    const audiences = text.match(AUDIENCE_PHRASE) ?? [];
    if (audiences.length >= 2) out.push(`audience named twice: ${audiences.join(' / ')}`);
  }
  return out;
}

/** Content words (or pairs of them) that a piece of copy repeats. */
function repeatedContent(text: string, pairs: boolean): string[] {
  const words = unquote(text)
    .toLowerCase()
    .split(/[^a-z0-9'’-]+/)
    .filter((w) => w.length >= 4 && !FUNCTION_WORDS.has(w));
  const seen = new Set<string>();
  const out: string[] = [];
  const units = pairs ? words.slice(1).map((w, i) => `${words[i]} ${w}`) : words;
  for (const u of units) {
    if (seen.has(u)) out.push(`repeats "${u}"`);
    seen.add(u);
  }
  return out;
}

/** A direct question (wh-word + auxiliary, or an opening auxiliary) must end with "?". */
function questionProblems(sentence: string): string[] {
  const outer = unquote(sentence).trim();
  if (outer.endsWith('?')) return [];
  const inverted = new RegExp(`\\b(${WH})\\s+(${AUX})\\b`, 'i').exec(outer);
  if (inverted) return [`question "${inverted[0]} …" without a question mark`];
  if (new RegExp(`^(${AUX})\\b`, 'i').test(outer)) return ['opens like a question but is not one'];
  return [];
}

/** Words of a sentence after its first: capitals only for acronyms and names. */
function sentenceCaseProblems(sentence: string): string[] {
  const words = unquote(sentence)
    .replace(/^\d+\.\s+/, '')
    .split(/\s+/)
    .slice(1);
  const out: string[] = [];
  for (const raw of words) {
    const w = raw.replace(/^[("'“]+|[)"'”.,;:?!]+$/g, '');
    if (w === 'Quoted' || w === 'I' || !/^[A-Z]/.test(w)) continue;
    const head = w.split(/[-’']/)[0] as string;
    if (ACRONYMS[head] || ACRONYMS[w] || PROPER.has(head)) continue;
    out.push(`capital mid-sentence "${w}"`);
  }
  return out;
}

/** A title: Title Case (small words lower case), acronyms kept, no dangling ends. */
export function titleProblems(title: string, maxLength: number): string[] {
  const out = [
    ...commonProblems(title),
    ...duplicationProblems(title, true),
    ...repeatedContent(title, false),
  ];
  if (title.length > maxLength) out.push(`longer than ${maxLength} characters (${title.length})`);
  if (!/[A-Za-z0-9?)]$/.test(title)) out.push('ends on punctuation other than "?"');
  const segments = title.split(/(?<=[:?])\s+/);
  for (const segment of segments) {
    out.push(...questionProblems(segment.replace(/:$/, '')));
    segment.split(/\s+/).forEach((raw, i) => {
      const word = raw.replace(/^[("'“]+|[)"'”.,;:?!]+$/g, '');
      if (!word || /^\d/.test(word)) return;
      const parts = word.split(/[-/]/);
      parts.forEach((part, j) => {
        if (!part || /^\d/.test(part)) return;
        const first = i === 0 && j === 0;
        const bare = part.replace(/[’']s$/, '');
        if (ACRONYMS[bare]) return;
        if (/^[A-Z]{2,}$/.test(bare)) out.push(`shouted word "${part}"`);
        else if (!first && TITLE_SMALL.has(part.toLowerCase())) {
          if (part !== part.toLowerCase()) out.push(`small word capitalised "${part}"`);
        } else if (!/^[A-Z]/.test(part)) out.push(`word not capitalised "${part}"`);
      });
    });
  }
  return out;
}

/** A heading: sentence case, short, no closing punctuation. */
export function headingProblems(heading: string): string[] {
  const out = [
    ...commonProblems(heading),
    ...repeatedContent(heading, false),
    ...sentenceCaseProblems(heading),
  ];
  if (!/^[A-Z]/.test(heading)) out.push('does not start with a capital');
  if (/[.:;,]$/.test(heading)) out.push('ends on punctuation');
  if (heading.length > 60) out.push(`heading longer than 60 characters (${heading.length})`);
  return out;
}

/** One sentence of running text: opens with a capital, closes with . ? or !, reads as a sentence. */
function sentenceProblems(sentence: string): string[] {
  const out = [...questionProblems(sentence), ...sentenceCaseProblems(sentence)];
  if (!/^(\d+\.\s+)?[“"]?[A-Z0-9]/.test(sentence))
    out.push(`sentence starts without a capital: "${sentence}"`);
  if (!/[.?!]”?$/.test(sentence)) out.push(`sentence does not end: "${sentence}"`);
  return out;
}

/** An excerpt (or meta description): 1–2 complete sentences, each ending with a period. */
export function excerptProblems(excerpt: string, maxLength: number): string[] {
  const out = [
    ...commonProblems(excerpt),
    ...duplicationProblems(excerpt, true),
    ...repeatedContent(excerpt, true),
  ];
  if (excerpt.length > maxLength) out.push(`longer than ${maxLength} characters (${excerpt.length})`);
  const parts = sentences(excerpt);
  if (parts.length < 1 || parts.length > 2) out.push(`${parts.length} sentences, not 1 or 2`);
  for (const s of parts) {
    out.push(...sentenceProblems(s));
    if (!s.endsWith('.')) out.push(`sentence does not end with a period: "${s}"`);
    const mainClause = unquote(s).split(/[:—]/)[0] as string;
    if (!FINITE.test(mainClause)) out.push(`not a complete sentence (no verb): "${mainClause}"`);
    for (const q of s.match(/“[^”]*”/g) ?? []) {
      const inner = q.slice(1, -1);
      if (!/^[A-Z]/.test(inner) || !/[?.!]$/.test(inner)) out.push(`quotation is not a sentence: ${q}`);
      out.push(...sentenceCaseProblems(inner));
    }
  }
  return out;
}

/** A paragraph of the body: every sentence complete, the shared checks. */
export function paragraphProblems(paragraph: string): string[] {
  const out = [...commonProblems(paragraph.replace(/\n/g, ' ')), ...duplicationProblems(paragraph, false)];
  for (const line of paragraph.split('\n')) {
    // A numbered step ("1. Pick one call type …") is one sentence, not "1." and the rest.
    for (const s of sentences(line.replace(/^\d+\.\s+/, ''))) out.push(...sentenceProblems(s));
  }
  return out;
}
