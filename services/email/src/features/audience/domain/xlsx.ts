import { closeSync, mkdtempSync, openSync, readSync, rmSync, write, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { promisify, TextDecoder } from 'node:util';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { MAX_RECORD_CHARS, type SheetRecord } from './csv.ts';
import { ImportInputError } from './import.ts';
import { attribute, type XmlHandler, XmlScanner } from './xml-scanner.ts';

/**
 * Rows of an .xlsx workbook's first worksheet, read with bounded memory whatever the file
 * holds. The upload is spooled to a nameless temporary file (at most the upload limit); the
 * zip's central directory (yauzl) names each part with its compressed and inflated sizes;
 * the shared strings are read into a SharedStrings table, then the worksheet is inflated as a
 * stream and scanned (xml-scanner.ts), each row handed on as it completes.
 *
 * A workbook is refused with a 4xx (WorkbookError) before anything is inflated when a part it
 * needs declares more than LIMITS.partBytes, or more than LIMITS.ratio times its compressed
 * size; while inflating, when a part gives more than it declared (so neither limit can be
 * lied past); when a cell holds more than Excel's 32,767 characters, or the workbook more
 * than LIMITS.sharedStrings texts. A row longer than MAX_RECORD_CHARS is reported as an
 * unreadable row, as in a CSV. Anything else that goes wrong reads as a damaged workbook,
 * never as the reader's own error text.
 */

export const XLSX_LIMITS = {
  /** Inflated bytes of the worksheet or the shared strings (a million-row sheet is about 400 MB). */
  partBytes: 1024 * 1024 * 1024,
  /** Inflated bytes of the small parts read (the workbook and its relationships). */
  smallPartBytes: 8 * 1024 * 1024,
  /** Inflated : compressed, beyond which a part is refused (spreadsheets are 5-20:1), ... */
  ratio: 100,
  /** ... once the part inflates to more than this. */
  ratioGraceBytes: 1024 * 1024,
  /** Excel's own limit on the text of a cell. */
  cellChars: 32_767,
  /** A row's text, padding of skipped columns included (a CSV record's limit). */
  rowChars: MAX_RECORD_CHARS,
  columns: 16_384,
  rows: 1_048_576,
  /** Distinct texts of a workbook (4 bytes each in the table's index). */
  sharedStrings: 8 * 1024 * 1024,
  /** Parts listed in the zip. */
  entries: 10_000,
  /** The longest tag. */
  markupChars: 64 * 1024,
};
export type XlsxLimits = typeof XLSX_LIMITS;

/** A workbook refused or unreadable: the caller's 4xx, with a message for the person importing it. */
export class WorkbookError extends ImportInputError {
  override name = 'WorkbookError';
}

const AGAIN = 'Save it again from your spreadsheet program, or export it as CSV.';
const DAMAGED = `The .xlsx workbook could not be read: it is damaged or not a workbook. ${AGAIN}`;
const size = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;

export async function* xlsxRecords(
  input: AsyncIterable<Buffer>,
  opts: { sharedStringMemory?: number; limits?: Partial<XlsxLimits> } = {},
): AsyncGenerator<SheetRecord> {
  const limits = { ...XLSX_LIMITS, ...opts.limits };
  let upload: { fd: number; zip?: ZipFile } | undefined;
  const strings = new SharedStrings(opts.sharedStringMemory);
  try {
    upload = await spool(input);
    const zip = await openZip(upload.fd);
    upload.zip = zip;
    const entries = await listEntries(zip, limits.entries);
    const { sheet, sharedStrings } = await locateParts(zip, entries, limits);
    if (!sheet) throw new WorkbookError(`The .xlsx workbook has no worksheet. ${AGAIN}`);
    if (sharedStrings) {
      const reader = new SharedStringsReader(strings, limits);
      const scanner = new XmlScanner(reader, limits.markupChars);
      for await (const text of partText(zip, sharedStrings, limits.partBytes, limits)) scanner.push(text);
      scanner.end();
    }
    const rows = new SheetReader(strings, limits);
    const scanner = new XmlScanner(rows, limits.markupChars);
    for await (const text of partText(zip, sheet, limits.partBytes, limits)) {
      for (let more = scanner.push(text); ; more = scanner.push('')) {
        if (rows.out.length) {
          yield* rows.out;
          rows.taken();
        }
        if (!more) break;
      }
    }
    scanner.end();
    if (rows.out.length) yield* rows.out;
  } catch (err) {
    // An upload problem keeps its own status, a refusal its message; anything the zip or XML
    // reading throws means the bytes are not a workbook that can be read.
    if (err instanceof ImportInputError) throw err;
    if (typeof (err as { statusCode?: unknown }).statusCode === 'number') throw err;
    throw new WorkbookError(DAMAGED);
  } finally {
    strings.close();
    if (upload?.zip) upload.zip.close();
    else if (upload) closeSync(upload.fd);
  }
}

const writeFd = promisify(write);

/** The upload in a temporary file that has no name (the kernel frees it when the descriptor closes). */
async function spool(input: AsyncIterable<Buffer>): Promise<{ fd: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-upload-'));
  const fd = openSync(join(dir, 'workbook.xlsx'), 'w+', 0o600);
  rmSync(dir, { recursive: true, force: true });
  try {
    let at = 0;
    for await (const chunk of input) {
      let done = 0;
      while (done < chunk.length) {
        const { bytesWritten } = await writeFd(fd, chunk, done, chunk.length - done, at + done);
        done += bytesWritten;
      }
      at += chunk.length;
    }
    return { fd };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** The zip's directory; from here on yauzl owns the descriptor (its close() closes it). */
function openZip(fd: number): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromFd(
      fd,
      { lazyEntries: true, autoClose: false, validateEntrySizes: false, decodeStrings: true },
      (err, zip) => (err ? reject(err) : resolve(zip)),
    );
  });
}

function listEntries(zip: ZipFile, max: number): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on('entry', (entry: Entry) => {
      if (entries.size >= max) {
        reject(new WorkbookError(`The .xlsx workbook has more than ${max} parts. ${AGAIN}`));
        return;
      }
      if (!entries.has(entry.fileName)) entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });
}

/**
 * The first worksheet (the workbook's first sheet, through its relationships; else the first
 * worksheet part) and the shared strings part.
 */
async function locateParts(
  zip: ZipFile,
  entries: Map<string, Entry>,
  limits: XlsxLimits,
): Promise<{ sheet?: Entry; sharedStrings?: Entry }> {
  const rels = new Map<string, { target: string; type: string }>();
  const relsEntry = entries.get('xl/_rels/workbook.xml.rels');
  if (relsEntry)
    await scanPart(zip, relsEntry, limits.smallPartBytes, limits, {
      open(name, attrs) {
        if (name !== 'Relationship') return;
        const id = attribute(attrs, 'Id');
        const target = attribute(attrs, 'Target');
        if (id && target) rels.set(id, { target: partName(target), type: attribute(attrs, 'Type') ?? '' });
      },
      close() {},
      text() {},
    });
  let firstSheetRel: string | undefined;
  const workbook = entries.get('xl/workbook.xml');
  if (workbook)
    await scanPart(zip, workbook, limits.smallPartBytes, limits, {
      open(name, attrs) {
        if (name === 'sheet' && firstSheetRel === undefined) firstSheetRel = attribute(attrs, 'id') ?? '';
      },
      close() {},
      text() {},
    });
  const named = firstSheetRel ? rels.get(firstSheetRel) : undefined;
  let sheet = named ? entries.get(named.target) : undefined;
  if (!sheet)
    for (const [name, entry] of entries)
      if (/^xl\/worksheets\/sheet\d+\.xml$/.test(name)) {
        sheet = entry;
        break;
      }
  let sharedStrings: Entry | undefined;
  for (const rel of rels.values())
    if (rel.type.endsWith('/sharedStrings')) sharedStrings = entries.get(rel.target);
  sharedStrings ??= entries.get('xl/sharedStrings.xml');
  return { ...(sheet ? { sheet } : {}), ...(sharedStrings ? { sharedStrings } : {}) };
}

/** A relationship target of the workbook (relative to xl/, or absolute) as a part name. */
function partName(target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : posix.join('xl', target);
  return posix.normalize(path);
}

async function scanPart(zip: ZipFile, entry: Entry, maxBytes: number, limits: XlsxLimits, h: XmlHandler) {
  const scanner = new XmlScanner(h, limits.markupChars);
  for await (const text of partText(zip, entry, maxBytes, limits)) scanner.push(text);
  scanner.end();
}

/**
 * A part's text as it inflates. Refused before anything is inflated when it declares too
 * much, and as soon as it inflates to more than it declared.
 */
async function* partText(
  zip: ZipFile,
  entry: Entry,
  maxBytes: number,
  limits: XlsxLimits,
): AsyncGenerator<string> {
  if (entry.isEncrypted())
    throw new WorkbookError(
      'The .xlsx workbook is password-protected. Remove the password in your spreadsheet program, or export it as CSV.',
    );
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) throw new WorkbookError(DAMAGED);
  const declared = entry.uncompressedSize;
  if (declared > maxBytes)
    throw new WorkbookError(
      `The .xlsx workbook is too large to import: a part of it unpacks to more than ${size(maxBytes)}. Split it, or export it as CSV.`,
      413,
    );
  if (declared > limits.ratioGraceBytes && declared > limits.ratio * Math.max(entry.compressedSize, 1))
    throw new WorkbookError(
      `The .xlsx workbook was refused: a part of it is compressed more than ${limits.ratio}:1, far beyond what spreadsheet programs write. ${AGAIN}`,
      413,
    );
  const stream = await new Promise<NodeJS.ReadableStream & { destroy(): void }>((resolve, reject) =>
    zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
  );
  let inflated = 0;
  let decoder: TextDecoder | undefined;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      inflated += chunk.length;
      if (inflated > declared)
        throw new WorkbookError(
          `The .xlsx workbook was refused: a part of it unpacks to more than the size its zip directory declares. ${AGAIN}`,
          413,
        );
      // UTF-16 by its byte-order mark (allowed, rarely written); UTF-8 otherwise.
      decoder ??= new TextDecoder(chunk[0] === 0xff && chunk[1] === 0xfe ? 'utf-16le' : 'utf-8');
      yield decoder.decode(chunk, { stream: true });
    }
    const tail = decoder?.decode() ?? '';
    if (tail) yield tail;
  } finally {
    stream.destroy();
  }
}

const tooLongCell = (row?: number) =>
  new WorkbookError(
    `The .xlsx workbook has a cell of more than ${XLSX_LIMITS.cellChars.toLocaleString('en-US')} characters${
      row ? ` (row ${row})` : ''
    }, more than Excel allows. ${AGAIN}`,
  );

/** Fills a SharedStrings table from xl/sharedStrings.xml (the text of each <si>, phonetic runs left out). */
class SharedStringsReader implements XmlHandler {
  private inItem = false;
  private inText = false;
  private phonetic = 0;
  private value = '';

  constructor(
    private readonly strings: SharedStrings,
    private readonly limits: XlsxLimits,
  ) {}

  open(name: string): void {
    if (name === 'si') {
      this.inItem = true;
      this.value = '';
    } else if (name === 't') this.inText = this.inItem && this.phonetic === 0;
    else if (name === 'rPh' && this.inItem) this.phonetic++;
  }

  text(s: string): void {
    if (!this.inText) return;
    if (this.value.length + s.length > this.limits.cellChars) throw tooLongCell();
    this.value += s;
  }

  close(name: string): void {
    if (name === 't') this.inText = false;
    else if (name === 'rPh') this.phonetic = Math.max(0, this.phonetic - 1);
    else if (name === 'si' && this.inItem) {
      if (this.strings.length >= this.limits.sharedStrings)
        throw new WorkbookError(
          `The .xlsx workbook has more than ${this.limits.sharedStrings.toLocaleString('en-US')} different texts. Split it, or export it as CSV.`,
          413,
        );
      this.strings.add(this.strings.length, this.value);
      this.inItem = false;
      this.value = '';
    }
  }
}

/** Cells' text handed on before the reader pauses for them to be taken (a bound on what waits). */
const PENDING_COST = 1024 * 1024;

/**
 * A worksheet's rows (<row> in <sheetData>) as records: each cell's text at its column (cells
 * that skip columns leave '' between), the row number as the line.
 */
class SheetReader implements XmlHandler {
  out: SheetRecord[] = [];
  private pending = 0;
  private inData = false;
  private row: string[] | null = null;
  private line = 0;
  private rowChars = 0;
  private rowTooLong = false;
  private col = 0;
  private inCell = false;
  private type = '';
  private value = '';
  private hasValue = false;
  private inValue = false;
  private inInline = false;
  private inText = false;
  private phonetic = 0;

  constructor(
    private readonly strings: SharedStrings,
    private readonly limits: XlsxLimits,
  ) {}

  get full(): boolean {
    return this.pending >= PENDING_COST;
  }

  taken(): void {
    this.out = [];
    this.pending = 0;
  }

  open(name: string, attrs: string): void {
    switch (name) {
      case 'sheetData':
        this.inData = true;
        break;
      case 'row': {
        if (!this.inData) break;
        const r = attribute(attrs, 'r');
        const line = r === undefined ? this.line + 1 : Number(r);
        if (!Number.isInteger(line) || line < 1 || line > this.limits.rows) throw new WorkbookError(DAMAGED);
        this.line = line;
        this.row = [];
        this.rowChars = 0;
        this.rowTooLong = false;
        this.col = 0;
        break;
      }
      case 'c': {
        if (!this.row) break;
        const ref = attribute(attrs, 'r');
        const col = ref === undefined ? this.col + 1 : columnOf(ref);
        if (col < 1 || col > this.limits.columns) throw new WorkbookError(DAMAGED);
        this.col = col;
        this.type = attribute(attrs, 't') ?? 'n';
        this.inCell = true;
        this.value = '';
        this.hasValue = false;
        break;
      }
      case 'v':
        if (this.inCell) this.inValue = this.hasValue = true;
        break;
      case 'is':
        if (this.inCell) this.inInline = this.hasValue = true;
        break;
      case 't':
        this.inText = this.inInline && this.phonetic === 0;
        break;
      case 'rPh':
        if (this.inInline) this.phonetic++;
        break;
    }
  }

  text(s: string): void {
    if (!this.inValue && !this.inText) return;
    if (this.value.length + s.length > this.limits.cellChars) throw tooLongCell(this.line);
    this.value += s;
  }

  close(name: string): void {
    switch (name) {
      case 'v':
        this.inValue = false;
        break;
      case 't':
        this.inText = false;
        break;
      case 'rPh':
        this.phonetic = Math.max(0, this.phonetic - 1);
        break;
      case 'is':
        this.inInline = false;
        break;
      case 'c':
        if (this.inCell && this.row && this.hasValue) this.cell(this.row);
        this.inCell = this.inValue = this.inInline = this.inText = false;
        break;
      case 'row':
        if (!this.row) break;
        if (this.rowTooLong)
          this.out.push({
            line: this.line,
            unreadable: `The row is longer than ${this.limits.rowChars} characters`,
          });
        else this.out.push({ line: this.line, cells: this.row });
        this.pending += this.rowChars + 1;
        this.row = null;
        break;
      case 'sheetData':
        this.inData = false;
        break;
    }
  }

  private cell(row: string[]): void {
    const text = this.cellText();
    if (this.rowTooLong) return;
    const gap = Math.max(0, this.col - 1 - row.length);
    this.rowChars += text.length + gap;
    if (this.rowChars > this.limits.rowChars) {
      // Reported as one unreadable row; what it held so far is dropped at once.
      this.rowTooLong = true;
      row.length = 0;
      return;
    }
    while (row.length < this.col - 1) row.push('');
    row[this.col - 1] = text;
  }

  /** The cell's text as a user sees it: a shared or inline string, a number, TRUE/FALSE. */
  private cellText(): string {
    const v = this.value;
    switch (this.type) {
      case 's':
        return this.strings.get(Number.parseInt(v, 10));
      case 'inlineStr':
      case 'str':
        return v;
      case 'b':
        return v.trim() === '' ? '' : Number(v) === 0 ? 'FALSE' : 'TRUE';
      case 'e':
        return '';
      case 'd':
        // An ISO 8601 date: the day, as a date cell reads in the other formats' exports.
        return /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : v;
      default: {
        const n = Number.parseFloat(v);
        return Number.isFinite(n) ? String(n) : '';
      }
    }
  }
}

/** The column (1 = A) of a cell reference such as "BC12"; 0 when it names none. */
export function columnOf(ref: string): number {
  let col = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20;
    if (c < 97 || c > 122) break;
    col = col * 26 + (c - 96);
    if (col > 16_384) return 0;
  }
  return col;
}

/**
 * A workbook's shared strings: the first ones as strings in memory, up to `memoryChars` of
 * text (each string counted with STRING_OVERHEAD for what V8 spends on it) and while all the
 * tables of the process together stay within PROCESS_MEMORY_CHARS (concurrent imports share
 * it); the rest as UTF-8 in a temporary file with an offset per string, read back in blocks,
 * the last few kept (worksheets refer to their strings roughly in the order they are listed,
 * so few blocks are read twice). Memory is bounded whatever the workbook's size: the strings
 * in memory, 4 bytes per string in the file, a write buffer and the kept blocks.
 */
const STRING_OVERHEAD = 16;
const PROCESS_MEMORY_CHARS = 32 * 1024 * 1024;
export class SharedStrings {
  /** What the open tables of this process hold in memory (characters and overheads). */
  private static held = 0;
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
    private readonly memoryChars = 24 * 1024 * 1024,
    private readonly blockBytes = 64 * 1024,
    private readonly cachedBlocks = 8,
  ) {}

  get length(): number {
    return this.head.length + this.tail;
  }

  /** Adds string `index` (strings come in index order, as the workbook lists them). */
  add(index: number, text: string): void {
    if (index !== this.length) throw new Error(`shared string ${index} out of order`);
    const cost = text.length + STRING_OVERHEAD;
    if (
      this.tail === 0 &&
      this.headChars + cost <= this.memoryChars &&
      SharedStrings.held + cost <= PROCESS_MEMORY_CHARS
    ) {
      this.head.push(text);
      this.headChars += cost;
      SharedStrings.held += cost;
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

  /** Lets go of the strings and closes the temporary file (its name is gone already: the kernel frees it now). */
  close(): void {
    SharedStrings.held -= this.headChars;
    this.headChars = 0;
    this.head.length = 0;
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
