import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AudienceUnderTest, csv, type Loose, startAudience } from './audience-peers.ts';
import { sheetXml, workbookEntries, zipBytes } from './xlsx-files.ts';

/** Imports over HTTP against the real service, PostgreSQL and NATS: formats, edge cases, outcomes. */

let t: AudienceUnderTest;
let defaultBook: number;

beforeAll(async () => {
  t = await startAudience('audience_import');
  defaultBook = (await t.call('GET', '/api/admin/address-books')).json.find((b: Loose) => b.isDefault).id;
});
afterAll(async () => {
  await t?.stop();
});

const newBook = async (name: string): Promise<number> =>
  (await t.call('POST', '/api/admin/address-books', { name })).json.id;
const contactsOf = async (book: number): Promise<Loose[]> =>
  (await t.call('GET', `/api/admin/email/contacts?addressBookId=${book}&limit=1000`)).json.contacts;
const byEmail = (list: Loose[]) => new Map(list.map((c) => [c.email, c]));
const countOf = async (book: number) =>
  (await t.call('GET', '/api/admin/address-books')).json.find((b: Loose) => b.id === book).contactCount;
/** Staging tables an import left in the database. */
const stagedTables = async (importId: string) =>
  (
    await t.db.query(`SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE $1`, [
      `import_rows_${importId.replaceAll('-', '')}_%`,
    ])
  ).rows[0].n;
const rowsIn = async (book: number) =>
  (await t.db.query('SELECT count(*)::int AS n FROM email_contacts WHERE address_book_id = $1', [book]))
    .rows[0].n;

describe('POST /api/admin/contacts/import-csv', () => {
  it('imports the admin column set with every kind of awkward CSV, and reports what it refused', async () => {
    const book = await newBook('Awkward CSV');
    const file =
      '\uFEFFName,Email,Phone,Address,Category,Website,Rating,Reviews,Description\r\n' +
      'Smith & Jones Law,info@smithjones.example.com,(617) 555-0100,"12 Main St, Boston",Law firm,https://smithjones.example.com,4.6,"1,204","Family law, estates"\r\n' +
      '\r\n' +
      'Dr. Ann Lee,ANN@LeeClinic.example.com,,"1 Elm St\nSuite 2",Dental clinic,,4,87,"She said ""hi"""\r\n' +
      'Bad Row,not-an-email,,,,,,,\r\n' +
      'Duplicate,info@SMITHJONES.example.com,999,,,,,,\r\n' +
      'No Email,,555,,,,,,\r\n' +
      ',,,,,,,,\r\n' +
      'Nul\u0000Name,nul@x.example.com,,,,,,,\r\n' +
      'Last,last@x.example.com';
    const r = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'leads.csv', content: file },
      { addressBookId: String(book) },
    );
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      addressBookId: book,
      status: 'completed',
      imported: 4,
      updated: 0,
      skipped: 1,
      rowsRead: 7,
      errorCount: 2,
      errors: ['Line 6: Invalid email address "not-an-email"', 'Line 8: Missing email address'],
      message: 'Imported 4 contacts, skipped 1 duplicate, 2 errors.',
    });
    expect(typeof r.json.importId).toBe('string');
    const list = byEmail(await contactsOf(book));
    expect([...list.keys()].sort()).toEqual([
      'ANN@leeclinic.example.com',
      'info@smithjones.example.com',
      'last@x.example.com',
      'nul@x.example.com',
    ]);
    expect(list.get('info@smithjones.example.com')).toMatchObject({
      firstName: 'Smith',
      lastName: '& Jones Law',
      phone: '(617) 555-0100',
      address: '12 Main St, Boston',
      category: 'Law firm',
      website: 'https://smithjones.example.com',
      rating: 4.6,
      reviewCount: 1204,
      description: 'Family law, estates',
      status: 'active',
      source: 'csv',
    });
    expect(list.get('ANN@leeclinic.example.com')).toMatchObject({
      firstName: 'Dr.',
      lastName: 'Ann Lee',
      address: '1 Elm St\nSuite 2',
      description: 'She said "hi"',
      phone: null,
    });
    expect(list.get('nul@x.example.com')?.firstName).toBe('NulName');
    expect(await countOf(book)).toBe(4);
    const job = await t.call('GET', `/api/admin/email/imports/${r.json.importId}`);
    expect(job.json).toMatchObject({
      status: 'completed',
      phase: 'done',
      kind: 'csv',
      fileName: 'leads.csv',
      rowsRead: 7,
      imported: 4,
      errorCount: 2,
      errors: [
        { line: 6, email: 'not-an-email', message: 'Invalid email address "not-an-email"' },
        { line: 8, email: null, message: 'Missing email address' },
      ],
    });
    await t.waitEvent(
      'email.import.completed',
      (p) => p.importId === r.json.importId && p.imported === 4 && p.contactCount === 4,
    );
  });

  it('re-imports: fills in new details, never touches status, counts duplicates as skipped', async () => {
    const book = await newBook('Re-import');
    const first = csv([
      ['email', 'firstName', 'lastName', 'company', 'phone'],
      ['a@re.example.com', 'Ann', '', 'Acme', ''],
      ['b@re.example.com', 'Bob', 'Barr', '', ''],
    ]);
    expect(
      (
        await t.upload(
          '/api/admin/contacts/import-csv',
          { name: 'a.csv', content: first },
          { addressBookId: String(book) },
        )
      ).json.imported,
    ).toBe(2);
    await t.db.query(
      `UPDATE email_contacts SET status = 'unsubscribed', unsubscribed_at = now() WHERE email = 'b@re.example.com'`,
    );
    const second = csv([
      ['EMAIL', 'First Name', 'Last Name', 'Company', 'Phone'],
      ['A@RE.example.com', '', 'Adams', 'Acme', '555-1'],
      ['b@re.example.com', 'Bob', 'Barr', '', ''],
      ['a@re.example.com', 'Second', 'Row', '', ''],
      ['c@re.example.com', 'Cy', '', '', ''],
    ]);
    const r = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'b.csv', content: second },
      { addressBookId: String(book) },
    );
    expect(r.json).toMatchObject({ imported: 1, updated: 1, skipped: 2, errorCount: 0 });
    expect(r.json.message).toBe(
      'Imported 1 contact, skipped 2 duplicates, 0 errors. Updated 1 existing contact.',
    );
    const list = byEmail(await contactsOf(book));
    // The address keeps its first spelling; empty cells never erase; the first row of a duplicate wins.
    expect(list.get('a@re.example.com')).toMatchObject({
      firstName: 'Ann',
      lastName: 'Adams',
      company: 'Acme',
      phone: '555-1',
    });
    expect(list.get('b@re.example.com')).toMatchObject({ status: 'unsubscribed' });
    expect(list.size).toBe(3);
    expect(await countOf(book)).toBe(3);
  });

  it('reads a file without a header in the spec order, semicolons, and tab-separated files', async () => {
    const book = await newBook('Header-less');
    const r1 = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'plain.csv', content: 'x@h.example.com,Xena,Warrior,Amazon,1\ny@h.example.com\n' },
      { addressBookId: String(book) },
    );
    expect(r1.json).toMatchObject({ imported: 2, errorCount: 0 });
    const r2 = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'semi.csv', content: 'Email;Company\nz@h.example.com;Zed, Inc\n' },
      { addressBookId: String(book) },
    );
    expect(r2.json.imported).toBe(1);
    const r3 = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'tabs.csv', content: 'Email\tFirst Name\nw@h.example.com\tWill\n' },
      { addressBookId: String(book) },
    );
    expect(r3.json.imported).toBe(1);
    const list = byEmail(await contactsOf(book));
    expect(list.get('x@h.example.com')).toMatchObject({
      firstName: 'Xena',
      lastName: 'Warrior',
      company: 'Amazon',
      phone: '1',
    });
    expect(list.get('z@h.example.com')?.company).toBe('Zed, Inc');
    expect(list.get('w@h.example.com')?.firstName).toBe('Will');
  });

  it('imports the first worksheet of an .xlsx (text, links, formulas, numbers)', async () => {
    const book = await newBook('Workbook');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Leads');
    ws.addRow(['Name', 'Email', 'Phone', 'Rating', 'Reviews', 'Category']);
    ws.addRow([
      'Ann Lee',
      { text: 'ann@xlsx.example.com', hyperlink: 'mailto:ann@xlsx.example.com' },
      6175550100,
      4.5,
      120,
      'Dental',
    ]);
    ws.addRow([
      { richText: [{ text: 'Bo' }, { text: 'b' }] },
      'bob@xlsx.example.com',
      '',
      { formula: '2+2', result: 4 },
      '',
      'Law',
    ]);
    ws.addRow(['Bad', 'nope', '', '', '', '']);
    wb.addWorksheet('Other').addRow(['Email']).commit?.();
    const content = Buffer.from(await wb.xlsx.writeBuffer());
    const r = await t.upload(
      '/api/admin/contacts/import-csv',
      {
        name: 'leads.xlsx',
        content,
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
      { addressBookId: String(book) },
    );
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      imported: 2,
      errorCount: 1,
      errors: ['Line 4: Invalid email address "nope"'],
    });
    const list = byEmail(await contactsOf(book));
    expect(list.get('ann@xlsx.example.com')).toMatchObject({
      firstName: 'Ann',
      phone: '6175550100',
      rating: 4.5,
      reviewCount: 120,
      source: 'xlsx',
    });
    expect(list.get('bob@xlsx.example.com')).toMatchObject({ firstName: 'Bob', rating: 4, category: 'Law' });
    const job = await t.call('GET', `/api/admin/email/imports/${r.json.importId}`);
    expect(job.json.kind).toBe('xlsx');
  });

  it('answers 4xx for every bad request and imports nothing', async () => {
    const book = await newBook('Refusals');
    const ok = csv([['email'], ['ok@refuse.example.com']]);
    const cases: Array<[string, () => Promise<Loose>, number, string]> = [
      [
        'no book',
        () => t.upload('/api/admin/contacts/import-csv', { name: 'a.csv', content: ok }),
        400,
        'Address book is required',
      ],
      [
        'book 0',
        () =>
          t.upload('/api/admin/contacts/import-csv', { name: 'a.csv', content: ok }, { addressBookId: '0' }),
        400,
        'Address book is required',
      ],
      [
        'unknown book',
        () =>
          t.upload(
            '/api/admin/contacts/import-csv',
            { name: 'a.csv', content: ok },
            { addressBookId: '999999' },
          ),
        404,
        'Address book not found',
      ],
      [
        'no email column',
        () =>
          t.upload(
            '/api/admin/contacts/import-csv',
            { name: 'a.csv', content: 'Name,Phone\nAnn,1\n' },
            { addressBookId: String(book) },
          ),
        400,
        'The file has no Email column.',
      ],
      [
        'pdf',
        () =>
          t.upload(
            '/api/admin/contacts/import-csv',
            { name: 'a.pdf', content: '%PDF-1.4' },
            { addressBookId: String(book) },
          ),
        415,
        'Only .csv or .xlsx files can be imported.',
      ],
      [
        'fake xlsx',
        () =>
          t.upload(
            '/api/admin/contacts/import-csv',
            { name: 'a.xlsx', content: 'email\nx@y.io' },
            { addressBookId: String(book) },
          ),
        415,
        'The file is not a valid .xlsx workbook.',
      ],
      [
        'corrupt xlsx',
        () =>
          t.upload(
            '/api/admin/contacts/import-csv',
            {
              name: 'a.xlsx',
              content: Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(200, 7)]),
            },
            { addressBookId: String(book) },
          ),
        400,
        '',
      ],
      [
        'xlsx on the csv-only call',
        () =>
          t.upload('/api/admin/email/import-csv', {
            name: 'a.xlsx',
            content: Buffer.from([0x50, 0x4b, 3, 4]),
          }),
        415,
        'Only .csv files can be imported here.',
      ],
      [
        'no file',
        async () => {
          const form = new FormData();
          form.append('addressBookId', String(book));
          const res = await fetch(`${t.url}/api/admin/contacts/import-csv`, {
            method: 'POST',
            headers: await t.admin(),
            body: form,
          });
          return { status: res.status, json: (await res.json()) as Loose };
        },
        400,
        'Please choose a file to import.',
      ],
      [
        'not multipart',
        () => t.call('POST', '/api/admin/contacts/import-csv', { file: 'x' }),
        415,
        'Send the file as multipart/form-data',
      ],
    ];
    for (const [name, run, status, message] of cases) {
      const r = await run();
      expect(r.status, `${name}: ${JSON.stringify(r.json)}`).toBe(status);
      expect(r.json.message, name).toContain(message);
      expect(typeof r.json.error, name).toBe('string');
    }
    expect(await rowsIn(book)).toBe(0);
    const failed = await t.call('GET', `/api/admin/email/imports?addressBookId=${book}`);
    expect(failed.json.imports.every((j: Loose) => j.status === 'failed' && j.imported === 0)).toBe(true);
    expect((await t.call('GET', '/api/admin/email/imports/not-a-uuid')).status).toBe(400);
    expect(
      (await t.call('GET', '/api/admin/email/imports/00000000-0000-4000-8000-000000000000')).status,
    ).toBe(404);
  });

  it("reads cells without references, and never shows the workbook reader's own error text", async () => {
    const book = await newBook('Reader errors');
    const xlsx = (content: Buffer) => ({
      name: 'leads.xlsx',
      content,
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    // References are optional in the format (some generators leave them out); the reader
    // before this one answered "Cannot read properties of undefined (reading 'length')".
    const unreferenced = await zipBytes(
      workbookEntries(
        sheetXml([
          ['<c t="inlineStr"><is><t>Email</t></is></c>', '<c t="inlineStr"><is><t>Name</t></is></c>'],
          [
            '<c t="inlineStr"><is><t>noref@xlsx.example.com</t></is></c>',
            '<c t="inlineStr"><is><t>No Ref</t></is></c>',
          ],
        ]).replace(/<row r="\d+">/g, '<row>'),
      ),
    );
    const r = await t.upload('/api/admin/contacts/import-csv', xlsx(unreferenced), {
      addressBookId: String(book),
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.imported).toBe(1);
    expect(byEmail(await contactsOf(book)).get('noref@xlsx.example.com')).toMatchObject({ firstName: 'No' });

    const good = await zipBytes(
      workbookEntries(sheetXml([['<c r="A1" t="inlineStr"><is><t>Email</t></is></c>']])),
    );
    const damaged: Array<[string, Buffer]> = [
      ['truncated', good.subarray(0, good.length - 30)],
      ['not a zip', Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(200, 7)])],
      [
        'a row numbered NaN',
        await zipBytes(workbookEntries(sheetXml([['<c r="A1"><v>1</v></c>']]).replace('r="1"', 'r="x"'))),
      ],
      ['a tag left open', await zipBytes(workbookEntries('<worksheet><sheetData><row r="1"><c r="A1"'))],
    ];
    for (const [name, content] of damaged) {
      const d = await t.upload('/api/admin/contacts/import-csv', xlsx(content), {
        addressBookId: String(book),
      });
      expect(d.status, `${name}: ${JSON.stringify(d.json)}`).toBe(400);
      expect(d.json.message, name).toMatch(
        /^The \.xlsx workbook could not be read: it is damaged or not a workbook\./,
      );
      expect(d.json.message, name).not.toMatch(/undefined|Cannot read|Invalid|signature|\(/);
    }
    expect(await rowsIn(book)).toBe(1);
  });

  it('reads a Windows-1252 CSV as such (detected, or as the form asks) and says which encoding it used', async () => {
    const book = await newBook('Latin-1');
    const latin = Buffer.from('Email,Name,Company\njose@latin.example.com,José Müller,Café Zoë\n', 'latin1');
    const r = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'latin.csv', content: latin },
      { addressBookId: String(book) },
    );
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({ imported: 1, encoding: 'windows-1252' });
    expect(byEmail(await contactsOf(book)).get('jose@latin.example.com')).toMatchObject({
      firstName: 'José',
      lastName: 'Müller',
      company: 'Café Zoë',
    });
    const job = await t.call('GET', `/api/admin/email/imports/${r.json.importId}`);
    expect(job.json.encoding).toBe('windows-1252');

    // UTF-8 is detected as UTF-8; an encoding the form names is used as named.
    const utf8 = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'utf8.csv', content: Buffer.from('Email,Name\nzoe@latin.example.com,Zoë\n') },
      { addressBookId: String(book) },
    );
    expect(utf8.json).toMatchObject({ imported: 1, encoding: 'utf-8' });
    const forced = await t.upload(
      '/api/admin/email/import-csv',
      { name: 'forced.csv', content: Buffer.from('Email,Name\nforced@latin.example.com,Zoë\n') },
      { addressBookId: String(book), encoding: 'windows-1252' },
    );
    expect(forced.json).toMatchObject({ imported: 1, encoding: 'windows-1252' });
    expect(byEmail(await contactsOf(book)).get('forced@latin.example.com')?.firstName).toBe('ZoÃ«');
    const unknown = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'x.csv', content: Buffer.from('Email\nx@latin.example.com\n') },
      { addressBookId: String(book), encoding: 'ebcdic' },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toMatch(/^Unknown text encoding "ebcdic"/);
    // A workbook has no text encoding to report.
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('A').addRow(['Email']);
    wb.getWorksheet('A')?.addRow(['wb@latin.example.com']);
    const x = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'a.xlsx', content: Buffer.from(await wb.xlsx.writeBuffer()) },
      { addressBookId: String(book) },
    );
    expect(x.json).toMatchObject({ imported: 1, encoding: null });
    expect(await countOf(book)).toBe(4);
  });

  it('reports a row of 3 MB once, with its line, and imports the rows around it', async () => {
    const book = await newBook('Endless row');
    const file = `Email,Name\r\nbefore@long.example.com,A\r\n${'x'.repeat(3_000_000)}\r\nafter@long.example.com,B\r\n`;
    const r = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'long.csv', content: file },
      { addressBookId: String(book) },
    );
    expect(r.status, JSON.stringify(r.json).slice(0, 500)).toBe(200);
    expect(r.json).toMatchObject({
      imported: 2,
      errorCount: 1,
      errors: ['Line 3: The row is longer than 65536 characters'],
    });
  });

  it('never answers 5xx for text with NUL, lone surrogates or invalid UTF-8', async () => {
    const book = await newBook('Strange text');
    const bytes = Buffer.concat([
      Buffer.from('Email,Name,Description\n'),
      Buffer.from('s1@strange.example.com,A\u0000B,'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x0a]),
      Buffer.from('s2@strange.example.com,"\u0000",x\n'),
      Buffer.from('\u0000\u0000\u0000\n'),
    ]);
    const r = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'odd.csv', content: bytes },
      { addressBookId: String(book) },
    );
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.imported).toBe(2);
    const manual = await t.call(
      'POST',
      '/api/admin/email/import-manual',
      `{"addressBookId": ${book}, "contacts": "s3@strange.example.com,\\ud800Lone,\\udfffSur\\u0000,Co\\u0000"}`,
    );
    // The platform refuses such JSON for every service (kit), before the import sees it.
    expect(manual.status).toBe(400);
    expect(manual.json.message).toContain('NUL character or invalid Unicode');
    expect((await contactsOf(book)).some((c) => c.email === 's3@strange.example.com')).toBe(false);
    // Inside a file they are read: NUL dropped, lone surrogates replaced.
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Email,First Name,Company\ns3@strange.example.com,', 'utf16le'),
      Buffer.from([0x00, 0xd8]), // a lone high surrogate (U+D800) in UTF-16LE
      Buffer.from('Lone,Co\u0000\n', 'utf16le'),
    ]);
    const r16 = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'u16.csv', content: utf16 },
      { addressBookId: String(book) },
    );
    expect(r16.status, JSON.stringify(r16.json)).toBe(200);
    const s3 = (await contactsOf(book)).find((c) => c.email === 's3@strange.example.com');
    expect(s3).toMatchObject({ firstName: '\uFFFDLone', company: 'Co' });
    const search = await t.call('GET', '/api/admin/email/contacts?q=%00%ED%A0%80%F0');
    expect(search.status).toBeLessThan(500);
  });
});

describe('POST /api/admin/email/import-csv and import-manual', () => {
  it('imports the email page column set into the default book', async () => {
    const before = await countOf(defaultBook);
    const r = await t.upload('/api/admin/email/import-csv', {
      name: 'contacts.csv',
      content: csv([
        ['email', 'firstName', 'lastName', 'company', 'phone'],
        ['page@email.example.com', 'Pat', 'Page', 'Paper Co', '1'],
      ]),
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      addressBookId: defaultBook,
      imported: 1,
      skipped: 0,
      errors: [],
      errorCount: 0,
    });
    expect(await countOf(defaultBook)).toBe(before + 1);
  });

  it('takes one contact per line, or a line of addresses', async () => {
    const book = await newBook('Manual');
    const r = await t.call('POST', '/api/admin/email/import-manual', {
      addressBookId: book,
      contacts:
        'm1@manual.example.com, Mia, Moss, Moss & Co, 555\n\n m2@manual.example.com\nm3@manual.example.com, m4@manual.example.com\nbroken\n"m5@manual.example.com","Quoted, Name"',
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ imported: 5, errorCount: 1, rowsRead: 6 });
    expect(r.json.errors).toEqual(['Line 5: Invalid email address "broken"']);
    const list = byEmail(await contactsOf(book));
    expect(list.get('m1@manual.example.com')).toMatchObject({
      firstName: 'Mia',
      lastName: 'Moss',
      company: 'Moss & Co',
      phone: '555',
      source: 'manual',
    });
    expect(list.get('m5@manual.example.com')?.firstName).toBe('Quoted, Name');
    const list2 = await t.call('POST', '/api/admin/email/import-manual', {
      addressBookId: book,
      contacts: 'n1@manual.example.com, n2@manual.example.com',
    });
    expect(list2.json.imported).toBe(2);
    for (const body of [
      { contacts: '   ' },
      { contacts: 'a@b.co', addressBookId: 999999 },
      {},
      { contacts: { x: 1 } },
    ]) {
      const bad = await t.call('POST', '/api/admin/email/import-manual', body);
      expect(bad.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(bad.status).toBeLessThan(500);
    }
  });
});

describe('one import per book, cancel, crash', () => {
  /** An upload that sends its header and rows, then waits until `release` before finishing. */
  function slowUpload(book: number, rows: number) {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const boundary = '----parleytest';
    const enc = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(
          enc.encode(
            `--${boundary}\r\nContent-Disposition: form-data; name="addressBookId"\r\n\r\n${book}\r\n`,
          ),
        );
        controller.enqueue(
          enc.encode(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.csv"\r\nContent-Type: text/csv\r\n\r\nemail\n`,
          ),
        );
        let chunk = '';
        for (let i = 0; i < rows; i++) chunk += `slow${i}@b${book}.example.com\n`;
        controller.enqueue(enc.encode(chunk));
        await gate;
        controller.enqueue(enc.encode(`last@b${book}.example.com\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const response = (async () => {
      const res = await fetch(`${t.url}/api/admin/contacts/import-csv`, {
        method: 'POST',
        headers: { ...(await t.admin()), 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      return { status: res.status, json: (await res.json()) as Loose };
    })();
    return { release, response };
  }

  async function runningJob(book: number): Promise<Loose> {
    for (let i = 0; i < 200; i++) {
      const jobs = (await t.call('GET', `/api/admin/email/imports?addressBookId=${book}&status=running`)).json
        .imports;
      if (jobs[0]?.rowsRead > 0) return jobs[0];
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('no running import with progress');
  }

  it('refuses a second import into a book while one runs (409), enforced by the database', async () => {
    const book = await newBook('Busy');
    const slow = slowUpload(book, 3000);
    const job = await runningJob(book);
    expect(job).toMatchObject({ status: 'running', phase: 'receiving', kind: 'csv', fileName: 'slow.csv' });
    const second = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'b.csv', content: 'email\nx@busy.example.com\n' },
      { addressBookId: String(book) },
    );
    expect(second.status).toBe(409);
    expect(second.json.message).toBe(
      'An import into this address book is already running. Wait for it to finish or cancel it.',
    );
    const manual = await t.call('POST', '/api/admin/email/import-manual', {
      addressBookId: book,
      contacts: 'y@busy.example.com',
    });
    expect(manual.status).toBe(409);
    await expect(
      t.db.query(`INSERT INTO email_imports (address_book_id, kind) VALUES ($1, 'csv')`, [book]),
    ).rejects.toMatchObject({ code: '23505' });
    // Another book is not held up.
    const other = await newBook('Not busy');
    expect(
      (
        await t.upload(
          '/api/admin/contacts/import-csv',
          { name: 'c.csv', content: 'email\nz@free.example.com\n' },
          { addressBookId: String(other) },
        )
      ).json.imported,
    ).toBe(1);
    // Nothing of the running import is visible before it commits.
    expect(await rowsIn(book)).toBe(0);
    slow.release();
    const done = await slow.response;
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ imported: 3001, status: 'completed' });
    expect(await countOf(book)).toBe(3001);
  });

  it('cancels a running import: nothing is imported, the upload is answered 409', async () => {
    const book = await newBook('Cancelled');
    const slow = slowUpload(book, 30_000);
    const job = await runningJob(book);
    const cancel = await t.call('POST', `/api/admin/email/imports/${job.id}/cancel`);
    expect(cancel.status).toBe(200);
    slow.release();
    const answer = await slow.response;
    expect(answer.status).toBe(409);
    expect(answer.json.message).toBe('Import cancelled. No contacts were imported.');
    const after = await t.call('GET', `/api/admin/email/imports/${job.id}`);
    expect(after.json).toMatchObject({ status: 'cancelled', imported: 0, phase: 'done' });
    expect(after.json.finishedAt).not.toBeNull();
    expect(await rowsIn(book)).toBe(0);
    expect(await countOf(book)).toBe(0);
    expect(await stagedTables(job.id)).toBe(0);
    const again = await t.call('POST', `/api/admin/email/imports/${job.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.json.message).toBe('This import has already been cancelled.');
  });

  it('leaves nothing behind when its database session dies mid-import, and says so', async () => {
    const book = await newBook('Session killed');
    const slow = slowUpload(book, 30_000);
    const job = await runningJob(book);
    await t.db.query(
      // Only this database's: other test files run their imports on the same server at once.
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'parley-email-import' AND datname = current_database()`,
    );
    slow.release();
    const answer = await slow.response;
    // The kit's answer when the database connection is gone: unavailable, try again.
    expect(answer.status).toBe(503);
    const after = await t.call('GET', `/api/admin/email/imports/${job.id}`);
    expect(after.json).toMatchObject({ status: 'failed', imported: 0 });
    expect(after.json.message).toContain('No contacts were imported.');
    expect(await rowsIn(book)).toBe(0);
    expect(await stagedTables(job.id)).toBe(0);
  });

  it('fails a job whose process died (stale heartbeat) instead of leaving it running', async () => {
    const book = await newBook('Orphaned');
    const { rows } = await t.db.query(
      `INSERT INTO email_imports (address_book_id, kind, heartbeat_at, started_at) VALUES ($1, 'csv', now() - interval '5 minutes', now() - interval '6 minutes') RETURNING id`,
      [book],
    );
    // The reaper runs every 10 s in every replica; asking to cancel a dead job reaps it at once.
    const r = await t.call('POST', `/api/admin/email/imports/${rows[0].id}/cancel`);
    expect(r.json).toMatchObject({
      status: 'cancelled',
      message: 'Import cancelled. No contacts were imported.',
    });
    const { rows: other } = await t.db.query(
      `INSERT INTO email_imports (address_book_id, kind, heartbeat_at) VALUES ($1, 'csv', now() - interval '5 minutes') RETURNING id`,
      [book],
    );
    await expect
      .poll(async () => (await t.call('GET', `/api/admin/email/imports/${other[0].id}`)).json.status, {
        timeout: 15_000,
      })
      .toBe('failed');
    // The book is free again.
    expect(
      (
        await t.upload(
          '/api/admin/contacts/import-csv',
          { name: 'a.csv', content: 'email\nback@orphan.example.com\n' },
          { addressBookId: String(book) },
        )
      ).status,
    ).toBe(200);
  });

  it('deleting a book stops its running import first', async () => {
    const book = await newBook('Deleted while importing');
    const slow = slowUpload(book, 30_000);
    await runningJob(book);
    const del = await t.call('DELETE', `/api/admin/address-books/${book}`);
    expect(del.status).toBe(200);
    slow.release();
    const answer = await slow.response;
    expect([404, 409]).toContain(answer.status);
    expect(await rowsIn(book)).toBe(0);
  });
});
