import { fileURLToPath } from 'node:url';
import { migrationSuite } from '@parley/kit/testing/migration-suite';

migrationSuite('voice', fileURLToPath(new URL('../prisma/migrations', import.meta.url)), [
  'constraint conversations.conversations_status_known',
]);
