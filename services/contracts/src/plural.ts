/**
 * Counted nouns, one rule for the whole product: "1 row", "2 rows", "1,240 contacts", never
 * "1 rows" (issue 35). Intl.PluralRules decides singular or plural for the product's language
 * (US English); numbers are written with thousands separators.
 */

const rules = new Intl.PluralRules('en-US');

/** The noun alone for a count: `nounFor(1, 'row')` is 'row', `nounFor(2, 'row')` 'rows'. */
export function nounFor(n: number, one: string, other = `${one}s`): string {
  return rules.select(n) === 'one' ? one : other;
}

/** The count and its noun: `plural(1, 'error')` is '1 error', `plural(1240, 'contact')` '1,240 contacts'. */
export function plural(n: number, one: string, other = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${nounFor(n, one, other)}`;
}
