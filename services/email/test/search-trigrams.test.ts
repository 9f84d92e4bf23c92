import { describe, expect, it } from 'vitest';
import {
  MAX_SEARCH_TRIGRAMS,
  SELECTIVE_SHARE,
  selectiveTrigrams,
  TrigramSample,
  trigramsOf,
} from '../src/features/audience/domain/search-trigrams.ts';

/** Search texts shaped like the contacts' (`first last email company`), lower-cased. */
const texts = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `person${i} family${i % 97} contact${i}@company${i % 500}.example.com acme ${i % 3 ? 'inc' : 'llc'}`,
  );

describe('trigrams of a search text', () => {
  it('takes every three-character window of each [a-z0-9] run, once', () => {
    expect([...trigramsOf('ab ab1 abcd')].sort()).toEqual(['ab1', 'abc', 'bcd']);
    expect([...trigramsOf('contact12@x.example.com')]).toEqual(
      expect.arrayContaining(['con', 'ct1', 't12', 'exa', 'ple', 'com']),
    );
    expect(trigramsOf('aaaa aaa').size).toBe(1);
    // Punctuation, spaces and letters outside [a-z0-9] end a run.
    expect([...trigramsOf('o-b.r müller')].sort()).toEqual(['ler', 'lle']);
    expect(trigramsOf('').size).toBe(0);
  });
});

describe('the trigrams a search asks the index for', () => {
  const sample = new TrigramSample(texts(5000), 1_000_000);

  it('estimates shares from the sample, an unseen trigram as half a row', () => {
    expect(sample.size).toBe(5000);
    expect(sample.share('exa')).toBe(1);
    expect(sample.share('inc')).toBeCloseTo(2 / 3, 2);
    expect(sample.share('zzz')).toBe(0.5 / 5000);
  });

  it('picks the rarest trigrams of a rare term, rarest first, enough to expect a few rows', () => {
    const chosen = selectiveTrigrams('contact4321@', sample);
    expect(chosen).not.toBeNull();
    const shares = (chosen ?? []).map((t) => sample.share(t));
    expect(shares.every((s) => s <= SELECTIVE_SHARE)).toBe(true);
    expect([...shares].sort((a, b) => a - b)).toEqual(shares);
    expect(chosen?.length).toBeGreaterThanOrEqual(2);
    expect(chosen?.length).toBeLessThanOrEqual(MAX_SEARCH_TRIGRAMS);
    // Trigrams every contact shares never go to the index.
    for (const common of ['con', 'ont', 'nta', 'tac', 'act']) expect(chosen).not.toContain(common);
    // All of them are in the term, so every match contains them.
    for (const t of chosen ?? []) expect('contact4321@').toContain(t);
  });

  it('stops at one trigram when it alone is expected to find a handful of rows', () => {
    const small = new TrigramSample(texts(5000), 5000);
    expect(selectiveTrigrams('zzqx', small)).toEqual(['zqx']);
  });

  it('gives no trigram for a common term, a term without one, or an empty sample', () => {
    expect(selectiveTrigrams('example', sample)).toBeNull();
    expect(selectiveTrigrams('acme inc', sample)).toBeNull();
    expect(selectiveTrigrams('@.-', sample)).toBeNull();
    expect(selectiveTrigrams('ab', sample)).toBeNull();
    expect(selectiveTrigrams('contact4321@', new TrigramSample([], 0))).toBeNull();
  });
});
