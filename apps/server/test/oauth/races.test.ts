import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.ts';
import { authorizationRequest, oidcPost, portalFixture, signInThroughPortal } from '../helpers/oauth.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * One in-process instance of the server and one server process (`src/main.ts`, started here) on
 * the same PostgreSQL database with the same PUBLIC_URL, as two instances behind a load balancer:
 * one code redeemed ten times at once, half on each, gives one set of tokens; one refresh token
 * used five times at once gives at most one. The adapter's `consume` (one UPDATE … WHERE
 * consumed_at IS NULL) decides. PGlite runs one statement at a time in one process, so there is
 * no race to see there.
 */

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const serverEntry = join(serverDir, 'src', 'main.ts');

type Answer = { status: number; json: Record<string, unknown> };

/** Every process started, ready or not: afterAll stops them even when a start timed out. */
const started: ServerProcess[] = [];

interface ServerProcess {
  url: string;
  stop(): Promise<void>;
}

/**
 * `src/main.ts` as a process of its own on `databaseUrl`, answering for `publicUrl`; resolves when
 * it logs that it is ready (after it listens). A process that exits first fails the start with what
 * it wrote; one that never gets ready is bounded by the hook's own time limit.
 */
async function startServerProcess(databaseUrl: string, publicUrl: string): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'dukkan-race-'));
  const environment: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    // Info, for the one line this waits for: "Dukkan is ready".
    LOG_LEVEL: 'info',
    SUBSCRIPTION_CLOCK_SECONDS: '0',
    BOOTSTRAP_ADMIN_EMAIL: 'race-admin@dukkan.localhost',
    BOOTSTRAP_ADMIN_PASSWORD: 'Race-admin-9!',
  };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    if (process.env[name] !== undefined) environment[name] = process.env[name];
  }
  // Node with tsx as an import hook, so that the pid signalled is the server itself.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: serverDir,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolveExit) => {
    if (child.exitCode !== null || child.signalCode !== null) resolveExit();
    else child.once('exit', () => resolveExit());
  });
  // The test needs no graceful stop: the process is killed, then its folder removed.
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const server = { url: `http://127.0.0.1:${port}`, stop };
  started.push(server);
  try {
    await new Promise<void>((resolveReady, reject) => {
      const read = (chunk: string) => {
        output += chunk;
        if (output.includes('Dukkan is ready')) resolveReady();
      };
      child.stdout?.setEncoding('utf8').on('data', read);
      child.stderr?.setEncoding('utf8').on('data', read);
      void exited.then(() =>
        reject(new Error(`the server process exited during start (${child.exitCode}):\n${output.trim()}`)),
      );
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return server;
}

describe.runIf(process.env.DATABASE_URL)('two instances racing on one database (PostgreSQL only)', () => {
  let first: TestApp;
  let second: ServerProcess | undefined;
  beforeAll(async () => {
    first = await createTestApp();
    const databaseUrl = first.database.url;
    if (!databaseUrl) throw new Error('the test database has no URL: DATABASE_URL must name PostgreSQL');
    second = await startServerProcess(databaseUrl, first.config.publicUrl);
  }, 90_000);
  afterAll(async () => {
    await Promise.all(started.map((server) => server.stop()));
    await first?.close();
  }, 30_000);

  /** A sign-in through the first instance, up to the code the client receives. */
  async function codeFor() {
    const fixture = await portalFixture(first);
    const request = await authorizationRequest(fixture);
    const callback = await signInThroughPortal(fixture.browser, request.url, fixture.workspace.id);
    return { fixture, request, callback, code: callback.searchParams.get('code')! };
  }

  /** A token request to the server process, over HTTP. */
  async function processPost(form: Record<string, string>): Promise<Answer> {
    const response = await fetch(`${second!.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Not JSON: left empty.
    }
    return { status: response.status, json };
  }

  /** One token request to an instance: even indexes in process, odd ones to the server process. */
  const post = (index: number, form: Record<string, string>) =>
    index % 2 === 0 ? oidcPost(first.app, first.config.publicUrl, '/token', form) : processPost(form);

  /** The same token request sent `times` times at once, alternately to each instance. */
  function atOnce(times: number, form: Record<string, string>) {
    return Promise.all(Array.from({ length: times }, (_, index) => post(index, form)));
  }

  const tally = (answers: Answer[]) => {
    const counts: Record<string, number> = {};
    for (const { status, json } of answers) {
      const key = status === 200 ? '200' : `${status} ${String(json.error)}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  };

  it('one code redeemed 10 times at once across both instances: one token response, 9 invalid_grant', async () => {
    const { fixture, request, code } = await codeFor();
    const answers = await atOnce(10, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: fixture.redirectUri,
      code_verifier: request.verifier,
      client_id: fixture.application.clientId,
    });
    expect(tally(answers)).toEqual({ '200': 1, '400 invalid_grant': 9 });
    const won = answers.find((answer) => answer.status === 200)!.json;
    expect(won).toMatchObject({ token_type: 'Bearer' });
    expect(typeof won.access_token).toBe('string');
    expect(typeof won.id_token).toBe('string');
  });

  it('one refresh token used 5 times at once across both instances: at most one new pair', async () => {
    const { fixture, request, callback } = await codeFor();
    const tokens = await client.authorizationCodeGrant(fixture.config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const answers = await atOnce(5, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: fixture.application.clientId,
    });
    const counts = tally(answers);
    expect(counts['200'] ?? 0).toBeLessThanOrEqual(1);
    expect(counts['400 invalid_grant']).toBe(5 - (counts['200'] ?? 0));
    // The spent refresh token stays spent.
    await expect(client.refreshTokenGrant(fixture.config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('different codes redeemed at once across both instances: each gets its tokens (no false refusal)', async () => {
    const codes = [];
    for (let index = 0; index < 4; index++) codes.push(await codeFor());
    const answers = await Promise.all(
      codes.map(({ fixture, request, code }, index) =>
        post(index, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: fixture.redirectUri,
          code_verifier: request.verifier,
          client_id: fixture.application.clientId,
        }),
      ),
    );
    expect(tally(answers)).toEqual({ '200': 4 });
  });
});
