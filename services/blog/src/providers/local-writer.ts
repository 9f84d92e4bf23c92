import { BLOG_LIMITS } from '@parley/contracts';
import type { Article } from './types.ts';

/**
 * The local writer: builds a structured article (introduction, five sections, a rollout
 * plan, measures, pitfalls, conclusion) from the topic, with industry-specific detail
 * when the topic names an industry, and wording varied by topic. No network, no model:
 * honest template-driven writing, labelled `provider: "local"` by the service.
 */

interface Industry {
  name: string;
  tag: string;
  keywords: RegExp;
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
      /\b(health|healthcare|clinic|clinics|patient|patients|medical|dental|dentist|doctor|practice|hospital|pharmacy|therapy)\b/i,
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
      /\b(real estate|realtor|realtors|property|properties|listing|listings|broker|brokerage|rental|tenant|tenants|landlord|home buyers?)\b/i,
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
      /\b(law|legal|lawyer|lawyers|attorney|attorneys|firm|firms|paralegal|intake|litigation|counsel)\b/i,
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
      /\b(finance|financial|bank|banking|insurance|insurer|loan|loans|mortgage|accounting|accountant|wealth|advisor|advisors|credit)\b/i,
    callers: 'customers and applicants',
    tasks: [
      'answering account and policy questions',
      'collecting application details',
      'booking meetings with advisors',
      'explaining claim steps',
    ],
    rules:
      'identity verification and record-keeping requirements, which shape how a caller is authenticated and what is logged',
    metric: 'first-call resolution',
  },
  {
    name: 'hospitality',
    tag: 'Hospitality',
    keywords:
      /\b(hotel|hotels|restaurant|restaurants|hospitality|reservation|reservations|booking desk|guest|guests|travel|resort|catering|venue)\b/i,
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
  name: 'service business',
  tag: 'Small Business',
  keywords: /$^/,
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

const STOP = new Set(
  'a an and are as at be by can do does for from how in into is it its of on or our the their this to use using what when where which why will with without your you vs versus about best guide tips ways'.split(
    ' ',
  ),
);

/** Deterministic variety: the same topic always gives the same article, topics differ. */
function seeded(topic: string) {
  let h = 2166136261;
  for (const ch of topic.toLowerCase()) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return <T>(list: readonly T[], salt = 0): T => list[Math.abs(h + salt * 2654435761) % list.length] as T;
}

/** Words an editor writes in capitals whatever the topic's typing: AI, CRM, FAQ, HIPAA... */
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
    'IT',
    'AI-powered',
    'US',
    'UK',
  ].map((w) => [w.toLowerCase(), w]),
);

/** A word as an editor writes it: acronyms in capitals, words typed with inner capitals kept. */
const fixedCase = (w: string): string | null =>
  ACRONYMS[w.toLowerCase()] ?? (/[A-Z]/.test(w.slice(1)) ? w : null);

const titleCase = (s: string) =>
  s
    .split(/\s+/)
    .map((w, i) => {
      const fixed = fixedCase(w);
      if (fixed) return fixed;
      const lower = w.toLowerCase();
      return i > 0 && STOP.has(lower) ? lower : w.charAt(0).toUpperCase() + w.slice(1);
    })
    .join(' ');

/**
 * The topic inside a sentence: acronyms and names keep their capitals ("with AI phone
 * agents"), other words as typed, but for a capital that only began the topic.
 */
function inSentence(topic: string): string {
  return topic
    .replace(/[.?!]+$/, '')
    .split(/\s+/)
    .map((w, i) => fixedCase(w) ?? (i === 0 ? w.toLowerCase() : w))
    .join(' ');
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

const clip = (s: string, max: number) =>
  s.length <= max ? s : `${s.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;

export function writeLocalArticle(rawTopic: string): Article {
  const topic = rawTopic.trim().replace(/\s+/g, ' ').slice(0, BLOG_LIMITS.topic);
  const pick = seeded(topic);
  const industry = INDUSTRIES.find((i) => i.keywords.test(topic)) ?? GENERAL;
  const subject = titleCase(topic.replace(/[.?!]+$/, ''));
  const phrase = inSentence(topic);
  /** The topic opening a sentence: sentence case, as an editor writes it (not Title Case). */
  const Phrase = phrase.charAt(0).toUpperCase() + phrase.slice(1);
  const team = `${industry.name} teams`;

  const title = clip(
    pick([
      `${subject}: A Practical Guide for ${titleCase(team)}`,
      // A long topic makes a long question: it gets the guide's title instead.
      subject.length > 40
        ? `${subject}: A Guide for ${titleCase(team)}`
        : `How ${subject} Changes the Way ${titleCase(team)} Handle Calls`,
      `${subject}: What Works, What to Avoid, and Where to Start`,
      `Getting ${subject} Right: Lessons for ${titleCase(team)}`,
    ]),
    BLOG_LIMITS.title,
  );
  const [taskA, taskB, taskC, taskD] = industry.tasks as [string, string, string, string];
  const opener = pick([
    `Every missed call is a missed chance. For ${team}, ${phrase} is no longer a side project: it decides whether ${industry.callers} reach someone when they need to.`,
    `Ask any ${industry.name} manager where time goes and the phone comes up first. ${Phrase} is how a growing number of them take that time back without making ${industry.callers} wait.`,
    `${Phrase} sounds like a technology topic, but it is really about ${industry.callers}: how quickly they get an answer, and whether that answer is right.`,
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
        `In ${industry.name}, the first jobs to hand over are usually ${taskA} and ${taskB}. They are frequent, follow clear rules and are easy to check afterwards.`,
        `Next come ${taskC} and ${taskD}. Here the agent works from your own information (calendars, price lists, policies) so that its answers match what your team would say.`,
        `Every call leaves a transcript and a summary, so nothing depends on someone remembering to write a note.`,
      ],
    ],
    [
      'A rollout plan that works',
      [
        `1. Pick one call type with high volume and a clear outcome.\n2. Write down the questions callers ask and the answers you want given.\n3. Connect the calendar or system the agent needs, and nothing more.\n4. Run it after hours first, review transcripts daily, then extend to business hours.`,
        `Keep a person reachable at every step. A good agent knows when to transfer and says so plainly; ${industry.callers} forgive an honest hand-over far more readily than a loop.`,
      ],
    ],
    [
      'Measuring the results',
      [
        `Decide before launch what success means. For most ${team} the clearest signals are ${industry.metric}, the share of calls answered, and the time staff spend on the phone each week.`,
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
        `${Phrase} pays off fastest when it starts small, is measured honestly and grows with what you learn. Start with one call type this month, and let the transcripts tell you what to hand over next.`,
      ],
    ],
  ];

  const content = sections.map(([heading, paras]) => [heading, ...paras].join('\n\n')).join('\n\n');
  const excerpt = clip(
    `A practical look at ${phrase} for ${team}: where voice agents help most, how to roll them out, and how to measure the results.`,
    BLOG_LIMITS.excerpt,
  );
  const tags = [...new Set([industry.tag, 'AI Voice Agents', ...themes(topic)])].slice(0, 5);
  return {
    title,
    excerpt,
    content,
    metaTitle: clip(title, 60),
    metaDescription: clip(excerpt, 155),
    tags,
  };
}
