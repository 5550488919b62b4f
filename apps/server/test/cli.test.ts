import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allPermissionTags, type InviteStatus } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { helpText, runCli } from '../src/cli.ts';
import { accessRequests, memberships, roles, users, workspaces } from '../src/db/schema/index.ts';
import { AccessRequestError, approveAccessRequest } from '../src/features/access-requests/access-requests.ts';
import { createAppResources } from '../src/resources.ts';
import { api, captchaToken, createUser, dataOf, login, strongPassword, tableCounts } from './helpers/api.ts';
import { runCliOn, runCliProcess } from './helpers/cli.ts';
import { serverDir } from './helpers/server-process.ts';
import { createTestApp, MemoryMailer, type TestApp } from './helpers/test-app.ts';
import { unique } from './helpers/workspaces.ts';

const holderScript = join(serverDir, 'test', 'fixtures', 'hold-data-dir.ts');
const linkPattern = /(https?:\/\/\S+\/accept-invite\?token=([A-Za-z0-9_-]{20,}))/;

let t: TestApp;
let mailer: MemoryMailer;
const folders: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});
beforeEach(() => {
  mailer = new MemoryMailer();
});

/** Runs a command in-process on the test app's database; returns its exit code and output. */
const run = (...argv: string[]) =>
  runCliOn(t, argv, {
    mailer,
    env: { NODE_ENV: 'test', DATA_DIR: t.config.dataDir, PUBLIC_URL: t.config.publicUrl },
  });

async function requestAccess(fields: Partial<typeof accessRequests.$inferInsert> = {}) {
  const [request] = await t.db
    .insert(accessRequests)
    .values({
      name: 'Sara Ali',
      email: `${unique('sara')}@example.com`,
      phone: `+20 ${String(Date.now()).slice(-9)}${Math.floor(Math.random() * 10)}`.slice(0, 15),
      companyName: unique('Sara Foods '),
      businessCategory: 'food',
      howDidYouHearAboutUs: 'google',
      ...fields,
    })
    .returning();
  return request!;
}

const oneLine = (text: string) => {
  expect(text.trim().split('\n')).toHaveLength(1);
};

describe('help and bad input', () => {
  it('--help, -h and help print the commands and exit 0', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const result = await run(flag);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toBe(helpText);
    }
    expect(helpText).toMatch(/requests \[--status pending\|approved\|rejected\]/);
    expect(helpText).toMatch(/Commands run beside the running server/);
    expect(helpText).toMatch(/DATA_DIR\/operator\.sock/);
    expect((await run('approve', '--help')).stdout).toBe(helpText);
  });

  it.each([
    [[], /No command given/],
    [['frobnicate'], /Unknown command "frobnicate"/],
    [['requests', '--status', 'open'], /--status must be one of pending, approved, rejected/],
    [['requests', '--colour'], /Unknown option '--colour'/],
    [['requests', 'extra'], /takes no arguments/],
    [['approve'], /needs exactly one <requestId>/],
    [['approve', 'a', 'b'], /needs exactly one <requestId>/],
    [['approve', 'not-an-id'], /Not a request id: "not-an-id"/],
    [['reject', '00000000-0000-4000-8000-000000000000'], /No access request with id/],
    [['create-workspace', '--admin-email', 'a@b.example'], /--name is required/],
    [['create-workspace', '--name', '  ', '--admin-email', 'a@b.example'], /--name is required/],
    [['create-workspace', '--name', 'Shop'], /--admin-email must be an email address/],
    [
      ['create-workspace', '--name', 'Shop', '--admin-email', 'nope'],
      /--admin-email must be an email address \(got "nope"\)/,
    ],
    [
      ['create-workspace', '--name', 'Shop', '--admin-email', 'a@b.example', '--status', 'x'],
      /Unknown option '--status'/,
    ],
  ])('%j → exit 2, one line on stderr, nothing written', async (argv, message) => {
    const before = await tableCounts(t.db);
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    oneLine(result.stderr);
    expect(result.stdout).toBe('');
    expect(await tableCounts(t.db)).toEqual(before);
    expect(mailer.sent).toEqual([]);
  });

  it('bad input is refused before any database is opened', async () => {
    let stderr = '';
    const code = await runCli(['approve', 'x'], {
      // Nothing listens there: opening it would fail with exit 1, not 2.
      env: { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      stdout: () => {},
      stderr: (text) => {
        stderr += text;
      },
    });
    expect({ code, stderr }).toEqual({ code: 2, stderr: 'Not a request id: "x"\n' });
  });

  it('a database that cannot be reached is a failure: exit 1, one line', async () => {
    let stderr = '';
    const code = await runCli(['requests'], {
      env: { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      stdout: () => {},
      stderr: (text) => {
        stderr += text;
      },
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Failed: .*ECONNREFUSED/);
    oneLine(stderr);
  });

  it('a wrong configuration is bad input too: exit 2 naming the variable', async () => {
    const result = await runCli(['requests'], {
      env: { DATABASE_URL: 'mysql://nope' },
      stdout: () => {},
      stderr: (text) => {
        expect(text).toMatch(/^Invalid configuration: DATABASE_URL must start with postgres:\/\//);
      },
    });
    expect(result).toBe(2);
  });
});

describe('requests', () => {
  it('lists requests, optionally by status', async () => {
    const pending = await requestAccess({ companyName: 'Listed Pending Co' });
    const rejected = await requestAccess({ companyName: 'Listed Rejected Co', status: 'rejected' });
    const all = await run('requests');
    expect(all.code).toBe(0);
    expect(all.stdout).toContain(pending.id);
    expect(all.stdout).toContain(rejected.id);
    expect(all.stdout).toContain(`Listed Pending Co (food)`);
    expect(all.stdout).toContain(`Sara Ali <${pending.email}>`);
    expect(all.stdout).toMatch(/\d+ access requests?\.\n$/);
    const onlyRejected = await run('requests', '--status', 'rejected');
    expect(onlyRejected.stdout).toContain(rejected.id);
    expect(onlyRejected.stdout).not.toContain(pending.id);
    expect((await run('requests', '--status=approved')).code).toBe(0);
  });
});

describe('approve', () => {
  it('creates the workspace with a full role, invites the requester as admin, marks it approved', async () => {
    const request = await requestAccess({
      companyName: 'Cairo Sweets',
      language: 'ar',
      phone: '+20 111 222 333',
    });
    const result = await run('approve', request.id);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`Approved access request ${request.id} (Cairo Sweets).`);
    expect(result.stdout).toMatch(
      /Created workspace "Cairo Sweets" \([0-9a-f-]{36}\) with the role "manager"/,
    );
    expect(result.stdout).toContain(`Invited ${request.email} as its admin (new account`);
    const [, link, token] = linkPattern.exec(result.stdout)!;
    expect(link!.startsWith(`${t.config.publicUrl}/accept-invite?token=`)).toBe(true);

    const [workspace] = await t.db.select().from(workspaces).where(eq(workspaces.name, 'Cairo Sweets'));
    const [role] = await t.db.select().from(roles).where(eq(roles.workspaceId, workspace!.id));
    expect(role).toMatchObject({ code: 'manager', title: 'Manager', permissions: [...allPermissionTags] });
    const [admin] = await t.db.select().from(users).where(eq(users.email, request.email));
    expect(admin).toMatchObject({
      name: 'Sara Ali',
      phone: '+20 111 222 333',
      language: 'ar',
      passwordHash: null,
    });
    const [membership] = await t.db
      .select()
      .from(memberships)
      .where(eq(memberships.workspaceId, workspace!.id));
    expect(membership).toMatchObject({ userId: admin!.id, isAdmin: true, status: 'invited', roleId: null });
    const [stored] = await t.db.select().from(accessRequests).where(eq(accessRequests.id, request.id));
    expect(stored!.status).toBe('approved');

    // Mailed in the request's language, with the same link.
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({ to: request.email, link });
    expect(mailer.sent[0]!.html).toContain('dir="rtl"');

    // The requester accepts, completes the profile and is the workspace's admin.
    const accepted = dataOf<{ passwordResetToken: string }>(
      await api(t.app, { url: '/api/workspaces/users/accept-invite', body: { token } }),
    );
    const status = dataOf<InviteStatus>(await api(t.app, { url: `/api/auth/invite-status?token=${token}` }));
    expect(status).toMatchObject({ status: 'accepted', workspace: { name: 'Cairo Sweets' } });
    const completed = await api(t.app, {
      url: '/api/auth/set-profile',
      body: {
        name: 'Sara Ali',
        phone: '+20 111 222 333',
        password: strongPassword,
        reCaptchaToken: await captchaToken(t.app),
        passwordResetToken: accepted.passwordResetToken,
      },
    });
    expect(completed.status, completed.text).toBe(200);
    const cookie = await login(t.app, { email: request.email, password: strongPassword });
    const me = dataOf<{ adminWorkspaces: { id: string }[] }>(
      await api(t.app, { url: '/api/auth/user', cookie }),
    );
    expect(me.adminWorkspaces.map((entry) => entry.id)).toEqual([workspace!.id]);
  });

  it('refuses a request that is not pending: exit 2, nothing created', async () => {
    const request = await requestAccess();
    expect((await run('approve', request.id)).code).toBe(0);
    mailer.sent.length = 0;
    const before = await tableCounts(t.db);
    const again = await run('approve', request.id);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`Access request ${request.id} is already approved\n`);
    expect((await run('reject', request.id)).stderr).toBe(
      `Access request ${request.id} is already approved\n`,
    );
    expect(await tableCounts(t.db)).toEqual(before);
    expect(mailer.sent).toEqual([]);
  });

  it('a requester who already has an account joins as admin with their password', async () => {
    const person = await createUser(t.db, { name: 'Known Person' });
    const request = await requestAccess({ email: person.email, companyName: unique('Known Co ') });
    const result = await run('approve', request.id);
    expect(result.stdout).toContain('existing account: they join with their password');
    const token = linkPattern.exec(result.stdout)![2]!;
    const accepted = await api(t.app, { url: '/api/workspaces/users/accept-invite', body: { token } });
    expect(dataOf<Record<string, unknown>>(accepted)).not.toHaveProperty('passwordResetToken');
    await login(t.app, person);
  });

  it('a mail failure is a warning: the work is done and the link printed', async () => {
    const request = await requestAccess();
    mailer.send = async () => {
      throw new Error('SMTP unreachable');
    };
    const result = await run('approve', request.id);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(linkPattern);
    expect(result.stderr).toBe(`Warning: the mail to ${request.email} could not be sent: SMTP unreachable\n`);
  });
});

describe('approveAccessRequest (what the approve command runs)', () => {
  it('two approvals at once: one workspace and one mail, the other refused as not pending', async () => {
    const request = await requestAccess();
    const services = { db: t.db, mailer, publicUrl: t.config.publicUrl, resources: createAppResources() };
    const results = await Promise.allSettled([
      approveAccessRequest(services, request.id, new Date()),
      approveAccessRequest(services, request.id, new Date()),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected')?.reason;
    expect(refused).toBeInstanceOf(AccessRequestError);
    expect((refused as AccessRequestError).reason).toBe('notPending');
    const created = await t.db.select().from(workspaces).where(eq(workspaces.name, request.companyName));
    expect(created).toHaveLength(1);
    expect(mailer.sent.map((mail) => mail.to)).toEqual([request.email]);
  });
});

describe('reject', () => {
  it('marks the request rejected and mails the requester in their language', async () => {
    const request = await requestAccess({ companyName: 'Refused Co', language: 'en' });
    const result = await run('reject', request.id);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`Rejected access request ${request.id} (Refused Co, ${request.email}).`);
    const [stored] = await t.db.select().from(accessRequests).where(eq(accessRequests.id, request.id));
    expect(stored!.status).toBe('rejected');
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({ to: request.email, subject: 'Your request for Dukkan' });
    // A fixed text: the request's own words never go back to its unverified address.
    expect(mailer.sent[0]!.text).not.toContain('Refused Co');
    expect(mailer.sent[0]!.html).not.toContain('Refused Co');
    expect(mailer.sent[0]!.text).not.toContain('Sara Ali');

    const arabic = await requestAccess({ language: 'ar' });
    await run('reject', arabic.id);
    expect(mailer.sent[1]!.subject).toBe('طلبك للانضمام إلى دكّان');
    expect((await run('reject', arabic.id)).code).toBe(2);
  });
});

describe('create-workspace', () => {
  it('creates the workspace and invites a new person as its admin', async () => {
    const email = `${unique('owner')}@Example.com`;
    const result = await run('create-workspace', '--name', ' Delta Market ', '--admin-email', email);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/Created workspace "Delta Market"/);
    expect(result.stdout).toContain(`Invited ${email.toLowerCase()} as its admin (new account`);
    expect(result.stdout).toMatch(linkPattern);
    const [person] = await t.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    expect(person!.name).toBe(email.split('@')[0]);
    expect(mailer.sent[0]!.to).toBe(email.toLowerCase());
  });

  it('an existing user is invited (and mailed in their language) rather than added silently', async () => {
    const person = await createUser(t.db, { language: 'ar' });
    const result = await run(
      'create-workspace',
      `--name=${unique('Echo ')}`,
      `--admin-email=${person.email}`,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('existing account');
    const [membership] = await t.db.select().from(memberships).where(eq(memberships.userId, person.id));
    expect(membership).toMatchObject({ isAdmin: true, status: 'invited' });
    expect(mailer.sent[0]!.html).toContain('dir="rtl"');
  });
});

// Processes on an embedded database of their own, whatever the suite's (40 s on a loaded 2-core
// machine): skipped in the PostgreSQL run, which would repeat them.
describe.skipIf(process.env.DATABASE_URL)(
  'as a separate process (npm run dukkan)',
  { timeout: 120_000 },
  () => {
    it('migrates its own embedded database, creates a workspace and writes the mail to the outbox', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'dukkan-cli-'));
      folders.push(dataDir);
      const created = await runCliProcess(
        ['create-workspace', '--name', 'Spawned', '--admin-email', 'spawned@example.com'],
        {
          DATA_DIR: dataDir,
          PUBLIC_URL: 'https://dukkan.example',
        },
      );
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(
        /Invitation link \(valid 7 days\): https:\/\/dukkan\.example\/accept-invite\?token=/,
      );
      expect(created.stdout).toContain(`written to the outbox ${join(dataDir, 'outbox')}`);
      expect(readdirSync(join(dataDir, 'outbox')).filter((file) => file.endsWith('.eml'))).toHaveLength(1);
      const listed = await runCliProcess(['requests'], { DATA_DIR: dataDir });
      expect(listed).toMatchObject({ code: 0, stdout: 'No access requests.\n' });
      const bad = await runCliProcess(['approve', 'x'], { DATA_DIR: dataDir });
      expect(bad).toMatchObject({ code: 2, stdout: '', stderr: 'Not a request id: "x"\n' });
    });

    it('refuses, in one line and with exit 1, while the server holds the embedded database', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'dukkan-cli-lock-'));
      folders.push(dataDir);
      const holder: ChildProcess = spawn(process.execPath, ['--import', 'tsx', holderScript, dataDir], {
        cwd: serverDir,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      try {
        await new Promise<void>((resolve, reject) => {
          holder.stdout?.on('data', (chunk: Buffer) => {
            if (chunk.toString().includes('ready')) resolve();
          });
          holder.on('exit', (code) => reject(new Error(`holder exited with ${code}`)));
        });
        const refused = await runCliProcess(['requests'], { DATA_DIR: dataDir });
        expect(refused.code).toBe(1);
        expect(refused.stdout).toBe('');
        oneLine(refused.stderr);
        expect(refused.stderr).toMatch(/is in use by another Dukkan process \(pid \d+\)/);
        // The holder is no server: nothing answers on the operator socket, and the error says so.
        expect(refused.stderr).toContain(`there is no operator socket ${join(dataDir, 'operator.sock')}`);
        expect(refused.stderr).toMatch(/Stop that process, or use PostgreSQL \(DATABASE_URL\)/);
      } finally {
        holder.kill('SIGKILL');
      }
    });
  },
);
