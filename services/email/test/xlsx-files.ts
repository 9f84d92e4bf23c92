import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Workbooks written byte by byte for the import tests and benchmarks: a streaming zip writer
 * (entries deflated as they are produced, never held whole) and the hostile workbooks built
 * with it: one cell that inflates to gigabytes from a file of about a megabyte (deflate packs
 * a run of one byte about 1000:1).
 */

/** An entry's content: text, or pieces one after another (a piece may repeat). */
type Content = string | Buffer | { pieces: Array<{ data: string | Buffer; times?: number }> };

export interface ZipEntry {
  name: string;
  content: Content;
  /** Write this as the uncompressed size in the central directory instead of the real one (a liar's archive). */
  declaredSize?: number;
}

/** Writes a zip of deflated entries (local headers with data descriptors, as streaming writers do) to `path`. */
export async function writeZip(path: string, entries: ZipEntry[]): Promise<number> {
  const out = createWriteStream(path);
  let offset = 0;
  const write = async (b: Buffer) => {
    offset += b.length;
    if (!out.write(b)) await new Promise<void>((r) => out.once('drain', () => r()));
  };
  const central: Buffer[] = [];
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const start = offset;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0808, 6); // data descriptor follows; UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt16LE(name.length, 26);
    await write(local);
    await write(name);
    const { crc, compressed, size } = await deflateInto(entry.content, write);
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size % 2 ** 32, 12);
    await write(descriptor);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(0x0808, 8);
    cd.writeUInt16LE(8, 10);
    cd.writeUInt16LE(0, 12);
    cd.writeUInt16LE(0x21, 14);
    cd.writeUInt32LE(crc, 16);
    cd.writeUInt32LE(compressed, 20);
    cd.writeUInt32LE((entry.declaredSize ?? size) % 2 ** 32, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(start, 42);
    central.push(cd, name);
  }
  const cdStart = offset;
  for (const b of central) await write(b);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(offset - cdStart, 12);
  end.writeUInt32LE(cdStart, 16);
  await write(end);
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  return offset;
}

/**
 * Deflates each piece on its own, ending in a full flush (no reference reaches back past it,
 * so the pieces' streams can be laid end to end), a repeated piece once; then a final empty
 * block. A gigabyte of one letter costs a millisecond of deflate, and the CRC.
 */
/** A zip of `entries` as bytes. */
export async function zipBytes(entries: ZipEntry[]): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-zip-'));
  try {
    const path = join(dir, 'file.zip');
    await writeZip(path, entries);
    return readFileSync(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function deflateInto(
  content: Content,
  write: (b: Buffer) => Promise<void>,
): Promise<{ crc: number; compressed: number; size: number }> {
  const pieces = typeof content === 'object' && 'pieces' in content ? content.pieces : [{ data: content }];
  let crc = 0;
  let size = 0;
  let compressed = 0;
  for (const { data, times = 1 } of pieces) {
    const raw = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const packed = deflateRawSync(raw, { level: 9, memLevel: 9, finishFlush: constants.Z_FULL_FLUSH });
    for (let i = 0; i < times; i++) {
      crc = crc32(raw, crc);
      await write(packed);
    }
    size += raw.length * times;
    compressed += packed.length * times;
  }
  const last = deflateRawSync(Buffer.alloc(0));
  await write(last);
  return { crc, compressed: compressed + last.length, size };
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
  '</Types>';
const ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
  '</Relationships>';
const WORKBOOK =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
  '<sheets><sheet name="Contacts" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WORKBOOK_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' +
  '</Relationships>';
const MAIN_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';

/** The parts of a minimal workbook around its worksheet XML and shared strings XML. */
export function workbookEntries(sheetXml: Content, sharedStringsXml?: Content): ZipEntry[] {
  return [
    { name: '[Content_Types].xml', content: CONTENT_TYPES },
    { name: '_rels/.rels', content: ROOT_RELS },
    { name: 'xl/workbook.xml', content: WORKBOOK },
    { name: 'xl/_rels/workbook.xml.rels', content: WORKBOOK_RELS },
    ...(sharedStringsXml === undefined ? [] : [{ name: 'xl/sharedStrings.xml', content: sharedStringsXml }]),
    { name: 'xl/worksheets/sheet1.xml', content: sheetXml },
  ];
}

/** A worksheet's XML from rows of cell XML (`<c ...>...</c>`). */
export function sheetXml(rows: string[][]): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ${MAIN_NS}><sheetData>${rows
    .map((cells, i) => `<row r="${i + 1}">${cells.join('')}</row>`)
    .join('')}</sheetData></worksheet>`;
}

/** `bytes` of the letter A, as 1 MiB pieces. */
function run(bytes: number): Array<{ data: Buffer; times?: number }> {
  const mib = 1 << 20;
  const whole = Math.floor(bytes / mib);
  return [{ data: Buffer.alloc(mib, 'A'), times: whole }, { data: Buffer.alloc(bytes - whole * mib, 'A') }];
}

export type Hostile = 'shared-string' | 'inline-string';

/**
 * A workbook of a header (Email) and one cell of `cellBytes` characters: a shared string
 * (xl/sharedStrings.xml) or an inline string in the worksheet. `lie`: the central directory
 * claims the entry inflates to 1 KB. Returns the file's size.
 */
export function writeHostileXlsx(
  path: string,
  opts: { cellBytes: number; where: Hostile; lie?: boolean },
): Promise<number> {
  const declared = opts.lie ? { declaredSize: 1024 } : {};
  if (opts.where === 'shared-string') {
    const sst = {
      pieces: [
        {
          data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst ${MAIN_NS} count="2" uniqueCount="2"><si><t>Email</t></si><si><t>`,
        },
        ...run(opts.cellBytes),
        { data: '</t></si></sst>' },
      ],
    };
    const entries = workbookEntries(
      sheetXml([['<c r="A1" t="s"><v>0</v></c>'], ['<c r="A2" t="s"><v>1</v></c>']]),
      sst,
    );
    const i = entries.findIndex((e) => e.name === 'xl/sharedStrings.xml');
    entries[i] = { ...(entries[i] as ZipEntry), ...declared };
    return writeZip(path, entries);
  }
  const sheet = {
    pieces: [
      {
        data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ${MAIN_NS}><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Email</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>`,
      },
      ...run(opts.cellBytes),
      { data: '</t></is></c></row></sheetData></worksheet>' },
    ],
  };
  const entries = workbookEntries(sheet);
  const i = entries.findIndex((e) => e.name === 'xl/worksheets/sheet1.xml');
  entries[i] = { ...(entries[i] as ZipEntry), ...declared };
  return writeZip(path, entries);
}
