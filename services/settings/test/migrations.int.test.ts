import { fileURLToPath } from 'node:url';
import { migrationSuite } from '@parley/kit/testing/migration-suite';

migrationSuite('settings', fileURLToPath(new URL('../prisma/migrations', import.meta.url)), [
  'constraint activity_projection.activity_projection_one_row',
  'constraint settings.settings_key_format',
  'constraint settings.settings_secret_sealed',
  'constraint settings.settings_version_positive',
]);
