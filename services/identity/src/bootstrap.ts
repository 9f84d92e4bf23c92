import type { ServiceDeps } from '@parley/kit';
import type { IdentityConfig } from './config.ts';
import { generatePassword, hashPassword } from './crypto.ts';
import { normalizeEmail } from './domain/validation.ts';
import type { IdentityRepository } from './repo/identity.repository.ts';

export const DEFAULT_ADMIN_EMAIL = 'admin@parley.local';

export interface FirstAdminResult {
  created: boolean;
  email?: string;
  /** The generated password (only when none was configured). */
  generatedPassword?: string;
}

/** Prints the generated credentials once, framed so they stand out in the start log. */
export function printFirstAdmin(
  email: string,
  password: string,
  write = (s: string) => process.stdout.write(s),
) {
  const lines = [
    'Parley: first admin created (shown once; change the password after signing in)',
    '',
    `  email:    ${email}`,
    `  password: ${password}`,
  ];
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  const bar = `+${'-'.repeat(width - 2)}+`;
  write(`\n${bar}\n${lines.map((l) => `| ${l.padEnd(width - 4)} |`).join('\n')}\n${bar}\n\n`);
}

/**
 * When there is no admin at all, creates a super_admin: from PARLEY_ADMIN_EMAIL /
 * PARLEY_ADMIN_PASSWORD when set, otherwise `admin@parley.local` with a random password,
 * printed once, that must be changed at first sign-in. Idempotent, and safe when several
 * replicas start at once (the repository serialises it with an advisory lock). An existing
 * admin is never modified: the variables only seed an empty database.
 */
export async function ensureFirstAdmin(
  repo: IdentityRepository,
  env: Pick<IdentityConfig, 'PARLEY_ADMIN_EMAIL' | 'PARLEY_ADMIN_PASSWORD'>,
  log: Pick<ServiceDeps['logger'], 'info' | 'warn'>,
  opts: { now?: () => Date; print?: (email: string, password: string) => void } = {},
): Promise<FirstAdminResult> {
  const now = opts.now ?? (() => new Date());
  // Cheap check first: the common case (admins exist) costs no hashing.
  if ((await repo.db.adminUser.count()) > 0) return { created: false };
  const email = normalizeEmail(env.PARLEY_ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL);
  const generated = env.PARLEY_ADMIN_PASSWORD ? undefined : generatePassword();
  const password = env.PARLEY_ADMIN_PASSWORD ?? generated!;
  const row = await repo.createFirstAdmin(
    {
      email,
      firstName: 'Parley',
      lastName: 'Admin',
      role: 'super_admin',
      passwordHash: await hashPassword(password),
      mustChangePassword: generated !== undefined,
    },
    now(),
  );
  if (!row) return { created: false };
  if (generated) {
    (opts.print ?? printFirstAdmin)(email, generated);
    log.warn({ email }, 'first admin created with a generated password (printed once to stdout)');
  } else {
    log.info({ email }, 'first admin created from PARLEY_ADMIN_EMAIL / PARLEY_ADMIN_PASSWORD');
  }
  return { created: true, email, ...(generated ? { generatedPassword: generated } : {}) };
}
