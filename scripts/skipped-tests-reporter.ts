import type { Reporter, TestModule } from 'vitest/node';

/** What a test's name carries when it shows what only a real PostgreSQL server can (row locks). */
export const postgresOnlyMark = '(PostgreSQL only)';
/** What the three-instance test's name carries: server processes on PostgreSQL and Redis, run by `.ci/run`. */
export const scaleOutMark = '(three processes)';

/** How many tests whose name carries `mark` were skipped in a run. */
export function skippedMarked(modules: ReadonlyArray<TestModule>, mark: string): number {
  let skipped = 0;
  for (const module of modules) {
    for (const test of module.children.allTests('skipped')) {
      if (test.fullName.includes(mark)) skipped += 1;
    }
  }
  return skipped;
}

/**
 * Says at the end of `npm test` which tests needing more than the embedded database did not run,
 * and how to run them: a green run on PGlite alone does not cover them.
 */
export default class SkippedTestsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const postgresOnly = skippedMarked(modules, postgresOnlyMark);
    if (postgresOnly > 0)
      process.stdout.write(
        `\n${postgresOnly} PostgreSQL-only tests (concurrent writes) were skipped: set DATABASE_URL=postgres://… to run them (CONTRIBUTING.md, "Tests").\n`,
      );
    if (skippedMarked(modules, scaleOutMark) > 0)
      process.stdout.write(
        'The three-instance test was skipped: it needs SCALE_OUT_TEST=1, DATABASE_URL and REDIS_URL (.ci/run sets them).\n',
      );
  }
}
