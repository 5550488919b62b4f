import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** The server's folder (apps/server), where a test starts its processes, and its entry. */
export const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const mainEntry = join(serverDir, 'src', 'main.ts');

/**
 * The environment of a real server process a test starts (`src/main.ts`): nothing of the test
 * runner's own, an ephemeral port on loopback, plus what the test sets.
 */
export function serverProcessEnv(env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
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
