import { readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { SheetRecord } from '../src/domain/csv.ts';
import { SharedStrings, xlsxRecords } from '../src/domain/xlsx.ts';

/**
 * This process's open spill files (a file lives only as a descriptor once opened: its name
 * is gone, so nothing is left behind when the process dies), and any spill names left in the
 * temporary directory (never any).
 */
const spills = () =>
  readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.includes('/parley-xlsx-') ? [target] : [];
    } catch {
      return [];
    }
  });
const namedSpills = () => readdirSync(tmpdir()).filter((f) => f.startsWith('parley-xlsx-'));

describe('SharedStrings', () => {
  const texts = ['ann@example.com', '', 'Zoë Ünal', 'a', '日本語の会社', '🙂 smile', 'x'.repeat(40), 'last'];

  it('gives every string back, from memory, across the boundary and from the file', () => {
    // 20 characters in memory and an 8-byte window: most strings live in the file.
    const table = new SharedStrings(20, 8);
    for (const [i, t] of texts.entries()) table.add(i, t);
    expect(table.length).toBe(texts.length);
    // In order, backwards and at random: the window moves both ways.
    expect(texts.map((_, i) => table.get(i))).toEqual(texts);
    expect(texts.map((_, i) => table.get(texts.length - 1 - i))).toEqual([...texts].reverse());
    expect([6, 0, 4, 2, 7].map((i) => table.get(i))).toEqual([6, 0, 4, 2, 7].map((i) => texts[i]));
    table.close();
  });

  it('keeps everything in memory within its budget, and answers an unknown index with nothing', () => {
    const before = spills().length;
    const table = new SharedStrings();
    for (const [i, t] of texts.entries()) table.add(i, t);
    expect(spills().length).toBe(before);
    expect(table.get(3)).toBe('a');
    expect(table.get(texts.length)).toBe('');
    expect(table.get(-1)).toBe('');
    expect(table.get(1.5)).toBe('');
    table.close();
  });

  it('refuses strings out of order; its file has no name while open and is gone on close', () => {
    const before = new Set(spills());
    const named = namedSpills().length;
    const table = new SharedStrings(4, 4);
    table.add(0, 'first string');
    expect(() => table.add(2, 'skipped one')).toThrow(/out of order/);
    const mine = spills().filter((d) => !before.has(d));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatch(/ \(deleted\)$/);
    expect(namedSpills()).toHaveLength(named);
    expect(table.get(0)).toBe('first string');
    table.close();
    table.close();
    expect(spills().filter((d) => !before.has(d))).toHaveLength(0);
  });
});

/**
 * A workbook's rows as xlsxRecords reads them (a small shared-string memory puts most strings
 * in the file), and whether its strings went to a SharedStrings file while it was read.
 */
async function read(bytes: Buffer, sharedStringMemory?: number) {
  const before = new Set(spills());
  const rows: SheetRecord[] = [];
  let spilled = false;
  for await (const r of xlsxRecords(Readable.from([bytes]), { sharedStringMemory })) {
    if (!rows.length) spilled = spills().some((d) => !before.has(d));
    rows.push(r);
  }
  return Object.assign(rows, { spilled });
}

const HEADER = ['Name', 'Email', 'Company', 'Rating'];
const person = (i: number) => [`Person ${i} Ünal`, `p${i}@example.com`, `Company ${i % 7}`, i % 5];

describe('xlsxRecords', () => {
  it('reads shared strings stored after the worksheet (streaming writer: the sheet is spooled)', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useSharedStrings: true,
      useStyles: false,
    });
    const ws = wb.addWorksheet('Contacts');
    ws.addRow(HEADER).commit();
    for (let i = 1; i <= 3000; i++) ws.addRow(person(i)).commit();
    ws.commit();
    await wb.commit();
    const bytes = Buffer.concat(chunks);

    for (const memory of [undefined, 256]) {
      const rows = await read(bytes, memory);
      expect(rows.spilled).toBe(memory !== undefined);
      expect(rows).toHaveLength(3001);
      expect(rows[0]).toEqual({ line: 1, cells: HEADER });
      expect(rows[1]).toEqual({ line: 2, cells: ['Person 1 Ünal', 'p1@example.com', 'Company 1', '1'] });
      expect(rows[3000]).toEqual({
        line: 3001,
        cells: ['Person 3000 Ünal', 'p3000@example.com', 'Company 4', '0'],
      });
      // Every row, not only the ends.
      expect(rows.every((r, i) => i === 0 || ('cells' in r && r.cells[1] === `p${i}@example.com`))).toBe(
        true,
      );
    }
  });

  it('reads shared strings, rich text and links of a workbook written in one piece', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Leads');
    ws.addRow(HEADER);
    ws.addRow([
      { richText: [{ text: 'Ann ' }, { text: 'Lee', font: { bold: true } }] },
      'ann@example.com',
      '日本語の会社',
      5,
    ]);
    ws.addRow(['Bob', { text: 'bob@example.com', hyperlink: 'mailto:bob@example.com' }, '日本語の会社', 4]);
    wb.addWorksheet('Other').addRow(['ignored@example.com']);
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());

    for (const memory of [undefined, 8]) {
      const rows = await read(bytes, memory);
      expect(rows.spilled).toBe(memory !== undefined);
      expect([...rows]).toEqual([
        { line: 1, cells: HEADER },
        { line: 2, cells: ['Ann Lee', 'ann@example.com', '日本語の会社', '5'] },
        { line: 3, cells: ['Bob', 'bob@example.com', '日本語の会社', '4'] },
      ]);
    }
  });
});
