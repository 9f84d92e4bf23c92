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
          exclude: [
            '**/*.int.test.ts',
            '**/node_modules/**',
            'scripts/test/containers/**',
            'scripts/test/k8s/**',
          ],
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
          exclude: ['**/node_modules/**', 'scripts/test/containers/**', 'scripts/test/k8s/**'],
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
      {
        // Parley on a real Kubernetes cluster (`pnpm test:k8s`; scripts/test/k8s/global-setup.ts
        // finds or brings up the cluster and loads the images). One file at a time: each
        // installs its own release in its own namespace. The waits inside are for conditions,
        // each with its own deadline; these limits only bound a whole file.
        test: {
          name: 'k8s',
          include: ['scripts/test/k8s/**/*.test.ts'],
          globalSetup: ['scripts/test/k8s/global-setup.ts'],
          testTimeout: 1_200_000,
          hookTimeout: 1_800_000,
          pool: 'forks',
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
