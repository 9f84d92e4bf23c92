import { isAscii } from 'node:buffer';
import { TextDecoder } from 'node:util';
import type { ImportEncoding, TextEncoding } from '@parley/contracts';

/**
 * Reading CSV as it arrives: bytes are decoded (CsvDecoder: the encoding asked for, or
 * detected) and split into records of cells with the line each starts on.
 *
 * RFC 4180 plus what spreadsheets and hand-edited files really contain: a BOM, CRLF, LF or CR
 * line ends, quoted delimiters, quotes and line breaks, doubled quotes, quotes inside unquoted
 * text (kept as text), text after a closing quote (kept), rows of any width, empty lines.
 * Comma, semicolon or tab, whichever the first line uses.
 *
 * A record the splitter cannot read (a quote never closed within MAX_RECORD_CHARS, or a row
 * longer than that) is reported once, with its line, and reading resumes on the next line, so
 * one stray quote or one endless row costs one row, not the rest of the file. (csv-parse measured 1.1 s of CPU per 100,000 rows on the
 * project's machines, more than the whole import's budget; this splitter takes about a tenth:
 * see docs/adr/0047-csv-encoding-detection.md. The unit tests check it against csv-parse.)
 */

export type SheetRecord = { line: number; cells: string[] } | { line: number; unreadable: string };

/** Longest record accepted (characters): an unclosed quote must not make us hold the rest of the file. */
export const MAX_RECORD_CHARS = 64 * 1024;

const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * The delimiter of a CSV from its first line: comma, semicolon (spreadsheets in many locales)
 * or tab, whichever occurs most outside quotes; comma when none does.
 */
export function sniffDelimiter(head: string): ',' | ';' | '\t' {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of head) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch]++;
  }
  if (counts[';'] > counts[','] && counts[';'] >= counts['\t']) return ';';
  if (counts['\t'] > counts[','] && counts['\t'] > counts[';']) return '\t';
  return ',';
}

/** Splits decoded text into records; feed it text in any pieces, then call end(). */
export class CsvSplitter {
  private buf = '';
  /** Line number (1-based) of buf[0]. */
  private line = 1;
  /**
   * The rest of a reported record's line is being skipped: 'line' up to the next line end,
   * 'lf' only the LF of a CRLF whose CR ended the last piece.
   */
  private skipping: 'line' | 'lf' | null = null;
  private readonly delim: number;

  constructor(delimiter: string) {
    this.delim = delimiter.charCodeAt(0);
  }

  push(text: string, out: SheetRecord[]): void {
    this.buf = this.buf ? this.buf + text : text;
    this.drain(out, false);
  }

  end(out: SheetRecord[]): void {
    this.drain(out, true);
    this.buf = '';
  }

  /**
   * Where reading goes on after the record reported at s[start] (line `line`): the next line.
   * When that line has not arrived yet, the rest of the record's line is skipped as it comes.
   */
  private resume(s: string, start: number, line: number, final: boolean): number {
    this.line = line + 1;
    const end = lineEnd(s, start);
    if (end === -1) {
      if (!final) this.skipping = 'line';
      return s.length;
    }
    if (s.charCodeAt(end) === CR) {
      if (end + 1 < s.length) return s.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
      if (!final) this.skipping = 'lf';
    }
    return end + 1;
  }

  private drain(out: SheetRecord[], final: boolean): void {
    const s = this.buf;
    const n = s.length;
    const d = this.delim;
    let pos = 0;
    if (this.skipping === 'lf') {
      this.skipping = null;
      if (s.charCodeAt(0) === LF) pos = 1;
    } else if (this.skipping === 'line') {
      const end = lineEnd(s, 0);
      if (end === -1) {
        this.buf = '';
        return;
      }
      this.skipping = null;
      pos = end + 1;
      if (s.charCodeAt(end) === CR) {
        if (end + 1 < n) pos += s.charCodeAt(end + 1) === LF ? 1 : 0;
        else if (!final) this.skipping = 'lf';
      }
    }
    while (pos < n) {
      const start = pos;
      const startLine = this.line;
      let lines = 0;
      const cells: string[] = [];
      let i = pos;
      let complete = false;
      let broken = false;
      // One record: cells until an unquoted line end.
      for (;;) {
        if (i < n && s.charCodeAt(i) === QUOTE) {
          // Quoted cell: up to the closing quote ("" is a quote), then any text up to the delimiter.
          let value = '';
          let j = i + 1;
          for (;;) {
            const q = s.indexOf('"', j);
            if (q === -1) {
              j = -1;
              break;
            }
            value += s.slice(j, q);
            if (s.charCodeAt(q + 1) === QUOTE) {
              value += '"';
              j = q + 2;
              continue;
            }
            j = q + 1;
            break;
          }
          if (j === -1 || (j >= n && !final)) {
            // The closing quote (or what follows it) has not arrived yet, or never will.
            if (!final && n - start <= MAX_RECORD_CHARS) break;
            broken = true;
            break;
          }
          lines += countLineBreaks(s, i + 1, j);
          // Text after the closing quote, up to the delimiter or line end, is kept.
          let k = j;
          while (k < n) {
            const c = s.charCodeAt(k);
            if (c === d || c === LF || c === CR) break;
            k++;
          }
          if (k > j) value += s.slice(j, k);
          cells.push(value);
          i = k;
        } else {
          let k = i;
          while (k < n) {
            const c = s.charCodeAt(k);
            if (c === d || c === LF || c === CR) break;
            k++;
          }
          cells.push(s.slice(i, k));
          i = k;
        }
        if (i >= n) {
          if (final) complete = true;
          break;
        }
        const c = s.charCodeAt(i);
        if (c === d) {
          i++;
          if (i >= n && final) {
            cells.push('');
            complete = true;
            break;
          }
          continue;
        }
        // A line end: CRLF, LF or CR. A CR at the end of this piece may be half of a CRLF.
        if (c === CR) {
          if (i + 1 >= n && !final) break;
          i += s.charCodeAt(i + 1) === LF ? 2 : 1;
        } else i++;
        lines++;
        complete = true;
        break;
      }
      if (broken) {
        out.push({
          line: startLine,
          unreadable: 'A quoted value is never closed; the row was skipped',
        });
        // Resume on the line after the record's first line.
        pos = this.resume(s, start, startLine, final);
        continue;
      }
      if (!complete) {
        if (n - start > MAX_RECORD_CHARS && !final) {
          out.push({ line: startLine, unreadable: `The row is longer than ${MAX_RECORD_CHARS} characters` });
          pos = this.resume(s, start, startLine, final);
          continue;
        }
        break;
      }
      this.line = startLine + lines;
      pos = i;
      // Empty lines are not records.
      if (!(cells.length === 1 && cells[0] === '')) out.push({ line: startLine, cells });
    }
    this.buf = pos >= n ? '' : s.slice(pos);
  }
}

function countLineBreaks(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === LF) n++;
    else if (c === CR && s.charCodeAt(i + 1) !== LF) n++;
  }
  return n;
}

/** The index of the first line end (LF or CR) at or after `from`, or -1. */
function lineEnd(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === LF || c === CR) return i;
  }
  return -1;
}

/** Records of a CSV byte stream, in order, as the stream arrives (`decoder` says the encoding it used). */
export async function* csvRecords(
  source: AsyncIterable<Buffer | string> | Iterable<string>,
  delimiter?: ',' | ';' | '\t',
  decoder: CsvDecoder = new CsvDecoder(),
): AsyncGenerator<SheetRecord> {
  let splitter: CsvSplitter | null = null;
  let pending = '';
  const out: SheetRecord[] = [];
  for await (const chunk of source) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk);
    if (!splitter) {
      // The delimiter is judged on the first line (or its first 64 KiB).
      pending += text;
      if (!/[\r\n]/.test(pending) && pending.length < MAX_RECORD_CHARS) continue;
      text = pending.replace(/^\uFEFF/, '');
      pending = '';
      splitter = new CsvSplitter(delimiter ?? sniffDelimiter(text));
    }
    splitter.push(text, out);
    if (out.length) {
      yield* out;
      out.length = 0;
    }
  }
  const rest = decoder.end() + pending;
  if (!splitter) {
    if (!rest.replace(/^\uFEFF/, '')) return;
    splitter = new CsvSplitter(delimiter ?? sniffDelimiter(rest.replace(/^\uFEFF/, '')));
    splitter.push(rest.replace(/^\uFEFF/, ''), out);
  } else if (rest) splitter.push(rest, out);
  splitter.end(out);
  yield* out;
}

/**
 * Bytes to text in the encoding asked for, or, for 'auto', the one the bytes show: a
 * byte-order mark (UTF-8, UTF-16LE/BE); else, at the first bytes that are not ASCII (until
 * then both readings agree), UTF-8 when they are mostly well-formed UTF-8 sequences and
 * Windows-1252 when not (what Excel's "CSV" writes in Western locales; a superset of
 * Latin-1). Bytes invalid in the encoding become U+FFFD.
 */
export class CsvDecoder {
  /** The encoding in use: the one asked for, or detected; null while the bytes have been ASCII only. */
  encoding: TextEncoding | null = null;
  private decoder: TextDecoder | null = null;
  /** Bytes held until there are enough to judge (a byte-order mark, a cut UTF-8 sequence). */
  private held: Buffer | null = Buffer.alloc(0);

  constructor(requested: ImportEncoding = 'auto') {
    if (requested !== 'auto') this.use(requested, false);
  }

  decode(chunk: Buffer): string {
    if (this.decoder) return this.decoder.decode(chunk, { stream: true });
    let bytes = chunk;
    if (this.held) {
      bytes = this.held.length ? Buffer.concat([this.held, chunk]) : chunk;
      // The byte-order mark needs the first three bytes.
      if (bytes.length < 3) {
        this.held = bytes;
        return '';
      }
      this.held = null;
      const bom = byteOrderMark(bytes);
      if (bom) return this.use(bom, false).decode(bytes, { stream: true });
    }
    return this.judge(bytes, false);
  }

  /** The text still held; the encoding is known from here on (UTF-8 for ASCII). */
  end(): string {
    if (this.decoder) return this.decoder.decode();
    const held = this.held ?? Buffer.alloc(0);
    this.held = null;
    const bom = byteOrderMark(held);
    if (bom) return this.use(bom, false).decode(held);
    const text = held.length ? this.judge(held, true) : '';
    this.encoding ??= 'utf-8';
    return text + ((this.decoder as TextDecoder | null)?.decode() ?? '');
  }

  /** Text of `bytes` while no encoding is chosen: ASCII passes; the first other bytes choose. */
  private judge(bytes: Buffer, final: boolean): string {
    if (isAscii(bytes)) return bytes.toString('latin1');
    const { valid, invalid, end } = utf8Evidence(bytes);
    if (valid === 0 && invalid === 0 && !final) {
      // Only a UTF-8 sequence cut at the end: wait for its rest.
      this.held = Buffer.from(bytes.subarray(end));
      return bytes.toString('latin1', 0, end);
    }
    // A mid-stream decoder keeps a U+FEFF it meets as text.
    return this.use(valid > invalid ? 'utf-8' : 'windows-1252', true).decode(bytes, { stream: true });
  }

  private use(encoding: TextEncoding, ignoreBOM: boolean): TextDecoder {
    this.encoding = encoding;
    this.decoder = new TextDecoder(encoding, { ignoreBOM });
    return this.decoder;
  }
}

function byteOrderMark(b: Buffer): TextEncoding | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  return null;
}

/**
 * Well-formed UTF-8 sequences of two to four bytes in `b` and bytes that cannot be UTF-8
 * there; `end` is where a sequence cut by the end of `b` begins (b.length when none is).
 */
export function utf8Evidence(b: Uint8Array): { valid: number; invalid: number; end: number } {
  let valid = 0;
  let invalid = 0;
  let i = 0;
  const n = b.length;
  while (i < n) {
    const c = b[i] as number;
    if (c < 0x80) {
      i++;
      continue;
    }
    let more = 0;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) more = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      more = 2;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      more = 3;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
    } else {
      invalid++;
      i++;
      continue;
    }
    let ok = true;
    let k = 1;
    for (; k <= more && i + k < n; k++) {
      const d = b[i + k] as number;
      if (k === 1 ? d < lo || d > hi : d < 0x80 || d > 0xbf) {
        ok = false;
        break;
      }
    }
    if (ok && k <= more) return { valid, invalid, end: i }; // cut at the end
    if (ok) {
      valid++;
      i += more + 1;
    } else {
      invalid++;
      i++;
    }
  }
  return { valid, invalid, end: n };
}
