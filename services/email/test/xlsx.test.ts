import { readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { SheetRecord } from '../src/features/audience/domain/csv.ts';
import { ImportInputError } from '../src/features/audience/domain/import.ts';
import { xlsxRecords } from '../src/features/audience/domain/xlsx.ts';
import type { XlsxLimits } from '../src/features/audience/domain/xlsx-limits.ts';
import { SharedStrings } from '../src/features/audience/domain/xlsx-shared-strings.ts';
import { sheetXml, workbookEntries, type ZipEntry, zipBytes } from './xlsx-files.ts';

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

const zip = zipBytes;
/**
 * Open upload spools: the parley-upload-* files this process holds open. By path, not a count:
 * an earlier test's spool may still be closing while the next runs.
 */
const uploads = () =>
  readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.includes('/parley-upload-') ? [target] : [];
    } catch {
      return [];
    }
  });

/** The records of a workbook, or the error it was refused with. */
async function outcome(bytes: Buffer, limits?: Partial<XlsxLimits>) {
  const rows: SheetRecord[] = [];
  try {
    for await (const r of xlsxRecords(Readable.from([bytes]), limits ? { limits } : {})) rows.push(r);
    return { rows };
  } catch (err) {
    return { rows, error: err as Error & { statusCode?: number } };
  }
}

const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const sst = (items: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><sst ${MAIN}>${items.map((i) => `<si>${i}</si>`).join('')}</sst>`;
const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

describe('xlsxRecords: what a cell holds', () => {
  it('reads every kind of cell the way the spreadsheet shows it', async () => {
    const sheet =
      `<?xml version="1.0"?><x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>` +
      // Prefixed names, shared strings (rich text, phonetic runs left out), an inline string.
      '<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="s"><x:v>1</x:v></x:c><x:c r="C1" t="inlineStr"><x:is><x:r><x:t>Co</x:t></x:r><x:r><x:t xml:space="preserve">mpany</x:t></x:r></x:is></x:c></x:row>' +
      // Numbers, a boolean, an error, a formula's text, entities and CDATA, a date.
      '<x:row r="2"><x:c r="A2"><x:v>4.5</x:v></x:c><x:c r="B2" t="b"><x:v>1</x:v></x:c><x:c r="C2" t="e"><x:v>#N/A</x:v></x:c><x:c r="D2" t="str"><x:f>A1&amp;B1</x:f><x:v>x&amp;y</x:v></x:c><x:c r="E2" t="inlineStr"><x:is><x:t>Jos&#233; &lt;&#x1F642;&gt; <![CDATA[a<b]]></x:t></x:is></x:c><x:c r="F2" t="d"><x:v>2024-05-06T00:00:00Z</x:v></x:c><x:c r="G2"><x:v>6175550100</x:v></x:c></x:row>' +
      // Skipped columns, a styled cell without a value, cells and a row without references, a comment.
      '<!-- a comment <with> markup --><x:row r="4"><x:c r="A4" t="b"><x:v>0</x:v></x:c><x:c r="B4" s="3"/><x:c r="D4" t="inlineStr"><x:is><x:t>d</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>e</x:t></x:is></x:c></x:row><x:row><x:c><x:v>1E+3</x:v></x:c></x:row>' +
      '</x:sheetData></x:worksheet>';
    const strings = sst([
      '<t>Name</t>',
      '<r><rPr><b/></rPr><t>E</t></r><r><t>mail</t></r><rPh sb="0" eb="1"><t>ignored</t></rPh>',
    ]);
    const { rows, error } = await outcome(await zip(workbookEntries(sheet, strings)));
    expect(error).toBeUndefined();
    expect(rows).toEqual([
      { line: 1, cells: ['Name', 'Email', 'Company'] },
      { line: 2, cells: ['4.5', 'TRUE', '', 'x&y', 'José <🙂> a<b', '2024-05-06', '6175550100'] },
      { line: 4, cells: ['FALSE', '', '', 'd', 'e'] },
      { line: 5, cells: ['1000'] },
    ]);
  });

  it("reads the workbook's first sheet, wherever its parts are, and leaves no spooled upload open", async () => {
    const before = uploads();
    const sheet = (email: string) =>
      `<worksheet ${MAIN}><sheetData><row r="1">${inline('A1', 'Email')}</row><row r="2">${inline('A2', email)}</row></sheetData></worksheet>`;
    const bytes = await zip([
      {
        name: 'xl/workbook.xml',
        content: `<workbook ${MAIN} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="First" sheetId="2" r:id="rId7"/><sheet name="Second" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        content:
          '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
          '<Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/data.xml"/>' +
          '</Relationships>',
      },
      { name: 'xl/worksheets/sheet1.xml', content: sheet('second@example.com') },
      { name: 'xl/worksheets/data.xml', content: sheet('first@example.com') },
    ]);
    const { rows } = await outcome(bytes);
    expect(rows).toEqual([
      { line: 1, cells: ['Email'] },
      { line: 2, cells: ['first@example.com'] },
    ]);
    // No spool of this read is left open (one still closing from before may go meanwhile).
    expect(uploads().filter((f) => !before.includes(f))).toEqual([]);
  });
});

describe('xlsxRecords: limits (a decompression bomb costs no memory)', () => {
  const run = (bytes: number) => [{ data: Buffer.alloc(bytes, 'A') }];
  const bomb = (cellBytes: number, declaredSize?: number): ZipEntry[] => {
    const entries = workbookEntries({
      pieces: [
        {
          data: `<worksheet ${MAIN}><sheetData><row r="1">${inline('A1', 'Email')}</row><row r="2"><c r="A2" t="inlineStr"><is><t>`,
        },
        ...run(cellBytes),
        { data: '</t></is></c></row></sheetData></worksheet>' },
      ],
    });
    const last = entries.length - 1;
    entries[last] = { ...(entries[last] as ZipEntry), ...(declaredSize ? { declaredSize } : {}) };
    return entries;
  };

  it('refuses a part that declares more than the limit, before inflating it (413)', async () => {
    const { rows, error } = await outcome(await zip(bomb(3 << 20)), { partBytes: 2 << 20, ratio: 10_000 });
    expect(rows).toEqual([]);
    expect(error?.statusCode).toBe(413);
    expect(error?.message).toBe(
      'The .xlsx workbook is too large to import: a part of it unpacks to more than 2 MB. Split it, or export it as CSV.',
    );
  });

  it('refuses a part compressed more than 100:1 (413)', async () => {
    const { error } = await outcome(await zip(bomb(3 << 20)));
    expect(error?.statusCode).toBe(413);
    expect(error?.message).toMatch(
      /^The .xlsx workbook was refused: a part of it is compressed more than 100:1/,
    );
  });

  it('stops a part as soon as it inflates past the size it declares (413)', async () => {
    const { rows, error } = await outcome(await zip(bomb(3 << 20, 1000)));
    expect(rows).toEqual([]);
    expect(error?.statusCode).toBe(413);
    expect(error?.message).toMatch(/a part of it unpacks to more than the size its zip directory declares/);
  });

  it("refuses a cell longer than Excel's 32,767 characters, inline or shared (400)", async () => {
    const letters = (n: number) =>
      Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join('');
    const long = letters(40_000);
    const inlineCell = await outcome(
      await zip(workbookEntries(sheetXml([[inline('A1', 'Email')], [inline('A2', long)]]))),
    );
    expect(inlineCell.error?.statusCode).toBe(400);
    expect(inlineCell.error?.message).toMatch(
      /^The .xlsx workbook has a cell of more than 32,767 characters \(row 2\), more than Excel allows\./,
    );
    const shared = await outcome(
      await zip(workbookEntries(sheetXml([['<c r="A1" t="s"><v>0</v></c>']]), sst([`<t>${long}</t>`]))),
    );
    expect(shared.error?.message).toMatch(
      /^The .xlsx workbook has a cell of more than 32,767 characters, more than Excel allows\./,
    );
  });

  it('reports a row longer than a record may be as one unreadable row, and reads on', async () => {
    const cell = (ref: string) => inline(ref, 'x'.repeat(30_000));
    const bytes = await zip(
      workbookEntries(
        sheetXml([
          [inline('A1', 'Email')],
          [cell('A2'), cell('B2'), cell('C2')],
          [inline('A3', 'ok@example.com')],
        ]),
      ),
    );
    const { rows, error } = await outcome(bytes);
    expect(error).toBeUndefined();
    expect(rows).toEqual([
      { line: 1, cells: ['Email'] },
      { line: 2, unreadable: 'The row is longer than 65536 characters' },
      { line: 3, cells: ['ok@example.com'] },
    ]);
  });

  it('refuses more distinct texts than the limit, cells beyond column XFD and document types', async () => {
    const many = await outcome(
      await zip(
        workbookEntries(
          sheetXml([['<c r="A1" t="s"><v>0</v></c>']]),
          sst(['<t>a</t>', '<t>b</t>', '<t>c</t>']),
        ),
      ),
      { sharedStrings: 2 },
    );
    expect(many.error?.message).toMatch(/^The .xlsx workbook has more than 2 different texts\./);
    for (const sheet of [
      sheetXml([['<c r="XFE1"><v>1</v></c>']]),
      `<!DOCTYPE x [<!ENTITY a "aaaa">]><worksheet ${MAIN}><sheetData><row r="1"><c r="A1"><v>&a;</v></c></row></sheetData></worksheet>`,
      `<worksheet ${MAIN}><sheetData><row r="1" ${'a="b" '.repeat(20_000)}></row></sheetData></worksheet>`,
    ]) {
      const { error } = await outcome(await zip(workbookEntries(sheet)));
      expect(error?.statusCode).toBe(400);
      expect(error?.message).toMatch(
        /^The .xlsx workbook could not be read: it is damaged or not a workbook\./,
      );
    }
  });

  it('reads rows whose one cell is in the last column (handed on in batches of bounded size)', async () => {
    // 300 rows whose one cell sits in column XFD (16,383 empty cells before it each).
    const rowsXml = Array.from({ length: 300 }, (_, i) => [`<c r="XFD${i + 1}"><v>${i}</v></c>`]);
    const input = Readable.from([await zip(workbookEntries(sheetXml(rowsXml)))]);
    const gen = xlsxRecords(input);
    let n = 0;
    let widest = 0;
    for await (const r of gen) {
      n++;
      if ('cells' in r) widest = Math.max(widest, r.cells.length);
    }
    expect(n).toBe(300);
    expect(widest).toBe(16_384);
  });
});

describe("xlsxRecords: a damaged workbook reads as one, never as the reader's own error", () => {
  it('answers a clear 4xx for every kind of damage', async () => {
    const good = await zip(
      workbookEntries(sheetXml([[inline('A1', 'Email')], [inline('A2', 'a@example.com')]])),
    );
    const patched = (edit: (b: Buffer) => void) => {
      const b = Buffer.from(good);
      edit(b);
      return b;
    };
    const cd = good.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    // The worksheet's deflate data (its first byte 0xff: a block type that does not exist).
    const sheetData = good.indexOf('xl/worksheets/sheet1.xml') + 'xl/worksheets/sheet1.xml'.length;
    const cases: Array<[string, Buffer, RegExp]> = [
      ['truncated', good.subarray(0, good.length - 40), /damaged or not a workbook/],
      ['not a zip at all', Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(200, 7)]), /damaged/],
      [
        'no worksheet',
        await zip(workbookEntries(sheetXml([])).filter((e) => !e.name.includes('worksheets'))),
        /has no worksheet/,
      ],
      ['an unknown compression method', patched((b) => b.writeUInt16LE(12, cd + 10)), /damaged/],
      ['password-protected', patched((b) => b.writeUInt16LE(0x0809, cd + 8)), /password-protected/],
      ['broken deflate data', patched((b) => b.writeUInt8(0xff, sheetData)), /damaged/],
      [
        'a tag left open',
        await zip(workbookEntries(`<worksheet ${MAIN}><sheetData><row r="1"><c r="A1"`)),
        /damaged/,
      ],
      [
        'a row number of 0',
        await zip(workbookEntries(sheetXml([]).replace('<sheetData>', '<sheetData><row r="0"/>'))),
        /damaged/,
      ],
    ];
    for (const [name, bytes, message] of cases) {
      const { error } = await outcome(bytes);
      expect(error, name).toBeInstanceOf(ImportInputError);
      expect(error?.statusCode, name).toBeGreaterThanOrEqual(400);
      expect(error?.statusCode, name).toBeLessThan(500);
      expect(error?.message, name).toMatch(message);
      expect(error?.message, name).toMatch(/^The \.xlsx workbook /);
      expect(error?.message, name).not.toMatch(/undefined|Cannot read|signature|invalid|zlib|Error|\(/);
    }
  });
});
