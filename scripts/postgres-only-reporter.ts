import type { Reporter, TestModule } from 'vitest/node';

/** What a test's name carries when it shows what only a real PostgreSQL server can (row locks). */
export const postgresOnlyMark = '(PostgreSQL only)';

/** How many tests marked PostgreSQL-only were skipped in a run. */
export function skippedPostgresOnly(modules: ReadonlyArray<TestModule>): number {
  let skipped = 0;
  for (const module of modules) {
    for (const test of module.children.allTests('skipped')) {
      if (test.fullName.includes(postgresOnlyMark)) skipped += 1;
    }
  }
  return skipped;
}

/**
 * Says at the end of `npm test` when the PostgreSQL-only tests (concurrent writes on one server)
 * did not run, and how to run them; a green run on PGlite alone does not cover them.
 */
export default class PostgresOnlyReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const skipped = skippedPostgresOnly(modules);
    if (skipped === 0) return;
    process.stdout.write(
      `\n${skipped} PostgreSQL-only tests (concurrent writes) were skipped: set DATABASE_URL=postgres://… to run them (CONTRIBUTING.md, "Tests").\n`,
    );
  }
}
