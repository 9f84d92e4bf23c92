/**
 * Which trigrams of a contains-search to ask the trigram index for.
 *
 * The index answers `search_text LIKE '%term%'` by intersecting the posting lists of every
 * trigram of the term. A trigram most contacts share ("com", "exa", a common first name) has a
 * posting list as long as the table, and stepping through it costs more than the rest of the
 * search (about 1,400 index pages for one rare address among a million contacts). A sample of
 * the search texts tells which of the term's trigrams are rare: the index is asked for those
 * alone, one `LIKE '%abc%'` each (every substring of the term is a necessary condition), and
 * the whole term is checked on the few rows they find. The answer is the same whatever the
 * sample says; only the work differs.
 */

/** A trigram the index reads cheaply: found in at most this share of the sampled contacts. */
export const SELECTIVE_SHARE = 0.02;
/** At most this many trigrams per search: each one more is another posting list to read. */
export const MAX_SEARCH_TRIGRAMS = 4;
/** Trigrams are added until about this many rows are expected to pass them. */
const EXPECTED_ROWS = 20;

const RUN = /[a-z0-9]{3,}/g;

/** The distinct three-character windows of `text` made of [a-z0-9] only (lower-cased text). */
export function trigramsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const [run] of text.matchAll(RUN))
    for (let i = 0; i + 3 <= run.length; i++) out.add(run.slice(i, i + 3));
  return out;
}

/** How many of a sample of contacts contain each trigram. */
export class TrigramSample {
  private readonly counts = new Map<string, number>();
  readonly size: number;

  /** `texts`: sampled search texts; `tableRows`: the contacts the sample stands for. */
  constructor(
    texts: Iterable<string>,
    readonly tableRows: number,
  ) {
    let size = 0;
    for (const text of texts) {
      size++;
      for (const t of trigramsOf(text)) this.counts.set(t, (this.counts.get(t) ?? 0) + 1);
    }
    this.size = size;
  }

  /** The estimated share of contacts containing `trigram` (one not sampled counts as half a row). */
  share(trigram: string): number {
    return (this.counts.get(trigram) ?? 0.5) / Math.max(this.size, 1);
  }
}

/**
 * The rarest trigrams of `term` (lower-cased, as searched), fewest first, enough to expect
 * about EXPECTED_ROWS rows; null when the sample is empty or even the rarest is common: then
 * many contacts match and the newest ones answer the page faster than any index.
 */
export function selectiveTrigrams(term: string, sample: TrigramSample): string[] | null {
  if (sample.size === 0) return null;
  const ranked = [...trigramsOf(term)]
    .map((t) => ({ t, share: sample.share(t) }))
    .sort((a, b) => a.share - b.share || (a.t < b.t ? -1 : 1));
  const first = ranked[0];
  if (!first || first.share > SELECTIVE_SHARE) return null;
  const chosen: string[] = [];
  let expected = sample.tableRows;
  for (const { t, share } of ranked) {
    if (chosen.length >= MAX_SEARCH_TRIGRAMS || share > SELECTIVE_SHARE) break;
    if (chosen.length > 0 && expected <= EXPECTED_ROWS) break;
    chosen.push(t);
    expected *= share;
  }
  return chosen;
}
