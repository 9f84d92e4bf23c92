export * from './routes.ts';
export * from './sql.ts';
export * from './store.ts';
