// Adds up the test counts of every runner in .ci/results and prints "N passed, N failed".
// A step that failed outside any runner (install, lint, build) counts as one failure.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, failedStepsArg] = process.argv.slice(2);
let passed = 0;
let failed = 0;
const readJson = (name) => {
  const file = join(dir, name);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

const runnerFailures = [];
for (const name of ['vitest-pglite.json', 'vitest-postgres.json', 'vitest-scale-out.json']) {
  const report = readJson(name);
  if (!report) continue;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  if (report.numFailedTests > 0 || !report.success) runnerFailures.push(name);
}
// The browser tests' report (playwright.json; playwright-N.json for runs made side by side).
for (const name of readdirSync(dir).filter((file) => /^playwright(-\d+)?\.json$/.test(file))) {
  const playwright = readJson(name);
  if (!playwright) continue;
  passed += playwright.stats.expected + (playwright.stats.flaky ?? 0);
  failed += playwright.stats.unexpected;
  if (playwright.stats.unexpected > 0) runnerFailures.push(name);
}
const reliabilityLog = join(dir, 'reliability.log');
if (existsSync(reliabilityLog)) {
  const match = readFileSync(reliabilityLog, 'utf8').match(/^(\d+) passed, (\d+) failed/m);
  if (match) {
    passed += Number(match[1]);
    failed += Number(match[2]);
    if (Number(match[2]) > 0) runnerFailures.push('reliability.log');
  }
}
// Steps that failed without a runner reporting the failure (install, typecheck, lint, build, a crash).
const failedSteps = existsSync(join(dir, 'failed-steps.txt'))
  ? readFileSync(join(dir, 'failed-steps.txt'), 'utf8').trim().split('\n').filter(Boolean)
  : [];
const unexplained = Math.max(0, Number(failedStepsArg ?? 0) - runnerFailures.length);
failed += unexplained;
if (failedSteps.length) console.log(`failed steps: ${failedSteps.join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || Number(failedStepsArg) > 0 ? 1 : 0);
