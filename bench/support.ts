/** What the benchmarks share: the server as a child process, ports, machine facts, result files. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const benchDir = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(benchDir, '..');
export const resultsDir = join(benchDir, 'results');
/** The product entry, run from source with tsx: no build needed, same code as `dist/main.js`. */
export const serverEntry = join(repoRoot, 'apps/server/src/main.ts');

export const sleep = (ms: number) => new Promise<void>((resolveSleep) => setTimeout(resolveSleep, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

export interface RunningServer {
  url: string;
  pid: number;
  /** Resident memory of the server process in MiB (Linux), or undefined. */
  rssMiB(): number | undefined;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * Starts `apps/server/src/main.ts` (or another entry answering `/api/health`, such as a bare
 * baseline) on loopback with the given variables (and only those, plus PATH/HOME), waits for
 * `/api/health`, and returns a handle that stops it with SIGTERM.
 */
export async function startServer(
  variables: Record<string, string>,
  label: string,
  entry = serverEntry,
): Promise<RunningServer> {
  const port = await freePort();
  const environment: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    ...variables,
  };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    if (process.env[name] !== undefined) environment[name] = process.env[name];
  }
  // Node with tsx as an import hook, so that the pid we signal is the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: repoRoot,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolveExit) => {
    child.once('exit', (code) => {
      children.delete(child);
      resolveExit(code);
    });
  });
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (hasExited) throw new Error(`${label}: the server exited during start:\n${output.trim()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${label}: the server was not healthy within 60 s:\n${output.trim()}`);
    }
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }

  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    rssMiB() {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
        return Number.isFinite(kib) ? Math.round(kib / 1024) : undefined;
      } catch {
        return undefined;
      }
    },
    async stop() {
      if (hasExited) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
      if (!stopped) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

export interface MachineFacts {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  date: string;
}

export function machineFacts(): MachineFacts {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString(),
  };
}

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

/** True when this module is the script node was asked to run (not imported by run-all). */
export function isEntry(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && fileURLToPath(moduleUrl) === resolve(entry);
}

/** A positive whole number from the environment (benchmark settings), or the fallback. */
export function intFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

export type DatabaseKind = 'pglite' | 'postgres';

/** The databases to measure: `BENCH_DATABASES` (default `pglite,postgres`). */
export function benchDatabases(): DatabaseKind[] {
  return (process.env.BENCH_DATABASES ?? 'pglite,postgres')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry): entry is DatabaseKind => entry === 'pglite' || entry === 'postgres');
}

/** The PGlite version installed, for the report's machine facts. */
export function installedPgliteVersion(): string {
  const manifest = join(repoRoot, 'node_modules/@electric-sql/pglite/package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}
