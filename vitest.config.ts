import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'services/*/test/**/*.test.ts',
            'gateway/test/**/*.test.ts',
            'scripts/test/**/*.test.ts',
            'web/src/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**', 'scripts/test/containers/**'],
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'services/*/test/**/*.int.test.ts',
            'gateway/test/**/*.int.test.ts',
            'scripts/test/**/*.int.test.ts',
          ],
          exclude: ['**/node_modules/**', 'scripts/test/containers/**'],
          globalSetup: ['services/kit/src/testing/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
      {
        // The images and compose (scripts/test.sh builds the images first, where a container
        // runtime exists).
        test: {
          name: 'containers',
          include: ['scripts/test/containers/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 420_000,
          pool: 'forks',
          maxWorkers: 1,
        },
      },
    ],
  },
});
