import { fileURLToPath } from 'node:url';
import { migrationSuite } from '@parley/kit/testing/migration-suite';

migrationSuite('settings', fileURLToPath(new URL('../prisma/migrations', import.meta.url)), []);
