import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AltchaChallenge, DashboardApplication } from '@dukkan/contract';
import { formatMoney } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../src/cli.ts';
import { loadConfig } from '../src/config.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import { lockDataDir } from '../src/db/lock.ts';
import { workspaces } from '../src/db/schema/index.ts';
import {
  askOperatorSocket,
  maxSocketPathBytes,
  type OperatorOutput,
  type OperatorSocket,
  operatorSocketPath,
  startOperatorSocket,
} from '../src/http/operator-socket.ts';
import { solveAltcha, tinyPng } from './helpers/api.ts';
import { appCreateArgs, runCliProcess } from './helpers/cli.ts';
import { mainEntry, serverDir, serverProcessEnv, signInOverHttp } from './helpers/server-process.ts';
import { MemoryMailer } from './helpers/test-app.ts';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.ts';
import { unique } from './helpers/workspaces.ts';

/**
 * The operator's commands run beside a running server: the server listens on
 * DATA_DIR/operator.sock and runs each command line it receives with its own database and
 * configuration. The module on its own first, then the CLI against a spawned server.
 */

const serverUrl = 'http://shop.example.test:4123';
/** The CLI's own PUBLIC_URL: a link with it would mean the command ran outside the server. */
const cliOwnUrl = 'http://cli-env.example.test';
/** A database no CLI can reach: a command that succeeds with it can only have run in the server. */
const unreachableDatabase = 'postgres://nobody@127.0.0.1:1/none';
const linkPattern = /Invitation link \(valid \d+ days\): (\S+\/accept-invite\?token=([A-Za-z0-9_-]{20,}))/;

const folders: string[] = [];
const sockets: OperatorSocket[] = [];
const children: ChildProcess[] = [];
function tempDir(prefix = 'dukkan-op-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}
afterEach(async () => {
  for (const open of gates.splice(0)) open();
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const socket of sockets.splice(0)) await socket.close();
});
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** Collects what the module logs; `until` resolves once a message has been logged `count` times. */
function recordingLog() {
  const entries: { level: string; message: string }[] = [];
  const waiters: { message: string; count: number; resolve: () => void }[] = [];
  const record = (level: string) => (_object: object, message: string) => {
    entries.push({ level, message });
    for (const waiter of [...waiters]) {
      if (entries.filter((entry) => entry.message === waiter.message).length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  return {
    entries,
    log: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') },
    until(message: string, count: number) {
      return new Promise<void>((resolve) => {
        if (entries.filter((entry) => entry.message === message).length >= count) resolve();
        else waiters.push({ message, count, resolve });
      });
    },
  };
}

function capture(): OperatorOutput & { out: string; err: string } {
  const result = {
    out: '',
    err: '',
    stdout(text: string) {
      result.out += text;
    },
    stderr(text: string) {
      result.err += text;
    },
  };
  return result;
}

/** Opened by the test, or after it (a failed test must not leave a command, and close(), waiting). */
const gates: (() => void)[] = [];
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  gates.push(open);
  return { open, opened };
}

async function start(path: string, run: Parameters<typeof startOperatorSocket>[0]['run']) {
  const recorder = recordingLog();
  const socket = await startOperatorSocket({ path, run, log: recorder.log });
  if (socket) sockets.push(socket);
  return { socket, ...recorder };
}

describe('the operator socket', () => {
  it('is a socket file of mode 0600; passes stdout, stderr and the exit code unchanged; removed on close', async () => {
    const path = operatorSocketPath(tempDir());
    const { socket } = await start(path, async (argv, output) => {
      output.stdout(`ran ${JSON.stringify(argv)}\n`);
      output.stderr('a warning\n');
      output.stdout('é ملاحظة\n');
      return 7;
    });
    expect(socket).toBeDefined();
    const stats = lstatSync(path);
    expect(stats.isSocket()).toBe(true);
    expect(stats.mode & 0o777).toBe(0o600);

    const output = capture();
    const answer = await askOperatorSocket(path, ['approve', '--x', 'a b'], output);
    expect(answer).toEqual({ served: true, code: 7 });
    expect(output.out).toBe('ran ["approve","--x","a b"]\né ملاحظة\n');
    expect(output.err).toBe('a warning\n');

    await socket!.close();
    expect(existsSync(path)).toBe(false);
    const after = await askOperatorSocket(path, ['requests'], capture());
    expect(after).toMatchObject({ served: false, reason: expect.stringMatching(/no operator socket/) });
  });

  it('runs the commands received one at a time, in order', async () => {
    const path = operatorSocketPath(tempDir());
    const first = gate();
    let running = 0;
    let most = 0;
    const ran: string[] = [];
    const { until } = await start(path, async (argv, output) => {
      running += 1;
      most = Math.max(most, running);
      ran.push(argv[0]!);
      if (argv[0] === 'one') await first.opened;
      output.stdout(`${argv[0]} done\n`);
      running -= 1;
      return 0;
    });
    const outputs = [capture(), capture(), capture()];
    const one = askOperatorSocket(path, ['one'], outputs[0]!);
    await until('operator command received', 1);
    const others = [
      askOperatorSocket(path, ['two'], outputs[1]!),
      askOperatorSocket(path, ['three'], outputs[2]!),
    ];
    // All three are in the server; only the first runs while it is not done.
    await until('operator command received', 3);
    expect(ran).toEqual(['one']);
    first.open();
    expect(await Promise.all([one, ...others])).toEqual([
      { served: true, code: 0 },
      { served: true, code: 0 },
      { served: true, code: 0 },
    ]);
    expect(most).toBe(1);
    expect(outputs.map((output) => output.out)).toEqual(['one done\n', 'two done\n', 'three done\n']);
  });

  it('closing lets the command being run finish, and refuses new ones meanwhile', async () => {
    const path = operatorSocketPath(tempDir());
    const held = gate();
    const started = gate();
    const { socket } = await start(path, async (_argv, output) => {
      output.stdout('started\n');
      started.open();
      await held.opened;
      output.stdout('finished\n');
      return 0;
    });
    const output = capture();
    const running = askOperatorSocket(path, ['approve'], output);
    await started.opened;
    let closed = false;
    const closing = socket!.close().then(() => {
      closed = true;
    });
    const refused = await askOperatorSocket(path, ['requests'], capture());
    expect(refused.served).toBe(false);
    expect(closed).toBe(false);
    held.open();
    expect(await running).toEqual({ served: true, code: 0 });
    expect(output.out).toBe('started\nfinished\n');
    await closing;
    expect(existsSync(path)).toBe(false);
  });

  it('replaces a stale socket file left by a killed process; leaves a live one and anything else alone', async () => {
    const dir = tempDir();
    const path = operatorSocketPath(dir);
    // A process that listens on the path, killed with -9: its socket file stays, nobody listens.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('listening'))`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(holder);
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    holder.kill('SIGKILL');
    await new Promise<void>((resolve) => holder.once('exit', () => resolve()));
    expect(lstatSync(path).isSocket()).toBe(true);
    expect(await askOperatorSocket(path, ['requests'], capture())).toMatchObject({
      served: false,
      reason: expect.stringMatching(/nothing listens on the operator socket/),
    });

    const first = await start(path, async (_argv, output) => {
      output.stdout('first\n');
      return 0;
    });
    expect(first.socket).toBeDefined();
    expect(lstatSync(path).mode & 0o777).toBe(0o600);

    // A second server on the same folder (PostgreSQL allows it) does not take the first's socket.
    const second = await start(path, async () => 3);
    expect(second.socket).toBeUndefined();
    expect(second.entries).toContainEqual({
      level: 'warn',
      message: `no operator socket: another process already answers on ${path}`,
    });
    const output = capture();
    expect(await askOperatorSocket(path, ['requests'], output)).toEqual({ served: true, code: 0 });
    expect(output.out).toBe('first\n');

    const otherPath = join(dir, 'not-a-socket.sock');
    writeFileSync(otherPath, 'keep me');
    const third = await start(otherPath, async () => 0);
    expect(third.socket).toBeUndefined();
    expect(third.entries[0]).toMatchObject({
      level: 'warn',
      message: expect.stringMatching(/is not a socket/),
    });
    expect(existsSync(otherPath)).toBe(true);
  });

  it('a refused request (not one JSON line of an argv) is exit 2 and runs nothing', async () => {
    const path = operatorSocketPath(tempDir());
    let ran = 0;
    await start(path, async () => {
      ran += 1;
      return 0;
    });
    const answer = await new Promise<string>((resolve) => {
      const connection = createConnection(path, () => connection.write('{"argv":"approve"}\n'));
      let text = '';
      connection.setEncoding('utf8');
      connection.on('data', (chunk: string) => {
        text += chunk;
      });
      connection.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/"exit":2/);
    expect(answer).toMatch(/expected one JSON line/);
    expect(ran).toBe(0);
  });

  it('a path too long for a unix socket: the server warns and skips it, the CLI says so in its error', async () => {
    const dataDir = join(tempDir(), 'x'.repeat(maxSocketPathBytes));
    mkdirSync(dataDir, { recursive: true });
    const path = operatorSocketPath(dataDir);
    const { socket, entries } = await start(path, async () => 0);
    expect(socket).toBeUndefined();
    expect(entries).toHaveLength(1);
    expect(entries[0]!.level).toBe('warn');
    expect(entries[0]!.message).toMatch(/is \d+ bytes, over the \d+ a unix socket path may have/);
    expect(existsSync(path)).toBe(false);

    // The server holds the embedded database and cannot be reached: the command's error says why.
    const lock = await lockDataDir(dataDir);
    try {
      const output = capture();
      const code = await runCli(['requests'], {
        env: { NODE_ENV: 'test', DATA_DIR: dataDir },
        stdout: output.stdout,
        stderr: output.stderr,
      });
      expect(code).toBe(1);
      expect(output.err).toMatch(/is in use by another Dukkan process/);
      expect(output.err).toContain(`the operator socket path ${path} is`);
      expect(output.err).toMatch(/choose a shorter DATA_DIR/);
    } finally {
      lock.release();
    }
  });
});

describe('runCli through the socket (in-process)', () => {
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.close();
  });

  it("runs a command with the server's database, mailer and PUBLIC_URL, not the CLI's", async () => {
    database = await createTestDatabase();
    const dataDir = tempDir();
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: serverUrl });
    const handle: DatabaseHandle = {
      db: database.db,
      kind: database.kind,
      migrate: async () => {},
      close: async () => {},
    };
    const mailer = new MemoryMailer();
    await start(operatorSocketPath(dataDir), (argv, output) =>
      runCli(argv, {
        env: {},
        config,
        database: handle,
        mailer,
        stdout: output.stdout,
        stderr: output.stderr,
      }),
    );

    const output = capture();
    const email = `${unique('owner')}@example.com`;
    const name = unique('Socket Shop ');
    const io: CliIo = {
      // Its own database is out of reach: only the server can have run the command.
      env: {
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        PUBLIC_URL: cliOwnUrl,
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      },
      stdout: output.stdout,
      stderr: output.stderr,
    };
    const code = await runCli(['create-workspace', '--name', name, '--admin-email', email], io);
    expect(output.err).toBe('');
    expect(code).toBe(0);
    const link = linkPattern.exec(output.out)![1]!;
    expect(link.startsWith(`${serverUrl}/accept-invite?token=`)).toBe(true);
    expect(mailer.sent.map((mail) => mail.to)).toEqual([email]);
    expect(mailer.sent[0]!.link).toBe(link);
    expect(await database.db.select().from(workspaces).where(eq(workspaces.name, name))).toHaveLength(1);

    // Bad input is refused on the CLI's side and on the server's alike: exit 2, one line.
    const bad = capture();
    expect(await runCli(['approve', 'x'], { ...io, stdout: bad.stdout, stderr: bad.stderr })).toBe(2);
    expect(bad.err).toBe('Not a request id: "x"\n');
  });
});

describe('file options sent to a running server (in-process)', () => {
  it("a --logo path and backup's file are made absolute against the operator's folder before they are sent; other values stay", async () => {
    const dataDir = tempDir();
    const received: string[][] = [];
    await start(operatorSocketPath(dataDir), async (argv) => {
      received.push(argv);
      return 0;
    });
    const io: CliIo = {
      env: { NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: unreachableDatabase },
      stdout: () => {},
      stderr: () => {},
    };
    const sent = [
      ['app', 'update', 'pos-one', '--logo', 'logos/pos.png', '--name-en', 'logo.png'],
      ['app', 'create', '--client-id', 'pos-two', '--logo=./pos.svg', '--description-en=--logo'],
      ['app', 'update', 'pos-three', '--logo', '/srv/logos/pos.webp'],
      ['app', 'list'],
      ['backup', 'backups/today.tar.gz'],
      ['backup', '--', '--today.tar.gz'],
    ];
    for (const argv of sent) expect(await runCli(argv, io)).toBe(0);
    expect(received).toEqual([
      [
        'app',
        'update',
        'pos-one',
        '--logo',
        resolve(process.cwd(), 'logos/pos.png'),
        '--name-en',
        'logo.png',
      ],
      [
        'app',
        'create',
        '--client-id',
        'pos-two',
        `--logo=${resolve(process.cwd(), 'pos.svg')}`,
        '--description-en=--logo',
      ],
      ['app', 'update', 'pos-three', '--logo', '/srv/logos/pos.webp'],
      ['app', 'list'],
      ['backup', resolve(process.cwd(), 'backups/today.tar.gz')],
      ['backup', '--', resolve(process.cwd(), '--today.tar.gz')],
    ]);
  });
});

/** Starts `src/main.ts` and resolves, with its HTTP address, once it is ready (socket included). */
async function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', mainEntry], {
    cwd: serverDir,
    env: serverProcessEnv({ LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let log = '';
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const address = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (listening && log.includes('Dukkan is ready')) resolve(listening[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the server exited with ${code}: ${errors}`)));
  });
  const stopped = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on('exit', (code) => resolve(code));
  });
  return {
    address,
    async stop() {
      child.kill('SIGTERM');
      return stopped;
    },
  };
}

/** A fresh PostgreSQL database on DATABASE_URL's server, dropped by `drop`. */
async function freshPostgres(baseUrl: string) {
  const name = `dukkan_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleaner = new pg.Client({ connectionString: baseUrl });
      await cleaner.connect();
      try {
        await cleaner.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await cleaner.end();
      }
    },
  };
}

// A spawned server and five CLI processes, each starting tsx (the server and the last CLI also the
// embedded database); the subscription commands run from this process through the same socket,
// which spares a tsx start each. Alone on this 2-core machine with other engineers' tests running
// (load average 6-10): 48 s on PGlite, 54 s on PostgreSQL; before the application and subscription
// commands were added, 61 s on PGlite alone and 143 s beside the CLI and lock tests at load 8.
describe('the CLI beside a running server (spawned processes)', { timeout: 300_000 }, () => {
  const postgresBase = process.env.DATABASE_URL;
  let dropPostgres: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await dropPostgres?.();
  });

  it(`${postgresBase ? 'PostgreSQL' : 'PGlite'}: every operator command (requests, approve, create-workspace, app create with a logo named relative to another folder, app list, subscriptions, approve-subscription, invoices, record-payment, app update, app secret, reject-subscription, reject) runs in the server, with its PUBLIC_URL and files; without the server the CLI opens the database itself`, async () => {
    const dataDir = tempDir('dukkan-op-server-');
    const databaseEnv: Record<string, string> = {};
    if (postgresBase) {
      const fresh = await freshPostgres(postgresBase);
      dropPostgres = fresh.drop;
      databaseEnv.DATABASE_URL = fresh.url;
    }
    const demoAdmin = { email: 'demo-admin@example.com', password: 'Sesame#Open1' };
    const server = await startServer({
      DATA_DIR: dataDir,
      PUBLIC_URL: serverUrl,
      CAPTCHA_DIFFICULTY: '1000',
      BOOTSTRAP_ADMIN_EMAIL: demoAdmin.email,
      BOOTSTRAP_ADMIN_PASSWORD: demoAdmin.password,
      ...databaseEnv,
    });

    // Someone asks for access through the running server, as from the public page.
    const challenge = (await (await fetch(`${server.address}/api/captcha/challenge`)).json()) as {
      data: AltchaChallenge;
    };
    const asked = await fetch(`${server.address}/api/auth/request-for-access`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Nour Saleh',
        email: 'nour@example.com',
        phone: '+20 100 200 300',
        companyName: 'Nour Bakery',
        businessCategory: 'food',
        howDidYouHearAboutUs: 'friend',
        reCaptchaToken: (await solveAltcha(challenge.data)).token,
      }),
    });
    expect(asked.status, await asked.clone().text()).toBe(200);
    const request = ((await asked.json()) as { data: { id: string } }).data;

    const socketPath = operatorSocketPath(dataDir);
    const stats = lstatSync(socketPath);
    expect(stats.isSocket()).toBe(true);
    expect(stats.mode & 0o777).toBe(0o600);

    // The CLI's own environment names another PUBLIC_URL: what it prints must be the server's.
    const cliEnv = { DATA_DIR: dataDir, PUBLIC_URL: cliOwnUrl, ...databaseEnv };
    const listed = await runCliProcess(['requests', '--status', 'pending'], cliEnv, { children });
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${request.id}  pending`);
    expect(listed.stdout).toMatch(/1 access request\.\n$/);

    const approved = await runCliProcess(['approve', request.id], cliEnv, { children });
    expect(approved.stderr).toBe('');
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`Approved access request ${request.id} (Nour Bakery).`);
    const [, approvedLink, approvedToken] = linkPattern.exec(approved.stdout)!;
    expect(approvedLink!.startsWith(`${serverUrl}/accept-invite?token=`)).toBe(true);
    // Mailed by the server's driver, to the server's outbox.
    expect(approved.stdout).toContain(`written to the outbox ${join(dataDir, 'outbox')}`);

    const created = await runCliProcess(
      ['create-workspace', '--name', 'Cairo Corner', '--admin-email', 'corner@example.com'],
      cliEnv,
      { children },
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const [, createdLink, createdToken] = linkPattern.exec(created.stdout)!;
    expect(createdLink!.startsWith(`${serverUrl}/accept-invite?token=`)).toBe(true);

    // The server sees both workspaces: its invitation page names them.
    for (const [token, workspace] of [
      [approvedToken, 'Nour Bakery'],
      [createdToken, 'Cairo Corner'],
    ]) {
      const response = await fetch(`${server.address}/api/auth/invite-status?token=${token}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        data: { status: 'pending', workspace: { name: workspace } },
      });
    }

    // The applications and subscriptions commands. The CLI names a database it cannot reach:
    // exit 0 means the server ran them.
    const servedEnv = { ...cliEnv, DATABASE_URL: unreachableDatabase };
    // `app create` started in another folder than the server's, naming its logo relative to it.
    const operatorDir = tempDir('dukkan-op-operator-');
    const logoName = `operator-logo-${randomBytes(4).toString('hex')}.png`;
    writeFileSync(join(operatorDir, logoName), tinyPng);
    const clientId = 'nile-pos';
    const registered = await runCliProcess(appCreateArgs(clientId, ['--logo', logoName]), servedEnv, {
      cwd: operatorDir,
      children,
    });
    expect(registered.stderr).toBe('');
    expect(registered.code).toBe(0);
    expect(registered.stdout).toContain(`Registered application ${clientId}.`);
    // Stored in the server's file storage, and served by it.
    const [, logoAddress, logoFile] = /; logo (\/files\/platform\/([0-9a-f-]{36}\.png))\n/.exec(
      registered.stdout,
    )!;
    expect(readFileSync(join(dataDir, 'uploads', 'platform', logoFile!)).equals(tinyPng)).toBe(true);
    const servedLogo = await fetch(`${server.address}${logoAddress}`);
    expect(servedLogo.status).toBe(200);
    expect(Buffer.from(await servedLogo.arrayBuffer()).equals(tinyPng)).toBe(true);
    const applicationId = /\n {2}id ([0-9a-f-]{36});/.exec(registered.stdout)![1]!;

    // The other commands from this process, through the same socket (no tsx start each time).
    const cli = async (...argv: string[]) => {
      const output = capture();
      const code = await runCli(argv, {
        env: { NODE_ENV: 'test', ...servedEnv },
        stdout: output.stdout,
        stderr: output.stderr,
      });
      return { code, stdout: output.out, stderr: output.err };
    };
    const appList = await cli('app', 'list');
    expect(appList).toMatchObject({ code: 0, stderr: '' });
    expect(appList.stdout).toContain(`${clientId}  Point of sale / نقطة البيع  (public)`);
    expect(appList.stdout).toContain(`logo ${logoAddress}`);
    expect(appList.stdout).toContain('dukkan-demo');

    // The demo workspace's admin subscribes over HTTP.
    const { cookie, adminWorkspaces } = await signInOverHttp(server.address, demoAdmin);
    const demoWorkspace = adminWorkspaces[0]!;
    expect(demoWorkspace.name).toBe('Demo Store');
    const requested = await fetch(
      `${server.address}/api/subscriptions/events?workspaceId=${demoWorkspace.id}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ applicationId, event: 'request', plan: 'monthly' }),
      },
    );
    expect(requested.status, await requested.clone().text()).toBe(200);
    const subscriptionId = ((await requested.json()) as { data: { id: string } }).data.id;
    const dashboard = async () => {
      const response = await fetch(`${server.address}/api/applications?workspaceId=${demoWorkspace.id}`, {
        headers: { cookie },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        data: DashboardApplication[];
        meta: { activeLocations: number };
      };
      return { card: body.data.find((entry) => entry.id === applicationId)!.card, ...body.meta };
    };
    const before = await dashboard();
    expect(before.card).toBe('waitingForActivation');

    const pendingSubscriptions = await cli('subscriptions', '--status', 'pending');
    expect(pendingSubscriptions).toMatchObject({ code: 0, stderr: '' });
    expect(pendingSubscriptions.stdout).toMatch(
      new RegExp(
        `^${subscriptionId}  pending +monthly +— to —  ${clientId} for "Demo Store"\n1 subscription\\.\n$`,
      ),
    );

    const approvedSubscription = await cli('approve-subscription', subscriptionId);
    expect(approvedSubscription.stderr).toBe('');
    expect(approvedSubscription.code).toBe(0);
    expect(approvedSubscription.stdout).toContain(
      `Approved subscription ${subscriptionId} (now approved).\n`,
    );
    const [, invoiceId, invoiceNumber, amount] =
      /Issued invoice ([0-9a-f-]{36}) \(no\. (\d+)\): (.+) for monthly, /.exec(approvedSubscription.stdout)!;
    expect(invoiceNumber).toBe('1');
    // 250.00 EGP per active location of the demo workspace, monthly.
    expect(amount).toBe(formatMoney(25_000 * before.activeLocations, 'EGP', 'en'));
    expect(approvedSubscription.stdout).toContain("1 mail to the workspace's admins.");
    expect((await dashboard()).card).toBe('subscribed');

    const issued = await cli('invoices');
    expect(issued).toMatchObject({ code: 0, stderr: '' });
    expect(issued.stdout).toMatch(
      new RegExp(`^${invoiceId}  pending +no\\. 1 .*"Demo Store"\n1 invoice\\.\n$`),
    );
    const paid = await cli('record-payment', invoiceId!, '--status', 'successful');
    expect(paid).toEqual({ code: 0, stderr: '', stdout: `Invoice ${invoiceId} (no. 1) is successful.\n` });
    expect((await cli('invoices', '--status', 'successful')).stdout).toMatch(
      new RegExp(`^${invoiceId}  successful `),
    );

    // The remaining commands, in the server too: an application changed (made confidential: its
    // secret printed once) and its secret replaced; a second request rejected.
    const changed = await cli('app', 'update', clientId, '--type', 'confidential', '--trial-days', '7');
    expect(changed).toMatchObject({ code: 0, stderr: '' });
    expect(changed.stdout).toContain('(confidential, has a secret)');
    expect(changed.stdout).toContain('trial 7 days');
    const firstSecret = /Client secret \(shown once, store it now\): (\S+)/.exec(changed.stdout)?.[1];
    const rotated = await cli('app', 'secret', clientId);
    expect(rotated).toMatchObject({ code: 0, stderr: '' });
    const secondSecret = /Client secret \(shown once, store it now\): (\S+)/.exec(rotated.stdout)?.[1];
    expect(firstSecret).toBeTruthy();
    expect(secondSecret).toBeTruthy();
    expect(secondSecret).not.toBe(firstSecret);
    const demoApplication = (await (
      await fetch(`${server.address}/api/applications?workspaceId=${demoWorkspace.id}`, {
        headers: { cookie },
      })
    ).json()) as { data: DashboardApplication[] };
    const demoId = demoApplication.data.find((entry) => entry.clientId === 'dukkan-demo')!.id;
    const second = await fetch(`${server.address}/api/subscriptions/events?workspaceId=${demoWorkspace.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ applicationId: demoId, event: 'request', plan: 'annually' }),
    });
    expect(second.status, await second.clone().text()).toBe(200);
    const secondId = ((await second.json()) as { data: { id: string } }).data.id;
    const rejected = await cli('reject-subscription', secondId);
    expect(rejected).toMatchObject({ code: 0, stderr: '' });
    expect(rejected.stdout).toContain(`Rejected subscription ${secondId} (now rejected).`);
    const another = await fetch(`${server.address}/api/auth/request-for-access`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Karim Adel',
        email: 'karim@example.com',
        phone: '+20 100 200 301',
        companyName: 'Karim Sweets',
        businessCategory: 'food',
        howDidYouHearAboutUs: 'friend',
        reCaptchaToken: (
          await solveAltcha(
            (
              (await (await fetch(`${server.address}/api/captcha/challenge`)).json()) as {
                data: AltchaChallenge;
              }
            ).data,
          )
        ).token,
      }),
    });
    expect(another.status, await another.clone().text()).toBe(200);
    const anotherId = ((await another.json()) as { data: { id: string } }).data.id;
    const refusedRequest = await cli('reject', anotherId);
    expect(refusedRequest).toMatchObject({ code: 0, stderr: '' });
    expect(refusedRequest.stdout).toContain(
      `Rejected access request ${anotherId} (Karim Sweets, karim@example.com).`,
    );

    expect(await server.stop()).toBe(0);
    expect(existsSync(socketPath), 'the socket is removed when the server stops').toBe(false);

    // No server: the CLI opens the database itself, with its own environment.
    const direct = await runCliProcess(
      ['create-workspace', '--name', 'After Hours', '--admin-email', 'late@example.com'],
      cliEnv,
      { children },
    );
    expect(direct.stderr).toBe('');
    expect(direct.code).toBe(0);
    expect(linkPattern.exec(direct.stdout)![1]!.startsWith(`${cliOwnUrl}/accept-invite?token=`)).toBe(true);
  });
});
