import { fileURLToPath } from 'node:url';
import { migrationSuite } from '@parley/kit/testing/migration-suite';

migrationSuite('blog', fileURLToPath(new URL('../prisma/migrations', import.meta.url)), [
  'constraint blog_posts.blog_posts_slug_format',
  'constraint blog_posts.blog_posts_title_not_blank',
]);
