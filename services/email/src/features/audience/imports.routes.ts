import multipart, { type MultipartFile } from '@fastify/multipart';
import {
  DEFAULT_IMPORT_MERGE_MODE,
  ErrorBody,
  IMPORT_ENCODINGS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_FILE_BYTES,
  IMPORT_MERGE_MODES,
  type ImportEncoding,
  ImportIdParams,
  ImportJob,
  ImportJobList,
  type ImportKind,
  ImportListQuery,
  type ImportMergeMode,
  ImportPreview,
  ImportResult,
  ManualImportBody,
} from '@parley/contracts';
import { badRequest, conflict, HttpError, notFound, type ServiceInstance } from '@parley/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CsvDecoder, csvRecords, type SheetRecord } from './domain/csv.ts';
import { ImportInputError } from './domain/import.ts';
import { xlsxRecords } from './domain/xlsx.ts';
import { ImportBookGoneError, ImportCancelledError } from './import-sessions.repository.ts';
import { ImportRunningError } from './imports.repository.ts';
import { type ImportInput, importResult, isClientError, type RunningImport } from './imports.service.ts';
import { type AudienceRouteContext, audienceErrors } from './routes-context.ts';

/**
 * Imports (admin back office §7 import-csv; email marketing §7 import-csv and import-manual;
 * the job calls). The upload is read at the pace it arrives: parsed and staged as it comes in,
 * while the import's transaction merges the staged batches beside it. The answer comes when
 * the import has committed (small files: right after the last byte, with the final counts),
 * or, when the merge still runs RESULT_WAIT_MS after the upload was fully received, as 202
 * with the job's id and its counts so far (poll GET /api/admin/email/imports/{id}).
 */
const RESULT_WAIT_MS = 5_000;
const ALREADY_RUNNING =
  'An import into this address book is already running. Wait for it to finish or cancel it.';
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** Formats that are certainly not CSV text: legacy Excel (OLE2), PDF, gzip. */
const BINARY_MAGIC = [Buffer.from([0xd0, 0xcf, 0x11, 0xe0]), Buffer.from('%PDF'), Buffer.from([0x1f, 0x8b])];

export async function importRoutes(app: ServiceInstance, ctx: AudienceRouteContext) {
  const { deps, books, jobs, importer } = ctx;
  const errors = { ...audienceErrors(ErrorBody), 413: ErrorBody, 415: ErrorBody };

  await app.register(multipart, {
    limits: { fileSize: IMPORT_MAX_FILE_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 1024 },
  });

  /** The target book: the field's, or the default book when the call allows it. */
  async function bookOf(field: string | undefined, required: boolean): Promise<number> {
    if (field === undefined || field.trim() === '') {
      if (required) throw badRequest('Address book is required');
      return (await books.getDefault()).id;
    }
    const id = Number(field);
    if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw badRequest('Address book is required');
    const book = await books.get(id);
    if (!book) throw notFound('Address book not found');
    return book.id;
  }

  /** Answers a started import once it is done (or 202 when it outlives the upload by RESULT_WAIT_MS). */
  async function answer(
    reply: FastifyReply,
    running: RunningImport,
    uploaded: Promise<void>,
  ): Promise<FastifyReply> {
    const waited = uploaded.then(
      () => new Promise<'wait'>((r) => setTimeout(() => r('wait'), RESULT_WAIT_MS).unref()),
    );
    const outcome = await Promise.race([running.done, waited]);
    if (outcome === 'wait') {
      const job = (await jobs.get(running.job.id)) ?? running.job;
      return reply.code(202).send({ ...importResult(job), message: 'The import is still running.' });
    }
    const { job, error } = outcome;
    if (!error) return reply.code(200).send(importResult(job));
    if (error instanceof ImportCancelledError) throw conflict(job.message ?? 'Import cancelled.');
    if (error instanceof ImportBookGoneError || (error as { code?: string }).code === '23503')
      throw notFound('The address book was deleted during the import.');
    if (isClientError(error))
      throw new HttpError((error as { statusCode?: number }).statusCode ?? 400, error.message);
    throw error;
  }

  async function fileImport(
    request: FastifyRequest,
    reply: FastifyReply,
    opts: FileImportOptions,
  ): Promise<FastifyReply> {
    if (!request.isMultipart()) throw new HttpError(415, MULTIPART_ONLY);
    let bookField: string | undefined;
    let encoding: ImportEncoding = 'auto';
    let mergeMode: ImportMergeMode = DEFAULT_IMPORT_MERGE_MODE;
    // (A FastifyReply is thenable: it cannot travel through an await, hence a flag.)
    let answered = false;
    let failure: unknown = null;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (part.fieldname === 'addressBookId') bookField = String(part.value);
          else if (part.fieldname === 'encoding') {
            const value = String(part.value).trim().toLowerCase() || 'auto';
            if (!(IMPORT_ENCODINGS as readonly string[]).includes(value))
              failure ??= badRequest(
                `Unknown text encoding "${value.slice(0, 40)}". Choose one of: ${IMPORT_ENCODINGS.join(', ')}.`,
              );
            else encoding = value as ImportEncoding;
          } else if (part.fieldname === 'mergeMode') {
            const value = String(part.value).trim().toLowerCase() || DEFAULT_IMPORT_MERGE_MODE;
            if (!(IMPORT_MERGE_MODES as readonly string[]).includes(value))
              failure ??= badRequest(
                `Unknown choice for existing contacts "${value.slice(0, 40)}". Choose one of: ${IMPORT_MERGE_MODES.join(', ')}.`,
              );
            else mergeMode = value as ImportMergeMode;
          }
          continue;
        }
        if (answered || failure) {
          await drain(part.file[Symbol.asyncIterator]());
          continue;
        }
        // The file is consumed here, before the next part can arrive.
        try {
          await runFile(request, reply, part, bookField, encoding, mergeMode, opts);
          answered = true;
        } catch (err) {
          failure = err;
        }
      }
    } catch (err) {
      // The multipart stream itself failed (a limit, a malformed body) after or instead of the file.
      failure ??= err;
    }
    if (failure) throw toHttpError(failure);
    if (!answered) throw badRequest('Please choose a file to import.');
    return reply;
  }

  async function runFile(
    request: FastifyRequest,
    reply: FastifyReply,
    part: MultipartFile,
    bookField: string | undefined,
    encoding: ImportEncoding,
    mergeMode: ImportMergeMode,
    opts: FileImportOptions,
  ): Promise<FastifyReply> {
    const raw = part.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let received = 0;
    let tooLarge = false;
    part.file.on('limit', () => {
      tooLarge = true;
    });
    let uploadDone: () => void = () => {};
    const uploaded = new Promise<void>((r) => {
      uploadDone = r;
    });
    try {
      const bookId = await bookOf(bookField, opts.bookRequired);
      const first = await raw.next();
      const head: Buffer = first.done ? Buffer.alloc(0) : first.value;
      received += head.length;
      const kind = kindOf(part.filename, head, opts.xlsx);
      // The rest of the upload, counted as it passes; never `for await` on `raw` (an early
      // return would destroy the upload before it could be drained).
      async function* bytes(): AsyncGenerator<Buffer> {
        if (head.length) yield head;
        if (!first.done)
          for (let n = await raw.next(); !n.done; n = await raw.next()) {
            received += n.value.length;
            yield n.value;
          }
        uploadDone();
        if (tooLarge)
          throw new ImportInputError(`The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB.`, 413);
      }
      // A CSV is read in the encoding the form names, or the one its bytes show.
      const decoder = kind === 'csv' ? new CsvDecoder(encoding) : null;
      const records: AsyncIterable<SheetRecord> = decoder
        ? csvRecords(bytes(), undefined, decoder)
        : xlsxRecords(bytes());
      const length = Number(request.headers['content-length']);
      const input: ImportInput = {
        records,
        layout: 'sheet',
        bytesReceived: () => received,
        encoding: () => decoder?.encoding ?? null,
        onRead: uploadDone,
      };
      if (opts.preview) return reply.code(200).send(await importer.preview(bookId, input));
      let running: RunningImport;
      try {
        running = await importer.start(
          bookId,
          {
            kind,
            fileName: part.filename ? part.filename.slice(0, 255) : null,
            bytesTotal: Number.isFinite(length) && length > 0 ? length : null,
            createdBy: request.admin?.adminId ?? null,
            mergeMode,
          },
          input,
        );
      } catch (err) {
        if (err instanceof ImportRunningError) throw conflict(ALREADY_RUNNING);
        throw err;
      }
      request.log.info({ importId: running.job.id, bookId, kind }, 'import started');
      const result = answer(reply, running, uploaded);
      // Whatever the import left unread (it failed or was cancelled early) is discarded, so
      // the request completes and the answer can be sent.
      void running.done.then(() => drain(raw).finally(uploadDone));
      return await result;
    } finally {
      await drain(raw);
      uploadDone();
    }
  }

  app.post(
    '/api/admin/contacts/import-csv',
    {
      onRequest: deps.auth.admin,
      preParsing: refuseUnlessMultipart,
      schema: { response: { 200: ImportResult, 202: ImportResult, ...errors } },
    },
    async (request, reply) => fileImport(request, reply, { bookRequired: true, xlsx: true }),
  );

  app.post(
    '/api/admin/email/import-csv',
    {
      onRequest: deps.auth.admin,
      preParsing: refuseUnlessMultipart,
      schema: { response: { 200: ImportResult, 202: ImportResult, ...errors } },
    },
    async (request, reply) => fileImport(request, reply, { bookRequired: false, xlsx: false }),
  );

  // The preview of a file import (either dialog: .csv or .xlsx, the default book when none is
  // named): nothing is written; the answer counts what each choice for existing contacts changes.
  app.post(
    '/api/admin/email/import-preview',
    {
      onRequest: deps.auth.admin,
      preParsing: refuseUnlessMultipart,
      schema: { response: { 200: ImportPreview, ...errors } },
    },
    async (request, reply) => fileImport(request, reply, { bookRequired: false, xlsx: true, preview: true }),
  );

  app.post(
    '/api/admin/email/import-manual/preview',
    {
      onRequest: deps.auth.admin,
      schema: { body: ManualImportBody, response: { 200: ImportPreview, ...errors } },
    },
    async (request) => {
      const text = request.body.contacts;
      if (!text.trim()) throw badRequest('Please enter at least one contact.');
      const bookId = await bookOf(
        request.body.addressBookId === undefined ? undefined : String(request.body.addressBookId),
        false,
      );
      return importer.preview(bookId, {
        records: csvRecords([text], ','),
        layout: 'manual',
        bytesReceived: () => Buffer.byteLength(text),
      });
    },
  );

  app.post(
    '/api/admin/email/import-manual',
    {
      onRequest: deps.auth.admin,
      schema: { body: ManualImportBody, response: { 200: ImportResult, 202: ImportResult, ...errors } },
    },
    async (request, reply) => {
      const text = request.body.contacts;
      if (!text.trim()) throw badRequest('Please enter at least one contact.');
      const bookId = await bookOf(
        request.body.addressBookId === undefined ? undefined : String(request.body.addressBookId),
        false,
      );
      let running: RunningImport;
      try {
        running = await importer.start(
          bookId,
          {
            kind: 'manual',
            fileName: null,
            bytesTotal: Buffer.byteLength(text),
            createdBy: request.admin?.adminId ?? null,
            mergeMode: request.body.mergeMode ?? DEFAULT_IMPORT_MERGE_MODE,
          },
          {
            records: csvRecords([text], ','),
            layout: 'manual',
            bytesReceived: () => Buffer.byteLength(text),
          },
        );
      } catch (err) {
        if (err instanceof ImportRunningError) throw conflict(ALREADY_RUNNING);
        throw err;
      }
      return answer(reply, running, Promise.resolve());
    },
  );

  app.get(
    '/api/admin/email/imports',
    {
      onRequest: deps.auth.admin,
      schema: { querystring: ImportListQuery, response: { 200: ImportJobList, ...errors } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const q = request.query;
      return {
        imports: await jobs.list({
          ...(q.addressBookId !== undefined ? { addressBookId: q.addressBookId } : {}),
          ...(q.status ? { status: q.status } : {}),
          limit: q.limit ?? 20,
        }),
      };
    },
  );

  app.get(
    '/api/admin/email/imports/:id',
    {
      onRequest: deps.auth.admin,
      schema: { params: ImportIdParams, response: { 200: ImportJob, ...errors } },
    },
    async (request, reply) => {
      const job = await jobs.get(request.params.id);
      if (!job) throw notFound('Import not found');
      reply.header('cache-control', 'no-store');
      return job;
    },
  );

  app.post(
    '/api/admin/email/imports/:id/cancel',
    {
      onRequest: deps.auth.admin,
      schema: { params: ImportIdParams, response: { 200: ImportJob, ...errors } },
    },
    async (request) => {
      const before = await jobs.get(request.params.id);
      if (!before) throw notFound('Import not found');
      if (before.status !== 'running') throw conflict(`This import has already ${FINISHED[before.status]}.`);
      const job = await jobs.requestCancel(request.params.id);
      if (!job) throw notFound('Import not found');
      request.log.info({ importId: job.id, by: request.admin?.adminId }, 'import cancel requested');
      return job;
    },
  );
}

interface FileImportOptions {
  bookRequired: boolean;
  xlsx: boolean;
  /** Count what the import would do; write nothing. */
  preview?: boolean;
}

const FINISHED = {
  running: 'started',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'been cancelled',
};

/**
 * The format of an upload: an .xlsx is a zip (its first bytes say so whatever its name);
 * anything else with a spreadsheet-ish name is read as CSV text.
 */
function kindOf(fileName: string | undefined, head: Buffer, xlsxAllowed: boolean): ImportKind {
  const name = (fileName ?? '').toLowerCase();
  const zip = head.subarray(0, 4).equals(ZIP_MAGIC);
  if (zip || name.endsWith('.xlsx')) {
    if (!xlsxAllowed)
      throw new ImportInputError(
        'Only .csv files can be imported here. Save the workbook as CSV first.',
        415,
      );
    if (!zip) throw new ImportInputError('The file is not a valid .xlsx workbook.', 415);
    return 'xlsx';
  }
  if (
    /\.(xls|xlsm|xlsb|ods|numbers|pdf|docx?|zip)$/.test(name) ||
    BINARY_MAGIC.some((m) => head.subarray(0, m.length).equals(m))
  )
    throw new ImportInputError(
      xlsxAllowed ? 'Only .csv or .xlsx files can be imported.' : 'Only .csv files can be imported.',
      415,
    );
  return 'csv';
}

const MULTIPART_ONLY = 'Send the file as multipart/form-data (field "file", plus "addressBookId").';

/**
 * The file imports take multipart only. Any other body is read to its end and then refused:
 * 413 when it is over the service's body limit, 415 otherwise. Refused unread (Fastify's
 * own answer to a body over its limit), the connection is closed while the body still
 * arrives, and the gateway, still forwarding it, sees a reset where the answer was: it said
 * 503 "email service not available". Read to the end, the answer arrives whole and the
 * connection stays open for the next request. Past the largest import the gateway forwards,
 * reading stops and the connection closes.
 */
async function refuseUnlessMultipart(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: NodeJS.ReadableStream,
): Promise<NodeJS.ReadableStream> {
  // By its header: isMultipart() is only set by the multipart parser, which runs after this hook.
  if (/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) return payload;
  const limit = request.routeOptions.bodyLimit ?? 1024 * 1024;
  let bytes = 0;
  await new Promise<void>((resolve) => {
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= IMPORT_MAX_BYTES) return;
      payload.removeListener('data', onData);
      payload.pause();
      reply.header('connection', 'close');
      resolve();
    };
    payload.on('data', onData);
    payload.once('end', () => resolve());
    payload.once('error', () => resolve());
  });
  if (bytes > limit)
    throw new HttpError(
      413,
      `The request body is too large (at most ${limit / 1024 / 1024} MB). ${MULTIPART_ONLY}`,
    );
  throw new HttpError(415, MULTIPART_ONLY);
}

/** Reads and discards what is left of an upload. */
async function drain(it: AsyncIterator<unknown>): Promise<void> {
  try {
    for (let n = await it.next(); !n.done; n = await it.next()) {}
  } catch {
    // an aborted upload: nothing left to read
  }
}

function toHttpError(err: unknown): unknown {
  if (err instanceof HttpError) return err;
  if (err instanceof ImportInputError) return new HttpError(err.statusCode, err.message);
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new HttpError(413, `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB.`);
  if (code === 'FST_FILES_LIMIT') return new HttpError(413, 'Send one file per import.');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new HttpError(413, 'The form has too many fields.');
  const status = (err as { statusCode?: number }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new HttpError(status, (err as Error).message || 'The upload could not be read.');
  return err;
}
