import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { mainEntry, serverDir, serverProcessEnv } from '../helpers/server-process.ts';

/**
 * Server processes of the three-instance test: the product's entry run from source (tsx as an
 * import hook, so the pid signalled is the server itself), each with its own DATA_DIR and port,
 * its output kept in `<DATA_DIR>.log` for a failure to be read.
 */
/**
 * Waits until `condition` holds, asking again every `everyMs` (vitest's `vi.waitFor`); fails
 * naming `what` when it still does not after `withinMs` (a limit, not a measure).
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  withinMs = 60_000,
  everyMs = 100,
): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await condition())) throw new Error(`${what}: not within ${withinMs / 1000} s`);
    },
    { timeout: withinMs, interval: everyMs },
  );
}

export interface Instance {
  index: number;
  port: number;
  dataDir: string;
  /** Starts the process and waits until its readiness answers 200. */
  start(): Promise<void>;
  /** SIGTERM, then waits for the process to exit (its drain included); returns its exit code. */
  stop(): Promise<number | null>;
  /** Stops, then starts again on the same port and DATA_DIR. */
  restart(): Promise<void>;
}

export function instance(
  index: number,
  port: number,
  dataDir: string,
  variables: Record<string, string>,
  readinessPath: string,
): Instance {
  let child: ChildProcess | undefined;
  let exited: Promise<number | null> = Promise.resolve(null);
  mkdirSync(dataDir, { recursive: true });
  const log = createWriteStream(`${dataDir}.log`, { flags: 'a' });

  const handle: Instance = {
    index,
    port,
    dataDir,
    async start() {
      // The server's defaults otherwise, its readiness delay on stop included: the proxy reads it.
      const environment = serverProcessEnv({
        NODE_ENV: 'production',
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        SHUTDOWN_DELAY_SECONDS: String(loadConfig({}).shutdown.delayMs / 1000),
        ...variables,
      });
      const started = spawn(process.execPath, ['--import', 'tsx', mainEntry], {
        cwd: serverDir,
        env: environment,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      started.stdout?.pipe(log, { end: false });
      started.stderr?.pipe(log, { end: false });
      let gone = false;
      exited = new Promise((resolveExit) =>
        started.once('exit', (code) => {
          gone = true;
          resolveExit(code);
        }),
      );
      const ready = async () => {
        if (gone) throw new Error(`instance ${index} exited during start (see ${dataDir}.log)`);
        try {
          const response = await fetch(`http://127.0.0.1:${port}${readinessPath}`, {
            signal: AbortSignal.timeout(2000),
          });
          return response.ok;
        } catch {
          return false; // not listening yet
        }
      };
      await until(ready, `instance ${index} ready`, 180_000);
    },
    async stop() {
      child?.kill('SIGTERM');
      const code = await exited;
      child = undefined;
      return code;
    },
    async restart() {
      await handle.stop();
      await handle.start();
    },
  };
  return handle;
}

/** Kills what is left (a failed test) so no process outlives the run. */
export function killAll(instances: readonly Instance[]): void {
  for (const one of instances) void one.stop().catch(() => undefined);
}
