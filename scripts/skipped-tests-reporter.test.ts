import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { postgresOnlyMark, scaleOutMark, skippedMarked } from './skipped-tests-reporter.ts';

/** A module whose tests are the given (name, state) pairs, as far as the reporter reads it. */
function moduleOf(tests: Array<[string, string]>): TestModule {
  return {
    children: {
      *allTests(state?: string) {
        for (const [fullName, testState] of tests) {
          if (!state || state === testState) yield { fullName };
        }
      },
    },
  } as unknown as TestModule;
}

describe('the skipped tests reporter', () => {
  it('counts only skipped tests that carry the mark', () => {
    const modules = [
      moduleOf([
        ['codes > at once (PostgreSQL only) > many creates', 'skipped'],
        ['codes > at once (PostgreSQL only) > many bulks', 'skipped'],
        ['codes > a typed code', 'passed'],
        ['codes > a todo', 'skipped'],
      ]),
      moduleOf([['races (PostgreSQL only) > two instances', 'passed']]),
    ];
    expect(skippedMarked(modules, postgresOnlyMark)).toBe(2);
    expect(skippedMarked(modules, scaleOutMark)).toBe(0);
    expect(
      skippedMarked([moduleOf([['three instances (three processes) > sign-ins', 'skipped']])], scaleOutMark),
    ).toBe(1);
  });
});
