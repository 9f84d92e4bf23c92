export * from './nats.ts';
export * from './ports.ts';
export * from './postgres.ts';
export * from './prisma-sql.ts';
export * from './schema-compare.ts';
