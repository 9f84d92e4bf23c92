import type { Readable } from 'node:stream';
import type { SheetRecord } from './csv.ts';
import { ImportInputError } from './import.ts';

/**
 * Rows of an .xlsx workbook's first worksheet as they arrive (ExcelJS' streaming reader: the
 * zip is read as a stream; a worksheet stored before the shared strings is spooled to a
 * temporary file, never held in memory). Each row's cells as text, with its row number as
 * the line. Other worksheets are skipped.
 */
export async function* xlsxRecords(input: Readable): AsyncGenerator<SheetRecord> {
  // Loaded on the first workbook: ExcelJS costs the process about 25 MB it needs for nothing else.
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
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
