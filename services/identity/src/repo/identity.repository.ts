import { randomUUID } from 'node:crypto';
import type { AdminRole, AdminUser, SessionRevokeReason } from '@parley/contracts';
import { enqueueEvent, isUniqueViolation } from '@parley/kit';
import type { IdentityDb } from '../db.ts';
import { removesLastSuperAdmin } from '../domain/validation.ts';
import type { AdminUser as AdminUserRow, Prisma } from '../generated/prisma/client.ts';

type Tx = Prisma.TransactionClient;

/** Advisory-lock keys (transaction scoped) of the identity database. */
const LOCK_SUPER_ADMINS = 7_215_001; // changes that could remove the last active super admin
const LOCK_FIRST_ADMIN = 7_215_002; // first-admin bootstrap across replicas

export class DuplicateEmailError extends Error {
  override name = 'DuplicateEmailError';
}
export class LastSuperAdminError extends Error {
  override name = 'LastSuperAdminError';
}

export function toAdminUser(row: AdminUserRow, invitationPending = false): AdminUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    role: row.role,
    isActive: row.isActive,
    mustChangePassword: row.mustChangePassword,
    invitationPending,
    lastLogin: row.lastLogin ? row.lastLogin.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export interface NewAdmin {
  email: string;
  firstName: string;
  lastName: string;
  role: AdminRole;
  passwordHash: string;
  mustChangePassword: boolean;
}

export interface NewSession {
  tokenHash: string;
  userAgent: string | null;
  ip: string | null;
}

export interface ResolvedSession {
  adminId: string;
  role: AdminRole;
  email: string;
  mustChangePassword: boolean;
  expiresAt: Date;
}

/** All database access of the identity service. */
export class IdentityRepository {
  constructor(readonly db: IdentityDb) {}

  private lock(tx: Tx, key: number) {
    return tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${key})`);
  }

  // ---- admins ---------------------------------------------------------------------------

  findByEmail(email: string) {
    return this.db.adminUser.findUnique({ where: { email } });
  }

  findById(id: string) {
    return this.db.adminUser.findUnique({ where: { id } });
  }

  /**
   * Creates `admin` only when there is no admin at all. Serialised across replicas by an
   * advisory lock, so several services starting at once create exactly one.
   */
  async createFirstAdmin(admin: NewAdmin, now: Date): Promise<AdminUserRow | null> {
    return this.db.$transaction(async (tx) => {
      await this.lock(tx, LOCK_FIRST_ADMIN);
      if ((await tx.adminUser.count()) > 0) return null;
      return tx.adminUser.create({ data: { ...admin, createdAt: now } });
    });
  }

  /** Creates an admin with a known password (CLI); DuplicateEmailError when taken. */
  async createAdmin(admin: NewAdmin, now: Date): Promise<AdminUserRow> {
    try {
      return await this.db.adminUser.create({ data: { ...admin, createdAt: now } });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateEmailError();
      throw err;
    }
  }

  /** Sets a password (CLI reset): clears must-change, reactivates, ends every session. */
  async resetPassword(id: string, passwordHash: string, mustChangePassword: boolean): Promise<void> {
    await this.db.$transaction(async (tx) => {
      await tx.adminUser.update({
        where: { id },
        data: { passwordHash, mustChangePassword, isActive: true },
      });
      await tx.adminSession.deleteMany({ where: { adminUserId: id } });
      // A password set for good voids the open invitations; a temporary one keeps them.
      if (!mustChangePassword)
        await tx.adminInvitation.deleteMany({ where: { adminUserId: id, acceptedAt: null } });
      await this.revoked(tx, id, 'password_changed');
    });
  }

  async listAdmins(now: Date): Promise<AdminUser[]> {
    const rows = await this.db.adminUser.findMany({
      orderBy: [{ createdAt: 'asc' }, { email: 'asc' }],
      include: {
        invitations: { where: { acceptedAt: null, expiresAt: { gt: now } }, select: { id: true }, take: 1 },
      },
    });
    // Pending = an open invitation and the admin has not chosen a password yet.
    return rows.map((r) => toAdminUser(r, r.invitations.length > 0 && r.mustChangePassword));
  }

  /** Creates an invited admin, its invitation and the `identity.admin.invited` event at once. */
  async createInvitedAdmin(
    admin: NewAdmin,
    invitation: { tokenHash: string; expiresAt: Date; invitationUrl: string },
    invitedBy: string | null,
    now: Date,
  ): Promise<AdminUser> {
    try {
      return await this.db.$transaction(async (tx) => {
        const row = await tx.adminUser.create({ data: { ...admin, createdAt: now } });
        await tx.adminInvitation.create({
          data: {
            adminUserId: row.id,
            tokenHash: invitation.tokenHash,
            expiresAt: invitation.expiresAt,
            createdBy: invitedBy,
            createdAt: now,
          },
        });
        await enqueueEvent(tx, 'identity.admin.invited', {
          adminId: row.id,
          email: row.email,
          firstName: row.firstName,
          lastName: row.lastName,
          role: row.role,
          invitationUrl: invitation.invitationUrl,
          expiresAt: invitation.expiresAt.toISOString(),
          invitedBy,
        });
        return toAdminUser(row, true);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateEmailError();
      throw err;
    }
  }

  /** Deletes an admin (sessions and invitations cascade). Null when unknown. */
  async deleteAdmin(id: string, deletedBy: string): Promise<AdminUserRow | null> {
    return this.db.$transaction(async (tx) => {
      await this.lock(tx, LOCK_SUPER_ADMINS);
      const target = await tx.adminUser.findUnique({ where: { id } });
      if (!target) return null;
      const others = await this.otherActiveSuperAdmins(tx, id);
      if (removesLastSuperAdmin({ target, after: 'deleted', otherActiveSuperAdmins: others })) {
        throw new LastSuperAdminError();
      }
      await tx.adminUser.delete({ where: { id } });
      await enqueueEvent(tx, 'identity.admin.deleted', { adminId: id, email: target.email, deletedBy });
      await this.revoked(tx, id, 'deleted');
      return target;
    });
  }

  /** Activates/deactivates or changes the role; deactivation ends the admin's sessions. */
  async updateAdmin(
    id: string,
    patch: { isActive?: boolean; role?: AdminRole },
    now: Date,
  ): Promise<AdminUser | null> {
    return this.db.$transaction(async (tx) => {
      await this.lock(tx, LOCK_SUPER_ADMINS);
      const target = await tx.adminUser.findUnique({ where: { id } });
      if (!target) return null;
      const after = { role: patch.role ?? target.role, isActive: patch.isActive ?? target.isActive };
      const others = await this.otherActiveSuperAdmins(tx, id);
      if (removesLastSuperAdmin({ target, after, otherActiveSuperAdmins: others }))
        throw new LastSuperAdminError();
      const changed = after.role !== target.role || after.isActive !== target.isActive;
      const row = changed ? await tx.adminUser.update({ where: { id }, data: after }) : target;
      if (target.isActive && !after.isActive) {
        await tx.adminSession.deleteMany({ where: { adminUserId: id } });
        await this.revoked(tx, id, 'deactivated');
      } else if (after.role !== target.role) {
        await this.revoked(tx, id, 'role_changed');
      }
      const pending = await tx.adminInvitation.count({
        where: { adminUserId: id, acceptedAt: null, expiresAt: { gt: now } },
      });
      return toAdminUser(row, pending > 0 && row.mustChangePassword);
    });
  }

  private otherActiveSuperAdmins(tx: Tx, id: string) {
    return tx.adminUser.count({ where: { role: 'super_admin', isActive: true, id: { not: id } } });
  }

  private revoked(tx: Tx, adminId: string, reason: SessionRevokeReason) {
    return enqueueEvent(tx, 'identity.session.revoked', { adminId, reason });
  }

  // ---- sessions -------------------------------------------------------------------------

  /** Signs in: a new session, lastLogin, and the account's failed attempts forgotten. */
  async startSession(
    adminId: string,
    session: NewSession,
    now: Date,
    idleMs: number,
    clear?: { email: string; attemptId: string },
  ): Promise<void> {
    await this.db.$transaction(async (tx) => {
      await tx.adminSession.create({
        data: {
          adminUserId: adminId,
          tokenHash: session.tokenHash,
          userAgent: session.userAgent,
          ip: session.ip,
          createdAt: now,
          lastUsedAt: now,
          expiresAt: new Date(now.getTime() + idleMs),
        },
      });
      await tx.adminUser.update({ where: { id: adminId }, data: { lastLogin: now } });
      if (clear) {
        await tx.loginFailure.deleteMany({
          where: { OR: [{ scope: 'account', key: clear.email }, { attemptId: clear.attemptId }] },
        });
      }
    });
  }

  /** Sessions that are live now (not expired, of active admins). */
  async countActiveSessions(now: Date): Promise<number> {
    return this.db.adminSession.count({ where: { expiresAt: { gt: now }, adminUser: { isActive: true } } });
  }

  /**
   * The live session of an active admin for `tokenHash`, or null. Use renews the idle
   * expiry; the row is written at most once per `touchEveryMs` to keep resolution cheap.
   */
  async resolveSession(
    tokenHash: string,
    now: Date,
    idleMs: number,
    touchEveryMs = 60_000,
  ): Promise<ResolvedSession | null> {
    const row = await this.db.adminSession.findUnique({ where: { tokenHash }, include: { adminUser: true } });
    if (!row) return null;
    if (row.expiresAt.getTime() <= now.getTime()) {
      await this.db.adminSession.deleteMany({ where: { id: row.id } });
      return null;
    }
    if (!row.adminUser.isActive) return null;
    let expiresAt = row.expiresAt;
    if (now.getTime() - row.lastUsedAt.getTime() >= touchEveryMs) {
      expiresAt = new Date(now.getTime() + idleMs);
      await this.db.adminSession.updateMany({ where: { id: row.id }, data: { lastUsedAt: now, expiresAt } });
    }
    const a = row.adminUser;
    return {
      adminId: a.id,
      role: a.role,
      email: a.email,
      mustChangePassword: a.mustChangePassword,
      expiresAt,
    };
  }

  /** Ends one session of `adminId`; true when there was one. */
  async endSession(adminId: string, tokenHash: string): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      const { count } = await tx.adminSession.deleteMany({ where: { tokenHash, adminUserId: adminId } });
      if (count > 0) await this.revoked(tx, adminId, 'logout');
      return count > 0;
    });
  }

  /** New password, must-change cleared, every other session of the admin ended. */
  async changePassword(adminId: string, passwordHash: string, keepTokenHash: string | null): Promise<void> {
    await this.db.$transaction(async (tx) => {
      await tx.adminUser.update({
        where: { id: adminId },
        data: { passwordHash, mustChangePassword: false },
      });
      await tx.adminSession.deleteMany({
        where: { adminUserId: adminId, ...(keepTokenHash ? { tokenHash: { not: keepTokenHash } } : {}) },
      });
      // The admin chose a password: an invitation link must not be able to replace it.
      await tx.adminInvitation.deleteMany({ where: { adminUserId: adminId, acceptedAt: null } });
      await this.revoked(tx, adminId, 'password_changed');
    });
  }

  // ---- invitations ----------------------------------------------------------------------

  /** The pending invitation for `tokenHash` with its (active) admin, or null. */
  async findInvitation(tokenHash: string, now: Date) {
    const inv = await this.db.adminInvitation.findUnique({
      where: { tokenHash },
      include: { adminUser: true },
    });
    if (
      !inv ||
      inv.acceptedAt ||
      inv.expiresAt.getTime() <= now.getTime() ||
      !inv.adminUser.isActive ||
      // Void once the admin has a password of their own choosing.
      !inv.adminUser.mustChangePassword
    )
      return null;
    return inv;
  }

  /**
   * Redeems an invitation: sets the password, clears must-change, retires the admin's other
   * invitations and starts a session. Null when the invitation is not (or no longer) valid.
   */
  async acceptInvitation(
    tokenHash: string,
    passwordHash: string,
    session: NewSession,
    now: Date,
    idleMs: number,
  ): Promise<AdminUserRow | null> {
    return this.db.$transaction(async (tx) => {
      // Claim the invitation first: of two concurrent redemptions only one updates the row.
      const claimed = await tx.adminInvitation.updateMany({
        where: {
          tokenHash,
          acceptedAt: null,
          expiresAt: { gt: now },
          adminUser: { isActive: true, mustChangePassword: true },
        },
        data: { acceptedAt: now },
      });
      if (claimed.count !== 1) return null;
      const inv = await tx.adminInvitation.findUniqueOrThrow({ where: { tokenHash } });
      await tx.adminInvitation.deleteMany({ where: { adminUserId: inv.adminUserId, acceptedAt: null } });
      const admin = await tx.adminUser.update({
        where: { id: inv.adminUserId },
        data: { passwordHash, mustChangePassword: false, lastLogin: now },
      });
      // The password changed hands: every other session of this admin ends.
      const ended = await tx.adminSession.deleteMany({ where: { adminUserId: admin.id } });
      if (ended.count > 0) await this.revoked(tx, admin.id, 'password_changed');
      await tx.adminSession.create({
        data: {
          adminUserId: admin.id,
          tokenHash: session.tokenHash,
          userAgent: session.userAgent,
          ip: session.ip,
          createdAt: now,
          lastUsedAt: now,
          expiresAt: new Date(now.getTime() + idleMs),
        },
      });
      return admin;
    });
  }

  // ---- sign-in throttling ---------------------------------------------------------------

  /**
   * Records an attempt (one row per scope, committed on its own) and then returns the
   * timestamps of the scopes' OTHER rows in the window. Because the row commits before the
   * count, of any two concurrent attempts the later one sees the earlier.
   */
  async recordAttempt(email: string, ip: string, now: Date, windowMs: number) {
    const attemptId = randomUUID();
    await this.db.loginFailure.createMany({
      data: [
        { scope: 'account', key: email, attemptId, failedAt: now },
        { scope: 'ip', key: ip, attemptId, failedAt: now },
      ],
    });
    const from = new Date(now.getTime() - windowMs);
    const rows = await this.db.loginFailure.findMany({
      where: {
        failedAt: { gt: from },
        attemptId: { not: attemptId },
        OR: [
          { scope: 'account', key: email },
          { scope: 'ip', key: ip },
        ],
      },
      select: { scope: true, failedAt: true },
      orderBy: { failedAt: 'desc' },
      take: 1000,
    });
    return {
      attemptId,
      account: rows.filter((r) => r.scope === 'account').map((r) => r.failedAt),
      ip: rows.filter((r) => r.scope === 'ip').map((r) => r.failedAt),
    };
  }

  /** Forgets an attempt that was refused before its password was checked. */
  async dropAttempt(attemptId: string) {
    await this.db.loginFailure.deleteMany({ where: { attemptId } });
  }

  // ---- housekeeping ---------------------------------------------------------------------

  /** Deletes expired sessions, aged-out attempts and long-expired invitations. */
  async purge(now: Date, windowMs: number) {
    const [sessions, failures, invitations] = await Promise.all([
      this.db.adminSession.deleteMany({ where: { expiresAt: { lte: now } } }),
      this.db.loginFailure.deleteMany({ where: { failedAt: { lte: new Date(now.getTime() - windowMs) } } }),
      this.db.adminInvitation.deleteMany({
        where: { expiresAt: { lte: new Date(now.getTime() - 30 * 86_400_000) } },
      }),
    ]);
    return { sessions: sessions.count, failures: failures.count, invitations: invitations.count };
  }
}
