export * from './booking.ts';
export * from './enums.ts';
export * from './events.ts';
export * from './http.ts';
export * from './phone.ts';
export * from './schedule.ts';
export * from './schema.ts';
