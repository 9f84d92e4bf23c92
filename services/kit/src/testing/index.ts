export * from './nats.ts';
export * from './ports.ts';
export * from './postgres.ts';
