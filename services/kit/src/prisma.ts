import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';

/**
 * A service's generated Prisma client on the service's shared pg pool, so one pool (and its
 * metrics) carries both Prisma and the hand-written SQL. A subpath of the kit
 * (`@parley/kit/prisma`): the gateway, which has no database, never loads the adapter.
 */
export function prismaOnPool<Client>(
  PrismaClient: new (options: { adapter: PrismaPg }) => Client,
  pool: pg.Pool,
): Client {
  return new PrismaClient({ adapter: new PrismaPg(pool) });
}
