import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, ServiceEnv } from '../src/config.ts';

const schema = Type.Object({ ...ServiceEnv, BATCH: Type.Optional(Type.Integer({ minimum: 1 })) });

describe('loadConfig', () => {
  it('converts and returns valid values', () => {
    const c = loadConfig('svc', schema, {
      DATABASE_URL: 'postgresql://u@h/db',
      INTERNAL_AUTH_SECRET: 'x'.repeat(32),
      PORT: '8080',
      BATCH: '5',
    });
    expect(c.PORT).toBe(8080);
    expect(c.BATCH).toBe(5);
  });

  it('names every bad or missing key at once, hiding secret values', () => {
    let err: unknown;
    try {
      loadConfig('svc', schema, {
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        INTERNAL_AUTH_SECRET: 'short-secret',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain('Invalid configuration for svc');
    expect(msg).toContain('PORT');
    expect(msg).toContain('DATABASE_URL');
    expect(msg).toContain('INTERNAL_AUTH_SECRET');
    expect(msg).not.toContain('short-secret');
  });

  it('treats empty strings as unset', () => {
    expect(() =>
      loadConfig('svc', schema, { DATABASE_URL: '', INTERNAL_AUTH_SECRET: 'x'.repeat(32) }),
    ).toThrow(/DATABASE_URL is required/);
  });
});
