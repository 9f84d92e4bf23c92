import type { BrandSettingsResponse, Campaign } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { companyContextOf, companyFromBrand, EMPTY_COMPANY, regenerateSeed } from './api.ts';

/** The generator's company context from the brand settings, and the seed of a regeneration. */

const brand: BrandSettingsResponse = {
  success: true,
  settings: {
    brandName: 'Parley',
    brandVoice: null,
    websiteUrl: 'https://parley.ai',
    supportEmail: null,
    companyAddress: '1 Main St, Springfield',
    companyPhone: null,
    analysis: {
      colors: { primary: '#0e7490', secondary: null, accent: null },
      voice: {
        tone: 'Friendly',
        personality: 'Helpful',
        writingStyle: 'Plain',
        keywords: ['voice', 'agents', 'calls', 'booking', 'ai', 'extra'],
      },
      typography: { primaryFont: null, secondaryFont: null },
      messaging: { tagline: 'Never miss a call again', ctaStyle: 'Direct' },
      provider: 'local',
      url: 'https://parley.ai',
      sources: [],
      palette: [],
      analyzedAt: '2026-11-01T00:00:00.000Z',
    },
  },
};

describe('company context', () => {
  it('fills from the brand settings and the last brand analysis', () => {
    expect(companyFromBrand(brand)).toEqual({
      companyName: 'Parley',
      industry: '',
      audience: '',
      valueProposition: 'Never miss a call again',
      tone: 'Friendly',
      website: 'https://parley.ai',
      address: '1 Main St, Springfield',
      keywords: 'voice, agents, calls, booking, ai',
      brandColor: '#0e7490',
    });
    expect(companyFromBrand(undefined)).toEqual(EMPTY_COMPANY);
  });

  it('sends the filled fields only, and a valid colour only', () => {
    expect(
      companyContextOf({ ...EMPTY_COMPANY, companyName: ' Acme ', keywords: 'a, ,b', brandColor: 'red' }),
    ).toEqual({
      companyName: 'Acme',
      keywords: ['a', 'b'],
    });
    expect(companyContextOf(EMPTY_COMPANY)).toBeNull();
  });
});

describe('regenerating a campaign', () => {
  const campaign = (name: string, subject: string) => ({ name, subject }) as Campaign;

  it('prompts with the name and subject, and keeps the goal the generator named it after', () => {
    expect(
      regenerateSeed(campaign('AI Receptionist – Demo booking', 'See our AI receptionist in action')),
    ).toEqual({
      prompt: 'AI Receptionist — See our AI receptionist in action',
      goal: 'demo_booking',
    });
    expect(regenerateSeed(campaign('Spring launch', 'Hello {{firstName}}'))).toEqual({
      prompt: 'Spring launch — Hello {{firstName}}',
      goal: 'lead_generation',
    });
  });
});
