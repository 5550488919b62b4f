import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import type { AltchaChallenge } from '@dukkan/contract';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.ts';
import { tightenDataDir, tightenPrivateTree } from '../src/platform/storage/private-files.ts';
import { multipart, solveAltcha, tinyPng } from './helpers/api.ts';
import { mainEntry, serverDir, serverProcessEnv, signInOverHttp } from './helpers/server-process.ts';
import { useTempDirsAndChildren } from './helpers/temp-dirs.ts';

/**
 * DATA_DIR holds the embedded database (sessions, reset tokens, signing keys), the uploads and the
 * outbox (mails with live links): no folder or file in it may grant anything to group or other.
 * The tests run as root, so they check the modes, not what another account can open.
 */

const tightenedMessage = 'DATA_DIR was open to other local accounts';

const { tempDir, children } = useTempDirsAndChildren('dukkan-modes-');

interface Entry {
  path: string;
  mode: number;
  kind: 'folder' | 'file' | 'socket' | 'link' | 'other';
}

/** Every entry under `root` (itself included), without following links. */
function walk(root: string): Entry[] {
  const entries: Entry[] = [];
  const pending = [root];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    const stats = lstatSync(path);
    const kind = stats.isDirectory()
      ? 'folder'
      : stats.isFile()
        ? 'file'
        : stats.isSocket()
          ? 'socket'
          : stats.isSymbolicLink()
            ? 'link'
            : 'other';
    entries.push({ path: relative(root, path) || '.', mode: stats.mode & 0o7777, kind });
    if (kind === 'folder') for (const name of readdirSync(path)) pending.push(join(path, name));
  }
  return entries;
}

/** The entries a group or other account has any permission on, as `path mode`. */
function openEntries(root: string, except: string[] = []): string[] {
  return walk(root)
    .filter((entry) => entry.kind !== 'link' && !except.includes(entry.path) && (entry.mode & 0o077) !== 0)
    .map((entry) => `${entry.path} ${entry.mode.toString(8)}`);
}

/**
 * Starts `src/main.ts` and resolves once it is ready. Under umask 022, the usual one, which lets
 * everyone read what is created: what is private is so by the server's doing.
 */
async function startServer(env: Record<string, string>) {
  const command = ['umask 022 && exec "$0" "$@"', process.execPath, '--import', 'tsx', mainEntry];
  const child = spawn('/bin/sh', ['-c', ...command], {
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
  let log = '';
  let errors = '';
  const waiters: { message: string; resolve: () => void }[] = [];
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  child.stdout.on('data', (chunk: Buffer) => {
    log += chunk.toString();
    for (const waiter of [...waiters]) {
      if (log.includes(waiter.message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  const stopped = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code));
  });
  const logged = (message: string) =>
    new Promise<void>((resolve, reject) => {
      if (log.includes(message)) resolve();
      else waiters.push({ message, resolve });
      void stopped.then((code) => reject(new Error(`the server exited with ${code}: ${errors}`)));
    });
  await logged('Dukkan is ready');
  const address = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(log)![1]!;
  return {
    address,
    logged,
    /** The log's lines with this message. */
    lines: (message: string) =>
      log
        .split('\n')
        .filter((line) => line.includes(message))
        .map((line) => JSON.parse(line) as { msg: string; entries?: number }),
    async stop() {
      child.kill('SIGTERM');
      expect(await stopped, errors).toBe(0);
    },
  };
}

describe('tightenPrivateTree', () => {
  it.skipIf(process.platform === 'win32')(
    'removes group and other bits below a folder, leaves the owner bits, and neither follows nor changes a link',
    () => {
      const root = tempDir();
      const outside = join(root, 'outside.txt');
      writeFileSync(outside, 'not ours');
      chmodSync(outside, 0o666);
      const tree = join(root, 'uploads');
      mkdirSync(join(tree, 'workspace'), { recursive: true });
      writeFileSync(join(tree, 'workspace', 'image.png'), tinyPng);
      writeFileSync(join(tree, 'owner-only.txt'), '');
      symlinkSync(outside, join(tree, 'workspace', 'link.txt'));
      chmodSync(tree, 0o777);
      chmodSync(join(tree, 'workspace'), 0o755);
      chmodSync(join(tree, 'workspace', 'image.png'), 0o664);
      chmodSync(join(tree, 'owner-only.txt'), 0o400);

      expect(tightenPrivateTree(tree)).toEqual({ changed: 3, failed: 0 });
      expect(
        Object.fromEntries(walk(tree).map((entry) => [entry.path, [entry.kind, entry.mode.toString(8)]])),
      ).toMatchObject({
        '.': ['folder', '700'],
        workspace: ['folder', '700'],
        'workspace/image.png': ['file', '600'],
        'owner-only.txt': ['file', '400'],
        'workspace/link.txt': ['link', expect.any(String)],
      });
      expect(lstatSync(outside).mode & 0o777, 'the link was not followed').toBe(0o666);
      expect(tightenPrivateTree(tree)).toEqual({ changed: 0, failed: 0 });
    },
  );

  it.skipIf(process.platform === 'win32')(
    "tightenDataDir: the folder itself and the entries Dukkan owns, not the rest of the owner's things in it",
    () => {
      const dataDir = join(tempDir(), 'data');
      mkdirSync(join(dataDir, 'outbox'), { recursive: true });
      writeFileSync(join(dataDir, 'outbox', 'mail.eml'), 'a reset link');
      writeFileSync(join(dataDir, 'README.txt'), 'the owner’s own notes');
      for (const path of ['.', 'outbox']) chmodSync(join(dataDir, path), 0o777);
      for (const path of ['outbox/mail.eml', 'README.txt']) chmodSync(join(dataDir, path), 0o666);

      const owned = [join(dataDir, 'outbox'), join(dataDir, 'pgdata'), join(dataDir, 'dukkan.lock')];
      expect(tightenDataDir(dataDir, owned)).toEqual({ changed: 3, failed: 0 });
      expect(openEntries(dataDir)).toEqual(['README.txt 666']);
      expect(tightenDataDir(dataDir, owned)).toEqual({ changed: 0, failed: 0 });
      expect(tightenDataDir(join(dataDir, 'missing'), owned)).toEqual({ changed: 0, failed: 0 });
    },
  );
});

// Three starts of a spawned server (tsx, then the embedded database: the first creates it, 20-40 s
// on this loaded 2-core machine). The embedded database whatever the suite's (the spawned servers
// get no DATABASE_URL): skipped in the PostgreSQL run, which would repeat it.
const spawnedServers = process.platform !== 'win32' && !process.env.DATABASE_URL;
describe.runIf(spawnedServers)('DATA_DIR of a spawned server', { timeout: 300_000 }, () => {
  const dataDir = join(tempDir(), 'data');
  const admin = { email: 'modes-admin@example.com', password: 'Sesame#Open1' };
  const env = {
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_EMAIL: admin.email,
    BOOTSTRAP_ADMIN_PASSWORD: admin.password,
  };

  it('a new DATA_DIR: after the database is created, an upload stored and a reset mail written to the outbox, no folder or file in it has a group or other permission (and nothing is said about tightening)', async () => {
    const server = await startServer(env);

    const { cookie, adminWorkspaces } = await signInOverHttp(server.address, admin);
    const workspaceId = adminWorkspaces[0]!.id;

    const upload = multipart([{ field: 'file', filename: 'shop.png', type: 'image/png', content: tinyPng }]);
    const uploaded = await fetch(`${server.address}/api/files?workspaceId=${workspaceId}`, {
      method: 'POST',
      headers: { ...upload.headers, cookie },
      body: upload.body,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const url = ((await uploaded.json()) as { data: { url: string } }).data.url;

    // A platform logo, stored by an operator command the server runs (its other writer of uploads).
    const logo = join(tempDir(), 'logo.png');
    writeFileSync(logo, tinyPng);
    let stderr = '';
    const registered = await runCli(
      [
        ...['app', 'create', '--client-id', 'modes-pos', '--name-en', 'Modes POS', '--name-ar', 'نقطة'],
        ...['--home-url', 'https://pos.example/', '--redirect-uri', 'https://pos.example/callback'],
        ...['--type', 'public', '--currency', 'EGP', '--monthly-price', '100', '--logo', logo],
      ],
      {
        // A database the CLI cannot reach: it succeeds only by running in the server.
        env: { NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
        stdout: () => {},
        stderr: (text) => {
          stderr += text;
        },
      },
    );
    expect(stderr).toBe('');
    expect(registered).toBe(0);

    const challenge = (await (await fetch(`${server.address}/api/captcha/challenge`)).json()) as {
      data: AltchaChallenge;
    };
    const mailed = server.logged('mail written to outbox');
    const forgot = await fetch(`${server.address}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin.email, reCaptchaToken: (await solveAltcha(challenge.data)).token }),
    });
    expect(forgot.status, await forgot.clone().text()).toBe(200);
    await mailed;

    const entries = walk(dataDir);
    const names = entries.map((entry) => entry.path);
    expect(names).toEqual(
      expect.arrayContaining([
        '.',
        'pgdata',
        'pgdata/PG_VERSION',
        'dukkan.lock',
        'operator.sock',
        `uploads${url.slice('/files'.length)}`,
      ]),
    );
    expect(names.filter((name) => /^outbox\/.+\.eml$/.test(name))).toHaveLength(1);
    expect(names.filter((name) => /^uploads\/platform\/.+\.png$/.test(name))).toHaveLength(1);
    expect(openEntries(dataDir)).toEqual([]);
    expect(server.lines(tightenedMessage)).toEqual([]);

    await server.stop();
    expect(openEntries(dataDir), 'what the database wrote when it stopped').toEqual([]);
  });

  it('a DATA_DIR left open (folders 0777, files 0666) is made private at the next start, which says so in one log line; the start after that says nothing', async () => {
    // The folder of the test before; on its own, a folder the first start creates.
    if (!existsSync(dataDir)) await (await startServer(env)).stop();
    writeFileSync(join(dataDir, 'notes.txt'), 'the owner’s own file, not Dukkan’s');
    let opened = 0;
    for (const entry of walk(dataDir)) {
      if (entry.kind !== 'folder' && entry.kind !== 'file') continue;
      chmodSync(join(dataDir, entry.path), entry.kind === 'folder' ? 0o777 : 0o666);
      if (entry.path !== 'notes.txt') opened += 1;
    }
    expect(opened).toBeGreaterThan(900);

    const server = await startServer(env);
    const lines = server.lines(tightenedMessage);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      entries: opened,
      msg: `${tightenedMessage}: removed group and other permissions from ${opened} entries`,
    });
    expect(openEntries(dataDir, ['notes.txt'])).toEqual([]);
    await server.stop();

    const again = await startServer(env);
    expect(again.lines(tightenedMessage)).toEqual([]);
    expect(openEntries(dataDir, ['notes.txt'])).toEqual([]);
    await again.stop();
  });
});
