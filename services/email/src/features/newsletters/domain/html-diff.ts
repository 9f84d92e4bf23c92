/**
 * What 'Fix HTML Issues' would change in one draft, shown before anything is written: the
 * stored HTML and the fixed HTML as tokens (tags, text, comments), compared by meaning, not by
 * spelling, so what a serialiser only writes differently never shows as a change: tag and
 * attribute names in any case, any quoting and entity spelling, `<br/>` and `<br>`, white
 * space between tags; nor does what a parser adds to well-formed HTML (an attribute-less
 * <html>, <head>, <body>, <tbody> or <colgroup>, the end tags HTML lets one leave out). The
 * changes come back as hunks (what goes, what comes, where), from a Myers diff of the tokens.
 */

export interface DiffHunk {
  /** The text just before the change (the end of the preceding unchanged tokens). */
  context: string;
  /** The source's tokens the fix removes or rewrites ('' for an insertion). */
  before: string;
  /** What the fix writes there ('' for a removal). */
  after: string;
}

export interface HtmlDiff {
  hunks: DiffHunk[];
  /** More hunks than listed, or a comparison too large to make. */
  truncated: boolean;
}

interface Token {
  raw: string;
  /** Where it starts in the HTML. */
  at: number;
  /** Its meaning; null: not compared (white space, what parsers add). */
  key: string | null;
}

/** Elements the parser adds around well-formed content: never counted as moved or added. */
export const IMPLIED = new Set(['html', 'head', 'body', 'tbody', 'colgroup']);
/** Elements whose end tag HTML lets one leave out (WHATWG "optional tags"): never "unclosed". */
export const OPTIONAL_END = new Set([
  'p',
  'li',
  'dt',
  'dd',
  'option',
  'optgroup',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
  'colgroup',
  'caption',
  'rb',
  'rt',
  'rtc',
  'rp',
]);
const RAW = new Set(['style', 'script', 'title', 'textarea', 'xmp']);

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Entities decoded (the common named ones and every numeric one); others stay as written. */
function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return NAMED[e.toLowerCase()] ?? m;
  });
}

const ATTR = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

function tagKey(raw: string): string | null {
  const m = /^<(\/?)([a-zA-Z][\w:-]*)([\s\S]*?)\/?>$/.exec(raw);
  if (!m) return raw;
  const closing = m[1] === '/';
  const name = (m[2] as string).toLowerCase();
  const attrs = [...(m[3] ?? '').matchAll(ATTR)].map((a) => {
    const value = a[2] ?? a[3] ?? a[4];
    return value === undefined
      ? (a[1] as string).toLowerCase()
      : `${(a[1] as string).toLowerCase()}="${decode(value).replace(/\s+/g, ' ').trim()}"`;
  });
  if (closing) return OPTIONAL_END.has(name) || IMPLIED.has(name) ? null : `</${name}>`;
  if (IMPLIED.has(name) && !attrs.length) return null;
  return `<${[name, ...attrs].join(' ')}>`;
}

/** The HTML as tokens: doctype, comments, tags, text (the text of <style> and the like whole). */
export function tokenize(html: string): Token[] {
  const out: Token[] = [];
  const re = /<!--[\s\S]*?(?:-->|$)|<![^>]*>|<\/?[a-zA-Z][\w:-]*(?:[^>"']|"[^"]*"|'[^']*')*>|[^<]+|</g;
  let m: RegExpExecArray | null = re.exec(html);
  while (m) {
    const raw = m[0];
    const at = m.index;
    if (raw.startsWith('<!--')) out.push({ raw, at, key: raw });
    else if (raw.startsWith('<!')) out.push({ raw, at, key: raw.toLowerCase().replace(/\s+/g, ' ') });
    else if (/^<\/?[a-zA-Z]/.test(raw)) {
      out.push({ raw, at, key: tagKey(raw) });
      const name = /^<([a-zA-Z][\w:-]*)/.exec(raw)?.[1]?.toLowerCase();
      if (name && RAW.has(name)) {
        // Raw text up to its end tag, as one token.
        const end = html.toLowerCase().indexOf(`</${name}`, re.lastIndex);
        const stop = end < 0 ? html.length : end;
        const text = html.slice(re.lastIndex, stop);
        if (text.trim())
          out.push({ raw: text, at: re.lastIndex, key: `#raw ${text.replace(/\s+/g, ' ').trim()}` });
        re.lastIndex = stop;
      }
    } else {
      const text = decode(raw).replace(/\s+/g, ' ').trim();
      out.push({ raw, at, key: text ? `#text ${text}` : null });
    }
    m = re.exec(html);
  }
  return out;
}

type Op = 'same' | 'del' | 'ins';

/** A Myers diff (O((N+M)·D)) of two key lists; null when it needs more than `maxD` edits. */
function myers(a: string[], b: string[], maxD: number): Op[] | null {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(max, maxD); d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
          ? (v[offset + k + 1] as number)
          : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m, d);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], n: number, m: number, dEnd: number): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const saved = trace[d] as Int32Array;
    // saved holds v[-d-1 .. d+1] as it was before step d.
    const at = (k: number) => saved[k + d + 1] as number;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push('same');
      x--;
      y--;
    }
    ops.push(x === prevX ? 'ins' : 'del');
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push('same');
    x--;
    y--;
  }
  return ops.reverse();
}

const CONTEXT = 60;
const HUNK_TEXT = 600;

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);

/** What changes from `before` to `after`, by meaning; at most `limit` hunks. */
export function htmlDiff(before: string, after: string, limit = 40, maxEdits = 3000): HtmlDiff {
  const a = tokenize(before).filter((t) => t.key !== null);
  const b = tokenize(after).filter((t) => t.key !== null);
  const ops = myers(
    a.map((t) => t.key as string),
    b.map((t) => t.key as string),
    maxEdits,
  );
  if (!ops) return { hunks: [], truncated: true };
  const hunks: DiffHunk[] = [];
  let i = 0;
  let j = 0;
  let k = 0;
  /** Where the text after the last hunk starts in `after` (the context never reaches back past it). */
  let since = 0;
  let truncated = false;
  while (k < ops.length) {
    if (ops[k] === 'same') {
      i++;
      j++;
      k++;
      continue;
    }
    // The context: the fixed HTML just before the change.
    const at = b[j]?.at ?? after.length;
    const near = after
      .slice(Math.max(since, at - CONTEXT * 2), at)
      .replace(/\s+/g, ' ')
      .trim();
    // At most CONTEXT characters, from a tag's start when the cut falls inside one.
    const cut = near.slice(-CONTEXT);
    const context = cut.length < near.length && cut.indexOf('<') > 0 ? cut.slice(cut.indexOf('<')) : cut;
    let removed = '';
    let added = '';
    while (k < ops.length && ops[k] !== 'same') {
      if (ops[k] === 'del') removed += a[i++]?.raw ?? '';
      else added += b[j++]?.raw ?? '';
      k++;
    }
    if (hunks.length === limit) {
      truncated = true;
      break;
    }
    hunks.push({ context, before: clip(removed, HUNK_TEXT), after: clip(added, HUNK_TEXT) });
    const last = b[j - 1];
    since = added && last ? last.at + last.raw.length : at;
  }
  return { hunks, truncated };
}
