import { PassThrough } from 'node:stream';
import {
  AddressBook,
  AddressBookIdParams,
  AddressBookInput,
  AddressBookList,
  AddressBookListQuery,
  BookContactsQuery,
  ContactList,
  DeletedResponse,
  ErrorBody,
} from '@parley/contracts';
import { badRequest, conflict, HttpError, notFound, type ServiceInstance } from '@parley/kit';
import { DefaultBookError, DuplicateBookNameError } from './address-books.repository.ts';
import { bookChanges, newBookFields } from './domain/books.ts';
import { type AudienceRouteContext, audienceErrors } from './routes-context.ts';

const DUPLICATE_NAME = (name: string) => `An address book named "${name}" already exists.`;
export const DEFAULT_NOT_DELETABLE = 'Default address book cannot be deleted';

/** Address books (admin back office §2 "Address books", §7 calls). */
export async function addressBookRoutes(app: ServiceInstance, ctx: AudienceRouteContext) {
  const { deps, books, contacts, jobs } = ctx;
  const errors = audienceErrors(ErrorBody);

  app.get(
    '/api/admin/address-books',
    {
      onRequest: deps.auth.admin,
      schema: { querystring: AddressBookListQuery, response: { 200: AddressBookList, ...errors } },
    },
    async (request) => books.list(request.query.search),
  );

  app.post(
    '/api/admin/address-books',
    {
      onRequest: deps.auth.admin,
      schema: { body: AddressBookInput, response: { 201: AddressBook, ...errors } },
    },
    async (request, reply) => {
      const fields = newBookFields(request.body);
      if (!fields.ok) throw badRequest(fields.message);
      try {
        const book = await books.create(fields.value);
        request.log.info({ bookId: book.id, by: request.admin?.adminId }, 'address book created');
        return reply.code(201).send(book);
      } catch (err) {
        if (err instanceof DuplicateBookNameError) throw conflict(DUPLICATE_NAME(fields.value.name));
        throw err;
      }
    },
  );

  app.put(
    '/api/admin/address-books/:id',
    {
      onRequest: deps.auth.admin,
      schema: {
        params: AddressBookIdParams,
        body: AddressBookInput,
        response: { 200: AddressBook, ...errors },
      },
    },
    async (request) => {
      const changes = bookChanges(request.body);
      if (!changes.ok) throw badRequest(changes.message);
      try {
        const book = await books.update(request.params.id, changes.value);
        if (!book) throw notFound('Address book not found');
        return book;
      } catch (err) {
        if (err instanceof DuplicateBookNameError) throw conflict(DUPLICATE_NAME(changes.value.name ?? ''));
        throw err;
      }
    },
  );

  app.delete(
    '/api/admin/address-books/:id',
    {
      onRequest: deps.auth.admin,
      schema: { params: AddressBookIdParams, response: { 200: DeletedResponse, ...errors } },
    },
    async (request) => {
      const id = request.params.id;
      const book = await books.get(id);
      if (!book) throw notFound('Address book not found');
      if (book.isDefault) throw conflict(DEFAULT_NOT_DELETABLE);
      // An import into the book stops first (it rolls back); the delete then waits for it.
      const stopping = await jobs.cancelRunningOfBook(id);
      if (stopping)
        request.log.info({ bookId: id, importId: stopping }, 'import cancelled for book deletion');
      try {
        const deleted = await books.delete(id);
        if (!deleted) throw notFound('Address book not found');
        request.log.info(
          { bookId: id, contacts: deleted.contactCount, by: request.admin?.adminId },
          'address book deleted',
        );
        return {
          success: true as const,
          message: `Deleted "${deleted.book.name}" and its ${deleted.contactCount} contacts.`,
        };
      } catch (err) {
        if (err instanceof DefaultBookError) throw conflict(DEFAULT_NOT_DELETABLE);
        if ((err as { code?: string }).code === '55P03')
          throw conflict('An import into this address book is still stopping. Please try again in a moment.');
        throw err;
      }
    },
  );

  app.get(
    '/api/admin/address-books/:id/contacts',
    {
      onRequest: deps.auth.admin,
      schema: {
        params: AddressBookIdParams,
        querystring: BookContactsQuery,
        response: { 200: ContactList, ...errors },
      },
    },
    async (request) => {
      const book = await books.get(request.params.id);
      if (!book) throw notFound('Address book not found');
      const q = request.query;
      const limit = q.limit ?? 50;
      const offset = q.offset ?? 0;
      const page = await contacts.list({ limit, offset, q: q.q, status: q.status, addressBookId: book.id });
      return {
        contacts: page.contacts,
        meta: { hasMore: page.hasMore, total: page.total, totalExact: page.totalExact, limit, offset },
      };
    },
  );

  app.get(
    '/api/admin/address-books/:id/export',
    // No response schema: the answer is a CSV stream (errors are JSON through the error handler).
    { onRequest: deps.auth.admin, schema: { params: AddressBookIdParams } },
    async (request, reply) => {
      const book = await books.get(request.params.id);
      if (!book) throw notFound('Address book not found');
      const out = new PassThrough();
      contacts.exportBook(book.id, out).catch((err) => {
        // The client went away, or the database failed mid-stream: the download is cut short.
        request.log.warn({ err, bookId: book.id }, 'contact export ended early');
        out.destroy(err instanceof Error ? err : new HttpError(500, 'export failed'));
      });
      const name = exportFileName(book.name, deps.now());
      return reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header(
          'content-disposition',
          `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .send(out);
    },
  );
}

/** '<book name>-contacts-YYYY-MM-DD.csv', the name reduced to what every file system accepts. */
export function exportFileName(bookName: string, now: Date): string {
  const base =
    bookName
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 60) || 'address-book';
  return `${base}-contacts-${now.toISOString().slice(0, 10)}.csv`;
}
