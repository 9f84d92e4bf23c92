import { createHash, randomBytes } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * Passwords: Argon2id with OWASP's minimum (m = 19456 KiB, t = 2, p = 1).
 * Tokens: 32 random bytes, base64url; only their sha256 (hex) is stored.
 */

const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id (a const enum, not importable under isolatedModules)
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * Verifies against the account's hash, or against a dummy hash made once at boot when
 * there is no usable account, so an unknown email costs the same time as a wrong password.
 */
export class PasswordChecker {
  private constructor(private readonly dummyHash: string) {}

  static async create(): Promise<PasswordChecker> {
    return new PasswordChecker(await hashPassword(randomBytes(24).toString('base64url')));
  }

  async check(passwordHash: string | null, password: string): Promise<boolean> {
    if (!passwordHash) {
      await verifyPassword(this.dummyHash, password);
      return false;
    }
    return verifyPassword(passwordHash, password);
  }
}

/** A new opaque token (256 bits, base64url: 43 characters). */
export const newToken = () => randomBytes(32).toString('base64url');

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A password nobody knows (accounts waiting for their invitation to be accepted). */
export const unusablePassword = () => randomBytes(32).toString('base64url');

/** A readable random password for the first admin (about 120 bits). */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(24);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return `${out.slice(0, 8)}-${out.slice(8, 16)}-${out.slice(16, 24)}`;
}
