import { defineConfig } from 'vitest/config';
import { serverProjects } from './apps/server/vitest.config.ts';

/** `npm test`: every workspace's unit and HTTP tests. Browser tests are `npm run test:e2e`. */
export default defineConfig({
  test: {
    // Test files run in parallel workers; each builds its own app and database.
    maxWorkers: 2,
    // The default summary, then a line when the PostgreSQL-only tests were skipped (no DATABASE_URL).
    reporters: ['default', './scripts/skipped-tests-reporter.ts'],
    projects: [
      'packages/contract',
      ...serverProjects,
      'apps/web',
      'examples/demo-client',
      { test: { name: 'scripts', root: 'scripts', include: ['*.test.ts'], environment: 'node' } },
    ],
  },
});
