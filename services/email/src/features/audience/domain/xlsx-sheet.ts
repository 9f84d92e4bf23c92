import type { SheetRecord } from './csv.ts';
import { DAMAGED, tooLongCell, WorkbookError, type XlsxLimits } from './xlsx-limits.ts';
import type { SharedStrings } from './xlsx-shared-strings.ts';
import { attribute, type XmlHandler } from './xml-scanner.ts';

/**
 * A worksheet's XML read as records (SheetReader), rows handed on in batches of bounded size,
 * and the column a cell reference names (columnOf).
 */

/** Cells' text handed on before the reader pauses for them to be taken (a bound on what waits). */
const PENDING_COST = 1024 * 1024;

/**
 * A worksheet's rows (<row> in <sheetData>) as records: each cell's text at its column (cells
 * that skip columns leave '' between), the row number as the line.
 */
export class SheetReader implements XmlHandler {
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
