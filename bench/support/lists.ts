/**
 * The list benchmarks against their bare baselines: the turns they take, the page requested, the
 * answers compared, the figures over the rounds, the ratios and the verdict.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { BaselinePlan } from '../list-baseline.ts';
import type { DatabaseKind, Skipped } from './database-kinds.ts';
import { idleLatency, type LoadRun, type RequestHeaders } from './load.ts';
import { knownMedian, median, round2 } from './numbers.ts';
import { type RunningServer, startServer } from './server.ts';

/** What serves a list benchmark's request: the server, or the bare baseline replaying its SQL. */
export type Handler = 'engine' | 'baseline';

/** A list page's answer: its bytes and the total of matching records. */
interface ListAnswer {
  body: string;
  total: number;
}

/**
 * The server and the baseline take turns for `rounds` rounds (server, baseline, server, …), so
 * that a slower spell of a shared machine does not fall on one of them only; each starts afresh
 * (on PGlite, one process per folder). After each start, one request is checked (`fetch`) and its
 * answer compared with the server's first (which goes to `first`); then `measure` runs, knowing
 * the request's idle latency. Returns the verdict on the answers.
 */
export async function takeTurns(turns: {
  database: DatabaseKind;
  rounds: number;
  /** The server's variables (its database), and its name in errors. */
  engine: { variables: Record<string, string>; label: string };
  /** The baseline's entry and what it replays (written to `workDir`). */
  baseline: { entry: string; plan: BaselinePlan };
  workDir: string;
  path: string;
  headers: RequestHeaders;
  fetch: (url: string, label: string) => Promise<ListAnswer>;
  first: (answer: ListAnswer) => void;
  measure: (
    server: RunningServer,
    url: string,
    run: { handler: Handler; round: number; idleMs: number },
  ) => Promise<void>;
}): Promise<SameAnswer> {
  const { database, engine } = turns;
  const planFile = join(turns.workDir, 'baseline-plan.json');
  writeFileSync(planFile, JSON.stringify(turns.baseline.plan));
  let engineBody: string | undefined;
  let sameAnswer: SameAnswer = 'bytes';
  let server: RunningServer | undefined;
  try {
    for (let round = 1; round <= turns.rounds; round++) {
      for (const handler of ['engine', 'baseline'] as const) {
        server =
          handler === 'engine'
            ? await startServer(engine.variables, engine.label)
            : await startServer(
                { ...engine.variables, BASELINE_PLAN: planFile },
                `baseline on ${database}`,
                turns.baseline.entry,
              );
        const url = `${server.url}${turns.path}`;
        const answer = await turns.fetch(url, `the ${handler}`);
        if (handler === 'engine' && engineBody === undefined) {
          engineBody = answer.body;
          turns.first(answer);
        } else {
          sameAnswer = worse(sameAnswer, answerAgainst(database, handler, engineBody, answer.body));
        }
        const idleMs = await idleLatency(url, turns.headers);
        await turns.measure(server, url, { handler, round, idleMs });
        await server.stop();
        server = undefined;
      }
    }
  } finally {
    await server?.stop();
  }
  return sameAnswer;
}

/** A load run's figures as the list benchmarks print them after the run's name. */
export function loadRunSummary(run: LoadRun): string {
  const kinds = Object.entries(run.errorKinds).map(([kind, count]) => `${kind} ×${count}`);
  return `${String(run.requestsPerSecond).padStart(7)} req/s  p50 ${run.latencyMs.p50} ms  p95 ${run.latencyMs.p95} ms  p99 ${run.latencyMs.p99} ms  CPU ${run.cpuMsPerRequest ?? '?'} ms/req${run.databaseCpuMsPerRequest === undefined ? '' : ` (PostgreSQL ${run.databaseCpuMsPerRequest})`}  errors ${run.errors}${kinds.length ? ` (${kinds.join(', ')})` : ''}  non-2xx ${run.non2xx}`;
}

/** One handler's figures: a round's, or the medians over the rounds. */
export interface ListFigures {
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  cpuMsPerRequest?: number;
  databaseCpuMsPerRequest?: number;
}

/** The medians over the rounds, to 0.01; a CPU time only when every round has it. */
export function medianFigures(rows: LoadRun[]): ListFigures {
  const cpu = knownMedian(rows.map((row) => row.cpuMsPerRequest));
  const databaseCpu = knownMedian(rows.map((row) => row.databaseCpuMsPerRequest));
  return {
    requestsPerSecond: round2(median(rows.map((row) => row.requestsPerSecond))),
    p50: round2(median(rows.map((row) => row.latencyMs.p50))),
    p95: round2(median(rows.map((row) => row.latencyMs.p95))),
    p99: round2(median(rows.map((row) => row.latencyMs.p99))),
    ...(cpu === undefined ? {} : { cpuMsPerRequest: round2(cpu) }),
    ...(databaseCpu === undefined ? {} : { databaseCpuMsPerRequest: round2(databaseCpu) }),
  };
}

/** Engine ÷ baseline: req/s, p99 (a baseline p99 under 1 ms counts as 1 ms) and CPU per request. */
export function ratios(engine: ListFigures, baseline: ListFigures) {
  const cpuRatio =
    engine.cpuMsPerRequest !== undefined && baseline.cpuMsPerRequest
      ? round2(engine.cpuMsPerRequest / baseline.cpuMsPerRequest)
      : undefined;
  return {
    throughputRatio: baseline.requestsPerSecond
      ? round2(engine.requestsPerSecond / baseline.requestsPerSecond)
      : 0,
    p99Ratio: round2(engine.p99 / Math.max(baseline.p99, 1)),
    ...(cpuRatio === undefined ? {} : { cpuRatio }),
  };
}

/**
 * One request of a list page: 200 with a full page of data, else an error naming what came back
 * (and `lower`, the setting that would fit the data).
 */
export async function fetchListPage(
  url: string,
  headers: RequestHeaders,
  settings: { page: number; pageSize: number },
  label: string,
  lower: string,
): Promise<ListAnswer> {
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${label} answered ${response.status}: ${body.slice(0, 300)}`);
  const answer = JSON.parse(body) as { data: unknown[]; meta: { total: number } };
  if (answer.data.length !== settings.pageSize || answer.meta.total < settings.page * settings.pageSize)
    throw new Error(
      `${label}: page ${settings.page} holds ${answer.data.length} records of ${answer.meta.total} matching; seed more or lower ${lower}`,
    );
  return { body, total: answer.meta.total };
}

/** `bytes`: the same bytes; `json`: the same JSON with another key order or spacing; `no`: different. */
export type SameAnswer = 'bytes' | 'json' | 'no';

export const sameAnswerLabel: Record<SameAnswer, string> = {
  bytes: 'yes (bytes)',
  json: 'yes (same JSON, other bytes)',
  no: 'NO',
};

/** The server's answer and another's: the same bytes, the same JSON (key order, spacing) or not. */
function sameAnswerAs(expected: string, actual: string): SameAnswer {
  if (expected === actual) return 'bytes';
  try {
    return isDeepStrictEqual(JSON.parse(expected), JSON.parse(actual)) ? 'json' : 'no';
  } catch {
    return 'no';
  }
}

/** A handler's answer against the server's first, both shown when their bytes differ. */
function answerAgainst(
  database: DatabaseKind,
  handler: string,
  engineBody: string | undefined,
  body: string,
): SameAnswer {
  const same = sameAnswerAs(engineBody ?? '', body);
  if (same !== 'bytes')
    process.stdout.write(
      `  ${database}: the ${handler}'s answer ${same === 'json' ? 'is the same JSON in other bytes' : 'differs'} from the server's first:\n    server:   ${engineBody?.slice(0, 400)}\n    ${handler}: ${body.slice(0, 400)}\n`,
    );
  return same;
}

/** The worse of two verdicts on the answers. */
const worse = (a: SameAnswer, b: SameAnswer): SameAnswer =>
  a === 'no' || b === 'no' ? 'no' : a === 'json' || b === 'json' ? 'json' : 'bytes';

/** A comparison's verdict: on its targets where judged, else what it would be. */
export const verdictLabel = (row: { judged: boolean; withinTarget: boolean }) =>
  row.judged
    ? row.withinTarget
      ? 'within'
      : 'OVER'
    : `not judged (${row.withinTarget ? 'would be within' : 'would be over'})`;

/**
 * A list benchmark passed: no errors or non-2xx answers, every database measured that was not
 * skipped, the same answers, and the judged comparisons within their targets.
 */
export function listPassed(
  report: {
    results: { errors: number; non2xx: number }[];
    comparisons: { sameAnswer: SameAnswer; judged: boolean; withinTarget: boolean }[];
    skipped: Skipped[];
  },
  databases: DatabaseKind[],
): boolean {
  const clean = report.results.every((row) => row.errors === 0 && row.non2xx === 0);
  const measuredAll = report.comparisons.length === databases.length - report.skipped.length;
  const sameAnswers = report.comparisons.every((row) => row.sameAnswer !== 'no');
  return (
    clean && measuredAll && sameAnswers && report.comparisons.every((row) => !row.judged || row.withinTarget)
  );
}
