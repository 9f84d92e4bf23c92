import { fileURLToPath } from 'node:url';
import { migrationSuite } from '@parley/kit/testing/migration-suite';

migrationSuite('email', fileURLToPath(new URL('../prisma/migrations', import.meta.url)), []);
