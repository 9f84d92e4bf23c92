import { defineConfig } from 'prisma/config';

// Prisma 7 reads connection details from here; the runtime passes a pg adapter instead.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/settings' },
});
