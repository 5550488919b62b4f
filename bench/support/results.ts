/** The result files: `bench/results/<name>.json` (the latest run) and a timestamped copy of each. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir } from './paths.ts';

const resultsDir = join(benchDir, 'results');

/**
 * Writes `bench/results/<name>.json` (the latest run) and a timestamped copy beside it, so that
 * earlier runs stay comparable; the folder is gitignored. Returns the latest run's path.
 */
export function writeResult(name: string, result: unknown): string {
  mkdirSync(resultsDir, { recursive: true });
  const text = `${JSON.stringify(result, null, 2)}\n`;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  writeFileSync(join(resultsDir, `${name}-${stamp}.json`), text);
  const path = join(resultsDir, `${name}.json`);
  writeFileSync(path, text);
  return path;
}
