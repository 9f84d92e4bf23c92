import { closeSync, mkdtempSync, openSync, rmSync, write } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify, TextDecoder } from 'node:util';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { AGAIN, DAMAGED, WorkbookError, type XlsxLimits } from './xlsx-limits.ts';

/**
 * The zip side of an .xlsx upload: spooled to a nameless temporary file, its directory read
 * (yauzl), and a part's text as it inflates, with the caps on what a part may declare and
 * inflate to (xlsx-limits.ts).
 */

const size = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;

const writeFd = promisify(write);

/** The upload in a temporary file that has no name (the kernel frees it when the descriptor closes). */
export async function spool(input: AsyncIterable<Buffer>): Promise<{ fd: number }> {
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
export function openZip(fd: number): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromFd(
      fd,
      { lazyEntries: true, autoClose: false, validateEntrySizes: false, decodeStrings: true },
      (err, zip) => (err ? reject(err) : resolve(zip)),
    );
  });
}

export function listEntries(zip: ZipFile, max: number): Promise<Map<string, Entry>> {
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
 * A part's text as it inflates. Refused before anything is inflated when it declares too
 * much, and as soon as it inflates to more than it declared.
 */
export async function* partText(
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
