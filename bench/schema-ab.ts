/**
 * Two source trees under the same benchmarks, their rounds interleaved: a schema change (or any
 * change) measured before and after in one session, so that the drift of a shared machine falls on
 * both. `BENCH_A` is the tree before, `BENCH_B` the tree after: each a checkout with its own
 * `node_modules` (a worktree at the commit, `npm ci`), whose bench scripts include this one's
 * figures (the p95 of a load run, the tables' sizes after seeding, the product's GET).
 *
 * In each of BENCH_AB_ROUNDS (3) rounds, for each database (BENCH_DATABASES, `pglite,postgres`)
 * and each benchmark (BENCH_AB_BENCHES: `catalogue`, `products-list`, `products-save`), both
 * trees run the benchmark once — A then B in odd rounds, B then A in even ones — each as its own
 * script in a child process (`npm run bench:<name> -w @dukkan/bench` in the tree), on a fresh
 * database seeded and migrated by that tree's own code, with `BENCH_ROUNDS=1` and that database
 * only; the figures come from the tree's `bench/results/<name>.json`. The load average is read
 * before and after every run.
 *
 * Reports, per database and benchmark, the medians over the rounds for A and B and B ÷ A: for the
 * lists, the server's requests/s and p95 at full load (p99 beside them, and the bare baseline's,
 * which replays the tree's own SQL: the database's share of a change); for the save of a product
 * of 2,048 variants, the p50 and p95 of the save, the priced save, the bulk edits and the GET of
 * the product. Then the tables' and indexes' sizes after seeding (`pg_total_relation_size`,
 * `pg_relation_size`, `pg_indexes_size`, and each index), from the first round of each tree.
 * Markdown on stdout and in `results/schema-ab.md`, everything in `results/schema-ab.json`, each
 * run's output in `results/schema-ab-logs/`.
 *
 * Environment: BENCH_A, BENCH_B (the trees, required), BENCH_AB_ROUNDS (3), BENCH_AB_BENCHES,
 * BENCH_DATABASES; every other BENCH_* variable goes to the benchmarks as it is (BENCH_DURATION,
 * BENCH_WARMUP, BENCH_PRODUCTS, BENCH_SAVES, …), except BENCH_ROUNDS and BENCH_DATABASES, which
 * this script sets for each run.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type DatabaseKind, databaseName } from './support/database-kinds.ts';
import { machineFacts } from './support/machine.ts';
import { median, round2 } from './support/numbers.ts';
import { benchDir } from './support/paths.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';
import type { TableSize } from './support/sizes.ts';

type Tree = 'A' | 'B';
const benches = ['catalogue', 'products-list', 'products-save'] as const;
type Bench = (typeof benches)[number];

/** Each benchmark's npm script and result file. */
const benchFiles: Record<Bench, { script: string; result: string }> = {
  catalogue: { script: 'bench:catalogue', result: 'catalogue-list' },
  'products-list': { script: 'bench:products-list', result: 'products-list' },
  'products-save': { script: 'bench:products-save', result: 'products-save' },
};

/** One figure of one run: its name (`server req/s`, `save p95`, …) and value. */
type Figures = Record<string, number | undefined>;

interface AbRun {
  database: DatabaseKind;
  bench: Bench;
  round: number;
  tree: Tree;
  /** Its place in the session (1, 2, …). */
  order: number;
  startedAt: string;
  seconds: number;
  exitCode: number | null;
  /** `/proc/loadavg`'s 1, 5 and 15 minute averages before and after the run. */
  loadBefore: number[];
  loadAfter: number[];
  figures: Figures;
  /** Errors and non-2xx answers the benchmark saw (load runs only). */
  failures: number;
  sizes?: TableSize[];
  /** Why there are no figures (the run failed), if so. */
  error?: string;
}

interface AbReport {
  machine: ReturnType<typeof machineFacts> & { memoryAvailableGiB?: number };
  trees: Record<Tree, TreeFacts>;
  settings: {
    rounds: number;
    benches: Bench[];
    databases: DatabaseKind[];
    variables: Record<string, string>;
  };
  runs: AbRun[];
}

/** The figures compared, in order, and whether more is better. */
const figureOrder: { bench: Bench; name: string; higherIsBetter: boolean }[] = [
  { bench: 'catalogue', name: 'server req/s', higherIsBetter: true },
  { bench: 'catalogue', name: 'server p95 ms', higherIsBetter: false },
  { bench: 'catalogue', name: 'server p99 ms', higherIsBetter: false },
  { bench: 'catalogue', name: 'server 1 connection p95 ms', higherIsBetter: false },
  { bench: 'catalogue', name: 'baseline req/s', higherIsBetter: true },
  { bench: 'catalogue', name: 'baseline p95 ms', higherIsBetter: false },
  { bench: 'products-list', name: 'server req/s', higherIsBetter: true },
  { bench: 'products-list', name: 'server p95 ms', higherIsBetter: false },
  { bench: 'products-list', name: 'server p99 ms', higherIsBetter: false },
  { bench: 'products-list', name: 'baseline req/s', higherIsBetter: true },
  { bench: 'products-list', name: 'baseline p95 ms', higherIsBetter: false },
  { bench: 'products-save', name: 'save p50 ms', higherIsBetter: false },
  { bench: 'products-save', name: 'save p95 ms', higherIsBetter: false },
  { bench: 'products-save', name: 'priced save p95 ms', higherIsBetter: false },
  { bench: 'products-save', name: 'bulk edit p95 ms', higherIsBetter: false },
  { bench: 'products-save', name: 'bulk +10 % p95 ms', higherIsBetter: false },
  { bench: 'products-save', name: 'GET p50 ms', higherIsBetter: false },
  { bench: 'products-save', name: 'GET p95 ms', higherIsBetter: false },
];

interface LoadRow {
  handler: 'engine' | 'baseline';
  connections: number;
  requestsPerSecond: number;
  requestsTotal: number;
  latencyMs: { p50: number; p95?: number; p99: number };
  errors: number;
  non2xx: number;
}

interface ListResultFile {
  results: LoadRow[];
  databases: { sizes?: TableSize[] }[];
  settings: { connections: number };
}

interface SaveResultFile {
  rows: { writer: string; operation: string; timing: { p50: number; p95: number } }[];
}

/** The figures of one run from its result file. */
function figuresOf(bench: Bench, file: unknown): { figures: Figures; failures: number; sizes?: TableSize[] } {
  if (bench === 'products-save') {
    const { rows } = file as SaveResultFile;
    const timing = (operation: string) =>
      rows.find((row) => row.writer === 'engine' && row.operation === operation)?.timing;
    return {
      figures: {
        'save p50 ms': timing('save')?.p50,
        'save p95 ms': timing('save')?.p95,
        'priced save p95 ms': timing('savePriced')?.p95,
        'bulk edit p95 ms': timing('bulkEdit')?.p95,
        'bulk +10 % p95 ms': timing('bulkPrice')?.p95,
        'GET p50 ms': timing('read')?.p50,
        'GET p95 ms': timing('read')?.p95,
      },
      failures: 0,
    };
  }
  const list = file as ListResultFile;
  const full = list.settings.connections;
  // A load run that had no answer in its window (a process still busy with the warm-up's backlog
  // on a loaded machine) measured nothing: left out, not counted as 0 req/s.
  const row = (handler: LoadRow['handler'], connections: number) =>
    list.results.find(
      (entry) => entry.handler === handler && entry.connections === connections && entry.requestsTotal > 0,
    );
  const engine = row('engine', full);
  const baseline = row('baseline', full);
  return {
    figures: {
      'server req/s': engine?.requestsPerSecond,
      'server p95 ms': engine?.latencyMs.p95,
      'server p99 ms': engine?.latencyMs.p99,
      'server 1 connection p95 ms': full === 1 ? undefined : row('engine', 1)?.latencyMs.p95,
      'baseline req/s': baseline?.requestsPerSecond,
      'baseline p95 ms': baseline?.latencyMs.p95,
    },
    failures: list.results.reduce((sum, entry) => sum + entry.errors + entry.non2xx, 0),
    sizes: list.databases[0]?.sizes,
  };
}

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);

interface TreeFacts {
  path: string;
  commit: string;
  subject: string;
  /** Files changed in its work tree (these benchmarks' scripts applied on the commit, say). */
  changed: string[];
}

/** The tree's commit and subject, and the files its work tree changes. */
function describeTree(path: string): TreeFacts {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', ['-C', path, ...args], { encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  };
  const [commit = '?', ...subject] = git('log', '-1', '--format=%h %s').split(' ');
  const changed = git('status', '--porcelain')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3));
  return { path, commit, subject: subject.join(' '), changed };
}

/** The variables every run gets: this process's, with the run's database and one round. */
function runEnvironment(tree: string, database: DatabaseKind): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  // npm's own variables (of this script's `npm run`, if any) would describe this tree, not that one.
  for (const name of Object.keys(environment))
    if (name.startsWith('npm_') || name === 'INIT_CWD') delete environment[name];
  for (const name of ['BENCH_A', 'BENCH_B', 'BENCH_AB_ROUNDS', 'BENCH_AB_BENCHES']) delete environment[name];
  environment.BENCH_DATABASES = database;
  environment.BENCH_ROUNDS = '1';
  // The tree's own Node and tools first (its node_modules/.bin holds the project's Node).
  environment.PATH = `${join(tree, 'node_modules/.bin')}:${process.env.PATH ?? ''}`;
  return environment;
}

/** Runs one benchmark in one tree; its output goes to `log`. Resolves with the exit code. */
function runBench(tree: string, bench: Bench, database: DatabaseKind, log: string): Promise<number | null> {
  return new Promise((resolveRun, reject) => {
    const out = createWriteStream(log);
    const child = spawn('npm', ['run', benchFiles[bench].script, '-w', '@dukkan/bench'], {
      cwd: tree,
      env: runEnvironment(tree, database),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('error', reject);
    child.on('close', (code) => {
      out.end(() => resolveRun(code));
    });
  });
}

async function measureRun(
  report: AbReport,
  paths: Record<Tree, string>,
  run: { database: DatabaseKind; bench: Bench; round: number; tree: Tree },
  logDir: string,
): Promise<AbRun> {
  const { database, bench, round, tree } = run;
  const order = report.runs.length + 1;
  const log = join(logDir, `${String(order).padStart(3, '0')}-${database}-${bench}-${round}-${tree}.log`);
  const resultFile = join(paths[tree], 'bench/results', `${benchFiles[bench].result}.json`);
  const loadBefore = loadAverage();
  const startedAt = new Date();
  const exitCode = await runBench(paths[tree], bench, database, log);
  const seconds = Math.round((Date.now() - startedAt.getTime()) / 1000);
  const loadAfter = loadAverage();
  const base = {
    ...run,
    order,
    startedAt: startedAt.toISOString(),
    seconds,
    exitCode,
    loadBefore,
    loadAfter,
  };
  // A benchmark exits 1 when it misses its own targets against its baseline: that is a figure
  // here, not a failure. A run that wrote no result this time is one.
  if (!existsSync(resultFile) || statSync(resultFile).mtimeMs < startedAt.getTime())
    return { ...base, figures: {}, failures: 0, error: `no result written (exit ${exitCode}; see ${log})` };
  try {
    return { ...base, ...figuresOf(bench, JSON.parse(readFileSync(resultFile, 'utf8'))) };
  } catch (error) {
    return { ...base, figures: {}, failures: 0, error: `${(error as Error).message} (see ${log})` };
  }
}

const runLine = (run: AbRun) => {
  const figures = Object.entries(run.figures)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name} ${value}`)
    .join(', ');
  return `  ${run.database.padEnd(8)} ${run.bench.padEnd(13)} round ${run.round} ${run.tree}: ${run.error ?? figures}${run.failures ? ` — ${run.failures} errors or non-2xx` : ''} (${run.seconds} s, load ${run.loadBefore[0]} → ${run.loadAfter[0]})\n`;
};

const number = (value: number | undefined) =>
  value === undefined ? '–' : value.toLocaleString('en-US', { maximumFractionDigits: 1 });
const mib = (bytes: number | undefined) =>
  bytes === undefined ? '–' : `${(bytes / 2 ** 20).toFixed(bytes < 10 * 2 ** 20 ? 2 : 1)} MiB`;
const ratio = (after: number | undefined, before: number | undefined) =>
  after === undefined || before === undefined || before === 0 ? '–' : round2(after / before).toFixed(2);

function medianOf(runs: AbRun[], name: string): { median?: number; values: (number | undefined)[] } {
  const values = runs.map((run) => run.figures[name]);
  const known = values.filter((value): value is number => value !== undefined);
  return { values, ...(known.length ? { median: round2(median(known)) } : {}) };
}

export function schemaAbMarkdown(report: AbReport): string {
  const { settings, trees } = report;
  const loads = report.runs.flatMap((run) => [run.loadBefore[0]!, run.loadAfter[0]!]);
  // Whole rounds measured: both trees ran every benchmark of the database.
  const measured = settings.databases
    .map((database) => {
      const done = (round: number) =>
        report.runs.filter((run) => run.database === database && run.round === round && !run.error).length ===
        2 * settings.benches.length;
      let rounds = 0;
      while (rounds < settings.rounds && done(rounds + 1)) rounds++;
      return `${databaseName(database)}: ${rounds} measured`;
    })
    .join(', ');
  const lines = [
    `A: \`${trees.A.commit}\` ${trees.A.subject} (${trees.A.path}); B: \`${trees.B.commit}\` ${trees.B.subject} (${trees.B.path}).`,
    `${settings.rounds} rounds planned (${measured}), A and B alternating (A first in odd rounds, B first in even ones), each run its tree's own benchmark on a fresh database seeded by that tree; ${report.machine.cpus} cores (${report.machine.cpuModel}), ${report.machine.memoryGiB} GiB, Node ${report.machine.node}; load average (1 min) ${loads.length ? `${Math.min(...loads)}–${Math.max(...loads)}` : '?'} over the runs; settings ${
      Object.entries(settings.variables)
        .map(([name, value]) => `${name}=${value}`)
        .join(', ') || 'the benchmarks’ defaults'
    }.`,
    '',
    '| database | benchmark | figure | A (rounds) | B (rounds) | A median | B median | B ÷ A |',
    '|---|---|---|---|---|---:|---:|---:|',
  ];
  for (const database of settings.databases)
    for (const figure of figureOrder) {
      if (!settings.benches.includes(figure.bench)) continue;
      const of = (tree: Tree) =>
        medianOf(
          report.runs.filter(
            (run) => run.database === database && run.bench === figure.bench && run.tree === tree,
          ),
          figure.name,
        );
      const a = of('A');
      const b = of('B');
      if (a.median === undefined && b.median === undefined) continue;
      lines.push(
        `| ${databaseName(database)} | ${figure.bench} | ${figure.name} | ${a.values.map(number).join(', ') || '–'} | ${b.values.map(number).join(', ') || '–'} | ${number(a.median)} | ${number(b.median)} | ${ratio(b.median, a.median)} |`,
      );
    }
  const failed = report.runs.filter((run) => run.error || run.failures);
  if (failed.length) lines.push('', ...failed.map((run) => runLine(run).trim()));

  // Sizes: from each tree's first run of each list benchmark that recorded them.
  const sizesOf = (database: DatabaseKind, bench: Bench, tree: Tree) =>
    report.runs.find(
      (run) => run.database === database && run.bench === bench && run.tree === tree && run.sizes,
    )?.sizes;
  const sizeRows: string[] = [];
  const indexRows: string[] = [];
  for (const database of settings.databases)
    for (const bench of ['catalogue', 'products-list'] as const) {
      const a = sizesOf(database, bench, 'A') ?? [];
      const b = sizesOf(database, bench, 'B') ?? [];
      for (const table of [...new Set([...a, ...b].map((size) => size.table))]) {
        const before = a.find((size) => size.table === table);
        const after = b.find((size) => size.table === table);
        sizeRows.push(
          `| ${databaseName(database)} | ${table} | ${number(before?.rows)} | ${mib(before?.totalBytes)} → ${mib(after?.totalBytes)} (${ratio(after?.totalBytes, before?.totalBytes)}) | ${mib(before?.heapBytes)} → ${mib(after?.heapBytes)} (${ratio(after?.heapBytes, before?.heapBytes)}) | ${mib(before?.indexesBytes)} → ${mib(after?.indexesBytes)} (${ratio(after?.indexesBytes, before?.indexesBytes)}) |`,
        );
        const names = [
          ...new Set([...(before?.indexes ?? []), ...(after?.indexes ?? [])].map((index) => index.name)),
        ];
        for (const name of names.sort()) {
          const x = before?.indexes.find((index) => index.name === name);
          const y = after?.indexes.find((index) => index.name === name);
          // The definition from its method on: `btree (workspace_id, id)`.
          const columns = (index?: { definition: string }) =>
            index ? (/ USING (.*)$/.exec(index.definition)?.[1] ?? index.definition) : '–';
          indexRows.push(
            `| ${databaseName(database)} | ${table} | ${name} | ${x ? `\`${columns(x)}\`` : '–'} | ${y ? `\`${columns(y)}\`` : '–'} | ${mib(x?.bytes)} | ${mib(y?.bytes)} | ${ratio(y?.bytes, x?.bytes)} |`,
          );
        }
      }
    }
  if (sizeRows.length)
    lines.push(
      '',
      'Sizes after seeding (each tree’s first run), A → B (B ÷ A):',
      '',
      '| database | table | rows | total | heap | indexes |',
      '|---|---|---:|---:|---:|---:|',
      ...sizeRows,
      '',
      '| database | table | index | A | B | A size | B size | B ÷ A |',
      '|---|---|---|---|---|---:|---:|---:|',
      ...indexRows,
    );
  lines.push(
    '',
    'Every run, in order (load average over 1 minute before → after):',
    '',
    '| # | database | benchmark | round | tree | started | seconds | load | exit |',
    '|---:|---|---|---:|---|---|---:|---|---:|',
    ...report.runs.map(
      (run) =>
        `| ${run.order} | ${databaseName(run.database)} | ${run.bench} | ${run.round} | ${run.tree} | ${run.startedAt.slice(11, 19)} | ${run.seconds} | ${run.loadBefore.join(' ')} → ${run.loadAfter.join(' ')} | ${run.exitCode ?? '?'} |`,
    ),
  );
  return lines.join('\n');
}

export async function runSchemaAb(): Promise<{ report: AbReport; ok: boolean }> {
  const a = process.env.BENCH_A;
  const b = process.env.BENCH_B;
  if (!a || !b)
    throw new Error('Set BENCH_A and BENCH_B to the two source trees to compare (before, after).');
  const paths: Record<Tree, string> = { A: resolve(a), B: resolve(b) };
  for (const path of Object.values(paths))
    if (!existsSync(join(path, 'node_modules')) || !existsSync(join(path, 'bench/package.json')))
      throw new Error(`${path}: not a Dukkan checkout with its node_modules (npm ci there first)`);
  const rounds = intFromEnv('BENCH_AB_ROUNDS', 3);
  const chosen = (process.env.BENCH_AB_BENCHES ?? benches.join(','))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of chosen)
    if (!(benches as readonly string[]).includes(entry))
      throw new Error(`BENCH_AB_BENCHES: ${entry} is not one of ${benches.join(', ')}`);
  const databases = (process.env.BENCH_DATABASES ?? 'pglite,postgres')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry): entry is DatabaseKind => entry === 'pglite' || entry === 'postgres');
  const variables = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[0].startsWith('BENCH_') &&
        ![
          'BENCH_A',
          'BENCH_B',
          'BENCH_AB_ROUNDS',
          'BENCH_AB_BENCHES',
          'BENCH_DATABASES',
          'BENCH_ROUNDS',
        ].includes(entry[0]) &&
        entry[1] !== undefined,
    ),
  );
  const available = /MemAvailable:\s+(\d+)/.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1];
  const report: AbReport = {
    machine: {
      ...machineFacts(),
      ...(available ? { memoryAvailableGiB: Math.round(Number(available) / 2 ** 20) } : {}),
    },
    trees: { A: describeTree(paths.A), B: describeTree(paths.B) },
    settings: { rounds, benches: chosen as Bench[], databases, variables },
    runs: [],
  };
  const logDir = join(benchDir, 'results/schema-ab-logs', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(logDir, { recursive: true });
  process.stdout.write(
    `\nA ${report.trees.A.commit} ${report.trees.A.subject}\nB ${report.trees.B.commit} ${report.trees.B.subject}\n${databases.join(', ')} × ${chosen.join(', ')} × ${rounds} rounds; logs in ${logDir}\n`,
  );
  // Round by round over every database and benchmark: a session cut short still has whole
  // rounds of each, and a slow hour falls on every benchmark, not on one.
  for (let round = 1; round <= rounds; round++)
    for (const database of databases)
      for (const bench of report.settings.benches)
        for (const tree of round % 2 === 1 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
          const run = await measureRun(report, paths, { database, bench, round, tree }, logDir);
          report.runs.push(run);
          process.stdout.write(runLine(run));
          // Kept after every run: a session cut short still has what it measured.
          writeFileSync(join(benchDir, 'results/schema-ab.json'), `${JSON.stringify(report, null, 2)}\n`);
        }
  const path = writeResult('schema-ab', report);
  const markdown = schemaAbMarkdown(report);
  writeFileSync(join(benchDir, 'results/schema-ab.md'), `${markdown}\n`);
  const ok = report.runs.every((run) => !run.error && run.failures === 0);
  process.stdout.write(`\n${markdown}\n\nResults: ${path}\n`);
  return { report, ok };
}

runAsScript(import.meta.url, runSchemaAb, 'schema A/B bench failed: ');
