import { type Static, Type } from 'typebox';
import { ADMIN_ROLES } from './enums.ts';
import { UuidId } from './http.ts';
import { literalUnion } from './schema.ts';

/**
 * API contracts of the identity service: admin sign-in, the current admin, password
 * change, admin-user management (super_admin), invitations and the internal session
 * resolution the gateway calls. Bodies are loosely typed on purpose where the service
 * answers the spec's own messages ('Missing required fields', 'Password is required', ...)
 * instead of a generic schema error.
 */

export const AdminRoleSchema = literalUnion(ADMIN_ROLES);

/** Session cookie names: `__Host-` + Secure over https, the plain name over http. */
export const SESSION_COOKIE = 'parley_session';
export const SECURE_SESSION_COOKIE = '__Host-parley_session';
/** Cookie lifetime; the server-side idle expiry is renewed on use (SESSION_IDLE_HOURS). */
export const SESSION_COOKIE_MAX_AGE_SECONDS = 86_400;
/** Shortest accepted password (spec: 'Password must be at least 8 characters'). */
export const MIN_PASSWORD_LENGTH = 8;
/** Longest accepted password (bounds the hashing cost of one request). */
export const MAX_PASSWORD_LENGTH = 256;

const IsoDateTime = Type.String({ format: 'date-time' });

export const LoginBody = Type.Object({
  email: Type.String({ maxLength: 254, description: 'Case-insensitive' }),
  password: Type.String({ maxLength: 1024 }),
});
export type LoginBody = Static<typeof LoginBody>;

export const LoginResponse = Type.Object({
  admin: Type.Object({
    firstName: Type.String(),
    lastName: Type.String(),
    role: AdminRoleSchema,
    mustChangePassword: Type.Boolean(),
  }),
});
export type LoginResponse = Static<typeof LoginResponse>;

export const Me = Type.Object({
  id: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: AdminRoleSchema,
});
export type Me = Static<typeof Me>;

/**
 * GET /api/admin/session: whether the request carries a live admin session. Public and always
 * 200, so the login page can ask without a 401 in the browser's console (issue 35); the
 * current admin is still GET /api/admin/me.
 */
export const SessionStatus = Type.Object({ signedIn: Type.Boolean() });
export type SessionStatus = Static<typeof SessionStatus>;

export const ChangePasswordBody = Type.Object({
  currentPassword: Type.String({ maxLength: 1024 }),
  newPassword: Type.String({ maxLength: 1024 }),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

/** Live admin sessions right now (dashboard's Active Sessions card). */
export const ActiveSessionsResponse = Type.Object({ count: Type.Integer({ minimum: 0 }) });
export type ActiveSessionsResponse = Static<typeof ActiveSessionsResponse>;

export const SuccessResponse = Type.Object({ success: Type.Literal(true) });
export type SuccessResponse = Static<typeof SuccessResponse>;

/** An admin user as listed to super admins (never the password hash). */
export const AdminUser = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    role: AdminRoleSchema,
    isActive: Type.Boolean(),
    mustChangePassword: Type.Boolean(),
    /** True while the admin has an unaccepted, unexpired invitation. */
    invitationPending: Type.Boolean(),
    lastLogin: Type.Union([IsoDateTime, Type.Null()]),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { $id: 'AdminUser' },
);
export type AdminUser = Static<typeof AdminUser>;

export const AdminUserList = Type.Array(AdminUser);
export type AdminUserList = Static<typeof AdminUserList>;

export const AdminUserIdParams = Type.Object({ id: UuidId() });
export type AdminUserIdParams = Static<typeof AdminUserIdParams>;

export const CreateAdminUserBody = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 254 })),
  firstName: Type.Optional(Type.String({ maxLength: 100 })),
  lastName: Type.Optional(Type.String({ maxLength: 100 })),
  role: Type.Optional(AdminRoleSchema),
  /**
   * Optional temporary password the super_admin hands over; the new admin must change it at
   * first sign-in. Without it the admin starts from the invitation link only.
   */
  password: Type.Optional(Type.String({ maxLength: MAX_PASSWORD_LENGTH })),
});
export type CreateAdminUserBody = Static<typeof CreateAdminUserBody>;

/**
 * The created admin and the one-time invitation link (`/admin/login?invite=<token>`,
 * absolute when PUBLIC_ORIGIN is configured). The same link is sent by email
 * (event `identity.admin.invited`); it is never shown again.
 */
export const CreateAdminUserResponse = Type.Object({
  user: AdminUser,
  invitationUrl: Type.String(),
  invitationExpiresAt: IsoDateTime,
});
export type CreateAdminUserResponse = Static<typeof CreateAdminUserResponse>;

export const UpdateAdminUserBody = Type.Object(
  {
    isActive: Type.Optional(Type.Boolean()),
    role: Type.Optional(AdminRoleSchema),
  },
  { additionalProperties: false },
);
export type UpdateAdminUserBody = Static<typeof UpdateAdminUserBody>;

/** Public: what an invitation link is for (to greet the invitee before they choose a password). */
export const InvitationLookupBody = Type.Object({ token: Type.String({ maxLength: 200 }) });
export type InvitationLookupBody = Static<typeof InvitationLookupBody>;

export const InvitationLookupResponse = Type.Object({
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  expiresAt: IsoDateTime,
});
export type InvitationLookupResponse = Static<typeof InvitationLookupResponse>;

/** Public: sets the invitee's password and signs them in (same answer and cookie as login). */
export const AcceptInvitationBody = Type.Object({
  token: Type.String({ maxLength: 200 }),
  password: Type.String({ maxLength: 1024 }),
});
export type AcceptInvitationBody = Static<typeof AcceptInvitationBody>;

/** Internal (gateway → identity, internal token header): resolve a session cookie. */
export const ResolveSessionBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
export type ResolveSessionBody = Static<typeof ResolveSessionBody>;

export const ResolveSessionResponse = Type.Object({
  adminId: Type.String(),
  role: AdminRoleSchema,
  email: Type.String(),
  /** The gateway may restrict such an admin to me / change-password / logout. */
  mustChangePassword: Type.Boolean(),
  /** When the session expires unless it is used again. */
  expiresAt: IsoDateTime,
});
export type ResolveSessionResponse = Static<typeof ResolveSessionResponse>;

export const SESSION_REVOKE_REASONS = [
  'logout',
  'password_changed',
  'deactivated',
  'deleted',
  'role_changed',
] as const;
export type SessionRevokeReason = (typeof SESSION_REVOKE_REASONS)[number];

/** Event payloads (see EVENTS in events.ts). */
export const AdminInvitedEvent = Type.Object({
  adminId: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: AdminRoleSchema,
  /** One-time link with the invitation token: treat as a secret (send it, do not log it). */
  invitationUrl: Type.String(),
  expiresAt: IsoDateTime,
  invitedBy: Type.Union([Type.String(), Type.Null()]),
});
export type AdminInvitedEvent = Static<typeof AdminInvitedEvent>;

export const AdminDeletedEvent = Type.Object({
  adminId: Type.String(),
  email: Type.String(),
  deletedBy: Type.String(),
});
export type AdminDeletedEvent = Static<typeof AdminDeletedEvent>;

/**
 * Sessions of `adminId` ended or changed meaning (role change): anyone caching session
 * resolutions (the gateway) drops its entries for this admin.
 */
export const SessionRevokedEvent = Type.Object({
  adminId: Type.String(),
  reason: literalUnion(SESSION_REVOKE_REASONS),
});
export type SessionRevokedEvent = Static<typeof SessionRevokedEvent>;
