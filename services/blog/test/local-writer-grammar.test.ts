import { articleSlug, BLOG_LIMITS, GENERATED_SLUG_MAX } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { writeLocalArticle } from '../src/providers/local-writer.ts';
import {
  commonProblems,
  excerptProblems,
  headingProblems,
  paragraphProblems,
  sentences,
  titleProblems,
} from './grammar.ts';

/**
 * Topics as admins type them into "Generate AI Blog Post", across the writer's industries:
 * questions (with and without "?"), noun phrases, "how to …", gerunds, headlines and
 * imperatives, topics that already name an industry or audience, stray punctuation, lower
 * case and capitals, acronyms, a/an slips, requests ("write an article about …"), very short
 * and long. `key` is the word the title must keep; `tag` the industry the post is filed under.
 */
const CORPUS: Array<{ topic: string; key: string; tag: string }> = [
  // Healthcare
  { topic: 'AI receptionists for dental clinics', key: 'receptionist', tag: 'Healthcare' },
  { topic: 'How can AI receptionists help dental clinics?', key: 'receptionist', tag: 'Healthcare' },
  { topic: 'how to reduce no-shows at a dental practice', key: 'no-shows', tag: 'Healthcare' },
  { topic: 'Reducing patient no-shows with SMS reminders', key: 'no-shows', tag: 'Healthcare' },
  { topic: 'hipaa compliance for ai receptionists', key: 'HIPAA', tag: 'Healthcare' },
  { topic: 'Is AI phone answering HIPAA compliant?', key: 'HIPAA', tag: 'Healthcare' },
  { topic: 'after-hours triage for medical practices.', key: 'triage', tag: 'Healthcare' },
  { topic: 'Answering patient calls during flu season', key: 'patient calls', tag: 'Healthcare' },
  { topic: 'Voice AI for physical therapy clinics', key: 'voice AI', tag: 'Healthcare' },
  { topic: 'Booking appointments for Spanish-speaking patients', key: 'appointments', tag: 'Healthcare' },
  // Real estate
  { topic: 'How to qualify real estate leads with AI', key: 'leads', tag: 'Real Estate' },
  {
    topic: 'crm integrations for real estate brokers who miss calls after hours',
    key: 'CRM',
    tag: 'Real Estate',
  },
  { topic: 'Why do realtors lose leads after 6pm?', key: 'leads', tag: 'Real Estate' },
  { topic: 'Scheduling property showings automatically', key: 'showings', tag: 'Real Estate' },
  { topic: 'AI phone agents for property managers', key: 'phone agents', tag: 'Real Estate' },
  { topic: 'Tenant maintenance requests', key: 'maintenance', tag: 'Real Estate' },
  { topic: 'real estate lead follow-up via sms', key: 'follow-up', tag: 'Real Estate' },
  // Legal
  { topic: 'Client intake for law firms', key: 'intake', tag: 'Legal' },
  {
    topic:
      'why small law firms should automate client intake and conflict checks before the first consultation',
    key: 'intake',
    tag: 'Legal',
  },
  { topic: 'Should law firms use AI for intake?', key: 'intake', tag: 'Legal' },
  { topic: 'How to screen personal injury leads over the phone', key: 'leads', tag: 'Legal' },
  { topic: 'Answering calls while attorneys are in court', key: 'attorneys', tag: 'Legal' },
  { topic: 'Is a AI intake assistant worth it for a immigration law practice', key: 'intake', tag: 'Legal' },
  // Finance
  { topic: 'AI phone agents for insurance agencies', key: 'phone agents', tag: 'Finance' },
  { topic: 'Mortgage lead qualification', key: 'mortgage', tag: 'Finance' },
  { topic: 'explaining claim steps to policyholders', key: 'claim', tag: 'Finance' },
  {
    topic: 'Handling after-hours calls for accounting firms during tax season',
    key: 'after-hours calls',
    tag: 'Finance',
  },
  { topic: 'ROI of AI receptionists for banks', key: 'ROI', tag: 'Finance' },
  { topic: 'Can a voice bot verify a caller’s identity for a bank?', key: 'identity', tag: 'Finance' },
  // Hospitality
  { topic: 'Handling hotel reservations after hours', key: 'reservations', tag: 'Hospitality' },
  { topic: 'Hotel Front Desk Automation', key: 'front desk', tag: 'Hospitality' },
  {
    topic: 'how do restaurants take reservations by phone during the dinner rush?',
    key: 'reservations',
    tag: 'Hospitality',
  },
  { topic: 'AI voice agents for restaurants', key: 'voice agents', tag: 'Hospitality' },
  { topic: 'Multilingual phone support for resorts', key: 'multilingual', tag: 'Hospitality' },
  { topic: 'Taking catering orders over the phone', key: 'catering', tag: 'Hospitality' },
  // No industry named: the general writer
  { topic: 'AI', key: 'AI', tag: 'Small Business' },
  { topic: 'voicemail', key: 'voicemail', tag: 'Small Business' },
  { topic: 'Missed calls', key: 'missed calls', tag: 'Small Business' },
  { topic: 'what is an AI receptionist', key: 'receptionist', tag: 'Small Business' },
  { topic: 'Stop losing leads to voicemail', key: 'leads', tag: 'Small Business' },
  {
    topic: '5 ways AI receptionists save small businesses money',
    key: 'receptionists',
    tag: 'Small Business',
  },
  { topic: 'AI vs human receptionists', key: 'receptionists', tag: 'Small Business' },
  { topic: 'The cost of missed calls for HVAC contractors', key: 'missed calls', tag: 'Small Business' },
  { topic: 'IVR vs conversational AI', key: 'IVR', tag: 'Small Business' },
  {
    topic: 'Write an article about how AI phone agents help plumbers book more jobs',
    key: 'phone agents',
    tag: 'Small Business',
  },
  { topic: 'MISSED CALLS ARE COSTING YOU CUSTOMERS', key: 'missed calls', tag: 'Small Business' },
  { topic: 'customer service automation for small businesses!!', key: 'automation', tag: 'Small Business' },
  { topic: 'Why every salon needs an AI receptionist', key: 'receptionist', tag: 'Small Business' },
  { topic: 'SMS vs voice: which do customers prefer?', key: 'SMS', tag: 'Small Business' },
  { topic: 'Integrating your CRM with an AI phone agent', key: 'CRM', tag: 'Small Business' },
];

/** Headings: the body's one-line blocks without closing punctuation. */
const blocks = (content: string) => content.split('\n\n');
const isHeading = (block: string) => !block.includes('\n') && !/[.?!]$/.test(block) && block.length <= 80;

/** Every problem of one generated article, each prefixed by the part it is in. */
function articleProblems(topic: string, key: string): string[] {
  const a = writeLocalArticle(topic);
  const has = (text: string) => text.toLowerCase().includes(key.toLowerCase());
  const out = [
    ...titleProblems(a.title, 100).map((p) => `title: ${p}`),
    ...titleProblems(a.metaTitle, 60).map((p) => `metaTitle: ${p}`),
    ...excerptProblems(a.excerpt, 300).map((p) => `excerpt: ${p}`),
    ...excerptProblems(a.metaDescription, 155).map((p) => `metaDescription: ${p}`),
  ];
  if (!has(a.title)) out.push(`title: does not mention "${key}"`);
  if (!has(a.excerpt)) out.push(`excerpt: does not mention "${key}"`);
  const headings = blocks(a.content).filter(isHeading);
  if (headings.length < 6) out.push(`content: ${headings.length} headings, expected at least 6`);
  for (const h of headings) out.push(...headingProblems(h).map((p) => `heading "${h}": ${p}`));
  for (const p of blocks(a.content).filter((b) => !isHeading(b))) {
    out.push(...paragraphProblems(p).map((e) => `body: ${e}`));
  }
  return out;
}

describe('the grammar checks catch what the issue reported', () => {
  it('flags nested templates, doubled audiences, repeats, a/an, case and dangling ends', () => {
    expect(titleProblems('Getting How AI Receptionists Help Dental Clinics Right', 100)).toContainEqual(
      expect.stringMatching(/nested template/),
    );
    expect(
      excerptProblems('This guide looks at AI receptionists for dental clinics for healthcare teams.', 300),
    ).toContainEqual(expect.stringMatching(/for … for/));
    expect(
      titleProblems('Client Intake for Law Firms: A Practical Guide for Legal Teams', 100),
    ).toContainEqual(expect.stringMatching(/audience named twice/));
    expect(
      titleProblems('How to Qualify Real Estate Leads: A Guide for Real Estate Teams', 100),
    ).toContainEqual(expect.stringMatching(/repeats "real"/));
    expect(commonProblems('Is a AI receptionist worth it for an clinic?')).toEqual([
      '"a AI" should use "an"',
      '"an clinic" should use "a"',
    ]);
    expect(commonProblems('An SMS, a HIPAA rule, an HVAC firm, a CRM, an hour, a user')).toEqual([]);
    expect(titleProblems('hipaa Compliance For ai Receptionists', 100)).toEqual(
      expect.arrayContaining([
        'acronym written "hipaa" instead of "HIPAA"',
        'small word capitalised "For"',
        'word not capitalised "hipaa"',
      ]),
    );
    expect(titleProblems('MISSED CALLS ARE COSTING YOU CUSTOMERS', 100)).toContainEqual(
      expect.stringMatching(/shouted word/),
    );
    expect(titleProblems('Voicemail  Tips:', 100)).toEqual(
      expect.arrayContaining(['double space', 'ends on dangling punctuation']),
    );
    expect(titleProblems('How Can AI Help Clinics: A Practical Guide', 100)).toContainEqual(
      expect.stringMatching(/without a question mark/),
    );
    expect(titleProblems('AI Receptionists for Restaurants With a Long Clipped Ti…', 100)).toContainEqual(
      'doubled or dangling punctuation',
    );
  });

  it('wants excerpts of one or two complete sentences ending with a period', () => {
    expect(
      excerptProblems(
        'A practical look at voicemail for service business teams: where voice agents help most.',
        300,
      ),
    ).toContainEqual(expect.stringMatching(/not a complete sentence/));
    expect(
      excerptProblems('This guide covers voicemail. It is short. It has three sentences.', 300),
    ).toContain('3 sentences, not 1 or 2');
    expect(excerptProblems('This guide asks whether voicemail still works?', 300)).toContainEqual(
      expect.stringMatching(/does not end with a period/),
    );
    expect(excerptProblems('This guide looks at Hotel Front Desk Automation.', 300)).toContainEqual(
      'capital mid-sentence "Hotel"',
    );
    expect(excerptProblems('This guide answers “How can AI help dental clinics?” for clinics.', 300)).toEqual(
      [],
    );
    expect(sentences('It asks “Is it worth it? Maybe.” and answers. Then stops.')).toHaveLength(2);
    expect(
      paragraphProblems('For healthcare teams, how can AI help clinics is no longer a side project.'),
    ).toContainEqual(expect.stringMatching(/without a question mark/));
  });
});

describe('local writer grammar corpus', () => {
  it('has 50 distinct topics across every industry the writer knows', () => {
    expect(new Set(CORPUS.map((c) => c.topic)).size).toBe(50);
    expect(new Set(CORPUS.map((c) => c.tag))).toEqual(
      new Set(['Healthcare', 'Real Estate', 'Legal', 'Finance', 'Hospitality', 'Small Business']),
    );
  });

  it.each(CORPUS)('writes grammatical copy for "$topic"', ({ topic, key, tag }) => {
    expect(articleProblems(topic, key)).toEqual([]);
    const a = writeLocalArticle(topic);
    expect(a.tags[0]).toBe(tag);
    expect(a.title.length).toBeLessThanOrEqual(BLOG_LIMITS.title);
    expect(a.excerpt.length).toBeLessThanOrEqual(BLOG_LIMITS.excerpt);
    const slug = articleSlug(a.title);
    expect(slug.length).toBeGreaterThan(0);
    expect(slug.length).toBeLessThanOrEqual(GENERATED_SLUG_MAX);
    // Deterministic: the same topic always gives the same article.
    expect(writeLocalArticle(topic)).toEqual(a);
  });
});
