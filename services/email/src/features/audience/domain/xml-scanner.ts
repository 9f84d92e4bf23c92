/**
 * A streaming scanner for the XML of spreadsheet parts: elements (by local name, the
 * namespace prefix dropped), their raw attribute text, and character data, fed in pieces of
 * any size. Text is handed on as it arrives, never gathered here, so a text node of any length
 * costs no memory; only an unfinished tag is held, up to `maxMarkup` characters. Comments and
 * processing instructions are skipped; CDATA is text. A DOCTYPE is refused: spreadsheet
 * parts never have one, and entity definitions are how XML bombs expand.
 */

export interface XmlHandler {
  open(name: string, attrs: string, selfClosing: boolean): void;
  close(name: string): void;
  /** Character data, entities decoded. */
  text(s: string): void;
  /** True when the handler wants the caller to take what it has gathered before going on. */
  readonly full?: boolean;
}

export class XmlError extends Error {
  override name = 'XmlError';
}

const LT = 60;
const GT = 62;
const SLASH = 47;
const BANG = 33;
const QUESTION = 63;
const DQ = 34;
const SQ = 39;

export class XmlScanner {
  private rest = '';
  private cdata = false;

  constructor(
    private readonly h: XmlHandler,
    private readonly maxMarkup = 64 * 1024,
  ) {}

  /**
   * Scans `chunk` after what was left over. Returns true when it stopped early because the
   * handler is full: call again (with '') once its output has been taken.
   */
  push(chunk: string): boolean {
    const s = this.rest ? this.rest + chunk : chunk;
    this.rest = '';
    const n = s.length;
    const h = this.h;
    let i = 0;
    while (i < n) {
      if (h.full) {
        this.rest = s.slice(i);
        return true;
      }
      if (this.cdata) {
        const e = s.indexOf(']]>', i);
        if (e === -1) {
          // ']]>' may be cut at the end: keep two characters back.
          const keep = Math.max(i, n - 2);
          if (keep > i) h.text(s.slice(i, keep));
          this.rest = s.slice(keep);
          return false;
        }
        if (e > i) h.text(s.slice(i, e));
        this.cdata = false;
        i = e + 3;
        continue;
      }
      const lt = s.indexOf('<', i);
      if (lt !== i) {
        let stop = lt === -1 ? n : lt;
        if (lt === -1) {
          // An entity may be cut at the end of the piece.
          const amp = s.lastIndexOf('&', n - 1);
          if (amp >= i && n - amp < 12 && s.indexOf(';', amp) === -1) stop = amp;
        }
        if (stop > i) h.text(decodeEntities(s.slice(i, stop)));
        if (lt === -1) {
          this.rest = s.slice(stop);
          return false;
        }
        i = lt;
      }
      if (i + 1 >= n) return this.hold(s, i);
      const c = s.charCodeAt(i + 1);
      if (c === BANG) {
        if (s.startsWith('<!--', i)) {
          const e = s.indexOf('-->', i + 4);
          if (e === -1) return this.hold(s, i);
          i = e + 3;
          continue;
        }
        if (s.startsWith('<![CDATA[', i)) {
          this.cdata = true;
          i += 9;
          continue;
        }
        if (n - i < 9) return this.hold(s, i);
        throw new XmlError('a document type declaration');
      }
      if (c === QUESTION) {
        const e = s.indexOf('?>', i + 2);
        if (e === -1) return this.hold(s, i);
        i = e + 2;
        continue;
      }
      // A tag: up to the first '>' outside quoted attribute values.
      let j = i + 1;
      let quote = 0;
      for (; j < n; j++) {
        const d = s.charCodeAt(j);
        if (quote) {
          if (d === quote) quote = 0;
        } else if (d === GT) break;
        else if (d === DQ || d === SQ) quote = d;
        else if (d === LT) throw new XmlError('a "<" inside a tag');
      }
      if (j >= n) return this.hold(s, i);
      this.tag(s, i + 1, j);
      i = j + 1;
    }
    return false;
  }

  /** The end of the part: anything left unfinished is an error. */
  end(): void {
    if (this.cdata || this.rest.trim().startsWith('<')) throw new XmlError('the part ends inside a tag');
    if (this.rest) this.h.text(decodeEntities(this.rest));
    this.rest = '';
  }

  private hold(s: string, from: number): false {
    if (s.length - from > this.maxMarkup)
      throw new XmlError(`a tag longer than ${this.maxMarkup} characters`);
    this.rest = s.slice(from);
    return false;
  }

  /** The tag between s[from] (after '<') and s[to] ('>'). */
  private tag(s: string, from: number, to: number): void {
    if (s.charCodeAt(from) === SLASH) {
      this.h.close(localName(s.slice(from + 1, to).trim()));
      return;
    }
    const selfClosing = s.charCodeAt(to - 1) === SLASH;
    const end = selfClosing ? to - 1 : to;
    let k = from;
    while (k < end) {
      const d = s.charCodeAt(k);
      if (d === 32 || d === 9 || d === 10 || d === 13) break;
      k++;
    }
    if (k === from) throw new XmlError('a tag without a name');
    const name = localName(s.slice(from, k));
    this.h.open(name, k < end ? s.slice(k, end) : '', selfClosing);
    if (selfClosing) this.h.close(name);
  }
}

function localName(qname: string): string {
  const colon = qname.indexOf(':');
  return colon === -1 ? qname : qname.slice(colon + 1);
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const ENTITY = /&(#x[0-9a-fA-F]{1,8}|#[0-9]{1,10}|amp|lt|gt|quot|apos);/g;

/** Text with XML's entity and character references decoded (an unknown one is kept as it is). */
export function decodeEntities(t: string): string {
  if (t.indexOf('&') === -1) return t;
  return t.replace(ENTITY, (whole, ref: string) => {
    if (ref.charCodeAt(0) !== 35) return NAMED[ref] ?? whole;
    const code =
      ref.charCodeAt(1) === 120 ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
      ? String.fromCodePoint(code)
      : '\uFFFD';
  });
}

const ATTRIBUTES = new Map<string, RegExp>();

/**
 * The value of attribute `name` in a tag's attribute text, entities decoded; undefined when
 * absent. `name` matches with any namespace prefix (`id` finds `r:id`).
 */
export function attribute(attrs: string, name: string): string | undefined {
  if (!attrs) return undefined;
  let re = ATTRIBUTES.get(name);
  if (!re) {
    re = new RegExp(`(?:^|\\s)(?:[\\w.-]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    ATTRIBUTES.set(name, re);
  }
  const m = re.exec(attrs);
  if (!m) return undefined;
  return decodeEntities(m[1] ?? m[2] ?? '');
}
