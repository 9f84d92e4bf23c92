import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@parley/contracts';

/** Input rules of the identity service, with the spec's own messages. Pure. */

export const MESSAGES = {
  invalidEmail: 'Please enter a valid email',
  passwordRequired: 'Password is required',
  invalidCredentials: 'Invalid email or password',
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
  passwordTooLong: `Password must be at most ${MAX_PASSWORD_LENGTH} characters`,
  currentPasswordRequired: 'Current password is required',
  currentPasswordIncorrect: 'Current password is incorrect',
  samePassword: 'The new password must be different from the current password',
  missingFields: 'Missing required fields',
  duplicateEmail: 'An admin with this email already exists',
  deleteSelf: 'You cannot delete your own account',
  deactivateSelf: 'You cannot deactivate your own account',
  lastSuperAdmin: 'Cannot remove the last active super admin',
  adminNotFound: 'Admin user not found',
  invalidInvitation: 'This invitation link is invalid or has expired',
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Emails are compared and stored trimmed and lower-cased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function isValidEmail(email: string): boolean {
  const e = normalizeEmail(email);
  return e.length >= 3 && e.length <= 254 && EMAIL.test(e);
}

/** The first problem of a login body, or null. */
export function loginInputProblem(body: unknown): string | null {
  const b = (body ?? {}) as { email?: unknown; password?: unknown };
  if (typeof b.email !== 'string' || !isValidEmail(b.email)) return MESSAGES.invalidEmail;
  if (typeof b.password !== 'string' || b.password.length === 0) return MESSAGES.passwordRequired;
  if (b.password.length > 1024) return MESSAGES.invalidCredentials;
  return null;
}

/** Policy for a password being set (change, invitation, bootstrap, CLI). */
export function newPasswordProblem(password: unknown): string | null {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) return MESSAGES.passwordTooShort;
  if (password.length > MAX_PASSWORD_LENGTH) return MESSAGES.passwordTooLong;
  if (password.trim().length === 0) return MESSAGES.passwordTooShort;
  return null;
}

/** Checks of a change-password body, before the current password is verified. */
export function changePasswordProblem(body: unknown): string | null {
  const b = (body ?? {}) as { currentPassword?: unknown; newPassword?: unknown };
  if (typeof b.currentPassword !== 'string' || b.currentPassword.length === 0)
    return MESSAGES.currentPasswordRequired;
  const policy = newPasswordProblem(b.newPassword);
  if (policy) return policy;
  if (b.newPassword === b.currentPassword) return MESSAGES.samePassword;
  return null;
}

export interface NewAdminInput {
  email: string;
  firstName: string;
  lastName: string;
  role: 'admin' | 'super_admin';
}

/** Parses a create-admin body: trimmed names, normalised email, role default admin. */
export function parseNewAdmin(
  body: unknown,
): { ok: true; value: NewAdminInput } | { ok: false; message: string } {
  const b = (body ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const email = str(b.email);
  const firstName = str(b.firstName);
  const lastName = str(b.lastName);
  if (!email || !firstName || !lastName) return { ok: false, message: MESSAGES.missingFields };
  if (!isValidEmail(email)) return { ok: false, message: MESSAGES.invalidEmail };
  if (firstName.length > 100 || lastName.length > 100)
    return { ok: false, message: 'Names must be at most 100 characters' };
  const role = b.role === undefined || b.role === null || b.role === '' ? 'admin' : b.role;
  if (role !== 'admin' && role !== 'super_admin')
    return { ok: false, message: 'Role must be admin or super_admin' };
  return { ok: true, value: { email: normalizeEmail(email), firstName, lastName, role } };
}

export interface SuperAdminChange {
  target: { role: 'admin' | 'super_admin'; isActive: boolean };
  /** What happens to the target: deleted, or its new state. */
  after: { role: 'admin' | 'super_admin'; isActive: boolean } | 'deleted';
  /** Active super admins other than the target. */
  otherActiveSuperAdmins: number;
}

/** True when the change would leave no active super admin. */
export function removesLastSuperAdmin({ target, after, otherActiveSuperAdmins }: SuperAdminChange): boolean {
  const wasActiveSuper = target.role === 'super_admin' && target.isActive;
  if (!wasActiveSuper || otherActiveSuperAdmins > 0) return false;
  return after === 'deleted' || after.role !== 'super_admin' || !after.isActive;
}
