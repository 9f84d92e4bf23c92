import { fileURLToPath } from 'node:url';
import { migrationSuite } from '@parley/kit/testing/migration-suite';

migrationSuite('identity', fileURLToPath(new URL('../prisma/migrations', import.meta.url)), [
  'constraint admin_invitations.admin_invitations_token_hash_sha256',
  'constraint admin_sessions.admin_sessions_token_hash_sha256',
  'constraint admin_users.admin_users_email_normalised',
  'constraint admin_users.admin_users_names_not_blank',
]);
