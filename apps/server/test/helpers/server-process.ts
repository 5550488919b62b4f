import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** The server's folder (apps/server), where a test starts its processes, and its entry. */
export const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const mainEntry = join(serverDir, 'src', 'main.ts');

/**
 * The environment of a real server process a test starts (`src/main.ts`): nothing of the test
 * runner's own, an ephemeral port on loopback, no readiness delay on stop, plus what the test sets.
 */
export function serverProcessEnv(env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    // No balancer reads its readiness: the stop need not wait for one to notice.
    SHUTDOWN_DELAY_SECONDS: '0',
    ...env,
  };
}

/**
 * Signs in to a running server over HTTP (the answer must be 200): the session cookie, and the
 * workspaces the user administers.
 */
export async function signInOverHttp(address: string, credentials: { email: string; password: string }) {
  const signedIn = await fetch(`${address}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  expect(signedIn.status, await signedIn.clone().text()).toBe(200);
  const cookie = signedIn.headers
    .getSetCookie()
    .find((header) => header.startsWith('dukkan_session='))!
    .split(';')[0]!;
  const me = (await (await fetch(`${address}/api/auth/user`, { headers: { cookie } })).json()) as {
    data: { adminWorkspaces: { id: string; name: string }[] };
  };
  return { cookie, adminWorkspaces: me.data.adminWorkspaces };
}

/** What a spawned `src/main.ts` printed and how it ended. */
export interface ServerExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns `src/main.ts` with `serverProcessEnv(env)` (log level info, the easy captcha, no
 * subscription clock) and hands the child to `children` (killed after the test). `ready` resolves
 * with the HTTP address once the server says it is ready, and rejects if it exits first; `exited`
 * resolves with what it printed once it has ended.
 */
export function spawnServer(env: Record<string, string>, children: ChildProcess[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', mainEntry], {
    cwd: serverDir,
    env: serverProcessEnv({
      LOG_LEVEL: 'info',
      CAPTCHA_DIFFICULTY: '1000',
      SUBSCRIPTION_CLOCK_SECONDS: '0',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<ServerExit>((resolve) => {
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (listening && stdout.includes('Dukkan is ready')) resolve(listening[1]!);
    });
    void exited.then(({ code }) => reject(new Error(`the server exited with ${code}: ${stderr}`)));
  });
  // A test that only waits for the exit never reads `ready`: its rejection is expected then.
  ready.catch(() => {});
  return {
    child,
    ready,
    exited,
    /** SIGTERM, then the exit code once it has stopped. */
    async stop() {
      child.kill('SIGTERM');
      return (await exited).code;
    },
  };
}
