import { TTS_MAX_CHARS } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { SCENARIOS, scenarioSeconds } from './scenarios.ts';
import { SCENARIO_IDS, USE_CASES } from './use-cases.ts';

describe('use-case cards', () => {
  it('are thirteen, each with four benefits and the three result claims', () => {
    expect(USE_CASES).toHaveLength(13);
    expect(new Set(USE_CASES.map((u) => u.id)).size).toBe(13);
    for (const u of USE_CASES) {
      expect(u.benefits).toHaveLength(4);
      expect(Object.keys(u.metrics).sort()).toEqual(['cost', 'efficiency', 'satisfaction']);
      for (const claim of Object.values(u.metrics)) {
        expect(claim.value).not.toBe('');
        expect(claim.label).not.toBe('');
      }
    }
  });

  it('each play a scenario of their own: thirteen cards, thirteen scenarios', () => {
    const used = USE_CASES.map((u) => u.demoScenario);
    expect(used.every(Boolean)).toBe(true);
    expect(new Set(used).size).toBe(13);
    expect([...used].sort()).toEqual([...SCENARIO_IDS].sort());
  });
});

describe('demo scenarios', () => {
  it('are twelve scripts of nine alternating steps the voice service accepts', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual([...SCENARIO_IDS].sort());
    for (const id of SCENARIO_IDS) {
      const s = SCENARIOS[id];
      expect(s.id).toBe(id);
      expect(s.steps.map((step) => step.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      s.steps.forEach((step, i) => {
        expect(step.speaker).toBe(i % 2 === 0 ? 'ai' : 'customer');
        expect(step.text.trim().length).toBeGreaterThan(0);
        expect(step.text.length).toBeLessThanOrEqual(TTS_MAX_CHARS);
        expect(step.duration).toBeGreaterThanOrEqual(2);
      });
    }
  });

  it('last the sum of their step durations', () => {
    const s = SCENARIOS['bail-bonds'];
    expect(scenarioSeconds(s)).toBe(s.steps.reduce((sum, step) => sum + step.duration, 0));
    expect(scenarioSeconds(s)).toBeGreaterThan(30);
  });
});
