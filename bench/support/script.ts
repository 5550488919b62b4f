/**
 * A benchmark run as a script: whether node was asked to run it (not run-all), its exit code, and
 * its settings from the environment.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when this module is the script node was asked to run (not imported by run-all). */
export function isEntry(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && fileURLToPath(moduleUrl) === resolve(entry);
}

/** An error as stderr shows it: its stack where it has one. */
const errorText = (error: unknown) =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);

/**
 * Runs a benchmark when `moduleUrl` is the script node was asked to run: exit code 0 when it
 * passed, 1 when it did not or failed (the error on stderr after `failedPrefix`).
 */
export function runAsScript(moduleUrl: string, run: () => Promise<{ ok: boolean }>, failedPrefix = '') {
  if (!isEntry(moduleUrl)) return;
  run().then(
    ({ ok }) => process.exit(ok ? 0 : 1),
    (error: unknown) => {
      process.stderr.write(`${failedPrefix}${errorText(error)}\n`);
      process.exit(1);
    },
  );
}

/** A positive whole number from the environment (benchmark settings), or the fallback. */
export function intFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}
