import { defineProject } from 'vitest/config';

/**
 * HTTP tests run in-process (`app.inject`) on an in-memory PGlite per file, or on PostgreSQL
 * when DATABASE_URL is set (a fresh database per file, created from that server).
 */
export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
