/**
 * Identity endpoints under load: `GET /api/auth/user` (a valid session cookie) and
 * `POST /api/auth/login` (argon2id verification, a new session), with autocannon at 50
 * connections, on the embedded PGlite database and on PostgreSQL.
 *
 * The server is the product entry (`apps/server/src/main.ts`) in a child process on loopback, so
 * that autocannon and the server do not share one event loop. Its database is prepared first from
 * this process: migrations, the demo workspace and admin, and extra admins of that workspace with
 * the same password so that logins can rotate accounts — the per-account login limit (10 attempts,
 * cleared on success) is not configurable and 50 concurrent logins of one account would trip it.
 * The per-address limit is raised with AUTH_RATE_LIMIT.
 *
 * Environment: BENCH_DATABASES (pglite,postgres), BENCH_CONNECTIONS (50), BENCH_DURATION (10 s),
 * BENCH_WARMUP (3 s), BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/postgres: a fresh
 * database is created on that server and dropped afterwards).
 */
import type autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import { bootstrapDemo } from '../apps/server/src/bootstrap.ts';
import { memberships, users } from '../apps/server/src/db/schema/index.ts';
import { benchDatabases, type DatabaseKind, databaseName, type Skipped } from './support/database-kinds.ts';
import { type BenchDatabaseOptions, migrated, withFreshDatabase } from './support/databases.ts';
import { type EndpointFigures, loadSettings, warmedLoad } from './support/load.ts';
import { type DatabaseMachine, databaseMachine, machineLine } from './support/machine.ts';
import { writeResult } from './support/results.ts';
import { runAsScript } from './support/script.ts';
import { type RunningServer, withServer } from './support/server.ts';
import { signIn } from './support/sessions.ts';

const adminEmail = 'bench-admin@dukkan.localhost';
const password = 'Bench-Passw0rd!';
/** Accounts the login benchmark rotates through. */
const loginAccounts = 200;

export interface EndpointResult extends EndpointFigures {
  database: DatabaseKind;
  endpoint: string;
  connections: number;
  durationSeconds: number;
  statusCodes: Record<string, number>;
  serverRssMiB?: number;
}

export interface AuthBenchReport {
  machine: DatabaseMachine;
  settings: { connections: number; durationSeconds: number; warmupSeconds: number; loginAccounts: number };
  results: EndpointResult[];
  skipped: Skipped[];
}

/** Migrations, demo workspace and admin, and `loginAccounts` more admins sharing the password hash. */
async function prepareDatabase(options: BenchDatabaseOptions) {
  await migrated(options, async (db) => {
    await bootstrapDemo(db, { email: adminEmail, password });
    const [admin] = await db
      .select({ id: users.id, passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.email, adminEmail));
    const [membership] = admin
      ? await db
          .select({ workspaceId: memberships.workspaceId })
          .from(memberships)
          .where(eq(memberships.userId, admin.id))
      : [];
    if (!admin || !membership) throw new Error('the bench admin was not created');
    const created = await db
      .insert(users)
      .values(
        Array.from({ length: loginAccounts }, (_, index) => ({
          email: `bench-${index}@dukkan.localhost`,
          name: `Bench User ${index}`,
          passwordHash: admin.passwordHash,
        })),
      )
      .returning({ id: users.id });
    await db
      .insert(memberships)
      .values(
        created.map((user) => ({ workspaceId: membership.workspaceId, userId: user.id, isAdmin: true })),
      );
  });
}

function loadOptions(url: string, endpoint: 'user' | 'login', cookie: string): autocannon.Options {
  if (endpoint === 'user') return { url: `${url}/api/auth/user`, headers: { cookie } };
  let next = 0;
  return {
    url: `${url}/api/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) => {
          const email = `bench-${next++ % loginAccounts}@dukkan.localhost`;
          return { ...request, body: JSON.stringify({ email, password }) };
        },
      },
    ],
  };
}

async function measure(
  server: RunningServer,
  database: DatabaseKind,
  endpoint: 'user' | 'login',
  cookie: string,
  settings: AuthBenchReport['settings'],
): Promise<EndpointResult> {
  const label = endpoint === 'user' ? 'GET /api/auth/user' : 'POST /api/auth/login';
  const { result, figures } = await warmedLoad(
    { ...loadOptions(server.url, endpoint, cookie), connections: settings.connections, timeout: 30 },
    settings,
  );
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {}))
    statusCodes[code] = stats.count ?? 0;
  const measured: EndpointResult = {
    database,
    endpoint: label,
    connections: settings.connections,
    durationSeconds: result.duration,
    ...figures,
    statusCodes,
    serverRssMiB: server.rssMiB(),
  };
  process.stdout.write(
    `  ${database.padEnd(8)} ${label.padEnd(22)} ${String(measured.requestsPerSecond).padStart(6)} req/s  p50 ${measured.latencyMs.p50} ms  p99 ${measured.latencyMs.p99} ms  errors ${measured.errors}  non-2xx ${measured.non2xx}\n`,
  );
  return measured;
}

const serverVariables = {
  // The per-address login limit would stop a load test from one address within seconds.
  AUTH_RATE_LIMIT: '1000000',
  BOOTSTRAP_ADMIN_EMAIL: adminEmail,
  BOOTSTRAP_ADMIN_PASSWORD: password,
};

async function benchDatabase(
  database: DatabaseKind,
  settings: AuthBenchReport['settings'],
  report: AuthBenchReport,
) {
  await withFreshDatabase(database, '', report, async (fresh) => {
    await prepareDatabase(fresh.options);
    const variables = { ...serverVariables, ...fresh.variables };
    await withServer(variables, `auth bench on ${database}`, async (server) => {
      const { cookie } = await signIn(server.url, adminEmail, password);
      report.results.push(await measure(server, database, 'user', cookie, settings));
      report.results.push(await measure(server, database, 'login', cookie, settings));
    });
  });
}

export function authMarkdown(report: AuthBenchReport): string {
  const lines = [
    `Identity endpoints, autocannon ${report.settings.connections} connections × ${report.settings.durationSeconds} s (after ${report.settings.warmupSeconds} s warm-up), ${machineLine(report.machine)}`,
    '',
    '| database | endpoint | req/s | p50 | p99 | errors | non-2xx | server RSS |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...report.results.map(
      (row) =>
        `| ${databaseName(row.database)} | \`${row.endpoint}\` | ${row.requestsPerSecond.toLocaleString('en-US')} | ${row.latencyMs.p50} ms | ${row.latencyMs.p99} ms | ${row.errors + row.timeouts} | ${row.non2xx} | ${row.serverRssMiB ?? '?'} MiB |`,
    ),
  ];
  for (const skip of report.skipped) lines.push('', `${skip.database} skipped: ${skip.reason}`);
  return lines.join('\n');
}

export async function runAuthBench(): Promise<{ report: AuthBenchReport; ok: boolean }> {
  const settings = {
    ...loadSettings(),
    loginAccounts,
  };
  const databases = benchDatabases();
  const report: AuthBenchReport = {
    machine: databaseMachine(),
    settings,
    results: [],
    skipped: [],
  };
  process.stdout.write(
    `\nAuth benchmark: ${databases.join(', ')}; ${settings.connections} connections, ${settings.durationSeconds} s each\n`,
  );
  for (const database of databases) await benchDatabase(database, settings, report);
  const path = writeResult('auth', report);
  const ok = report.results.every((row) => row.errors === 0 && row.timeouts === 0 && row.non2xx === 0);
  process.stdout.write(
    `\n${authMarkdown(report)}\n\nErrors and non-2xx must be 0: ${ok ? 'PASS' : 'FAIL'}\nResults: ${path}\n`,
  );
  return { report, ok };
}

runAsScript(import.meta.url, runAuthBench, 'auth bench failed: ');
