import { fileURLToPath } from 'node:url';
import type { AdminRole } from '@parley/contracts';
import { createPool, migrate } from '@parley/kit';
import { hashPassword } from './crypto.ts';
import { createDb } from './db.ts';
import { isValidEmail, newPasswordProblem, normalizeEmail } from './domain/validation.ts';
import { DuplicateEmailError, IdentityRepository } from './repo/identity.repository.ts';

export interface ProvisionInput {
  email: string;
  firstName: string;
  lastName: string;
  role: AdminRole;
  password: string;
  /** Ask for a new password at first sign-in. */
  mustChangePassword?: boolean;
  /** When the email exists: set its password (and reactivate) instead of failing. */
  resetPassword?: boolean;
}

/**
 * Creates an admin directly in the identity database (operators' `pnpm admin:create`),
 * applying pending migrations first. Throws with a readable message on bad input.
 */
export async function provisionAdmin(
  databaseUrl: string,
  input: ProvisionInput,
): Promise<'created' | 'reset'> {
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) throw new Error('Please enter a valid email');
  if (!input.firstName.trim() || !input.lastName.trim()) throw new Error('First and last name are required');
  const problem = newPasswordProblem(input.password);
  if (problem) throw new Error(problem);

  const migrationsDir = fileURLToPath(new URL('../prisma/migrations', import.meta.url));
  await migrate(databaseUrl, migrationsDir);
  const pool = createPool(databaseUrl, 2);
  const db = createDb(pool);
  try {
    const repo = new IdentityRepository(db);
    const passwordHash = await hashPassword(input.password);
    const mustChangePassword = input.mustChangePassword ?? false;
    try {
      await repo.createAdmin(
        {
          email,
          firstName: input.firstName.trim(),
          lastName: input.lastName.trim(),
          role: input.role,
          passwordHash,
          mustChangePassword,
        },
        new Date(),
      );
      return 'created';
    } catch (err) {
      if (!(err instanceof DuplicateEmailError)) throw err;
      if (!input.resetPassword)
        throw new Error(
          `An admin with this email already exists (${email}); pass --reset-password to set its password`,
        );
      const existing = await repo.findByEmail(email);
      await repo.resetPassword(existing!.id, passwordHash, mustChangePassword);
      return 'reset';
    }
  } finally {
    await db.$disconnect();
    await pool.end();
  }
}
