export * from '../local/index.ts';
export { imagesEnv } from './containers.ts';
export * from './database.ts';
export * from './prisma-sql.ts';
export * from './schema-compare.ts';
