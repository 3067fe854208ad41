import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // argon2 and PostgreSQL database creation are CPU- and IO-bound; two cores run two files at a time.
    maxWorkers: 2,
  },
});
