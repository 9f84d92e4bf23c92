/**
 * The brand's voice and messaging from the words of its pages: keywords by term weight
 * (where a word appears counts: titles and headings outweigh body text), tone and
 * personality from word choice and punctuation, writing style from sentence shape, the
 * tagline and the style of its calls to action.
 */

const STOPWORDS = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before being below
between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for
from further get gets got had hadn't has hasn't have haven't having he her here hers herself him himself his how i
if in into is isn't it it's its itself just let's me more most much must my myself no nor not now of off on once only
or other ought our ours ourselves out over own per same she should shouldn't so some such than that that's the their
theirs them themselves then there there's these they this those through to too under until up us very was wasn't we
we're were weren't what when where which while who whom why will with won't would wouldn't you you're your yours
yourself yourselves via etc one two three new use used using make made way ways like well also may might many every
within without across into onto upon yes yet able take takes see home page menu click read learn more skip content
main copyright rights reserved privacy policy terms cookies cookie login log sign account search close open toggle
navigation inc llc ltd co com www http https`.split(/\s+/),
);

export interface WeightedText {
  /** Text and the weight of each word in it (title 5, h1 5, meta 3, h2/h3 3, body 1, ...). */
  parts: Array<{ text: string; weight: number }>;
}

export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z][a-z0-9'’-]*[a-z0-9]|[a-z]/g) ?? [];
}

/** The strongest terms by summed weight (stopwords, short words and numbers left out). */
export function keywordsByWeight(input: WeightedText, limit = 10): string[] {
  const score = new Map<string, number>();
  for (const { text, weight } of input.parts) {
    for (const raw of words(text)) {
      const w = raw.replace(/[’]/g, "'").replace(/'s$/, '');
      if (w.length < 3 || STOPWORDS.has(w) || /^\d/.test(w)) continue;
      score.set(w, (score.get(w) ?? 0) + weight);
    }
  }
  return [...score.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([w]) => w);
}

const TRAITS: Array<{ trait: string; words: RegExp }> = [
  {
    trait: 'innovative',
    words:
      /^(ai|innovative|innovation|future|cutting-edge|smart|intelligent|automate|automated|automation|technology|modern|next-generation|advanced|platform)$/,
  },
  {
    trait: 'trustworthy',
    words:
      /^(trusted|trust|secure|security|reliable|reliability|compliance|compliant|hipaa|privacy|proven|certified|guarantee|guaranteed|safe|accurate)$/,
  },
  {
    trait: 'approachable',
    words: /^(easy|simple|simply|friendly|help|helps|happy|welcome|love|enjoy|together|hello|hi)$/,
  },
  {
    trait: 'bold',
    words:
      /^(powerful|power|fast|faster|boost|transform|grow|growth|unlock|supercharge|amazing|revolutionary|leading|best)$/,
  },
  {
    trait: 'premium',
    words: /^(premium|luxury|exclusive|elegant|crafted|bespoke|finest|curated|exceptional)$/,
  },
  {
    trait: 'caring',
    words: /^(care|caring|patients|patient|family|families|support|community|wellbeing|health|people)$/,
  },
];

const FORMAL =
  /^(therefore|hereby|pursuant|furthermore|moreover|solutions|enterprise|organization|organisations?|comprehensive|utilize|leverage)$/;

export interface VoiceProfile {
  tone: string;
  personality: string;
  writingStyle: string;
}

/** Tone, personality and writing style of a body of text. */
export function voiceOf(text: string): VoiceProfile {
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => words(s).length >= 3);
  const all = words(text);
  const n = Math.max(1, all.length);
  const count = (re: RegExp) => all.filter((w) => re.test(w)).length;
  const exclaim = sentences.filter((s) => s.endsWith('!')).length / Math.max(1, sentences.length);
  const questions = sentences.filter((s) => s.endsWith('?')).length / Math.max(1, sentences.length);
  const you = count(/^(you|your|you're|yours|you'll)$/) / n;
  const we = count(/^(we|our|us|we're|we'll)$/) / n;
  const contractions = count(/'(re|ll|ve|d|m|t)$|n't$/) / n;
  const formal = count(FORMAL) / n;
  const longWords = all.filter((w) => w.length >= 10).length / n;
  const avgSentence = sentences.length
    ? sentences.reduce((s, x) => s + words(x).length, 0) / sentences.length
    : 0;

  const traitScores = TRAITS.map((t) => ({ trait: t.trait, score: count(t.words) })).filter(
    (t) => t.score > 0,
  );
  traitScores.sort((a, b) => b.score - a.score || a.trait.localeCompare(b.trait));
  const energetic = traitScores.some((t) => t.trait === 'bold' && t.score >= 2);

  let tone: string;
  if (exclaim >= 0.15 || (exclaim >= 0.08 && energetic)) tone = 'Enthusiastic and energetic';
  else if (formal >= 0.01 || (avgSentence > 22 && longWords > 0.08)) tone = 'Formal and authoritative';
  else if (contractions >= 0.01 || you >= 0.03 || questions >= 0.15) tone = 'Friendly and conversational';
  else tone = 'Professional and confident';

  const personality = traitScores.length
    ? traitScores
        .slice(0, 3)
        .map((t, i) => (i === 0 ? t.trait[0]?.toUpperCase() + t.trait.slice(1) : t.trait))
        .join(', ')
    : 'Straightforward';

  const length =
    avgSentence === 0
      ? 'Short fragments'
      : avgSentence < 12
        ? 'Concise, short sentences'
        : avgSentence <= 20
          ? 'Balanced sentences'
          : 'Detailed, long sentences';
  const person =
    you >= 0.02 && you >= we
      ? ' that speak to the reader directly ("you")'
      : we >= 0.02
        ? ' that speak as a team ("we")'
        : ' in the third person';
  return { tone, personality, writingStyle: `${length}${person}` };
}

const CTA_KINDS: Array<{ label: string; re: RegExp }> = [
  {
    label: 'Consultative',
    re: /\b(demo|consult|consultation|call|talk|contact|schedule|book|meeting|quote)\b/i,
  },
  { label: 'Low-commitment (free / trial)', re: /\b(free|trial|try)\b/i },
  { label: 'Urgent', re: /\b(now|today|instantly|hurry|limited)\b/i },
  {
    label: 'Action-oriented',
    re: /\b(get started|start|join|sign up|signup|register|create|build|launch)\b/i,
  },
  { label: 'Transactional', re: /\b(buy|shop|order|cart|checkout|pricing|subscribe)\b/i },
  { label: 'Informational', re: /\b(learn|discover|explore|see how|read|watch|find out)\b/i },
];

/** The style of the site's calls to action, with its two most used ones quoted. */
export function ctaStyleOf(ctas: string[]): string {
  const clean = ctas.map((c) => c.replace(/\s+/g, ' ').trim()).filter((c) => c.length >= 2 && c.length <= 40);
  if (clean.length === 0) return 'No clear calls to action found';
  const uses = new Map<string, number>();
  for (const c of clean) uses.set(c, (uses.get(c) ?? 0) + 1);
  const kinds = new Map<string, number>();
  for (const [c, n] of uses) {
    const kind = CTA_KINDS.find((k) => k.re.test(c));
    if (kind) kinds.set(kind.label, (kinds.get(kind.label) ?? 0) + n);
  }
  const label =
    [...kinds.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? 'Direct';
  const topCtas = [...uses.entries()]
    .filter(([c]) => CTA_KINDS.some((k) => k.re.test(c)))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 2)
    .map(([c]) => `"${c}"`);
  return topCtas.length ? `${label}: ${topCtas.join(', ')}` : label;
}

/**
 * The tagline: the main heading when it reads like one (3–15 words), else the part of the
 * title that is not the brand name, else the first sentence of the description.
 */
export function taglineOf(input: {
  h1: string | null;
  title: string | null;
  description: string | null;
}): string {
  const h1 = input.h1?.replace(/\s+/g, ' ').trim();
  if (h1) {
    const n = words(h1).length;
    if (n >= 3 && n <= 15) return h1;
  }
  const title = input.title?.replace(/\s+/g, ' ').trim();
  if (title) {
    const parts = title.split(/\s+[|–—·:-]\s+/).map((p) => p.trim());
    const longest = parts.sort((a, b) => words(b).length - words(a).length)[0];
    if (longest && words(longest).length >= 3) return longest;
  }
  const description = input.description?.replace(/\s+/g, ' ').trim();
  if (description) {
    const first = description.split(/(?<=[.!?])\s/)[0] ?? description;
    return first.length > 160 ? `${first.slice(0, 157).trimEnd()}...` : first;
  }
  return h1 || title || '';
}
