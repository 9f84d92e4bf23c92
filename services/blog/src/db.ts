import { prismaOnPool } from '@parley/kit/prisma';
import type pg from 'pg';
import { PrismaClient } from './generated/prisma/client.ts';

export type BlogDb = PrismaClient;

/** Prisma client on the service's shared pg pool (the kit's prismaOnPool). */
export const createDb = (pool: pg.Pool): BlogDb => prismaOnPool(PrismaClient, pool);
