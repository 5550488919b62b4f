/**
 * The sign-in portal: one flow is what a browser and a client application do to sign a member in
 * with PKCE — the browser leg (the authorization request at `/authenticate`, the portal page's
 * Login call `GET /api/oauth/authorize/client-side`, the provider's resume `/oidc/auth/<uid>`
 * that redirects to the client with the code) and the client's token exchange (`POST
 * /oidc/token`), timed apart. At concurrency 1: warm-up flows, then measured ones (p50/p95/p99 of
 * each leg), next to `GET /api/auth/user` with the same session (the baseline, for context). Then
 * 50 workers loop flows for BENCH_DURATION: flows per second, errors (any unexpected status),
 * p50/p95 of each leg.
 *
 * Targets (p95 at concurrency 1): the browser leg ≤ 60 ms and the exchange ≤ 30 ms on PGlite,
 * ≤ 40 ms and ≤ 20 ms on PostgreSQL; at 50 concurrent flows, no errors.
 *
 * The server is the product entry in a child process on loopback (as auth.ts); its database is
 * prepared first from this process: a workspace, its admin with a session, a public application
 * whose redirect URI (`http://127.0.0.1:9/callback`) is never followed — only the Location is read —
 * and the workspace's free trial of it. Each flow has its own cookie jar (the Dukkan session and
 * the provider's interaction cookies); requests are plain `fetch` with `redirect: 'manual'`.
 *
 * Environment: BENCH_DATABASES (pglite,postgres), BENCH_FLOWS (200), BENCH_WARMUP_FLOWS (20),
 * BENCH_WORKERS (50), BENCH_DURATION (10 s), BENCH_POSTGRES_URL (as auth.ts).
 */
import { loadavg } from 'node:os';
import { oauthInteractionParam } from '@dukkan/contract';
import * as client from 'openid-client';
import { applications, subscriptions } from '../apps/server/src/db/schema/index.ts';
import { benchDatabases, type DatabaseKind, databaseName, type Skipped } from './support/database-kinds.ts';
import {
  type BenchDatabaseOptions,
  benchWorkspaces,
  migrated,
  withFreshDatabase,
} from './support/databases.ts';
import { type DatabaseMachine, databaseMachine, machineLine } from './support/machine.ts';
import { cpuMs, round1 } from './support/numbers.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';
import { type RunningServer, withServer } from './support/server.ts';
import { adminSession } from './support/sessions.ts';

const clientId = 'bench-portal-client';
const redirectUri = 'http://127.0.0.1:9/callback';
const scope = 'openid profile email';

/** p95 targets at concurrency 1, in ms. */
export const portalTargets: Record<DatabaseKind, { browser: number; token: number }> = {
  pglite: { browser: 60, token: 30 },
  postgres: { browser: 40, token: 20 },
};

type Leg = 'browser' | 'token';

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

export interface SerialResult {
  database: DatabaseKind;
  flows: number;
  warmupFlows: number;
  browser: Percentiles;
  token: Percentiles;
  /** `GET /api/auth/user` with the same session, one request at a time. */
  baseline: Percentiles & { requests: number };
  target: { browser: number; token: number };
  withinTarget: { browser: boolean; token: boolean };
}

export interface ConcurrentResult {
  database: DatabaseKind;
  workers: number;
  durationSeconds: number;
  flows: number;
  flowsPerSecond: number;
  errors: number;
  /** Failed flows by leg, request and status (or error). */
  errorKinds: Record<string, number>;
  /** The first few failures as they came back. */
  errorSamples: string[];
  browser: Pick<Percentiles, 'p50' | 'p95'>;
  token: Pick<Percentiles, 'p50' | 'p95'>;
  /** CPU time of the server's process per completed flow, in ms (Linux; with PGlite, its queries too). */
  serverCpuMsPerFlow?: number;
  serverRssMiB?: number;
}

export interface OauthPortalReport {
  machine: DatabaseMachine;
  /** The 1-, 5- and 15-minute load averages when the run started and ended (a shared machine). */
  load: { start: number[]; end?: number[] };
  settings: { flows: number; warmupFlows: number; workers: number; durationSeconds: number };
  serial: SerialResult[];
  concurrent: ConcurrentResult[];
  skipped: Skipped[];
}

// ---------------------------------------------------------------------------------------------
// The database and the flow.

interface Prepared {
  workspaceId: string;
  sessionCookie: string;
}

/** A workspace, its admin signed in, the application and the workspace's free trial of it. */
async function prepareDatabase(options: BenchDatabaseOptions): Promise<Prepared> {
  return migrated(options, async (db) => {
    const [workspaceId] = await benchWorkspaces(db, 1, 'Portal');
    const { cookie } = await adminSession(db, workspaceId!, {
      email: 'bench-portal@dukkan.localhost',
      name: 'Portal Admin',
    });
    const [application] = await db
      .insert(applications)
      .values({
        clientId,
        nameEn: 'Portal Bench',
        nameAr: 'تطبيق القياس',
        homeUrl: 'http://127.0.0.1:9/',
        redirectUris: [redirectUri],
        clientType: 'public',
        currency: 'EGP',
        monthlyPricePerLocation: 10_000,
        discounts: { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2000 },
        trialDays: 14,
      })
      .returning({ id: applications.id });
    const now = Date.now();
    await db.insert(subscriptions).values({
      workspaceId: workspaceId!,
      applicationId: application!.id,
      status: 'freeTrial',
      trialUsed: true,
      startDate: new Date(now - 24 * 60 * 60 * 1000),
      endDate: new Date(now + 14 * 24 * 60 * 60 * 1000),
    });
    return { workspaceId: workspaceId!, sessionCookie: cookie };
  });
}

/** A flow that came back otherwise than expected: which leg, which request, what it answered. */
class FlowError extends Error {
  constructor(
    readonly leg: Leg,
    readonly step: string,
    readonly status: number | string,
    detail: string,
  ) {
    super(`${leg} leg, ${step}: ${status} ${detail.slice(0, 300)}`);
  }
  get kind() {
    return `${this.leg} ${this.step} ${this.status}`;
  }
}

/** One browser's cookies on the server's origin. */
class CookieJar {
  readonly cookies = new Map<string, string>();
  constructor(pair: string) {
    const [name, ...rest] = pair.split('=');
    this.cookies.set(name!, rest.join('='));
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  take(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      const expired = value === '' || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
  }
}

const navigation = {
  'sec-fetch-site': 'cross-site',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
};
const appFetch = { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' };

async function browserGet(
  jar: CookieJar,
  url: string,
  headers: Record<string, string>,
  step: string,
  expected: number,
): Promise<{ response: Response; body: string }> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'manual', headers: { ...headers, cookie: jar.header() } });
  } catch (error) {
    throw new FlowError('browser', step, (error as Error).message, String((error as Error).cause ?? ''));
  }
  const body = await response.text();
  if (response.status !== expected) throw new FlowError('browser', step, response.status, body);
  jar.take(response);
  return { response, body };
}

/** One sign-in: the browser leg and the token exchange, each timed in ms. */
async function flow(baseUrl: string, prepared: Prepared): Promise<{ browser: number; token: number }> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce: client.randomNonce(),
  });
  const jar = new CookieJar(prepared.sessionCookie);

  const started = performance.now();
  const start = await browserGet(jar, `${baseUrl}/authenticate?${query}`, navigation, 'authorize', 303);
  const page = new URL(start.response.headers.get('location') ?? '', baseUrl);
  if (page.pathname !== '/authenticate' || !page.searchParams.get(oauthInteractionParam))
    throw new FlowError('browser', 'authorize', 303, `to ${page.href}`);
  page.searchParams.set('workspaceId', prepared.workspaceId);
  const login = await browserGet(
    jar,
    `${baseUrl}/api/oauth/authorize/client-side${page.search}`,
    appFetch,
    'consent',
    200,
  );
  const resume = new URL((JSON.parse(login.body) as { data: { redirect: string } }).data.redirect, baseUrl);
  const back = await browserGet(jar, resume.href, navigation, 'resume', 303);
  const callback = new URL(back.response.headers.get('location') ?? '', baseUrl);
  const code = callback.searchParams.get('code');
  if (
    `${callback.origin}${callback.pathname}` !== redirectUri ||
    !code ||
    callback.searchParams.get('state') !== state
  )
    throw new FlowError('browser', 'resume', 303, `to ${callback.href}`);
  const browserDone = performance.now();

  let response: Response;
  try {
    response = await fetch(`${baseUrl}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: clientId,
        code_verifier: verifier,
      }),
    });
  } catch (error) {
    throw new FlowError('token', 'exchange', (error as Error).message, String((error as Error).cause ?? ''));
  }
  const body = await response.text();
  if (response.status !== 200) throw new FlowError('token', 'exchange', response.status, body);
  const tokens = JSON.parse(body) as { access_token?: string; id_token?: string };
  if (!tokens.access_token || !tokens.id_token)
    throw new FlowError('token', 'exchange', 200, `without the tokens: ${body}`);
  return { browser: browserDone - started, token: performance.now() - browserDone };
}

// ---------------------------------------------------------------------------------------------
// Measuring.

/** The nearest-rank percentile of sorted values, to 0.1 ms. */
function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return round1(sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!);
}

function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99) };
}

async function measureSerial(
  server: RunningServer,
  database: DatabaseKind,
  prepared: Prepared,
  settings: OauthPortalReport['settings'],
): Promise<SerialResult> {
  for (let index = 0; index < settings.warmupFlows; index++) await flow(server.url, prepared);
  const browser: number[] = [];
  const token: number[] = [];
  for (let index = 0; index < settings.flows; index++) {
    const timed = await flow(server.url, prepared);
    browser.push(timed.browser);
    token.push(timed.token);
  }

  const userUrl = `${server.url}/api/auth/user`;
  const getUser = async () => {
    const started = performance.now();
    const response = await fetch(userUrl, { headers: { cookie: prepared.sessionCookie } });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`GET /api/auth/user answered ${response.status}: ${body}`);
    return performance.now() - started;
  };
  for (let index = 0; index < settings.warmupFlows; index++) await getUser();
  const user: number[] = [];
  for (let index = 0; index < settings.flows; index++) user.push(await getUser());

  const target = portalTargets[database];
  const result: SerialResult = {
    database,
    flows: settings.flows,
    warmupFlows: settings.warmupFlows,
    browser: percentiles(browser),
    token: percentiles(token),
    baseline: { ...percentiles(user), requests: user.length },
    target,
    withinTarget: { browser: false, token: false },
  };
  result.withinTarget = {
    browser: result.browser.p95 <= target.browser,
    token: result.token.p95 <= target.token,
  };
  process.stdout.write(
    `  ${database.padEnd(8)} concurrency 1: browser leg p50 ${result.browser.p50} / p95 ${result.browser.p95} / p99 ${result.browser.p99} ms; token p50 ${result.token.p50} / p95 ${result.token.p95} / p99 ${result.token.p99} ms; GET /api/auth/user p50 ${result.baseline.p50} / p95 ${result.baseline.p95} ms\n`,
  );
  return result;
}

async function measureConcurrent(
  server: RunningServer,
  database: DatabaseKind,
  prepared: Prepared,
  settings: OauthPortalReport['settings'],
): Promise<ConcurrentResult> {
  const browser: number[] = [];
  const token: number[] = [];
  const errorKinds: Record<string, number> = {};
  const errorSamples: string[] = [];
  let errors = 0;
  const cpuBefore = cpuMs(server.pid);
  const started = performance.now();
  const deadline = started + settings.durationSeconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        const timed = await flow(server.url, prepared);
        browser.push(timed.browser);
        token.push(timed.token);
      } catch (error) {
        errors++;
        const kind = error instanceof FlowError ? error.kind : (error as Error).message.slice(0, 100);
        errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
        if (errorSamples.length < 5) errorSamples.push((error as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: settings.workers }, worker));
  const elapsedSeconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuMs(server.pid);
  const browserFigures = percentiles(browser);
  const tokenFigures = percentiles(token);
  const result: ConcurrentResult = {
    database,
    workers: settings.workers,
    durationSeconds: round1(elapsedSeconds),
    flows: browser.length,
    flowsPerSecond: round1(browser.length / elapsedSeconds),
    errors,
    errorKinds,
    errorSamples,
    browser: { p50: browserFigures.p50, p95: browserFigures.p95 },
    token: { p50: tokenFigures.p50, p95: tokenFigures.p95 },
    ...(cpuBefore === undefined || cpuAfter === undefined || browser.length === 0
      ? {}
      : { serverCpuMsPerFlow: round1((cpuAfter - cpuBefore) / browser.length) }),
    serverRssMiB: server.rssMiB(),
  };
  const kinds = Object.entries(errorKinds).map(([kind, count]) => `${kind} ×${count}`);
  process.stdout.write(
    `  ${database.padEnd(8)} ${settings.workers} concurrent: ${result.flowsPerSecond} flows/s (${result.flows} in ${result.durationSeconds} s); browser leg p50 ${result.browser.p50} / p95 ${result.browser.p95} ms; token p50 ${result.token.p50} / p95 ${result.token.p95} ms; server CPU ${result.serverCpuMsPerFlow ?? '?'} ms/flow; errors ${errors}${kinds.length ? ` (${kinds.join(', ')})` : ''}\n`,
  );
  for (const sample of errorSamples) process.stdout.write(`    ${sample}\n`);
  return result;
}

async function benchDatabase(database: DatabaseKind, report: OauthPortalReport) {
  await withFreshDatabase(database, 'oauth', report, async (fresh) => {
    const prepared = await prepareDatabase(fresh.options);
    await withServer(fresh.variables, `oauth portal bench on ${database}`, async (server) => {
      report.serial.push(await measureSerial(server, database, prepared, report.settings));
      report.concurrent.push(await measureConcurrent(server, database, prepared, report.settings));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The report.

const loadLabel = (values: number[] | undefined) =>
  values ? values.map((value) => value.toFixed(2)).join(', ') : '?';

const verdict = (within: boolean) => (within ? 'within' : 'OVER');

export function oauthPortalMarkdown(report: OauthPortalReport): string {
  const { settings } = report;
  const lines = [
    `Sign-in portal flows (PKCE, browser leg = authorize → consent → code, then the token exchange), ${settings.flows} flows at concurrency 1 after ${settings.warmupFlows} warm-up, then ${settings.workers} concurrent flows for ${settings.durationSeconds} s; ${machineLine(report.machine)}; load average ${loadLabel(report.load.start)} at the start, ${loadLabel(report.load.end)} at the end`,
    '',
    '| database | leg | p50 | p95 | p99 | target (p95) | verdict |',
    '|---|---|---:|---:|---:|---:|---|',
  ];
  for (const row of report.serial) {
    const name = databaseName(row.database);
    lines.push(
      `| ${name} | browser (3 requests) | ${row.browser.p50} ms | ${row.browser.p95} ms | ${row.browser.p99} ms | ≤ ${row.target.browser} ms | ${verdict(row.withinTarget.browser)} |`,
      `| ${name} | token exchange | ${row.token.p50} ms | ${row.token.p95} ms | ${row.token.p99} ms | ≤ ${row.target.token} ms | ${verdict(row.withinTarget.token)} |`,
      `| ${name} | baseline: \`GET /api/auth/user\` | ${row.baseline.p50} ms | ${row.baseline.p95} ms | ${row.baseline.p99} ms | | |`,
    );
  }
  lines.push(
    '',
    '| database | concurrent flows | flows/s | browser p50 | browser p95 | token p50 | token p95 | server CPU/flow | errors | verdict | server RSS |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|',
  );
  for (const row of report.concurrent) {
    const kinds = Object.entries(row.errorKinds).map(([kind, count]) => `${kind} ×${count}`);
    lines.push(
      `| ${databaseName(row.database)} | ${row.workers} | ${row.flowsPerSecond} | ${row.browser.p50} ms | ${row.browser.p95} ms | ${row.token.p50} ms | ${row.token.p95} ms | ${row.serverCpuMsPerFlow ?? '?'} ms | ${row.errors}${kinds.length ? ` (${kinds.join(', ')})` : ''} | ${verdict(row.errors === 0)} | ${row.serverRssMiB ?? '?'} MiB |`,
    );
  }
  for (const skip of report.skipped) lines.push('', `${skip.database} skipped: ${skip.reason}`);
  return lines.join('\n');
}

export async function runOauthPortalBench(): Promise<{ report: OauthPortalReport; ok: boolean }> {
  const databases = benchDatabases();
  const report: OauthPortalReport = {
    machine: databaseMachine(),
    load: { start: loadavg().map((value) => Math.round(value * 100) / 100) },
    settings: {
      flows: intFromEnv('BENCH_FLOWS', 200),
      warmupFlows: intFromEnv('BENCH_WARMUP_FLOWS', 20),
      workers: intFromEnv('BENCH_WORKERS', 50),
      durationSeconds: intFromEnv('BENCH_DURATION', 10),
    },
    serial: [],
    concurrent: [],
    skipped: [],
  };
  process.stdout.write(
    `\nSign-in portal benchmark: ${databases.join(', ')}; load average ${loadLabel(report.load.start)}\n`,
  );
  for (const database of databases) await benchDatabase(database, report);
  report.load.end = loadavg().map((value) => Math.round(value * 100) / 100);
  const path = writeResult('oauth-portal', report);
  const ok =
    report.serial.every((row) => row.withinTarget.browser && row.withinTarget.token) &&
    report.concurrent.every((row) => row.errors === 0);
  process.stdout.write(
    `\n${oauthPortalMarkdown(report)}\n\nTargets (p95 at concurrency 1, no errors at ${report.settings.workers} concurrent flows): ${ok ? 'PASS' : 'FAIL'}\nResults: ${path}\n`,
  );
  return { report, ok };
}

runAsScript(import.meta.url, runOauthPortalBench, 'oauth portal bench failed: ');
