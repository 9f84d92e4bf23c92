import { badRequest, HttpError } from '@parley/kit';
import type { IdentitySettings } from './config.ts';
import { hashPassword, hashToken, newToken, type PasswordChecker } from './crypto.ts';
import { THROTTLE_WINDOW_MS, throttleDecision, throttleMessage } from './domain/throttle.ts';
import { MESSAGES, normalizeEmail } from './domain/validation.ts';
import type { AdminUser } from './generated/prisma/client.ts';
import type { IdentityRepository } from './repo/identity.repository.ts';

/** Who is asking: recorded with a session. */
export interface Client {
  ip: string | null;
  userAgent: string | null;
}

/** A session just started: the admin, and the token for the cookie (only its hash is stored). */
export interface SignedIn {
  admin: AdminUser;
  token: string;
}

const unauthorized = (message = 'Authentication required') => new HttpError(401, message);

/**
 * Sessions: sign-in (throttled, one Argon2 check whatever the email), the current admin,
 * sign-out, password change and invitation redemption. The routes validate input and handle
 * cookies; the steps across the repository and the password hasher live here.
 */
export class SessionService {
  constructor(
    private readonly repo: IdentityRepository,
    private readonly passwords: PasswordChecker,
    private readonly settings: IdentitySettings,
    private readonly now: () => Date,
  ) {}

  /** Throws 429 (with Retry-After) when throttled, 401 for a wrong or inactive sign-in. */
  async signIn(rawEmail: string, password: string, client: Client): Promise<SignedIn> {
    const email = normalizeEmail(rawEmail);
    const at = this.now();
    const attempt = await this.repo.recordAttempt(email, client.ip ?? '', at, THROTTLE_WINDOW_MS);
    const decision = throttleDecision(attempt, at);
    if (decision.blocked) {
      await this.repo.dropAttempt(attempt.attemptId);
      throw new HttpError(429, throttleMessage(decision.retryAfterSeconds), {
        'retry-after': String(decision.retryAfterSeconds),
      });
    }
    const admin = await this.repo.findByEmail(email);
    // Always one Argon2 verification (a dummy one for unknown emails); inactive admins get
    // the same answer as a wrong password.
    const valid = await this.passwords.check(admin?.passwordHash ?? null, password);
    if (!admin || !valid || !admin.isActive) throw unauthorized(MESSAGES.invalidCredentials);
    const token = newToken();
    await this.repo.startSession(
      admin.id,
      { tokenHash: hashToken(token), ...client },
      at,
      this.settings.sessionIdleMs,
      { email, attemptId: attempt.attemptId },
    );
    return { admin, token };
  }

  /** Whether a session token (from the cookie) is a live session of an active admin. */
  async isSignedIn(token: string | null): Promise<boolean> {
    if (!token) return false;
    return (
      (await this.repo.resolveSession(hashToken(token), this.now(), this.settings.sessionIdleMs)) !== null
    );
  }

  /** The signed-in admin, while active (401 otherwise). */
  async current(adminId: string): Promise<AdminUser> {
    const admin = await this.repo.findById(adminId);
    if (!admin?.isActive) throw unauthorized();
    return admin;
  }

  activeSessions(): Promise<number> {
    return this.repo.countActiveSessions(this.now());
  }

  async signOut(adminId: string, token: string | null): Promise<void> {
    if (token) await this.repo.endSession(adminId, hashToken(token));
  }

  /** Checks the current password, stores the new one and ends every other session. */
  async changePassword(
    adminId: string,
    currentPassword: string,
    newPassword: string,
    keepToken: string | null,
  ): Promise<void> {
    const admin = await this.current(adminId);
    if (!(await this.passwords.check(admin.passwordHash, currentPassword)))
      throw badRequest(MESSAGES.currentPasswordIncorrect);
    await this.repo.changePassword(
      admin.id,
      await hashPassword(newPassword),
      keepToken ? hashToken(keepToken) : null,
    );
  }

  /** The invitation behind a link, while it is valid (400 otherwise). */
  async invitation(token: string) {
    const inv = await this.repo.findInvitation(hashToken(token), this.now());
    if (!inv) throw badRequest(MESSAGES.invalidInvitation);
    return inv;
  }

  /** Sets the invited admin's password and signs them in (400 for a dead link). */
  async acceptInvitation(token: string, password: string, client: Client): Promise<SignedIn> {
    const tokenHash = hashToken(token);
    const at = this.now();
    // Check before hashing, so a dead link costs no Argon2 work.
    if (!(await this.repo.findInvitation(tokenHash, at))) throw badRequest(MESSAGES.invalidInvitation);
    const sessionToken = newToken();
    const admin = await this.repo.acceptInvitation(
      tokenHash,
      await hashPassword(password),
      { tokenHash: hashToken(sessionToken), ...client },
      at,
      this.settings.sessionIdleMs,
    );
    if (!admin) throw badRequest(MESSAGES.invalidInvitation);
    return { admin, token: sessionToken };
  }
}
