import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ServiceEnv } from '../src/config.ts';
import { defineService } from '../src/service.ts';

/** A service's events.ts is read: what it declares must agree with the event catalogue. */
describe('defineService events', () => {
  const base = { envSchema: Type.Object(ServiceEnv), migrationsDir: '/nowhere', register: async () => {} };

  it('accepts what the catalogue gives the service', () => {
    expect(() =>
      defineService({
        ...base,
        name: 'blog',
        events: { publishes: ['blog.post.published'], consumes: ['booking.booking.created'] },
      }),
    ).not.toThrow();
  });

  it("refuses to publish another service's subject or to consume its own", () => {
    expect(() =>
      defineService({ ...base, name: 'blog', events: { publishes: ['voice.call.completed'], consumes: [] } }),
    ).toThrow('blog/src/events.ts: publishes voice.call.completed, which the event catalogue gives to voice');
    expect(() =>
      defineService({ ...base, name: 'blog', events: { publishes: [], consumes: ['blog.post.deleted'] } }),
    ).toThrow('consumes blog.post.deleted, which it produces itself');
  });
});
