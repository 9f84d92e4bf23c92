import {
  AdminUser,
  AdminUserIdParams,
  AdminUserList,
  CreateAdminUserBody,
  CreateAdminUserResponse,
  ErrorBody,
  SuccessResponse,
  UpdateAdminUserBody,
} from '@parley/contracts';
import { badRequest, conflict, notFound, type ServiceInstance } from '@parley/kit';
import { hashPassword, hashToken, newToken, unusablePassword } from '../crypto.ts';
import { MESSAGES, newPasswordProblem, parseNewAdmin } from '../domain/validation.ts';
import { DuplicateEmailError, LastSuperAdminError } from '../repo/identity.repository.ts';
import type { IdentityRouteContext } from './context.ts';

/**
 * Admin-user management, super_admin only. New admins are invited: they get an unusable
 * password and a one-time link (7 days) to choose theirs; the link is returned once and
 * sent by email (identity.admin.invited).
 */
export async function userRoutes(app: ServiceInstance, ctx: IdentityRouteContext) {
  const { repo, deps, settings, now } = ctx;
  const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

  app.get(
    '/api/admin/users',
    {
      onRequest: deps.auth.superAdmin,
      schema: { response: { 200: AdminUserList, 401: ErrorBody, 403: ErrorBody } },
    },
    async () => repo.listAdmins(now()),
  );

  app.post(
    '/api/admin/users',
    {
      onRequest: deps.auth.superAdmin,
      attachValidation: true,
      schema: { body: CreateAdminUserBody, response: { 201: CreateAdminUserResponse, ...errors } },
    },
    async (request, reply) => {
      const parsed = parseNewAdmin(request.body);
      if (!parsed.ok) throw badRequest(parsed.message);
      const temporary = request.body?.password;
      if (temporary !== undefined && temporary !== '') {
        const problem = newPasswordProblem(temporary);
        if (problem) throw badRequest(problem);
      }
      const at = now();
      const token = newToken();
      const expiresAt = new Date(at.getTime() + settings.invitationTtlMs);
      const invitationUrl = `${settings.publicBaseUrl}/admin/login?invite=${token}`;
      try {
        const user = await repo.createInvitedAdmin(
          {
            ...parsed.value,
            passwordHash: await hashPassword(temporary || unusablePassword()),
            mustChangePassword: true,
          },
          { tokenHash: hashToken(token), expiresAt, invitationUrl },
          request.admin!.adminId,
          at,
        );
        request.log.info({ adminId: user.id, by: request.admin!.adminId }, 'admin invited');
        reply.header('cache-control', 'no-store');
        return reply.status(201).send({ user, invitationUrl, invitationExpiresAt: expiresAt.toISOString() });
      } catch (err) {
        if (err instanceof DuplicateEmailError) throw conflict(MESSAGES.duplicateEmail);
        throw err;
      }
    },
  );

  app.patch(
    '/api/admin/users/:id',
    {
      onRequest: deps.auth.superAdmin,
      schema: {
        params: AdminUserIdParams,
        body: UpdateAdminUserBody,
        response: { 200: AdminUser, ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (id === request.admin!.adminId && request.body.isActive === false)
        throw badRequest(MESSAGES.deactivateSelf);
      try {
        const user = await repo.updateAdmin(id, request.body, now());
        if (!user) throw notFound(MESSAGES.adminNotFound);
        request.log.info({ adminId: id, by: request.admin!.adminId, change: request.body }, 'admin updated');
        return user;
      } catch (err) {
        if (err instanceof LastSuperAdminError) throw conflict(MESSAGES.lastSuperAdmin);
        throw err;
      }
    },
  );

  app.delete(
    '/api/admin/users/:id',
    {
      onRequest: deps.auth.superAdmin,
      schema: { params: AdminUserIdParams, response: { 200: SuccessResponse, ...errors } },
    },
    async (request) => {
      const { id } = request.params;
      if (id === request.admin!.adminId) throw badRequest(MESSAGES.deleteSelf);
      try {
        const deleted = await repo.deleteAdmin(id, request.admin!.adminId);
        if (!deleted) throw notFound(MESSAGES.adminNotFound);
        request.log.info({ adminId: id, by: request.admin!.adminId }, 'admin deleted');
        return { success: true as const };
      } catch (err) {
        if (err instanceof LastSuperAdminError) throw conflict(MESSAGES.lastSuperAdmin);
        throw err;
      }
    },
  );
}
