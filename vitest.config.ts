import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['simulator/test/**/*.test.ts', 'conformance/test/**/*.test.ts', 'bin/test/**/*.test.ts'],
    setupFiles: ['simulator/test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    isolate: false,
  },
});
