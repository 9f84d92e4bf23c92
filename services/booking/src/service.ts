import { fileURLToPath } from 'node:url';
import { defineService } from '@parley/kit';
import { BookingEnv, scheduleFrom } from './config.ts';
import { createDb } from './db.ts';
import { CONSUMES, PUBLISHES } from './events.ts';
import { BookingRepository } from './repo/bookings.repository.ts';
import { bookingRoutes } from './routes/bookings.ts';
import { contactRoutes } from './routes/contact.ts';

/** Composition root of the booking service: demo bookings and contact requests. */
export const bookingService = defineService({
  name: 'booking',
  envSchema: BookingEnv,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  events: { publishes: PUBLISHES, consumes: CONSUMES },
  async register(app, deps) {
    const schedule = scheduleFrom(deps.config);
    const db = createDb(deps.pool);
    deps.onShutdown(() => db.$disconnect());
    const repo = new BookingRepository(db, deps.pool);
    const publicWriteLimit = deps.config.PUBLIC_WRITE_RATE_LIMIT ?? 20;
    await bookingRoutes(app, { repo, schedule, deps, publicWriteLimit, now: deps.now });
    await contactRoutes(app, { repo, deps, publicWriteLimit });
  },
});
