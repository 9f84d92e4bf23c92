import { GENERAL, industryOf, themes } from './local-writer-industries.ts';
import { type Form, readTopic, sentenceStart, shorten, titleCase } from './local-writer-topic.ts';
import { AUDIENCE_WORDS, CUT_BEFORE, DANGLING } from './local-writer-words.ts';
import type { Article } from './types.ts';

/**
 * The local writer: builds a structured article (introduction, five sections, a rollout
 * plan, measures, pitfalls, conclusion) from the topic, with industry-specific detail
 * when the topic names an industry, and wording varied by topic. No network, no model:
 * honest template-driven writing, labelled `provider: "local"` by the service.
 *
 * The topic is read first (readTopic, local-writer-topic.ts): the request around it dropped,
 * its case and a/an fixed, and its grammatical form found, so that each form gets titles and
 * sentences it fits (a question keeps its question mark, "how to …" is never wrapped in
 * "Getting … Right"), and an audience the topic already names is not added again.
 * test/local-writer-grammar.test.ts holds the corpus of topics and the checks every title,
 * excerpt and heading must pass. The industries and tags: local-writer-industries.ts.
 */

/** Lengths of the generated copy: whole words and sentences, never clipped with "…". */
const TITLE_MAX = 100;
const META_TITLE_MAX = 60;
const EXCERPT_MAX = 300;
const META_DESCRIPTION_MAX = 155;

/** Deterministic variety: the same topic always gives the same article, topics differ. */
function seeded(topic: string) {
  let h = 2166136261;
  for (const ch of topic.toLowerCase()) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return <T>(list: readonly T[], salt = 0): T => list[Math.abs(h + salt * 2654435761) % list.length] as T;
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
