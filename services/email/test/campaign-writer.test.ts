import { CAMPAIGN_GOALS, type CampaignGoal, SUBJECT_TIP_LENGTH } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { renderCampaign, textOn } from '../src/features/writer/domain/campaign-renderer.ts';
import { ctaUrl, GOAL_CTA, planCopy, visibleLength } from '../src/features/writer/domain/campaign-writer.ts';
import { type Company, companyFrom } from '../src/features/writer/domain/company.ts';
import { figureOf, offerOf, topicOf } from '../src/features/writer/domain/prompt-reader.ts';
import { sanitizeEmailHtml, textOfHtml } from '../src/shared/email-html.ts';
import { headerImagePath } from '../src/shared/header-banner.ts';

/** The local campaign writer: topic reading, goal-specific copy, the e-mail layout (header images: header-banner.test.ts). */

const ORIGIN = 'https://parley.test';
const PROMPT =
  'Write an email inviting dental clinics to book a demo of our AI receptionist before the holidays';
const company: Company = companyFrom(
  { companyName: 'Parley', valueProposition: 'Never miss a call again', address: '1 Main St, Springfield' },
  { name: 'Fallback', website: 'https://parley.test' },
);

const write = (
  goal: CampaignGoal,
  prompt = PROMPT,
  c: Company = company,
  headerImageUrl: string | null = null,
) => {
  const copy = planCopy({ prompt, goal, company: c, origin: ORIGIN });
  const { html, text } = renderCampaign(copy, { company: c, goal, headerImageUrl });
  return { copy, html: sanitizeEmailHtml(html), text };
};

describe('reading the prompt', () => {
  it('finds the topic behind an instruction, the audience and the sender’s product', () => {
    expect(topicOf(PROMPT)).toEqual({
      phrase: 'AI receptionist',
      det: 'our',
      ref: 'our AI receptionist',
      audience: 'dental clinics',
    });
    expect(topicOf('Monthly newsletter about after-hours call coverage')).toMatchObject({
      ref: 'after-hours call coverage',
    });
    expect(
      topicOf('create a campaign to re-engage customers who have not used the scheduling integration'),
    ).toMatchObject({ ref: 'the scheduling integration', audience: 'customers' });
    expect(
      topicOf('Announce our new Spanish-language voice agent for law firms, offering 20% off'),
    ).toMatchObject({
      phrase: 'Spanish-language voice agent',
      audience: 'law firms',
    });
    expect(topicOf('   ').ref).toBe('our latest news');
    expect(topicOf('x'.repeat(300)).phrase.length).toBeLessThanOrEqual(40);
  });

  it('quotes offers and results the prompt states, and invents none', () => {
    expect(offerOf('Launch our agent with 20% off the first three months until December 15.')).toBe(
      '20% off the first three months until December 15',
    );
    expect(offerOf('A free trial for every clinic, then monthly billing')).toBe(
      'A free trial for every clinic',
    );
    expect(offerOf('Our new agent for dental clinics')).toBeNull();
    expect(figureOf('Case study: Smile Dental cut no-shows by 32% after using our reminder calls')).toBe(
      'Smile Dental cut no-shows by 32% after using our reminder calls',
    );
    expect(figureOf('How clinics use our agent')).toBeNull();
  });

  it('reads free-text company context by its labels and keeps the rest as notes', () => {
    const c = companyFrom('Company: Acme Dental\nIndustry: healthcare\nTone: friendly\nWe opened in 1998.', {
      name: 'Parley',
      website: null,
    });
    expect(c).toMatchObject({
      name: 'Acme Dental',
      industry: 'healthcare',
      tone: 'friendly',
      notes: 'We opened in 1998.',
    });
    expect(companyFrom(null, { name: 'Parley', website: 'https://p.test' })).toMatchObject({
      name: 'Parley',
      website: 'https://p.test',
    });
  });
});

describe('the local writer', () => {
  it('writes a different subject, headline and call to action for each of the seven goals', () => {
    const all = CAMPAIGN_GOALS.map((g) => write(g));
    expect(new Set(all.map((w) => w.copy.subject)).size).toBe(CAMPAIGN_GOALS.length);
    expect(new Set(all.map((w) => w.copy.headline)).size).toBe(CAMPAIGN_GOALS.length);
    expect(new Set(all.map((w) => w.copy.cta.label)).size).toBe(CAMPAIGN_GOALS.length);
    for (const [i, goal] of CAMPAIGN_GOALS.entries()) {
      const w = all[i] as (typeof all)[number];
      expect(w.copy.cta.url.startsWith(`${ORIGIN}${GOAL_CTA[goal].path.split('#')[0]}?`)).toBe(true);
      expect(w.html).toContain(GOAL_CTA[goal].label);
      expect(w.copy.name).toMatch(/^AI Receptionist – /);
    }
  });

  it('books demos on the site’s booking page', () => {
    const { copy, html } = write('demo_booking');
    expect(copy.cta).toEqual({
      label: 'Book your demo',
      url: `${ORIGIN}/book-demo?utm_source=email&utm_medium=email&utm_campaign=ai-receptionist-demo-booking`,
    });
    expect(html).toContain('href="https://parley.test/book-demo?utm_source=email&amp;utm_medium=email');
    expect(copy.subject).toContain('AI receptionist');
  });

  it('keeps every subject under the 50-character tip, even for a long prompt', () => {
    const long =
      'Announce the completely redesigned multilingual after-hours appointment scheduling assistant for veterinary hospitals';
    for (const goal of CAMPAIGN_GOALS)
      for (const prompt of [PROMPT, long, 'AI receptionist for dental clinics']) {
        expect(visibleLength(write(goal, prompt).copy.subject)).toBeLessThan(SUBJECT_TIP_LENGTH);
      }
  });

  it('personalises with {{firstName}} and {{company}} and ends with the {{unsubscribeUrl}} link', () => {
    for (const goal of CAMPAIGN_GOALS) {
      const { html, text } = write(goal);
      expect(html).toContain('Hi {{firstName|there}},');
      expect(html).toMatch(/\{\{company\|[a-z ]+\}\}/);
      expect(html).toMatch(/<a href="\{\{unsubscribeUrl\}\}" data-no-track[\s=][^>]*>Unsubscribe<\/a>/);
      expect(text).toContain('Hi {{firstName|there}},');
      expect(text).toContain('Unsubscribe: {{unsubscribeUrl}}');
      expect(html).toContain('1 Main St, Springfield');
    }
  });

  it('writes a text part that says what the HTML says', () => {
    for (const goal of CAMPAIGN_GOALS) {
      const { copy, html, text } = write(goal);
      for (const line of [copy.headline, ...copy.paragraphs, ...copy.bullets, ...copy.closing])
        expect(text).toContain(line);
      expect(text).toContain(`${copy.cta.label}: ${copy.cta.url}`);
      // The HTML read as text has the same paragraphs (modulo wrapping).
      const flat = textOfHtml(html).replace(/\s+/g, ' ');
      for (const p of copy.paragraphs) expect(flat).toContain(p.replace(/\s+/g, ' '));
    }
  });

  it('is e-mail safe: tables and inline styles, no script or handler even from a hostile prompt', () => {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(1)> our "AI" agent <b>now</b>';
    const { html } = write('product_launch', hostile, {
      ...company,
      name: '<script>evil()</script>',
      address: '<img src=x onerror=alert(2)>',
    });
    expect(html).not.toMatch(/<script|<[^>]*\son\w+\s*=|javascript:/i);
    expect(html).not.toContain('&lt;b&gt;');
    expect(html).toContain('&lt;script&gt;evil()&lt;/script&gt;');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('role="presentation"');
    expect(html).toContain('max-width:600px');
    expect(html).toContain('<meta name="viewport"');
  });

  it('shows the goal’s PNG header image, or a coloured band with the company name', () => {
    const url = `${ORIGIN}${headerImagePath('case_study')}`;
    const withImage = write('case_study', PROMPT, company, url);
    expect(withImage.html).toContain(`<img src="${url}" width="600"`);
    expect(url).toMatch(/^https:\/\/.+\.png$/);
    const without = write('case_study');
    expect(without.html).not.toContain('<img');
    expect(without.html).toContain('bgcolor="#b45309"');
  });

  it('uses the brand colour for the button, with readable text on it', () => {
    const { html } = write('demo_booking', PROMPT, { ...company, brandColor: '#fbbf24' });
    expect(html).toContain('bgcolor="#fbbf24"');
    expect(textOn('#fbbf24')).toBe('#111827');
    expect(textOn('#047857')).toBe('#ffffff');
  });

  it('weaves the company context into the copy and follows its tone', () => {
    const friendly = write('lead_generation', PROMPT, {
      ...company,
      audience: 'orthodontists in Ohio',
      tone: 'warm and friendly',
    });
    expect(friendly.text).toContain('orthodontists in Ohio');
    expect(friendly.text).toContain('our promise is simple: never miss a call again.');
    expect(friendly.copy.signOff).toBe('Cheers,\nThe Parley team');
    expect(write('lead_generation', PROMPT, { ...company, tone: 'formal' }).copy.greeting).toBe(
      'Hello {{firstName|there}},',
    );
  });

  it('puts a stated offer or result in the highlighted line', () => {
    expect(
      write('product_launch', 'Launch our voice agent with 20% off the first month').copy.highlight,
    ).toBe('20% off the first month');
    expect(
      write('case_study', 'Case study: Smile Dental cut no-shows by 32% after using our reminder calls').copy
        .highlight,
    ).toBe('The result: Smile Dental cut no-shows by 32% after using our reminder calls');
    expect(write('case_study').copy.highlight).toBeNull();
  });

  it('writes the same campaign for the same input', () => {
    expect(write('newsletter')).toEqual(write('newsletter'));
    expect(ctaUrl(ORIGIN, 'customer_retention', 'Spring – Customer retention')).toBe(
      `${ORIGIN}/?utm_source=email&utm_medium=email&utm_campaign=spring-customer-retention#contact`,
    );
  });
});
