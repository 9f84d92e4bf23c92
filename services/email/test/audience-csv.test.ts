import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  CsvDecoder,
  CsvSplitter,
  csvRecords,
  MAX_RECORD_CHARS,
  type SheetRecord,
  sniffDelimiter,
} from '../src/features/audience/domain/csv.ts';

/** The CSV splitter: edge cases by hand, and agreement with csv-parse on generated files. */

async function read(
  chunks: Array<string | Buffer>,
  delimiter?: ',' | ';' | '\t',
  decoder?: CsvDecoder,
): Promise<SheetRecord[]> {
  const out: SheetRecord[] = [];
  async function* source() {
    for (const c of chunks) yield typeof c === 'string' ? Buffer.from(c) : c;
  }
  for await (const r of csvRecords(source(), delimiter, decoder)) out.push(r);
  return out;
}

/** `bytes` in pieces of `size`. */
const pieces = (bytes: Buffer, size: number) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));

/** Every way of cutting `text` into two pieces must give the same records. */
async function everySplit(text: string): Promise<SheetRecord[]> {
  const whole = await read([text]);
  const bytes = Buffer.from(text);
  for (let i = 1; i < bytes.length; i++) {
    expect(await read([bytes.subarray(0, i), bytes.subarray(i)]), `split at byte ${i}`).toEqual(whole);
  }
  return whole;
}

describe('csvRecords', () => {
  it('reads a BOM, CRLF, quoted delimiters, quotes and line breaks, and skips empty lines', async () => {
    const text =
      '\uFEFFemail,name\r\na@b.co,"Smith, J"\r\n\r\nc@d.co,"multi\r\nline ""quoted"""\r\ne@f.co,x\r\n';
    expect(await everySplit(text)).toEqual([
      { line: 1, cells: ['email', 'name'] },
      { line: 2, cells: ['a@b.co', 'Smith, J'] },
      { line: 4, cells: ['c@d.co', 'multi\r\nline "quoted"'] },
      { line: 6, cells: ['e@f.co', 'x'] },
    ]);
  });

  it('accepts LF, CR and a last line without a line end, and keeps ragged rows', async () => {
    expect(await everySplit('a,b\rc\nd,e,f')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['c'] },
      { line: 3, cells: ['d', 'e', 'f'] },
    ]);
    expect(await read(['a,\n,\n'])).toEqual([
      { line: 1, cells: ['a', ''] },
      { line: 2, cells: ['', ''] },
    ]);
    expect(await read(['x,'])).toEqual([{ line: 1, cells: ['x', ''] }]);
  });

  it('keeps quotes inside unquoted text and text after a closing quote', async () => {
    expect(await read(['a,x"y\nb,"ok"z\n'])).toEqual([
      { line: 1, cells: ['a', 'x"y'] },
      { line: 2, cells: ['b', 'okz'] },
    ]);
  });

  it('skips a row whose quote never closes and reads on from the next line', async () => {
    expect(await read(['email,name\na@b.co,"oops\nc@d.co,fine\n'])).toEqual([
      { line: 1, cells: ['email', 'name'] },
      { line: 2, unreadable: 'A quoted value is never closed; the row was skipped' },
      { line: 3, cells: ['c@d.co', 'fine'] },
    ]);
    // Unclosed for longer than a record may be: reported once the limit is passed, memory stays bounded.
    const long = `email\n"${'x'.repeat(MAX_RECORD_CHARS + 10)}\nok@x.io\n`;
    const out = await read([long.slice(0, 40_000), long.slice(40_000)]);
    expect(out[0]).toEqual({ line: 1, cells: ['email'] });
    expect(out[1]).toMatchObject({ line: 2, unreadable: expect.any(String) });
    expect(out.at(-1)).toEqual({ line: 3, cells: ['ok@x.io'] });
  });

  it('decodes UTF-8 split anywhere and UTF-16 with its BOM; invalid bytes become U+FFFD', async () => {
    const zoe = Buffer.from('email,name\na@b.co,Zoë 🎉\n');
    for (let i = 1; i < zoe.length; i++) {
      const r = await read([zoe.subarray(0, i), zoe.subarray(i)]);
      expect(r[1], `split at ${i}`).toEqual({ line: 2, cells: ['a@b.co', 'Zoë 🎉'] });
    }
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('email,name\na@b.co,Zoë\n', 'utf16le'),
    ]);
    expect(await read([utf16])).toEqual([
      { line: 1, cells: ['email', 'name'] },
      { line: 2, cells: ['a@b.co', 'Zoë'] },
    ]);
    // Mostly UTF-8: a stray byte becomes U+FFFD.
    const bad = Buffer.concat([Buffer.from('Zoë Ünal,'), Buffer.from([0xff]), Buffer.from(',\u0000z\n')]);
    expect(await read([bad])).toEqual([{ line: 1, cells: ['Zoë Ünal', '\uFFFD', '\u0000z'] }]);
  });

  it('reads a Windows-1252 (Latin-1) file as such, detected or chosen, and says which encoding it used', async () => {
    // "José Müller, Café €5" as Excel writes it in a Western locale.
    const latin = Buffer.from('email,name,note\nj@x.io,José Müller,Café €5\n', 'latin1');
    latin[latin.length - 3] = 0x80; // '€' is 0x80 in Windows-1252
    const decoder = new CsvDecoder();
    expect(await read([latin], undefined, decoder)).toEqual([
      { line: 1, cells: ['email', 'name', 'note'] },
      { line: 2, cells: ['j@x.io', 'José Müller', 'Café €5'] },
    ]);
    expect(decoder.encoding).toBe('windows-1252');
    // The first accented byte far into the file, split anywhere.
    const late = Buffer.concat([
      Buffer.from(`email\n${'a@x.io\n'.repeat(20_000)}`),
      Buffer.from('jos\xe9@x.io\n', 'latin1'),
    ]);
    for (const size of [1, 7, 65_536]) {
      const d = new CsvDecoder();
      const rows = await read(pieces(late, size === 1 ? late.length - 5 : size), undefined, d);
      expect(rows.at(-1)).toEqual({ line: 20_002, cells: ['josé@x.io'] });
      expect(d.encoding).toBe('windows-1252');
    }
    // UTF-8, UTF-16 (either order, the mark split anywhere), ASCII.
    const cases: Array<[Buffer, string]> = [
      [Buffer.from('\uFEFFemail\nzoë@x.io\n'), 'utf-8'],
      [Buffer.from('email\nzoë@x.io\n'), 'utf-8'],
      [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('email\nzoë@x.io\n', 'utf16le')]), 'utf-16le'],
      [
        Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('email\nzoë@x.io\n', 'utf16le').swap16()]),
        'utf-16be',
      ],
    ];
    for (const [bytes, encoding] of cases)
      for (let i = 1; i < bytes.length; i++) {
        const d = new CsvDecoder();
        const rows = await read([bytes.subarray(0, i), bytes.subarray(i)], undefined, d);
        expect(rows, `${encoding} split at ${i}`).toEqual([
          { line: 1, cells: ['email'] },
          { line: 2, cells: ['zoë@x.io'] },
        ]);
        expect(d.encoding).toBe(encoding);
      }
    const ascii = new CsvDecoder();
    await read(['email\na@x.io\n'], undefined, ascii);
    expect(ascii.encoding).toBe('utf-8');
    // Chosen: read as asked, whatever the bytes look like.
    const chosen = new CsvDecoder('windows-1252');
    expect(await read(['email\nzoë@x.io\n'], undefined, chosen)).toEqual([
      { line: 1, cells: ['email'] },
      { line: 2, cells: ['zoÃ«@x.io'] },
    ]);
    expect(chosen.encoding).toBe('windows-1252');
  });

  it('reports an endless row once, with its line, however it arrives', async () => {
    for (const [name, row] of [
      ['unquoted', 'x'.repeat(3_000_000)],
      ['quoted, never closed', `"${'x'.repeat(3_000_000)}`],
      ['quoted and closed, too long', `"${'x'.repeat(3_000_000)}",y`],
    ]) {
      for (const eol of ['\n', '\r\n', '\r']) {
        const file = Buffer.from(`email,name${eol}a@x.io,A${eol}${row}${eol}b@x.io,B${eol}`);
        for (const size of [65_536, 65_537, 1_000_003]) {
          const rows = await read(pieces(file, size));
          expect(rows, `${name} ${JSON.stringify(eol)} ${size}`).toEqual([
            { line: 1, cells: ['email', 'name'] },
            { line: 2, cells: ['a@x.io', 'A'] },
            { line: 3, unreadable: expect.any(String) },
            { line: 4, cells: ['b@x.io', 'B'] },
          ]);
        }
      }
    }
  });

  it('finds the delimiter on the first line', async () => {
    expect(sniffDelimiter('email;name;"a,b"\nx')).toBe(';');
    expect(sniffDelimiter('email\tname\n')).toBe('\t');
    expect(sniffDelimiter('email,name;x\n')).toBe(',');
    expect(sniffDelimiter('email\n')).toBe(',');
    expect(await read(['Email;Name\nx@y.io;Smith, J\n'])).toEqual([
      { line: 1, cells: ['Email', 'Name'] },
      { line: 2, cells: ['x@y.io', 'Smith, J'] },
    ]);
    expect(await read(['a;b\n'], ',')).toEqual([{ line: 1, cells: ['a;b'] }]);
    expect(await read([])).toEqual([]);
    expect(await read(['\uFEFF'])).toEqual([]);
  });

  it('agrees with csv-parse on generated files, whatever the chunking', () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = ['a', 'b', 'Z', ' ', ',', '"', '\n', '\r\n', 'é', '😀', '\t', ';'];
    for (let file = 0; file < 200; file++) {
      const rows: string[][] = [];
      const nRows = 1 + rand(6);
      const width = 1 + rand(4);
      for (let r = 0; r < nRows; r++) {
        const row: string[] = [];
        for (let c = 0; c < width; c++) {
          let cell = '';
          for (let k = rand(6); k > 0; k--) cell += alphabet[rand(alphabet.length)];
          row.push(cell);
        }
        // A row csv-parse and we both skip would be a single empty cell.
        if (row.length === 1 && row[0] === '') row[0] = 'x';
        rows.push(row);
      }
      const text = rows
        .map((row) =>
          row
            .map((c) => (/[",\r\n]/.test(c) || c.startsWith(' ') ? `"${c.replace(/"/g, '""')}"` : c))
            .join(','),
        )
        .join(rand(2) ? '\r\n' : '\n');
      const expected = parse(text, { relax_column_count: true, skip_empty_lines: false }) as string[][];
      const splitter = new CsvSplitter(',');
      const out: SheetRecord[] = [];
      const cut = rand(text.length + 1);
      splitter.push(text.slice(0, cut), out);
      splitter.push(text.slice(cut), out);
      splitter.end(out);
      expect(
        out.map((r) => ('cells' in r ? r.cells : r)),
        JSON.stringify(text),
      ).toEqual(expected);
    }
  });
});
