import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest and in events: AES-256-GCM with a 32-byte key from config (the settings
 * service stores credentials with it and publishes them encrypted; the services that need a
 * credential, such as email for the SMTP password, hold the same key). A sealed value reads
 * `v1.<iv>.<tag>.<ciphertext>` (base64url); the associated data binds it to its purpose (the
 * setting's key), so a value cannot be moved to another key unnoticed.
 */

const VERSION = 'v1';

/** Decodes a key given as 64 hex characters or 44 base64 characters; throws naming the problem. */
export function parseSecretKey(text: string, name = 'key'): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes (64 hex or 44 base64 characters)`);
  return key;
}

export function sealSecret(key: Buffer, plaintext: string, associatedData: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, tag, data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** The plaintext of a sealed value; throws if it was altered, sealed for another purpose or with another key. */
export function openSecret(key: Buffer, sealed: string, associatedData: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
