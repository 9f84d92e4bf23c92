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
  SuccessResponse,
} from '@parley/contracts';
import { badRequest, HttpError, type ServiceInstance } from '@parley/kit';
import { hashPassword, hashToken, newToken } from '../crypto.ts';
import { buildSessionCookie, clearSessionCookies, readSessionToken } from '../domain/cookies.ts';
import { THROTTLE_WINDOW_MS, throttleDecision, throttleMessage } from '../domain/throttle.ts';
import {
  changePasswordProblem,
  loginInputProblem,
  MESSAGES,
  newPasswordProblem,
  normalizeEmail,
} from '../domain/validation.ts';
import type { AdminUser as AdminUserRow } from '../generated/prisma/client.ts';
import { clientOf, type IdentityRouteContext, isSecure } from './context.ts';

const unauthorized = (message = 'Authentication required') => new HttpError(401, message);

const loginAnswer = (a: AdminUserRow) => ({
  admin: {
    firstName: a.firstName,
    lastName: a.lastName,
    role: a.role,
    mustChangePassword: a.mustChangePassword,
  },
});

/** Sign-in, the current admin, sign-out, password change, and invitation redemption. */
export async function sessionRoutes(app: ServiceInstance, ctx: IdentityRouteContext) {
  const { repo, deps, settings, passwords, now } = ctx;
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
      const email = normalizeEmail(request.body.email);
      const at = now();
      const attempt = await repo.recordAttempt(email, request.ip, at, THROTTLE_WINDOW_MS);
      const decision = throttleDecision(attempt, at);
      if (decision.blocked) {
        await repo.dropAttempt(attempt.attemptId);
        request.log.warn({ email, ip: request.ip }, 'sign-in throttled');
        throw new HttpError(429, throttleMessage(decision.retryAfterSeconds), {
          'retry-after': String(decision.retryAfterSeconds),
        });
      }
      const admin = await repo.findByEmail(email);
      // Always one Argon2 verification (a dummy one for unknown emails); inactive admins get
      // the same answer as a wrong password.
      const valid = await passwords.check(admin?.passwordHash ?? null, request.body.password);
      if (!admin || !valid || !admin.isActive) {
        request.log.info({ email, ip: request.ip }, 'sign-in failed');
        throw unauthorized(MESSAGES.invalidCredentials);
      }
      const token = newToken();
      await repo.startSession(
        admin.id,
        { tokenHash: hashToken(token), ...clientOf(request) },
        at,
        settings.sessionIdleMs,
        {
          email,
          attemptId: attempt.attemptId,
        },
      );
      request.log.info({ adminId: admin.id }, 'signed in');
      reply.header('set-cookie', buildSessionCookie(token, isSecure(request)));
      reply.header('cache-control', 'no-store');
      return loginAnswer(admin);
    },
  );

  app.get(
    '/api/admin/me',
    { onRequest: deps.auth.admin, schema: { response: { 200: Me, 401: ErrorBody } } },
    async (request, reply) => {
      const admin = await repo.findById(request.admin!.adminId);
      if (!admin?.isActive) throw unauthorized();
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

  app.get(
    '/api/admin/sessions/active',
    { onRequest: deps.auth.admin, schema: { response: { 200: ActiveSessionsResponse, 401: ErrorBody } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { count: await repo.countActiveSessions(now()) };
    },
  );

  app.post(
    '/api/admin/logout',
    { onRequest: deps.auth.admin, schema: { response: { 200: SuccessResponse, 401: ErrorBody } } },
    async (request, reply) => {
      const token = readSessionToken(request.headers.cookie);
      if (token) await repo.endSession(request.admin!.adminId, hashToken(token));
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
      const admin = await repo.findById(request.admin!.adminId);
      if (!admin?.isActive) throw unauthorized();
      if (!(await passwords.check(admin.passwordHash, request.body.currentPassword))) {
        throw badRequest(MESSAGES.currentPasswordIncorrect);
      }
      const token = readSessionToken(request.headers.cookie);
      await repo.changePassword(
        admin.id,
        await hashPassword(request.body.newPassword),
        token ? hashToken(token) : null,
      );
      request.log.info({ adminId: admin.id }, 'password changed; other sessions ended');
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
      const inv = await repo.findInvitation(hashToken(request.body.token), now());
      if (!inv) throw badRequest(MESSAGES.invalidInvitation);
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
      const tokenHash = hashToken(body.token);
      const at = now();
      // Check before hashing, so a dead link costs no Argon2 work.
      if (!(await repo.findInvitation(tokenHash, at))) throw badRequest(MESSAGES.invalidInvitation);
      const sessionToken = newToken();
      const admin = await repo.acceptInvitation(
        tokenHash,
        await hashPassword(body.password as string),
        { tokenHash: hashToken(sessionToken), ...clientOf(request) },
        at,
        settings.sessionIdleMs,
      );
      if (!admin) throw badRequest(MESSAGES.invalidInvitation);
      request.log.info({ adminId: admin.id }, 'invitation accepted; signed in');
      reply.header('set-cookie', buildSessionCookie(sessionToken, isSecure(request)));
      reply.header('cache-control', 'no-store');
      return loginAnswer(admin);
    },
  );
}
