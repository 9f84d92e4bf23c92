import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { PrismaClient } from './generated/prisma/client.ts';

export type EmailDb = PrismaClient;

/** Prisma client on the service's shared pg pool (so pool metrics cover Prisma too). */
export function createDb(pool: pg.Pool): EmailDb {
  return new PrismaClient({ adapter: new PrismaPg(pool) });
}
