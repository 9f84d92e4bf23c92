import { TextDecoder } from 'node:util';

/**
 * Reading CSV as it arrives: bytes are decoded (UTF-8, or UTF-16 by its byte-order mark;
 * invalid bytes become U+FFFD) and split into records of cells with the line each starts on.
 *
 * RFC 4180 plus what spreadsheets and hand-edited files really contain: a BOM, CRLF, LF or CR
 * line ends, quoted delimiters, quotes and line breaks, doubled quotes, quotes inside unquoted
 * text (kept as text), text after a closing quote (kept), rows of any width, empty lines.
 * Comma, semicolon or tab, whichever the first line uses.
 *
 * A record the splitter cannot read (a quote never closed within MAX_RECORD_CHARS) is
 * reported with its line and reading resumes on the next line, so one stray quote costs one
 * row, not the rest of the file. (csv-parse measured 1.1 s of CPU per 100,000 rows on the
 * project's machines, more than the whole import's budget; this splitter takes about a tenth:
 * see docs/decisions.md. The unit tests check it against csv-parse.)
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

  private drain(out: SheetRecord[], final: boolean): void {
    const s = this.buf;
    const n = s.length;
    const d = this.delim;
    let pos = 0;
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
        const next = nextLineStart(s, start);
        this.line = startLine + 1;
        pos = next === -1 ? n : next;
        continue;
      }
      if (!complete) {
        if (n - start > MAX_RECORD_CHARS && !final) {
          out.push({ line: startLine, unreadable: `The row is longer than ${MAX_RECORD_CHARS} characters` });
          const next = nextLineStart(s, start);
          this.line = startLine + 1;
          pos = next === -1 ? n : next;
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

function nextLineStart(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === LF) return i + 1;
    if (c === CR) return s.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
  }
  return -1;
}

/** Records of a CSV byte stream, in order, as the stream arrives. */
export async function* csvRecords(
  source: AsyncIterable<Buffer | string> | Iterable<string>,
  delimiter?: ',' | ';' | '\t',
): AsyncGenerator<SheetRecord> {
  let decoder: TextDecoder | null = null;
  let splitter: CsvSplitter | null = null;
  let pending = '';
  const out: SheetRecord[] = [];
  for await (const chunk of source) {
    let text: string;
    if (typeof chunk === 'string') text = chunk;
    else {
      // UTF-16 (Excel's "Unicode text") by its byte-order mark; UTF-8 otherwise.
      decoder ??= new TextDecoder(chunk[0] === 0xff && chunk[1] === 0xfe ? 'utf-16le' : 'utf-8');
      text = decoder.decode(chunk, { stream: true });
    }
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
  const rest = (decoder?.decode() ?? '') + pending;
  if (!splitter) {
    if (!rest.replace(/^\uFEFF/, '')) return;
    splitter = new CsvSplitter(delimiter ?? sniffDelimiter(rest.replace(/^\uFEFF/, '')));
    splitter.push(rest.replace(/^\uFEFF/, ''), out);
  } else if (rest) splitter.push(rest, out);
  splitter.end(out);
  yield* out;
}
