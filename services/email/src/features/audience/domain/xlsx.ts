import { closeSync } from 'node:fs';
import { posix } from 'node:path';
import type { Entry, ZipFile } from 'yauzl';
import type { SheetRecord } from './csv.ts';
import { ImportInputError } from './import.ts';
import { AGAIN, DAMAGED, WorkbookError, XLSX_LIMITS, type XlsxLimits } from './xlsx-limits.ts';
import { SharedStrings, SharedStringsReader } from './xlsx-shared-strings.ts';
import { SheetReader } from './xlsx-sheet.ts';
import { listEntries, openZip, partText, spool } from './xlsx-zip.ts';
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
 *
 * This file holds the reader (xlsxRecords) and finds the parts it needs; the limits and
 * WorkbookError are in xlsx-limits.ts, the zip reading in xlsx-zip.ts, the shared strings in
 * xlsx-shared-strings.ts and the worksheet's rows in xlsx-sheet.ts.
 */

export async function* xlsxRecords(
  input: AsyncIterable<Buffer>,
  opts: { sharedStringMemory?: number; limits?: Partial<XlsxLimits> } = {},
): AsyncGenerator<SheetRecord> {
  const limits = { ...XLSX_LIMITS, ...opts.limits };
  let upload: { fd: number; zip?: ZipFile } | undefined;
  let read = false;
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
    read = true;
  } catch (err) {
    // An upload problem keeps its own status, a refusal its message; anything the zip or XML
    // reading throws means the bytes are not a workbook that can be read.
    if (err instanceof ImportInputError) throw err;
    if (typeof (err as { statusCode?: unknown }).statusCode === 'number') throw err;
    throw new WorkbookError(DAMAGED);
  } finally {
    strings.close();
    if (upload?.zip) {
      // yauzl closes the descriptor asynchronously; once every entry stream has ended (a full
      // read) that is at once, so the read waits for it: no spool outlives its records.
      const zip = upload.zip;
      const closed = read ? new Promise<void>((resolve) => zip.once('close', () => resolve())) : null;
      zip.close();
      if (closed) await closed;
    } else if (upload) closeSync(upload.fd);
  }
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
