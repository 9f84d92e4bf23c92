import { MAX_RECORD_CHARS } from './csv.ts';
import { ImportInputError } from './import.ts';

/**
 * What an .xlsx workbook may hold before it is refused (XLSX_LIMITS), and the refusal itself:
 * WorkbookError, with the wording its messages share.
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

export const AGAIN = 'Save it again from your spreadsheet program, or export it as CSV.';
export const DAMAGED = `The .xlsx workbook could not be read: it is damaged or not a workbook. ${AGAIN}`;

export const tooLongCell = (row?: number) =>
  new WorkbookError(
    `The .xlsx workbook has a cell of more than ${XLSX_LIMITS.cellChars.toLocaleString('en-US')} characters${
      row ? ` (row ${row})` : ''
    }, more than Excel allows. ${AGAIN}`,
  );
