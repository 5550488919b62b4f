/** Where the benchmarks are: their folder and the repository's root. */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = resolve(benchDir, '..');
