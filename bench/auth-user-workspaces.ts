/**
 * `GET /api/auth/user` for a user in 50 workspaces, each with a role holding every permission
 * tag, against a user in one such workspace: autocannon at 50 connections, on PGlite and on
 * PostgreSQL. Target (issue 3): the wide user stays within 2× of the narrow one (req/s).
 *
 * The server is the product entry in a child process (support.ts), its database prepared first
 * from this process: migrations, 50 workspaces with a full role each, the two users and their
 * memberships. Both users sign in once; the load runs on their session cookies.
 *
 * Environment: BENCH_DATABASES (pglite,postgres), BENCH_CONNECTIONS (50), BENCH_DURATION (10 s),
 * BENCH_WARMUP (3 s), BENCH_WORKSPACES (50), BENCH_POSTGRES_URL (as auth.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allPermissionTags } from '@dukkan/contract';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { memberships, roles, users, workspaces } from '../apps/server/src/db/schema/index.ts';
import { hashPassword } from '../apps/server/src/features/auth/passwords.ts';
import {
  benchDatabases,
  type DatabaseKind,
  installedPgliteVersion,
  intFromEnv,
  isEntry,
  machineFacts,
  type RunningServer,
  startServer,
  writeResult,
} from './support.ts';

type Profile = 'one workspace' | 'many workspaces';

const password = 'Bench-Passw0rd!';
const accounts: Record<Profile, string> = {
  'one workspace': 'bench-narrow@dukkan.localhost',
  'many workspaces': 'bench-wide@dukkan.localhost',
};

export interface WorkspacesResult {
  database: DatabaseKind;
  profile: Profile;
  workspaces: number;
  responseBytes: number;
  requestsPerSecond: number;
  requestsTotal: number;
  latencyMs: { p50: number; p90: number; p99: number; average: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  serverRssMiB?: number;
}

export interface WorkspacesComparison {
  database: DatabaseKind;
  /** One workspace's req/s over many workspaces' req/s: the target is at most 2. */
  throughputRatio: number;
  p50Ratio: number;
  p99Ratio: number;
  withinTarget: boolean;
}

export interface WorkspacesBenchReport {
  machine: ReturnType<typeof machineFacts> & { postgres?: string; pglite: string };
  settings: { connections: number; durationSeconds: number; warmupSeconds: number; workspaces: number };
  results: WorkspacesResult[];
  comparisons: WorkspacesComparison[];
  skipped: { database: DatabaseKind; reason: string }[];
}

/** Migrations; `count` workspaces each with a full role; the wide user in all, the narrow one in the first. */
async function prepareDatabase(
  options: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string },
  count: number,
) {
  const handle = await openDatabase(options);
  try {
    await handle.migrate();
    const passwordHash = await hashPassword(password);
    const [narrow, wide] = await handle.db
      .insert(users)
      .values([
        { email: accounts['one workspace'], name: 'Narrow Bench', passwordHash },
        { email: accounts['many workspaces'], name: 'Wide Bench', passwordHash },
      ])
      .returning({ id: users.id });
    const created = await handle.db
      .insert(workspaces)
      .values(
        Array.from({ length: count }, (_, index) => ({
          name: `Bench Store ${String(index).padStart(2, '0')}`,
        })),
      )
      .returning({ id: workspaces.id });
    const fullRoles = await handle.db
      .insert(roles)
      .values(
        created.map((workspace) => ({
          workspaceId: workspace.id,
          code: 'manager',
          title: 'Manager',
          permissions: [...allPermissionTags],
        })),
      )
      .returning({ id: roles.id, workspaceId: roles.workspaceId });
    await handle.db
      .insert(memberships)
      .values([
        ...fullRoles.map((role) => ({ workspaceId: role.workspaceId, userId: wide!.id, roleId: role.id })),
        { workspaceId: fullRoles[0]!.workspaceId, userId: narrow!.id, roleId: fullRoles[0]!.id },
      ]);
  } finally {
    await handle.close();
  }
}

async function signIn(
  url: string,
  email: string,
): Promise<{ cookie: string; bytes: number; workspaces: number }> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in of ${email} answered ${response.status}`);
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('dukkan_session='));
  if (!cookie) throw new Error('sign-in set no session cookie');
  const check = await fetch(`${url}/api/auth/user`, { headers: { cookie } });
  const body = await check.text();
  if (check.status !== 200) throw new Error(`GET /api/auth/user answered ${check.status}`);
  const user = JSON.parse(body) as { data: { workspaces: unknown[] } };
  return { cookie, bytes: Buffer.byteLength(body), workspaces: user.data.workspaces.length };
}

async function measure(
  server: RunningServer,
  database: DatabaseKind,
  profile: Profile,
  settings: WorkspacesBenchReport['settings'],
): Promise<WorkspacesResult> {
  const { cookie, bytes, workspaces: count } = await signIn(server.url, accounts[profile]);
  const options = {
    url: `${server.url}/api/auth/user`,
    headers: { cookie },
    connections: settings.connections,
    timeout: 30,
  };
  await autocannon({ ...options, duration: settings.warmupSeconds });
  const result = await autocannon({ ...options, duration: settings.durationSeconds });
  const measured: WorkspacesResult = {
    database,
    profile,
    workspaces: count,
    responseBytes: bytes,
    requestsPerSecond: Math.round(result.requests.average),
    requestsTotal: result.requests.total,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      average: Math.round(result.latency.average * 10) / 10,
      max: result.latency.max,
    },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    serverRssMiB: server.rssMiB(),
  };
  process.stdout.write(
    `  ${database.padEnd(8)} ${profile.padEnd(16)} ${String(count).padStart(3)} ws ${String(bytes).padStart(7)} B ${String(measured.requestsPerSecond).padStart(6)} req/s  p50 ${measured.latencyMs.p50} ms  p99 ${measured.latencyMs.p99} ms  errors ${measured.errors}  non-2xx ${measured.non2xx}\n`,
  );
  return measured;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function compare(database: DatabaseKind, results: WorkspacesResult[]): WorkspacesComparison | undefined {
  const one = results.find((row) => row.database === database && row.profile === 'one workspace');
  const many = results.find((row) => row.database === database && row.profile === 'many workspaces');
  if (!one || !many || many.requestsPerSecond === 0) return undefined;
  const throughputRatio = round2(one.requestsPerSecond / many.requestsPerSecond);
  return {
    database,
    throughputRatio,
    p50Ratio: round2(many.latencyMs.p50 / Math.max(one.latencyMs.p50, 1)),
    p99Ratio: round2(many.latencyMs.p99 / Math.max(one.latencyMs.p99, 1)),
    withinTarget: throughputRatio <= 2,
  };
}

async function benchDatabase(
  database: DatabaseKind,
  settings: WorkspacesBenchReport['settings'],
  report: WorkspacesBenchReport,
) {
  let cleanup = async () => {};
  let variables: Record<string, string>;
  if (database === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'dukkan-bench-ws-'));
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
    await prepareDatabase({ kind: 'pglite', dataDir }, settings.workspaces);
    variables = { DATA_DIR: dataDir };
  } else {
    const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `dukkan_bench_ws_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    try {
      await admin.connect();
    } catch (error) {
      report.skipped.push({
        database,
        reason: `PostgreSQL at ${adminUrl} unreachable: ${(error as Error).message}`,
      });
      process.stdout.write(`  postgres skipped: ${adminUrl} unreachable (${(error as Error).message})\n`);
      return;
    }
    report.machine.postgres = String((await admin.query('SHOW server_version')).rows[0]?.server_version);
    await admin.query(`CREATE DATABASE ${name}`);
    cleanup = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    await prepareDatabase({ kind: 'postgres', url: url.toString() }, settings.workspaces);
    variables = { DATABASE_URL: url.toString() };
  }

  let server: RunningServer | undefined;
  try {
    server = await startServer(
      {
        ...variables,
        AUTH_RATE_LIMIT: '1000000',
        // A known demo admin, so the first start prints no generated password.
        BOOTSTRAP_ADMIN_EMAIL: 'bench-demo@dukkan.localhost',
        BOOTSTRAP_ADMIN_PASSWORD: password,
      },
      `auth/user workspaces bench on ${database}`,
    );
    report.results.push(await measure(server, database, 'one workspace', settings));
    report.results.push(await measure(server, database, 'many workspaces', settings));
    const comparison = compare(database, report.results);
    if (comparison) report.comparisons.push(comparison);
  } finally {
    await server?.stop();
    await cleanup();
  }
}

export function workspacesMarkdown(report: WorkspacesBenchReport): string {
  const lines = [
    `\`GET /api/auth/user\`: one workspace vs ${report.settings.workspaces} workspaces (each with a role of all ${allPermissionTags.length} tags), autocannon ${report.settings.connections} connections × ${report.settings.durationSeconds} s (after ${report.settings.warmupSeconds} s warm-up), ${report.machine.cpus} cores (${report.machine.cpuModel}), Node ${report.machine.node}, PGlite ${report.machine.pglite}${report.machine.postgres ? `, PostgreSQL ${report.machine.postgres}` : ''}`,
    '',
    '| database | user | response | req/s | p50 | p99 | errors | non-2xx |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...report.results.map(
      (row) =>
        `| ${row.database === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL'} | ${row.workspaces} workspace${row.workspaces === 1 ? '' : 's'} | ${(row.responseBytes / 1024).toFixed(1)} KiB | ${row.requestsPerSecond.toLocaleString('en-US')} | ${row.latencyMs.p50} ms | ${row.latencyMs.p99} ms | ${row.errors + row.timeouts} | ${row.non2xx} |`,
    ),
    '',
    '| database | req/s one ÷ many (target ≤ 2) | p50 many ÷ one | p99 many ÷ one |',
    '|---|---:|---:|---:|',
    ...report.comparisons.map(
      (row) =>
        `| ${row.database === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL'} | ${row.throughputRatio} ${row.withinTarget ? '(within)' : '(OVER)'} | ${row.p50Ratio} | ${row.p99Ratio} |`,
    ),
  ];
  for (const skip of report.skipped) lines.push('', `${skip.database} skipped: ${skip.reason}`);
  return lines.join('\n');
}

export async function runWorkspacesBench(): Promise<{ report: WorkspacesBenchReport; ok: boolean }> {
  const settings = {
    connections: intFromEnv('BENCH_CONNECTIONS', 50),
    durationSeconds: intFromEnv('BENCH_DURATION', 10),
    warmupSeconds: intFromEnv('BENCH_WARMUP', 3),
    workspaces: intFromEnv('BENCH_WORKSPACES', 50),
  };
  const databases = benchDatabases();
  const pgliteVersion = installedPgliteVersion();
  const report: WorkspacesBenchReport = {
    machine: { ...machineFacts(), pglite: pgliteVersion },
    settings,
    results: [],
    comparisons: [],
    skipped: [],
  };
  process.stdout.write(
    `\nGET /api/auth/user, 1 vs ${settings.workspaces} workspaces: ${databases.join(', ')}; ${settings.connections} connections, ${settings.durationSeconds} s each\n`,
  );
  for (const database of databases) await benchDatabase(database, settings, report);
  const path = writeResult('auth-user-workspaces', report);
  const clean = report.results.every((row) => row.errors === 0 && row.timeouts === 0 && row.non2xx === 0);
  const ok = clean && report.comparisons.every((row) => row.withinTarget);
  process.stdout.write(
    `\n${workspacesMarkdown(report)}\n\nNo errors and within 2×: ${ok ? 'PASS' : 'FAIL'}\nResults: ${path}\n`,
  );
  return { report, ok };
}

if (isEntry(import.meta.url)) {
  runWorkspacesBench().then(
    ({ ok }) => process.exit(ok ? 0 : 1),
    (error: unknown) => {
      process.stderr.write(
        `auth/user workspaces bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
