import { describe, expect, it } from 'vitest';
import { ctaStyleOf, keywordsByWeight, taglineOf, voiceOf } from '../src/domain/voice.ts';

describe('keywords by term weight', () => {
  it('ranks title and heading words above body words and drops stopwords', () => {
    const keywords = keywordsByWeight({
      parts: [
        { text: 'Voice agents for clinics', weight: 5 },
        { text: 'The the the and of clinics patients patients patients scheduling', weight: 1 },
      ],
    });
    expect(keywords.slice(0, 3)).toEqual(['clinics', 'agents', 'voice']);
    expect(keywords).toContain('patients');
    expect(keywords).not.toContain('the');
  });

  it('is empty for empty text and capped at the limit', () => {
    expect(keywordsByWeight({ parts: [] })).toEqual([]);
    const many = Array.from({ length: 30 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`).join(
      ' ',
    );
    expect(keywordsByWeight({ parts: [{ text: many, weight: 1 }] }, 5)).toHaveLength(5);
  });
});

describe('tone, personality and writing style', () => {
  it('hears an enthusiastic voice', () => {
    const v = voiceOf('Boost your sales today! Transform your business fast! Grow faster than ever before!');
    expect(v.tone).toBe('Enthusiastic and energetic');
    expect(v.personality.toLowerCase()).toContain('bold');
  });

  it('hears a friendly, conversational voice that speaks to the reader', () => {
    const v = voiceOf(
      "You'll love how easy it is. We're here to help you every step of the way. Your team can start in minutes.",
    );
    expect(v.tone).toBe('Friendly and conversational');
    expect(v.writingStyle).toBe('Concise, short sentences that speak to the reader directly ("you")');
  });

  it('hears a formal voice', () => {
    const v = voiceOf(
      'Furthermore, the organization provides comprehensive compliance solutions for enterprise clients operating in regulated industries across several jurisdictions with independent oversight. Pursuant to applicable regulation, all engagements are documented, reviewed by qualified counsel and audited by independent assessors on an annual basis.',
    );
    expect(v.tone).toBe('Formal and authoritative');
    expect(v.personality).toMatch(/^Trustworthy/);
    expect(v.writingStyle).toMatch(/^Detailed, long sentences/);
  });
});

describe('messaging', () => {
  it('takes the main heading as the tagline when it reads like one', () => {
    expect(taglineOf({ h1: 'Healthy smiles for the whole family', title: 'X', description: null })).toBe(
      'Healthy smiles for the whole family',
    );
  });

  it('else the part of the title that is not the name, else the description', () => {
    expect(taglineOf({ h1: 'Acme', title: 'Acme | Calls answered while you sleep', description: null })).toBe(
      'Calls answered while you sleep',
    );
    expect(taglineOf({ h1: null, title: null, description: 'We build bridges. And roads.' })).toBe(
      'We build bridges.',
    );
  });

  it('names the CTA style with the most used calls to action', () => {
    expect(ctaStyleOf(['Book a Demo', 'Book a Demo', 'Contact Sales', 'Learn more'])).toBe(
      'Consultative: "Book a Demo", "Contact Sales"',
    );
    expect(ctaStyleOf(['Get Started', 'Get Started', 'Start building'])).toBe(
      'Action-oriented: "Get Started", "Start building"',
    );
    expect(ctaStyleOf([])).toBe('No clear calls to action found');
  });
});
