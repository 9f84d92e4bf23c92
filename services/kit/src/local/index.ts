/**
 * Local infrastructure for the embedded platform (`pnpm start`), benchmarks and tests: an
 * embedded PostgreSQL, a local nats-server, free ports. Production processes never load it.
 */
export * from './nats.ts';
export * from './ports.ts';
export * from './postgres.ts';
