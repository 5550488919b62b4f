/**
 * Two web builds under Lighthouse in one session: a server for each (`BENCH_A`, `BENCH_B`: web
 * build folders), one Chrome, the runs alternated A, B, B, A… so that the machine's drift (another
 * process, a warmer cache) falls on both. Lighthouse's score of one page moves by several points
 * between runs of the same build on a 2-core machine; two builds measured one after the other
 * differed by more than the change between them.
 *
 * Prints, for each build, every run's performance score and the medians of score, FCP, LCP and
 * TBT. Run: `BENCH_A=<before>/dist BENCH_B=<after>/dist npm run bench:lighthouse-ab -w @dukkan/bench`.
 * Environment: BENCH_RUNS (8 a build), BENCH_LIGHTHOUSE_PAGES (`/brands`; `/login` for the other page).
 */
import type * as chromeLauncher from 'chrome-launcher';
import { audit, type LighthouseSite, launchChrome, lighthouseSite, summarize } from './lighthouse.ts';
import { machineFacts } from './support/machine.ts';
import { median } from './support/numbers.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, isEntry } from './support/script.ts';

interface BuildRuns {
  build: string;
  scores: number[];
  medians: { performance: number; fcpMs: number; lcpMs: number; tbtMs: number };
}

export async function runLighthouseAb(): Promise<BuildRuns[]> {
  const builds = [process.env.BENCH_A, process.env.BENCH_B];
  if (!builds[0] || !builds[1])
    throw new Error('Set BENCH_A and BENCH_B to the two web builds to compare (their dist folders).');
  const runs = intFromEnv('BENCH_RUNS', 8);
  const path = process.env.BENCH_LIGHTHOUSE_PAGES ?? '/brands';
  const sites: LighthouseSite[] = [];
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    for (const [index, build] of builds.entries())
      sites.push(await lighthouseSite(build as string, `lighthouse ${index === 0 ? 'A' : 'B'}`));
    chrome = await launchChrome();
    const measured = builds.map(() => [] as ReturnType<typeof summarize>[]);
    for (let run = 0; run < runs; run++) {
      const order = run % 2 === 0 ? [0, 1] : [1, 0];
      for (const index of order) {
        const site = sites[index]!;
        const page = site.pages([path])[0];
        if (!page) throw new Error(`No such page: ${path}`);
        const result = await audit(chrome, site, page);
        // A run whose trace Lighthouse could not read scores nothing: it is left out, not counted as 0.
        if (result.lhr.runtimeError) continue;
        measured[index]!.push(summarize(path, result));
      }
    }
    const summary = builds.map((build, index): BuildRuns => {
      const taken = measured[index]!;
      return {
        build: build as string,
        scores: taken.map((entry) => entry.scores.performance),
        medians: {
          performance: median(taken.map((entry) => entry.scores.performance)),
          fcpMs: Math.round(median(taken.map((entry) => entry.metrics.fcpMs))),
          lcpMs: Math.round(median(taken.map((entry) => entry.metrics.lcpMs))),
          tbtMs: Math.round(median(taken.map((entry) => entry.metrics.tbtMs))),
        },
      };
    });
    for (const [index, entry] of summary.entries())
      process.stdout.write(
        `${index === 0 ? 'A' : 'B'} ${entry.build}: ${path} performance ${entry.medians.performance} [${entry.scores.join(' ')}] — FCP ${entry.medians.fcpMs} ms, LCP ${entry.medians.lcpMs} ms, TBT ${entry.medians.tbtMs} ms (medians of ${entry.scores.length})\n`,
      );
    const written = writeResult('lighthouse-ab', { machine: machineFacts(), path, runs, builds: summary });
    process.stdout.write(`Results: ${written}\n`);
    return summary;
  } finally {
    chrome?.kill();
    for (const site of sites) await site.stop();
  }
}

if (isEntry(import.meta.url)) {
  runLighthouseAb().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
