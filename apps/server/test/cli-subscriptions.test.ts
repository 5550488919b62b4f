import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { formatMoney, subscriptionStatuses } from '@dukkan/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { helpText } from '../src/cli.ts';
import { applications, payments, subscriptions, workspaces } from '../src/db/schema/index.ts';
import { applicationSecretMatches } from '../src/features/applications/applications.ts';
import { runSubscriptionClock } from '../src/features/subscriptions/subscription-clock.ts';
import { createUser, tinyPng } from './helpers/api.ts';
import { insertApplication, insertSubscription } from './helpers/applications.ts';
import { appCreateArgs, runCliOn } from './helpers/cli.ts';
import { addLocations, storedSubscription } from './helpers/subscriptions.ts';
import { createTestApp, MemoryMailer, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, unique } from './helpers/workspaces.ts';

/**
 * The operator's commands for applications (`app list|create|update|secret`) and subscriptions
 * (`subscriptions`, `approve-subscription`, `reject-subscription`, `invoices`, `record-payment`),
 * run in-process with the test app's database, an in-memory mailer and a fixed clock. Beside a
 * running server: operator-socket.test.ts.
 */

let t: TestApp;
let mailer: MemoryMailer;
/** Files on "the operator's machine" (logos). */
let sources: string;
const now = new Date('2026-03-10T08:00:00.000Z');

beforeAll(async () => {
  t = await createTestApp();
  sources = mkdtempSync(join(tmpdir(), 'dukkan-cli-logos-'));
});
afterAll(async () => {
  await t?.close();
  rmSync(sources, { recursive: true, force: true });
});
beforeEach(() => {
  mailer = new MemoryMailer();
});

/** Runs a command in-process on the test app's database and configuration at `at`. */
const run = (argv: string[], at: Date = now) => runCliOn(t, argv, { mailer, now: () => at });

const platformFiles = () => {
  try {
    return readdirSync(join(t.config.uploads.dir, 'platform')).sort();
  } catch {
    return [];
  }
};

/** What the commands write: rows of the three tables and the stored logo files. */
async function written() {
  const rows = async (table: typeof applications | typeof subscriptions | typeof payments) =>
    (await t.db.select({ n: count() }).from(table))[0]!.n;
  return {
    applications: await rows(applications),
    subscriptions: await rows(subscriptions),
    payments: await rows(payments),
    files: platformFiles(),
  };
}

/** Bad input: exit code 2, one line on stderr naming it, nothing on stdout, nothing written or mailed. */
async function expectRefused(argv: string[], message: RegExp) {
  const before = await written();
  const result = await run(argv);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd()).toMatch(message);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(await written()).toEqual(before);
  expect(mailer.sent).toEqual([]);
}

async function storedApplication(clientId: string) {
  const [row] = await t.db.select().from(applications).where(eq(applications.clientId, clientId));
  return row!;
}

function sourceFile(name: string, content: Buffer | string): string {
  const path = join(sources, name);
  writeFileSync(path, content);
  return path;
}

/** The argv without an option and its value. */
function without(argv: string[], option: string): string[] {
  const index = argv.indexOf(option);
  return [...argv.slice(0, index), ...argv.slice(index + 2)];
}

/** The argv with an option's (first) value replaced. */
function replaced(argv: string[], option: string, value: string): string[] {
  const copy = [...argv];
  copy[copy.indexOf(option) + 1] = value;
  return copy;
}

const secretPattern = /Client secret \(shown once, store it now\): ([A-Za-z0-9_-]{43})\n/;
const occurrences = (text: string, part: string) => text.split(part).length - 1;
const egp = (minor: number) => formatMoney(minor, 'EGP', 'en');

describe('app create and app list', () => {
  it('a public client: registered with every option, no secret; app list shows it', async () => {
    const clientId = unique('pos-');
    const result = await run(
      appCreateArgs(clientId, ['--description-en', 'Sell at the counter', '--description-ar', 'البيع']),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Registered application ${clientId}.\n`);
    expect(result.stdout).toContain(`${clientId}  Point of sale / نقطة البيع  (public)\n`);
    expect(result.stdout).toContain(
      `price ${egp(25_000)} per location per month; discounts monthly 0%, quarterly 5%, semiannually 0%, annually 20%; trial 14 days`,
    );
    expect(result.stdout).toContain(
      'home https://pos.example/; redirect URIs https://pos.example/callback http://localhost:4000/cb\n',
    );
    expect(result.stdout).not.toContain('secret');
    expect(await storedApplication(clientId)).toMatchObject({
      nameEn: 'Point of sale',
      nameAr: 'نقطة البيع',
      descriptionEn: 'Sell at the counter',
      descriptionAr: 'البيع',
      homeUrl: 'https://pos.example/',
      redirectUris: ['https://pos.example/callback', 'http://localhost:4000/cb'],
      clientType: 'public',
      secretHash: null,
      currency: 'EGP',
      monthlyPricePerLocation: 25_000,
      discounts: { monthly: 0, quarterly: 500, semiannually: 0, annually: 2000 },
      trialDays: 14,
      logo: null,
    });

    const listed = await run(['app', 'list']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout).toContain(`${clientId}  Point of sale / نقطة البيع  (public)\n`);
    expect(listed.stdout).toMatch(/\n\d+ applications?\.\n$/);
  });

  it('a confidential client: the secret is printed once, never by app list, and stored only as its SHA-256', async () => {
    const clientId = unique('erp-');
    const result = await run(replaced(appCreateArgs(clientId), '--type', 'confidential'));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`${clientId}  Point of sale / نقطة البيع  (confidential, has a secret)`);
    const secret = secretPattern.exec(result.stdout)![1]!;
    expect(occurrences(result.stdout, secret)).toBe(1);
    expect(occurrences(result.stdout, 'Client secret')).toBe(1);

    const stored = await storedApplication(clientId);
    expect(stored.secretHash).not.toBe(secret);
    expect(stored.secretHash).not.toContain(secret);
    expect(stored.secretHash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(await applicationSecretMatches(t.db, clientId, secret)).toBe(true);

    const listed = await run(['app', 'list']);
    expect(listed.stdout).toContain(`${clientId}  Point of sale / نقطة البيع  (confidential, has a secret)`);
    expect(listed.stdout).not.toContain(secret);
    expect(listed.stdout).not.toContain(stored.secretHash!);
    expect(listed.stdout).not.toContain('Client secret');
  });

  const clientId = 'bad-input-app';
  it.each([
    [
      'a bad currency',
      replaced(appCreateArgs(clientId), '--currency', 'egp'),
      /currency must be an ISO 4217 code/,
    ],
    [
      'an unknown currency',
      replaced(appCreateArgs(clientId), '--currency', 'QQQ'),
      /currency is not an ISO 4217/,
    ],
    ['no --name-ar', without(appCreateArgs(clientId), '--name-ar'), /name\.ar/],
    ['an empty --name-en', replaced(appCreateArgs(clientId), '--name-en', ' '), /name\.en is required/],
    ['no --client-id', without(appCreateArgs(clientId), '--client-id'), /clientId/],
    [
      'a bad --client-id',
      replaced(appCreateArgs(clientId), '--client-id', 'Has Spaces'),
      /clientId must be 3 to 60 lowercase letters/,
    ],
    [
      'a --discount of an unknown plan',
      replaced(appCreateArgs(clientId), '--discount', 'weekly=500'),
      /--discount must be <plan>=<basis points>, with a plan among monthly, quarterly, semiannually, annually \(got "weekly=500"\)/,
    ],
    [
      'a --discount in percent',
      replaced(appCreateArgs(clientId), '--discount', 'quarterly=5%'),
      /--discount must be <plan>=<basis points>.*\(got "quarterly=5%"\)/,
    ],
    [
      'a --discount over 100 %',
      replaced(appCreateArgs(clientId), '--discount', 'quarterly=10001'),
      /discounts\.quarterly/,
    ],
    [
      'a non-numeric --monthly-price',
      replaced(appCreateArgs(clientId), '--monthly-price', '250.00'),
      /^--monthly-price must be a whole number \(got "250\.00"\)$/,
    ],
    [
      'a word as --trial-days',
      replaced(appCreateArgs(clientId), '--trial-days', 'two'),
      /^--trial-days must be a whole number \(got "two"\)$/,
    ],
    ['a --trial-days over a year', replaced(appCreateArgs(clientId), '--trial-days', '366'), /trialDays/],
    ['a bad --type', replaced(appCreateArgs(clientId), '--type', 'secret'), /clientType/],
    [
      'a redirect URI with a fragment',
      replaced(appCreateArgs(clientId), '--redirect-uri', 'https://pos.example/cb#x'),
      /redirectUris\.0 must be an absolute http\(s\) URL without a fragment/,
    ],
    ['a relative --home-url', replaced(appCreateArgs(clientId), '--home-url', '/home'), /homeUrl/],
    ['an unknown option', appCreateArgs(clientId, ['--colour', 'red']), /Unknown option '--colour'/],
    ['a stray argument', appCreateArgs(clientId, ['extra']), /app create takes no arguments/],
  ])('%s: exit 2 naming it, nothing written', (_label, argv, message) => expectRefused(argv, message));

  it('a logo that is no image: exit 2 naming the file, nothing written and no file stored', async () => {
    const before = await written();
    const notImage = sourceFile('notes.png', 'just text');
    const result = await run(appCreateArgs(unique('pos-'), ['--logo', notImage]));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `Logo ${notImage}: is not a PNG, JPEG, WebP or SVG image (SVG without script)\n`,
    );
    const missing = await run(appCreateArgs(unique('pos-'), ['--logo', join(sources, 'nowhere.png')]));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot be read \(ENOENT\)/);
    expect(await written()).toEqual(before);
  });

  it('a client id taken: exit 2, nothing written (not even the logo file)', async () => {
    const clientId = unique('dup-');
    expect((await run(appCreateArgs(clientId))).code).toBe(0);
    const before = await written();
    const again = await run(appCreateArgs(clientId, ['--logo', sourceFile('dup.png', tinyPng)]));
    expect(again).toEqual({
      code: 2,
      stdout: '',
      stderr: `An application with client id "${clientId}" already exists\n`,
    });
    expect(await written()).toEqual(before);
  });

  it('a relative --logo path is read from the working folder and the file copied under /files/platform/', async () => {
    const logo = relative(process.cwd(), sourceFile('relative-logo.png', tinyPng));
    expect(logo.startsWith('/')).toBe(false);
    const clientId = unique('logo-');
    const result = await run(appCreateArgs(clientId, ['--logo', logo]));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const address = /; logo (\/files\/platform\/[0-9a-f-]{36}\.png)\n/.exec(result.stdout)![1]!;
    expect((await storedApplication(clientId)).logo).toBe(address);
    const onDisk = join(t.config.uploads.dir, 'platform', address.slice('/files/platform/'.length));
    expect(readFileSync(onDisk).equals(tinyPng)).toBe(true);
    const served = await t.app.inject({ method: 'GET', url: address });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(tinyPng)).toBe(true);
  });
});

describe('app update and app secret', () => {
  it('app update: one discount changes, the other plans keep theirs; other fields stay', async () => {
    const clientId = unique('upd-');
    await run(appCreateArgs(clientId, ['--discount', 'semiannually=1000']));
    const result = await run([
      'app',
      'update',
      clientId,
      '--discount',
      'annually=2500',
      '--monthly-price',
      '30000',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`Updated application ${clientId}.`);
    expect(result.stdout).toContain(
      `price ${egp(30_000)} per location per month; discounts monthly 0%, quarterly 5%, semiannually 10%, annually 25%`,
    );
    expect(await storedApplication(clientId)).toMatchObject({
      discounts: { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2500 },
      monthlyPricePerLocation: 30_000,
      nameEn: 'Point of sale',
      currency: 'EGP',
      trialDays: 14,
      clientType: 'public',
    });

    const renamed = await run(['app', 'update', clientId, '--name-ar', 'الكاشير']);
    expect(renamed.code).toBe(0);
    expect(await storedApplication(clientId)).toMatchObject({ nameEn: 'Point of sale', nameAr: 'الكاشير' });
  });

  it('app update: becoming confidential prints the new secret once', async () => {
    const clientId = unique('upd-');
    await run(appCreateArgs(clientId));
    const result = await run(['app', 'update', clientId, '--type', 'confidential']);
    expect(result.code).toBe(0);
    const secret = secretPattern.exec(result.stdout)![1]!;
    expect(occurrences(result.stdout, secret)).toBe(1);
    expect(await applicationSecretMatches(t.db, clientId, secret)).toBe(true);
  });

  it.each([
    [['app', 'update', 'pos-x'], /^app update: name at least one field to change$/],
    [['app', 'update', '--name-en', 'X'], /app update needs exactly one <clientId>/],
    [['app', 'update', 'pos-x', '--client-id', 'other'], /Unknown option '--client-id'/],
    [
      ['app', 'update', 'no-such-app', '--trial-days', '3'],
      /^No application with client id \(or id\) "no-such-app"$/,
    ],
    [['app', 'update', 'pos-x', '--discount', 'monthly'], /--discount must be <plan>=<basis points>/],
    [['app', 'secret'], /app secret needs exactly one <clientId>/],
    [['app', 'secret', 'no-such-app'], /^No application with client id \(or id\) "no-such-app"$/],
    [['app'], /^app needs one of: list, create, update, secret\./],
    [['app', 'delete', 'pos-x'], /^app needs one of: list, create, update, secret\./],
    [['app', 'list', 'extra'], /app list takes no arguments/],
  ])('%j → exit 2, one line, nothing written or mailed', expectRefused);

  it('app secret: a new secret, printed once, different from the old, which stops working', async () => {
    const clientId = unique('erp-');
    const created = await run(replaced(appCreateArgs(clientId), '--type', 'confidential'));
    const first = secretPattern.exec(created.stdout)![1]!;
    const rotated = await run(['app', 'secret', clientId]);
    expect(rotated).toMatchObject({ code: 0, stderr: '' });
    expect(rotated.stdout).toContain(`New secret for application ${clientId}.`);
    const second = secretPattern.exec(rotated.stdout)![1]!;
    expect(second).not.toBe(first);
    expect(occurrences(rotated.stdout, second)).toBe(1);
    expect(await applicationSecretMatches(t.db, clientId, second)).toBe(true);
    expect(await applicationSecretMatches(t.db, clientId, first)).toBe(false);
  });

  it('app secret of a public client: exit 2, nothing changed', async () => {
    const clientId = unique('pub-');
    await run(appCreateArgs(clientId));
    const before = await storedApplication(clientId);
    const refused = await run(['app', 'secret', clientId]);
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: `"${clientId}" is a public client (PKCE): it has no secret to rotate\n`,
    });
    expect(await storedApplication(clientId)).toEqual(before);
  });

  it('app --help prints the help, which names every new command', async () => {
    expect(await run(['app', '--help'])).toEqual({ code: 0, stdout: helpText, stderr: '' });
  });

  it('the help names every new command', () => {
    for (const command of [
      'app list',
      'app create --client-id',
      'app update <clientId>',
      'app secret <clientId>',
      `subscriptions [--status ${subscriptionStatuses.join('|')}]`,
      'approve-subscription <subscriptionId>',
      'reject-subscription <subscriptionId>',
      'invoices [--status successful|failed|pending]',
      'record-payment <invoiceId> --status successful|failed',
    ]) {
      expect(helpText).toContain(command);
    }
  });
});

/** A workspace with an English and an Arabic admin (and a member who is no admin), two active locations. */
async function subscriber() {
  const workspace = await createWorkspace(t.db, unique('Subscriber '));
  const english = await addMember(t.db, workspace.id, { isAdmin: true });
  const arabic = await addMember(t.db, workspace.id, {
    isAdmin: true,
    user: await createUser(t.db, { language: 'ar' }),
  });
  await addMember(t.db, workspace.id, { isAdmin: false });
  await addLocations(t.db, workspace.id, 2, 1);
  const application = await insertApplication(t.db, { monthlyPricePerLocation: 25_000 });
  return { workspace, english: english.user, arabic: arabic.user, application };
}

const approvedLine = (id: string) => `Approved subscription ${id} (now approved).\n`;
const invoicePattern = /Issued invoice ([0-9a-f-]{36}) \(no\. (\d+)\): (.+) for (\w+), (\S+) to (\S+)\.\n/;

describe('subscriptions, approve-subscription and reject-subscription', () => {
  it('approve-subscription: the invoice printed with its number and amount; each admin mailed in their language', async () => {
    const { workspace, english, arabic, application } = await subscriber();
    const pending = await insertSubscription(t.db, workspace.id, application.id, 'pending', {
      plan: 'monthly',
    });
    const result = await run(['approve-subscription', pending.id]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // 2 active locations × 250.00 EGP, monthly (no discount): the inactive one is not billed.
    expect(result.stdout).toBe(
      `${approvedLine(pending.id)}Issued invoice ${invoicePattern.exec(result.stdout)![1]} (no. 1): ${egp(50_000)} for monthly, 2026-03-10 to 2026-04-10.\n2 mails to the workspace's admins.\n`,
    );
    expect(result.stdout).toMatch(/EGP\s500\.00/);
    const invoiceId = invoicePattern.exec(result.stdout)![1]!;
    const [invoice] = await t.db.select().from(payments).where(eq(payments.id, invoiceId));
    expect(invoice).toMatchObject({
      workspaceId: workspace.id,
      subscriptionId: pending.id,
      number: 1,
      amount: 50_000,
      status: 'pending',
      issuedAt: now,
    });
    expect(await storedSubscription(t.db, workspace.id, application.id)).toMatchObject({
      status: 'approved',
      startDate: now,
      endDate: new Date('2026-04-10T08:00:00.000Z'),
    });

    expect(mailer.sent.map((mail) => mail.to).sort()).toEqual([english.email, arabic.email].sort());
    const toEnglish = mailer.sent.find((mail) => mail.to === english.email)!;
    const toArabic = mailer.sent.find((mail) => mail.to === arabic.email)!;
    expect(toEnglish.subject).toBe(`Your subscription to ${application.nameEn} is active`);
    expect(toEnglish.text).toContain(`The invoice of this period is ${egp(50_000)}.`);
    expect(toArabic.subject).toBe(`اشتراكك في ${application.nameAr} مفعّل`);
    expect(toArabic.text).toContain(`قيمة فاتورة هذه الفترة ${formatMoney(50_000, 'EGP', 'ar')}.`);
    expect(toArabic.html).toContain('dir="rtl"');
    expect(toEnglish.html).not.toContain('dir="rtl"');

    // Approved already: refused with the lifecycle's reason, nothing more written or mailed.
    mailer.sent.length = 0;
    const before = await written();
    const again = await run(['approve-subscription', pending.id]);
    expect(again.code).toBe(2);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(new RegExp(`^Subscription ${pending.id} cannot be approved: .+\\n$`));
    expect(await written()).toEqual(before);
    expect(mailer.sent).toEqual([]);
  });

  it('reject-subscription: rejected, no invoice, the admins told; approving it afterwards is refused', async () => {
    const { workspace, english, arabic, application } = await subscriber();
    const pending = await insertSubscription(t.db, workspace.id, application.id, 'pending', {
      plan: 'quarterly',
    });
    const before = await written();
    const result = await run(['reject-subscription', pending.id]);
    expect(result).toEqual({
      code: 0,
      stderr: '',
      stdout: `Rejected subscription ${pending.id} (now rejected).\n2 mails to the workspace's admins.\n`,
    });
    expect(await written()).toEqual(before);
    expect((await storedSubscription(t.db, workspace.id, application.id))!.status).toBe('rejected');
    expect(mailer.sent.find((mail) => mail.to === english.email)!.subject).toBe(
      `Your subscription request for ${application.nameEn}`,
    );
    expect(mailer.sent.find((mail) => mail.to === arabic.email)!.html).toContain('dir="rtl"');

    const refused = await run(['approve-subscription', pending.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/cannot be approved: /);
    expect((await storedSubscription(t.db, workspace.id, application.id))!.status).toBe('rejected');
  });

  it('reject-subscription of an approved one: exit 2, "cannot be rejected" with the reason, nothing written', async () => {
    const { workspace, application } = await subscriber();
    const approved = await insertSubscription(t.db, workspace.id, application.id, 'approved', {
      plan: 'monthly',
      startDate: now,
      endDate: new Date('2026-04-10T08:00:00.000Z'),
    });
    const before = await written();
    const refused = await run(['reject-subscription', approved.id]);
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: `Subscription ${approved.id} cannot be rejected: The subscription is not waiting for approval\n`,
    });
    expect(await written()).toEqual(before);
    expect(mailer.sent).toEqual([]);
    expect((await storedSubscription(t.db, workspace.id, application.id))!.status).toBe('approved');
  });

  it.each([
    [
      ['approve-subscription', '00000000-0000-4000-8000-000000000000'],
      /^No subscription with id 00000000-0000-4000-8000-000000000000$/,
    ],
    [['reject-subscription', '00000000-0000-4000-8000-000000000000'], /^No subscription with id /],
    [['approve-subscription', 'sub-1'], /^Not a subscription id: "sub-1"$/],
    [['reject-subscription', '12345'], /^Not a subscription id: "12345"$/],
    [['approve-subscription'], /approve-subscription needs exactly one <subscriptionId>/],
    [
      ['subscriptions', '--status', 'active'],
      /^--status must be one of pending, approved, rejected, freeTrial, expiredFreeTrial, expiredSubscription \(got "active"\)$/,
    ],
    [['subscriptions', 'pending'], /subscriptions takes no arguments/],
    [
      ['invoices', '--status', 'paid'],
      /^--status must be one of successful, failed, pending \(got "paid"\)$/,
    ],
  ])('%j → exit 2, one line, nothing written or mailed', expectRefused);

  it('subscriptions lists every workspace’s, or those with --status', async () => {
    const { workspace, application } = await subscriber();
    const other = await insertApplication(t.db);
    const pending = await insertSubscription(t.db, workspace.id, application.id, 'pending', {
      plan: 'annually',
    });
    const trial = await insertSubscription(t.db, workspace.id, other.id, 'freeTrial', {
      startDate: now,
      endDate: new Date('2026-03-24T08:00:00.000Z'),
      trialUsed: true,
    });
    const all = await run(['subscriptions']);
    expect(all).toMatchObject({ code: 0, stderr: '' });
    const line = (id: string) => all.stdout.split('\n').find((entry) => entry.startsWith(id));
    expect(line(pending.id)).toMatch(
      new RegExp(
        `^${pending.id}  pending\\s+annually\\s+— to —  ${application.clientId} for "${workspace.name}"$`,
      ),
    );
    expect(line(trial.id)).toMatch(
      new RegExp(
        `^${trial.id}  freeTrial\\s+trial\\s+2026-03-10 to 2026-03-24  ${other.clientId} for "${workspace.name}"$`,
      ),
    );
    expect(all.stdout).toMatch(/\n\d+ subscriptions\.\n$/);

    const onlyPending = await run(['subscriptions', '--status', 'pending']);
    expect(onlyPending.stdout).toContain(pending.id);
    expect(onlyPending.stdout).not.toContain(trial.id);
    const onlyTrials = await run(['subscriptions', '--status=freeTrial']);
    expect(onlyTrials.stdout).toContain(trial.id);
    expect(onlyTrials.stdout).not.toContain(pending.id);
    expect(onlyTrials.stdout.split('\n').filter((entry) => /^[0-9a-f-]{36} /.test(entry))).toSatisfy(
      (lines: string[]) => lines.every((entry) => entry.includes(' freeTrial ')),
    );
  });
});

describe('invoices and record-payment', () => {
  /** A subscription approved through the command line at `at`, and its first invoice's id. */
  async function approvedInvoice(at = now) {
    const { workspace, application } = await subscriber();
    const pending = await insertSubscription(t.db, workspace.id, application.id, 'pending', {
      plan: 'monthly',
    });
    const approved = await run(['approve-subscription', pending.id], at);
    expect(approved.code).toBe(0);
    return {
      workspace,
      application,
      subscriptionId: pending.id,
      invoiceId: invoicePattern.exec(approved.stdout)![1]!,
    };
  }

  it('invoices lists the issued invoice; --status filters', async () => {
    const { workspace, invoiceId } = await approvedInvoice();
    const listed = await run(['invoices']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const line = listed.stdout.split('\n').find((entry) => entry.startsWith(invoiceId))!;
    expect(line.split(/\s{2,}/)).toEqual([
      invoiceId,
      'pending',
      'no. 1',
      '2026-03-10',
      egp(50_000),
      'monthly 2026-03-10 to 2026-04-10',
      `"${workspace.name}"`,
    ]);
    expect(listed.stdout).toMatch(/\n\d+ invoices?\.\n$/);
    expect((await run(['invoices', '--status', 'pending'])).stdout).toContain(invoiceId);
    expect((await run(['invoices', '--status', 'successful'])).stdout).not.toContain(invoiceId);
  });

  it("a workspace's days are printed in its time zone: 20:00 on 31 January in Los Angeles is not 1 February", async () => {
    const at = new Date('2026-02-01T04:00:00.000Z');
    const { workspace, application } = await subscriber();
    await t.db
      .update(workspaces)
      .set({ timeZone: 'America/Los_Angeles' })
      .where(eq(workspaces.id, workspace.id));
    const pending = await insertSubscription(t.db, workspace.id, application.id, 'pending', {
      plan: 'monthly',
    });
    const approved = await run(['approve-subscription', pending.id], at);
    expect(approved.code).toBe(0);
    // The period is a calendar month there: 31 January to 28 February.
    expect(invoicePattern.exec(approved.stdout)?.slice(4)).toEqual(['monthly', '2026-01-31', '2026-02-28']);
    const invoiceId = invoicePattern.exec(approved.stdout)![1]!;
    const line = (await run(['invoices'])).stdout.split('\n').find((entry) => entry.startsWith(invoiceId))!;
    expect(line.split(/\s{2,}/).slice(3, 6)).toEqual([
      '2026-01-31',
      egp(50_000),
      'monthly 2026-01-31 to 2026-02-28',
    ]);
    const listed = (await run(['subscriptions'])).stdout
      .split('\n')
      .find((entry) => entry.startsWith(pending.id))!;
    expect(listed).toContain('2026-01-31 to 2026-02-28');
  });

  it('record-payment: failed, then successful, then already paid (exit 2); the status follows in invoices', async () => {
    const { invoiceId } = await approvedInvoice();
    const failed = await run(['record-payment', invoiceId, '--status', 'failed']);
    expect(failed).toEqual({ code: 0, stderr: '', stdout: `Invoice ${invoiceId} (no. 1) is failed.\n` });
    expect((await run(['invoices', '--status', 'failed'])).stdout).toContain(invoiceId);

    const paid = await run(['record-payment', invoiceId, '--status=successful']);
    expect(paid).toEqual({ code: 0, stderr: '', stdout: `Invoice ${invoiceId} (no. 1) is successful.\n` });
    const [stored] = await t.db.select().from(payments).where(eq(payments.id, invoiceId));
    expect(stored).toMatchObject({ status: 'successful', updatedAt: now });
    expect((await run(['invoices', '--status', 'successful'])).stdout).toContain(invoiceId);

    for (const status of ['successful', 'failed']) {
      const again = await run(['record-payment', invoiceId, '--status', status]);
      expect(again).toEqual({ code: 2, stdout: '', stderr: `Invoice ${invoiceId} is already paid\n` });
    }
    const [after] = await t.db.select().from(payments).where(eq(payments.id, invoiceId));
    expect(after!.status).toBe('successful');
  });

  it.each([
    [
      ['record-payment', '00000000-0000-4000-8000-000000000000', '--status', 'successful'],
      /^No invoice with id 00000000-0000-4000-8000-000000000000$/,
    ],
    [['record-payment', 'inv-1', '--status', 'successful'], /^Not an invoice id: "inv-1"$/],
    [
      ['record-payment', '00000000-0000-4000-8000-000000000000'],
      /^record-payment: --status successful\|failed is required$/,
    ],
    [
      ['record-payment', '00000000-0000-4000-8000-000000000000', '--status', 'pending'],
      /^--status must be one of successful, failed \(got "pending"\)$/,
    ],
    [['record-payment', '--status', 'failed'], /record-payment needs exactly one <invoiceId>/],
  ])('%j → exit 2, one line, nothing written or mailed', expectRefused);

  it('record-payment of the invoice a subscription in grace waits for renews it, and says until when', async () => {
    // Another month, so that the clock below handles only this file's subscription approved then.
    const start = new Date('2027-01-15T10:00:00.000Z');
    const { workspace, application, invoiceId } = await approvedInvoice(start);
    expect((await run(['record-payment', invoiceId, '--status', 'successful'], start)).code).toBe(0);
    const periodEnd = new Date('2027-02-15T10:00:00.000Z');
    const clock = await runSubscriptionClock(
      { db: t.db, mailer, publicUrl: t.config.publicUrl, graceDays: 7 },
      periodEnd,
    );
    expect(clock.failed).toEqual([]);
    const inGrace = await storedSubscription(t.db, workspace.id, application.id);
    expect(inGrace!.graceEndsAt).not.toBeNull();
    const listed = await run(['invoices', '--status', 'pending'], periodEnd);
    const next = listed.stdout
      .split('\n')
      .find((entry) => entry.includes(`"${workspace.name}"`) && entry.includes('no. 2'))!;
    expect(next).toContain('monthly 2027-02-15 to 2027-03-15');
    const nextId = next.slice(0, 36);

    const renewed = await run(['record-payment', nextId, '--status', 'successful'], periodEnd);
    expect(renewed).toEqual({
      code: 0,
      stderr: '',
      stdout: `Invoice ${nextId} (no. 2) is successful. The subscription is renewed until 2027-03-15.\n`,
    });
    expect(await storedSubscription(t.db, workspace.id, application.id)).toMatchObject({
      status: 'approved',
      graceEndsAt: null,
      endDate: new Date('2027-03-15T10:00:00.000Z'),
    });
  });
});
