import {
  AcceptInvitationBody,
  ActiveSessionsResponse,
  ChangePasswordBody,
  ErrorBody,
  InvitationLookupBody,
  InvitationLookupResponse,
  LoginBody,
  LoginResponse,
  Me,
  SessionStatus,
  SuccessResponse,
} from '@parley/contracts';
import { badRequest, HttpError, type ServiceInstance } from '@parley/kit';
import { buildSessionCookie, clearSessionCookies, readSessionToken } from '../domain/cookies.ts';
import {
  changePasswordProblem,
  loginInputProblem,
  MESSAGES,
  newPasswordProblem,
} from '../domain/validation.ts';
import type { AdminUser as AdminUserRow } from '../generated/prisma/client.ts';
import { clientOf, type IdentityRouteContext, isSecure } from './context.ts';

const loginAnswer = (a: AdminUserRow) => ({
  admin: {
    firstName: a.firstName,
    lastName: a.lastName,
    role: a.role,
    mustChangePassword: a.mustChangePassword,
  },
});

/**
 * Sign-in, the current admin, sign-out, password change, and invitation redemption: input
 * checks and cookies here, the steps in SessionService (session.service.ts).
 */
export async function sessionRoutes(app: ServiceInstance, ctx: IdentityRouteContext) {
  const { sessions, deps, settings } = ctx;
  const publicLimit = { rateLimit: { max: settings.loginRateLimit, timeWindow: '1 minute' } };

  app.post(
    '/api/admin/login',
    {
      attachValidation: true,
      config: publicLimit,
      schema: {
        body: LoginBody,
        response: { 200: LoginResponse, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const problem = loginInputProblem(request.body);
      if (problem) throw badRequest(problem);
      const email = request.body.email;
      try {
        const { admin, token } = await sessions.signIn(email, request.body.password, clientOf(request));
        request.log.info({ adminId: admin.id }, 'signed in');
        reply.header('set-cookie', buildSessionCookie(token, isSecure(request)));
        reply.header('cache-control', 'no-store');
        return loginAnswer(admin);
      } catch (err) {
        if (err instanceof HttpError)
          request.log[err.statusCode === 429 ? 'warn' : 'info'](
            { email, ip: request.ip },
            err.statusCode === 429 ? 'sign-in throttled' : 'sign-in failed',
          );
        throw err;
      }
    },
  );

  app.get(
    '/api/admin/me',
    { onRequest: deps.auth.admin, schema: { response: { 200: Me, 401: ErrorBody } } },
    async (request, reply) => {
      const admin = await sessions.current(request.admin!.adminId);
      reply.header('cache-control', 'no-store');
      return {
        id: admin.id,
        email: admin.email,
        firstName: admin.firstName,
        lastName: admin.lastName,
        role: admin.role,
      };
    },
  );

  // The login page's question "am I signed in already?": public, always answered 200.
  app.get('/api/admin/session', { schema: { response: { 200: SessionStatus } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { signedIn: await sessions.isSignedIn(readSessionToken(request.headers.cookie)) };
  });

  app.get(
    '/api/admin/sessions/active',
    { onRequest: deps.auth.admin, schema: { response: { 200: ActiveSessionsResponse, 401: ErrorBody } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { count: await sessions.activeSessions() };
    },
  );

  app.post(
    '/api/admin/logout',
    { onRequest: deps.auth.admin, schema: { response: { 200: SuccessResponse, 401: ErrorBody } } },
    async (request, reply) => {
      await sessions.signOut(request.admin!.adminId, readSessionToken(request.headers.cookie));
      reply.header('set-cookie', clearSessionCookies(isSecure(request), request.headers.cookie));
      return { success: true as const };
    },
  );

  app.post(
    '/api/admin/change-password',
    {
      onRequest: deps.auth.admin,
      attachValidation: true,
      schema: {
        body: ChangePasswordBody,
        response: { 200: SuccessResponse, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => {
      const problem = changePasswordProblem(request.body);
      if (problem) throw badRequest(problem);
      const adminId = request.admin!.adminId;
      await sessions.changePassword(
        adminId,
        request.body.currentPassword,
        request.body.newPassword,
        readSessionToken(request.headers.cookie),
      );
      request.log.info({ adminId }, 'password changed; other sessions ended');
      return { success: true as const };
    },
  );

  app.post(
    '/api/admin/invitations/lookup',
    {
      config: publicLimit,
      schema: { body: InvitationLookupBody, response: { 200: InvitationLookupResponse, 400: ErrorBody } },
    },
    async (request) => {
      const inv = await sessions.invitation(request.body.token);
      const a = inv.adminUser;
      return {
        email: a.email,
        firstName: a.firstName,
        lastName: a.lastName,
        expiresAt: inv.expiresAt.toISOString(),
      };
    },
  );

  app.post(
    '/api/admin/invitations/accept',
    {
      attachValidation: true,
      config: publicLimit,
      schema: { body: AcceptInvitationBody, response: { 200: LoginResponse, 400: ErrorBody } },
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as Partial<AcceptInvitationBody>;
      if (typeof body.token !== 'string' || !body.token) throw badRequest(MESSAGES.invalidInvitation);
      const problem = newPasswordProblem(body.password);
      if (problem) throw badRequest(problem);
      const { admin, token } = await sessions.acceptInvitation(
        body.token,
        body.password as string,
        clientOf(request),
      );
      request.log.info({ adminId: admin.id }, 'invitation accepted; signed in');
      reply.header('set-cookie', buildSessionCookie(token, isSecure(request)));
      reply.header('cache-control', 'no-store');
      return loginAnswer(admin);
    },
  );
}
