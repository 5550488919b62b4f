/**
 * The server as a child process: the product entry (or a bare baseline) started on a free loopback
 * port with only the variables given, healthy, then stopped; killed if this process exits first.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../apps/server/test/helpers/free-port.ts';
import { repoRoot } from './paths.ts';

/** The product entry, run from source with tsx: no build needed, same code as `dist/main.js`. */
const serverEntry = join(repoRoot, 'apps/server/src/main.ts');
const auditOffEntry = join(repoRoot, 'bench/support/audit-off.ts');

/**
 * Node's own flags of `npm run serve` (the root package.json), such as its heap limit: the
 * server is measured as it runs (decision 0055).
 */
const serveFlags = (
  (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts.serve ?? ''
)
  .split(/\s+/)
  .filter((word) => word.startsWith('--'));

export const sleep = (ms: number) => new Promise<void>((resolveSleep) => setTimeout(resolveSleep, ms));

export interface RunningServer {
  url: string;
  pid: number;
  /** Resident memory of the server process in MiB (Linux), or undefined. */
  rssMiB(): number | undefined;
  /** Resolves with the exit code once the process has exited (by itself or after a signal). */
  exitCode(): Promise<number | null>;
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
  // AUDIT_LOG=off (given or in the benchmark's environment): the server without the audit log's
  // recording, for the cost benchmarks' comparison (support/audit-off.ts).
  const auditOff = (variables.AUDIT_LOG ?? process.env.AUDIT_LOG) === 'off' && entry === serverEntry;
  // BENCH_CPU_PROFILE=<folder>: each server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
    : [];
  const child = spawn(
    process.execPath,
    [...serveFlags, ...profile, '--import', 'tsx', auditOff ? auditOffEntry : entry],
    {
      cwd: repoRoot,
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
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
  // BENCH_START_TIMEOUT_S: a shared, loaded machine may need longer than a minute for a first start.
  const startSeconds = Number(process.env.BENCH_START_TIMEOUT_S ?? 60);
  const deadline = Date.now() + startSeconds * 1000;
  for (;;) {
    if (hasExited) throw new Error(`${label}: the server exited during start:\n${output.trim()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${label}: the server was not healthy within ${startSeconds} s:\n${output.trim()}`);
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
    exitCode: () => exited,
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

/** Runs `work` on a server started as `startServer` starts it, and stops the server after it. */
export async function withServer<T>(
  variables: Record<string, string>,
  label: string,
  work: (server: RunningServer) => Promise<T>,
): Promise<T> {
  const server = await startServer(variables, label);
  try {
    return await work(server);
  } finally {
    await server.stop();
  }
}
