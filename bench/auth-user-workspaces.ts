/**
 * `GET /api/auth/user` for a user in 50 workspaces, each with a role holding every permission
 * tag, against a user in one such workspace: autocannon at 50 connections, on PGlite and on
 * PostgreSQL. Target (issue 3): the wide user stays within 2× of the narrow one (req/s).
 *
 * The server is the product entry in a child process (support/server.ts), its database prepared first
 * from this process: migrations, 50 workspaces with a full role each, the two users and their
 * memberships. Both users sign in once; the load runs on their session cookies.
 *
 * Environment: BENCH_DATABASES (pglite,postgres), BENCH_CONNECTIONS (50), BENCH_DURATION (10 s),
 * BENCH_WARMUP (3 s), BENCH_WORKSPACES (50), BENCH_POSTGRES_URL (as auth.ts).
 */
import { allPermissionTags } from '@dukkan/contract';
import { memberships, roles, users, workspaces } from '../apps/server/src/db/schema/index.ts';
import { hashPassword } from '../apps/server/src/features/auth/passwords.ts';
import { benchDatabases, type DatabaseKind, databaseName, type Skipped } from './support/database-kinds.ts';
import { type BenchDatabaseOptions, migrated, withFreshDatabase } from './support/databases.ts';
import { type EndpointFigures, loadSettings, warmedLoad } from './support/load.ts';
import { type DatabaseMachine, databaseMachine, machineLine } from './support/machine.ts';
import { round2 } from './support/numbers.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';
import { type RunningServer, withServer } from './support/server.ts';
import { signIn } from './support/sessions.ts';

type Profile = 'one workspace' | 'many workspaces';

const password = 'Bench-Passw0rd!';
const accounts: Record<Profile, string> = {
  'one workspace': 'bench-narrow@dukkan.localhost',
  'many workspaces': 'bench-wide@dukkan.localhost',
};

export interface WorkspacesResult extends EndpointFigures {
  database: DatabaseKind;
  profile: Profile;
  workspaces: number;
  responseBytes: number;
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
  machine: DatabaseMachine;
  settings: { connections: number; durationSeconds: number; warmupSeconds: number; workspaces: number };
  results: WorkspacesResult[];
  comparisons: WorkspacesComparison[];
  skipped: Skipped[];
}

/** Migrations; `count` workspaces each with a full role; the wide user in all, the narrow one in the first. */
async function prepareDatabase(options: BenchDatabaseOptions, count: number) {
  await migrated(options, async (db) => {
    const passwordHash = await hashPassword(password);
    const [narrow, wide] = await db
      .insert(users)
      .values([
        { email: accounts['one workspace'], name: 'Narrow Bench', passwordHash },
        { email: accounts['many workspaces'], name: 'Wide Bench', passwordHash },
      ])
      .returning({ id: users.id });
    const created = await db
      .insert(workspaces)
      .values(
        Array.from({ length: count }, (_, index) => ({
          name: `Bench Store ${String(index).padStart(2, '0')}`,
        })),
      )
      .returning({ id: workspaces.id });
    const fullRoles = await db
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
    await db
      .insert(memberships)
      .values([
        ...fullRoles.map((role) => ({ workspaceId: role.workspaceId, userId: wide!.id, roleId: role.id })),
        { workspaceId: fullRoles[0]!.workspaceId, userId: narrow!.id, roleId: fullRoles[0]!.id },
      ]);
  });
}

/** Signs the profile's user in: the cookie, and the size and workspace count of `/api/auth/user`. */
async function signInAs(url: string, profile: Profile) {
  const { cookie, body } = await signIn(url, accounts[profile], password);
  const user = JSON.parse(body) as { data: { workspaces: unknown[] } };
  return { cookie, bytes: Buffer.byteLength(body), workspaces: user.data.workspaces.length };
}

async function measure(
  server: RunningServer,
  database: DatabaseKind,
  profile: Profile,
  settings: WorkspacesBenchReport['settings'],
): Promise<WorkspacesResult> {
  const { cookie, bytes, workspaces: count } = await signInAs(server.url, profile);
  const options = {
    url: `${server.url}/api/auth/user`,
    headers: { cookie },
    connections: settings.connections,
  };
  const { figures } = await warmedLoad({ ...options, timeout: 30 }, settings);
  const measured: WorkspacesResult = {
    database,
    profile,
    workspaces: count,
    responseBytes: bytes,
    ...figures,
    serverRssMiB: server.rssMiB(),
  };
  process.stdout.write(
    `  ${database.padEnd(8)} ${profile.padEnd(16)} ${String(count).padStart(3)} ws ${String(bytes).padStart(7)} B ${String(measured.requestsPerSecond).padStart(6)} req/s  p50 ${measured.latencyMs.p50} ms  p99 ${measured.latencyMs.p99} ms  errors ${measured.errors}  non-2xx ${measured.non2xx}\n`,
  );
  return measured;
}

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
  await withFreshDatabase(database, 'ws', report, async (fresh) => {
    await prepareDatabase(fresh.options, settings.workspaces);
    const variables = {
      ...fresh.variables,
      AUTH_RATE_LIMIT: '1000000',
      // A known demo admin, so the first start prints no generated password.
      BOOTSTRAP_ADMIN_EMAIL: 'bench-demo@dukkan.localhost',
      BOOTSTRAP_ADMIN_PASSWORD: password,
    };
    await withServer(variables, `auth/user workspaces bench on ${database}`, async (server) => {
      report.results.push(await measure(server, database, 'one workspace', settings));
      report.results.push(await measure(server, database, 'many workspaces', settings));
    });
    const comparison = compare(database, report.results);
    if (comparison) report.comparisons.push(comparison);
  });
}

export function workspacesMarkdown(report: WorkspacesBenchReport): string {
  const lines = [
    `\`GET /api/auth/user\`: one workspace vs ${report.settings.workspaces} workspaces (each with a role of all ${allPermissionTags.length} tags), autocannon ${report.settings.connections} connections × ${report.settings.durationSeconds} s (after ${report.settings.warmupSeconds} s warm-up), ${machineLine(report.machine)}`,
    '',
    '| database | user | response | req/s | p50 | p99 | errors | non-2xx |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...report.results.map(
      (row) =>
        `| ${databaseName(row.database)} | ${row.workspaces} workspace${row.workspaces === 1 ? '' : 's'} | ${(row.responseBytes / 1024).toFixed(1)} KiB | ${row.requestsPerSecond.toLocaleString('en-US')} | ${row.latencyMs.p50} ms | ${row.latencyMs.p99} ms | ${row.errors + row.timeouts} | ${row.non2xx} |`,
    ),
    '',
    '| database | req/s one ÷ many (target ≤ 2) | p50 many ÷ one | p99 many ÷ one |',
    '|---|---:|---:|---:|',
    ...report.comparisons.map(
      (row) =>
        `| ${databaseName(row.database)} | ${row.throughputRatio} ${row.withinTarget ? '(within)' : '(OVER)'} | ${row.p50Ratio} | ${row.p99Ratio} |`,
    ),
  ];
  for (const skip of report.skipped) lines.push('', `${skip.database} skipped: ${skip.reason}`);
  return lines.join('\n');
}

export async function runWorkspacesBench(): Promise<{ report: WorkspacesBenchReport; ok: boolean }> {
  const settings = {
    ...loadSettings(),
    workspaces: intFromEnv('BENCH_WORKSPACES', 50),
  };
  const databases = benchDatabases();
  const report: WorkspacesBenchReport = {
    machine: databaseMachine(),
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

runAsScript(import.meta.url, runWorkspacesBench, 'auth/user workspaces bench failed: ');
