import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tooLongCell, WorkbookError, type XlsxLimits } from './xlsx-limits.ts';
import type { XmlHandler } from './xml-scanner.ts';

/**
 * A workbook's shared strings: read from xl/sharedStrings.xml (SharedStringsReader) into a
 * table of bounded memory (SharedStrings) that the worksheet's cells refer to by index.
 */

/** Fills a SharedStrings table from xl/sharedStrings.xml (the text of each <si>, phonetic runs left out). */
export class SharedStringsReader implements XmlHandler {
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
