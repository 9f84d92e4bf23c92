import { fileURLToPath } from 'node:url';
import { migrationSuite } from '@parley/kit/testing/migration-suite';

migrationSuite('booking', fileURLToPath(new URL('../prisma/migrations', import.meta.url)), [
  'constraint bookings.bookings_guests_is_array',
  'constraint bookings.bookings_name_not_blank',
  'index bookings_active_slot_key',
]);
