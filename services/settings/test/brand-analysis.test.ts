import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeSite } from '../src/domain/brand-analysis.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/site/${name}`, import.meta.url), 'utf8');

describe('local brand analysis of a site', () => {
  const { analysis, digest } = analyzeSite(
    {
      url: 'https://acme-dental.example/',
      pages: [
        { url: 'https://acme-dental.example/', html: fixture('index.html') },
        { url: 'https://acme-dental.example/about', html: fixture('about.html') },
      ],
      stylesheets: [
        { url: 'https://acme-dental.example/styles/main.css', css: fixture('main.css') },
        { url: 'https://acme-dental.example/styles/extra.css', css: fixture('extra.css') },
      ],
    },
    new Date('2026-11-25T10:00:00Z'),
  );

  it('takes the colours from the named custom properties', () => {
    expect(analysis.colors).toEqual({ primary: '#0b6e4f', secondary: '#08a045', accent: '#f4a259' });
    expect(analysis.palette[0]).toBe('#0b6e4f');
    expect(analysis.palette).not.toContain('#222222');
  });

  it('takes the body and heading fonts', () => {
    expect(analysis.typography).toEqual({ primaryFont: 'Nunito', secondaryFont: 'Merriweather' });
  });

  it('writes the messaging and voice from the words, not the scripts', () => {
    expect(analysis.messaging.tagline).toBe('Healthy smiles for the whole family');
    expect(analysis.messaging.ctaStyle).toBe('Consultative: "Book an Appointment", "Contact Us"');
    expect(analysis.voice.keywords.slice(0, 5)).toEqual(expect.arrayContaining(['dental', 'family']));
    expect(analysis.voice.keywords).not.toContain('tracking');
    expect(analysis.voice.personality.toLowerCase()).toContain('caring');
    expect(analysis.voice.tone).toBe('Friendly and conversational');
  });

  it('says where it came from', () => {
    expect(analysis.provider).toBe('local');
    expect(analysis.analyzedAt).toBe('2026-11-25T10:00:00.000Z');
    expect(analysis.sources).toEqual([
      'https://acme-dental.example/',
      'https://acme-dental.example/about',
      'https://acme-dental.example/styles/main.css',
      'https://acme-dental.example/styles/extra.css',
    ]);
    expect(digest.title).toContain('Acme Dental');
    expect(digest.ctas).toContain('Contact Us');
  });
});
