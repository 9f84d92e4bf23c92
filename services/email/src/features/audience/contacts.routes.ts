import {
  CONTACT_MESSAGES,
  ContactAttributeKeyList,
  ContactIdParams,
  ContactList,
  ContactListQuery,
  ContactResponse,
  ContactUpdate,
  DeletedResponse,
  ErrorBody,
  ResubscribeResponse,
} from '@parley/contracts';
import { badRequest, conflict, notFound, type ServiceInstance } from '@parley/kit';
import { contactEdit } from './domain/contact-edit.ts';
import { type AudienceRouteContext, audienceErrors } from './routes-context.ts';
import { ContactNotFoundError, resubscribeContact } from './suppressions.repository.ts';

/** Contacts (email marketing §2 Contacts and Contact search tabs, §7 calls). */
export async function contactRoutes(app: ServiceInstance, ctx: AudienceRouteContext) {
  const { deps, contacts, books } = ctx;
  const errors = audienceErrors(ErrorBody);

  app.get(
    '/api/admin/email/contacts',
    {
      onRequest: deps.auth.admin,
      schema: { querystring: ContactListQuery, response: { 200: ContactList, ...errors } },
    },
    async (request, reply) => {
      const q = request.query;
      const limit = q.limit ?? 50;
      const offset = q.offset ?? 0;
      if (q.addressBookId !== undefined && !(await books.get(q.addressBookId)))
        throw notFound('Address book not found');
      const page = await contacts.list({
        limit,
        offset,
        q: q.q,
        status: q.status,
        addressBookId: q.addressBookId,
      });
      reply.header('cache-control', 'no-store');
      return {
        contacts: page.contacts,
        meta: { hasMore: page.hasMore, total: page.total, totalExact: page.totalExact, limit, offset },
      };
    },
  );

  app.get(
    '/api/admin/email/contact-attributes',
    { onRequest: deps.auth.admin, schema: { response: { 200: ContactAttributeKeyList, ...errors } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { attributes: await contacts.attributeKeys() };
    },
  );

  app.patch(
    '/api/admin/email/contacts/:id',
    {
      onRequest: deps.auth.admin,
      schema: { params: ContactIdParams, body: ContactUpdate, response: { 200: ContactResponse, ...errors } },
    },
    async (request) => {
      const edit = contactEdit(request.body);
      if (!edit.ok) throw badRequest(edit.message);
      let contact: Awaited<ReturnType<typeof contacts.update>>;
      try {
        contact = await contacts.update(request.params.id, edit.changes);
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw conflict(CONTACT_MESSAGES.duplicate);
        throw err;
      }
      if (!contact) throw notFound('Contact not found');
      request.log.info(
        { contactId: contact.id, fields: Object.keys(request.body), by: request.admin?.adminId },
        'contact edited',
      );
      return { success: true as const, message: CONTACT_MESSAGES.updated, contact };
    },
  );

  app.delete(
    '/api/admin/email/contacts/:id',
    {
      onRequest: deps.auth.admin,
      schema: { params: ContactIdParams, response: { 200: DeletedResponse, ...errors } },
    },
    async (request) => {
      if (!(await contacts.delete(request.params.id))) throw notFound('Contact not found');
      request.log.info({ contactId: request.params.id, by: request.admin?.adminId }, 'contact deleted');
      return { success: true as const, message: 'Contact deleted' };
    },
  );

  app.post(
    '/api/admin/contacts/:id/resubscribe',
    {
      onRequest: deps.auth.admin,
      schema: { params: ContactIdParams, response: { 200: ResubscribeResponse, ...errors } },
    },
    async (request) => {
      try {
        const { contact, reactivated } = await resubscribeContact(
          deps.pool,
          request.params.id,
          request.admin?.adminId ?? null,
        );
        request.log.info(
          { contactId: contact.id, reactivated, by: request.admin?.adminId },
          'contact re-subscribed',
        );
        return {
          success: true as const,
          message:
            reactivated > 0
              ? `${contact.email} is subscribed again${reactivated > 1 ? ` (in ${reactivated} address books)` : ''}.`
              : `${contact.email} is already subscribed.`,
          contact,
          reactivated,
        };
      } catch (err) {
        if (err instanceof ContactNotFoundError) throw notFound('Contact not found');
        throw err;
      }
    },
  );
}
