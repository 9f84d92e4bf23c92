import { CAMPAIGN_GOAL_LABELS, mergeFieldsIn, OPTIMIZE_GOAL_LABELS } from '@parley/contracts';
import OpenAI from 'openai';
import { type CampaignCopy, planCopy } from './domain/campaign-writer.ts';
import type { CampaignWriter } from './writer.service.ts';

/**
 * OpenAI adapter (official SDK, JSON mode). Generation: the model writes the campaign's words
 * (subject, preheader, headline, paragraphs, list, button label, closing), and the local
 * plan fills whatever it leaves out; the call to action's link, the layout, the merge fields
 * and the footer stay the service's (domain/campaign-renderer.ts renders them). Optimization:
 * the model rewrites the subject or the HTML and lists its changes; an HTML rewrite that
 * loses a merge field the original had ({{unsubscribeUrl}}, {{firstName}}…) is refused.
 */

const str = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.trim()
    ? v
        .replace(/<[^>]*>/g, '')
        .replace(/[ \t]+/g, ' ')
        .trim()
        .slice(0, max)
    : null;
const strs = (v: unknown, max: number, count: number): string[] =>
  Array.isArray(v)
    ? v
        .map((x) => str(x, max))
        .filter((x): x is string => x !== null)
        .slice(0, count)
    : [];

const fieldsOf = mergeFieldsIn;

export function openAiCampaignWriter(opts: {
  apiKey: string;
  model: string;
  baseURL?: string;
}): CampaignWriter {
  const client = new OpenAI({
    apiKey: opts.apiKey,
    timeout: 60_000,
    maxRetries: 1,
    ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
  });

  async function json(system: string, user: string): Promise<Record<string, unknown>> {
    const res = await client.chat.completions.create({
      model: opts.model,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
    });
    const raw = JSON.parse(res.choices[0]?.message?.content ?? '{}') as unknown;
    if (!raw || typeof raw !== 'object') throw new Error('The model returned no JSON object');
    return raw as Record<string, unknown>;
  }

  return {
    provider: 'openai',
    model: opts.model,
    async writeCopy(brief) {
      const local = planCopy(brief);
      const c = brief.company;
      const raw = await json(
        'You write marketing e-mail campaigns for a company that sells AI voice agents answering business phone calls. Write plain text only (no HTML, no markdown). Use the merge fields {{firstName}} (greeting) and {{company}} (once, in the body) exactly as written. Never invent figures, prices, dates or customer names the brief does not give. Answer with JSON: {"name","subject","preheader","headline","greeting","paragraphs","highlight","listTitle","bullets","ctaLabel","closing"} where subject is under 50 characters, preheader under 110, paragraphs 2 to 4 short paragraphs, bullets 0 to 5 items, highlight an offer or result stated in the brief or null, ctaLabel 2 to 5 words, closing 1 or 2 sentences.',
        JSON.stringify({
          brief: brief.prompt,
          goal: CAMPAIGN_GOAL_LABELS[brief.goal],
          callToAction: { label: local.cta.label, link: local.cta.url },
          company: {
            name: c.name,
            industry: c.industry,
            audience: c.audience,
            valueProposition: c.valueProposition,
            tone: c.tone,
            keywords: c.keywords,
            notes: c.notes,
          },
        }),
      );
      const paragraphs = strs(raw.paragraphs, 1200, 4);
      const bullets = strs(raw.bullets, 300, 5);
      const copy: CampaignCopy = {
        name: str(raw.name, 200) ?? local.name,
        subject: str(raw.subject, 150) ?? local.subject,
        preheader: str(raw.preheader, 200) ?? local.preheader,
        headline: str(raw.headline, 200) ?? local.headline,
        greeting: str(raw.greeting, 100) ?? local.greeting,
        paragraphs: paragraphs.length ? paragraphs : local.paragraphs,
        highlight: str(raw.highlight, 300),
        listTitle: bullets.length ? str(raw.listTitle, 200) : null,
        bullets,
        cta: { label: str(raw.ctaLabel, 60) ?? local.cta.label, url: local.cta.url },
        closing: strs(raw.closing, 600, 2),
        signOff: local.signOff,
      };
      if (!copy.paragraphs.length) throw new Error('The model returned no paragraphs');
      return copy;
    },
    async optimize({ field, goal, content }) {
      const html = field === 'htmlContent';
      const raw = await json(
        `You optimize marketing e-mails toward one goal: ${OPTIMIZE_GOAL_LABELS[goal]}. ${
          html
            ? 'Rewrite the e-mail HTML: keep its layout, tables, inline styles, images and links; keep every merge field such as {{firstName}}, {{company}} and {{unsubscribeUrl}} exactly; no script, no event handlers. Answer with JSON: {"htmlContent","changes"}.'
            : 'Rewrite the subject line (under 50 characters where possible; keep merge fields such as {{firstName}} exactly). Answer with JSON: {"subject","changes"}.'
        } "changes" lists each change you made in one short sentence. Never invent figures, prices, dates or customer names.`,
        content,
      );
      const changes = strs(raw.changes, 300, 12);
      if (!html) {
        const subject = str(raw.subject, 300);
        if (!subject) throw new Error('The model returned no subject');
        return { value: subject.replace(/\s+/g, ' '), changes };
      }
      const value = typeof raw.htmlContent === 'string' ? raw.htmlContent : '';
      if (!value.trim()) throw new Error('The model returned no HTML');
      const kept = fieldsOf(value);
      const lost = [...fieldsOf(content)].filter((f) => !kept.has(f));
      if (lost.length)
        throw new Error(`the rewrite dropped the merge field(s) ${lost.map((f) => `{{${f}}}`).join(', ')}`);
      return { value, changes };
    },
  };
}
