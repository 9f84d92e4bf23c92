import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { SheetRecord } from './csv.ts';
import { ImportInputError } from './import.ts';

/**
 * Rows of an .xlsx workbook's first worksheet as they arrive (ExcelJS' streaming reader: the
 * zip is read as a stream; a worksheet stored before the shared strings is spooled to a
 * temporary file, never held in memory). Each row's cells as text, with its row number as
 * the line. Other worksheets are skipped.
 *
 * The shared strings go to a SharedStrings table instead of ExcelJS' array of JavaScript
 * strings: held that way, a workbook's strings cost the process about 57 MB of heap per
 * 100,000 rows, however large the workbook.
 */
export async function* xlsxRecords(
  input: Readable,
  opts: { sharedStringMemory?: number } = {},
): AsyncGenerator<SheetRecord> {
  // Loaded on the first workbook: ExcelJS costs the process about 25 MB it needs for nothing else.
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const strings = new SharedStrings(opts.sharedStringMemory);
  useSharedStrings(reader, strings);
  let first = true;
  try {
    for await (const sheet of reader) {
      if (!first) continue;
      first = false;
      for await (const row of sheet) {
        const values = row.values as unknown[];
        const cells: string[] = [];
        // row.values is 1-based and sparse.
        for (let i = 1; i < values.length; i++) cells.push(cellText(values[i]));
        yield { line: row.number, cells };
      }
    }
  } catch (err) {
    // An upload problem keeps its own status; anything ExcelJS or the zip reader throws means
    // the bytes are not a workbook it can read.
    if (typeof (err as { statusCode?: unknown }).statusCode === 'number') throw err;
    throw new ImportInputError(
      `The .xlsx workbook could not be read (${(err as Error).message || 'damaged file'}). Save it again from your spreadsheet program, or export it as CSV.`,
    );
  } finally {
    strings.close();
  }
}

/**
 * Puts `strings` where ExcelJS 4's streaming reader keeps its shared-string cache: it assigns
 * `sharedStrings = []` when the workbook's strings begin, `push`es each one, and its
 * worksheets read `sharedStrings[index]`. Until the strings begin the property stays empty,
 * so a worksheet stored before them is still spooled (the reader's own test). Its option
 * 'emit' would hand the strings over instead, but one promise per string made a 100,000-row
 * import 2.5 s slower.
 */
function useSharedStrings(reader: object, strings: SharedStrings): void {
  let started = false;
  const push = (value: unknown) => strings.add(strings.length, cellText(value));
  const view = new Proxy(
    {},
    {
      get: (_target, key) =>
        key === 'push' ? push : typeof key === 'string' ? strings.get(Number(key)) : undefined,
    },
  );
  Object.defineProperty(reader, 'sharedStrings', {
    configurable: true,
    get: () => (started ? view : undefined),
    set: () => {
      started = true;
    },
  });
}

/**
 * A workbook's shared strings: the first ones, up to `memoryChars` of text, as strings in
 * memory; the rest as UTF-8 in a temporary file with an offset per string, read back in
 * blocks, the last few kept (worksheets refer to their strings roughly in the order they are
 * listed, so few blocks are read twice). Memory is bounded whatever the workbook's size: the
 * strings in memory, 4 bytes per string in the file, a write buffer and the kept blocks.
 */
export class SharedStrings {
  private readonly head: string[] = [];
  private headChars = 0;
  /** Offsets in the file of the strings after `head` (entry i ends where i + 1 starts). */
  private offsets = new Uint32Array(1024);
  private tail = 0;
  private fileSize = 0;
  private file: { fd: number } | undefined;
  /** Bytes not yet written to the file. */
  private pending = Buffer.allocUnsafe(0);
  private pendingBytes = 0;
  /** Blocks of the file read back, least recently used first. */
  private readonly blocks = new Map<number, Buffer>();

  constructor(
    private readonly memoryChars = 16 * 1024 * 1024,
    private readonly blockBytes = 64 * 1024,
    private readonly cachedBlocks = 8,
  ) {}

  get length(): number {
    return this.head.length + this.tail;
  }

  /** Adds string `index` (strings come in index order, as the workbook lists them). */
  add(index: number, text: string): void {
    if (index !== this.length) throw new Error(`shared string ${index} out of order`);
    if (this.tail === 0 && this.headChars + text.length <= this.memoryChars) {
      this.head.push(text);
      this.headChars += text.length;
      return;
    }
    const bytes = Buffer.from(text, 'utf8');
    if (this.fileSize + bytes.length > 0xffff_ffff) throw new Error('shared strings larger than 4 GB');
    if (this.tail + 1 >= this.offsets.length) {
      const grown = new Uint32Array(this.offsets.length * 2);
      grown.set(this.offsets);
      this.offsets = grown;
    }
    this.append(bytes);
    this.tail++;
    this.offsets[this.tail] = this.fileSize;
  }

  /** String `index`, or '' for an index the workbook never listed. */
  get(index: number): string {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return '';
    if (index < this.head.length) return this.head[index] as string;
    const i = index - this.head.length;
    return this.fileText(this.offsets[i] as number, this.offsets[i + 1] as number);
  }

  /** Closes the temporary file (its name is gone already: the kernel frees it now). */
  close(): void {
    if (!this.file) return;
    closeSync(this.file.fd);
    this.file = undefined;
  }

  private append(bytes: Buffer): void {
    if (this.pending.length === 0) this.pending = Buffer.allocUnsafe(this.blockBytes);
    if (this.pendingBytes + bytes.length > this.pending.length) this.flush();
    if (bytes.length > this.pending.length) this.writeFile(bytes);
    else {
      bytes.copy(this.pending, this.pendingBytes);
      this.pendingBytes += bytes.length;
    }
    this.fileSize += bytes.length;
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    this.writeFile(this.pending.subarray(0, this.pendingBytes));
    this.pendingBytes = 0;
    // A block read before may have ended where the file did.
    this.blocks.clear();
  }

  private writeFile(bytes: Buffer): void {
    if (!this.file) {
      const dir = mkdtempSync(join(tmpdir(), 'parley-xlsx-'));
      const fd = openSync(join(dir, 'shared-strings'), 'w+', 0o600);
      // Nameless from here on: read and written through its descriptor, and freed by the
      // kernel when the descriptor closes, even when the process dies mid-import.
      rmSync(dir, { recursive: true, force: true });
      this.file = { fd };
    }
    let done = 0;
    while (done < bytes.length) done += writeSync(this.file.fd, bytes, done, bytes.length - done);
  }

  /** The text of bytes [start, end) of the file. */
  private fileText(start: number, end: number): string {
    if (end <= start) return '';
    this.flush();
    const size = this.blockBytes;
    const first = Math.floor(start / size);
    const last = Math.floor((end - 1) / size);
    if (first === last) return this.block(first).toString('utf8', start - first * size, end - first * size);
    const parts: Buffer[] = [];
    for (let k = first; k <= last; k++) {
      const b = this.block(k);
      parts.push(b.subarray(k === first ? start - k * size : 0, k === last ? end - k * size : b.length));
    }
    return Buffer.concat(parts).toString('utf8');
  }

  /** Block k of the file, from the few kept or read now. */
  private block(k: number): Buffer {
    const kept = this.blocks.get(k);
    if (kept) {
      this.blocks.delete(k);
      this.blocks.set(k, kept);
      return kept;
    }
    const fd = this.file?.fd;
    if (fd === undefined) return Buffer.alloc(0);
    // The evicted block's memory is reused (each block owns its whole ArrayBuffer).
    let memory: ArrayBufferLike | undefined;
    if (this.blocks.size >= this.cachedBlocks) {
      const oldest = this.blocks.keys().next().value as number;
      memory = this.blocks.get(oldest)?.buffer;
      this.blocks.delete(oldest);
    }
    const buffer =
      memory && memory.byteLength >= this.blockBytes
        ? Buffer.from(memory, 0, this.blockBytes)
        : Buffer.allocUnsafeSlow(this.blockBytes);
    const read = readSync(fd, buffer, 0, this.blockBytes, k * this.blockBytes);
    const b = buffer.subarray(0, read);
    this.blocks.set(k, b);
    return b;
  }
}

/** A cell's value as the text a user sees (the result of a formula, the text of a link). */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    const o = v as {
      richText?: Array<{ text?: unknown }>;
      text?: unknown;
      result?: unknown;
      formula?: unknown;
      error?: unknown;
    };
    if (Array.isArray(o.richText)) return o.richText.map((r) => cellText(r.text)).join('');
    if (o.text !== undefined) return cellText(o.text);
    if (o.formula !== undefined || 'result' in o) return cellText(o.result);
    if (o.error !== undefined) return '';
  }
  return '';
}
