/**
 * The product page with 2,048 variants in Chromium: the production web build served by the real
 * server (PGlite in a temporary folder), a product of 16 sizes × 16 colours × 8 materials with a
 * SKU per variant saved through `POST /api/products`, then `/products/<id>` opened BENCH_RUNS (5)
 * times, each in a fresh browser context (cold cache) signed in by the admin's session cookie.
 *
 * Per load:
 * - ready: the time from navigation start until the variant grid has its focusable cell (the
 *   grid's one tab stop, `[role=gridcell][tabindex=0]`) and Save (the form's submit button) is
 *   enabled — checked every animation frame, so it is a frame the user could see; target median
 *   ≤ 1.5 s;
 * - the longest task (PerformanceObserver `longtask`) before ready, reported;
 * - the grid scrolled from top to bottom a page per two frames (a step at a time from here): the
 *   most rows (`role=row`, its header included) in the DOM at any step, target < 200, and the
 *   longest task while scrolling, target < 100 ms; the last variant's row must be reached;
 * - the page's JS heap (CDP `Performance.getMetrics`, JSHeapUsedSize) after the scroll, target
 *   < 300 MB (300 × 2^20 bytes).
 *
 * - editing: one price typed into the first row's price cell (Enter, the amount, Enter), then a
 *   bulk +10 % on every variant's price from the bulk bar: the longest task from the first key to
 *   the changed cell, target < 100 ms (reported with the time each took).
 *
 * Needs a web build that has the product page: `npm run build -w @dukkan/web` (or
 * BENCH_WEB_DIST=<folder>). Environment: BENCH_RUNS (5), BENCH_VALUES (16x16x8), BENCH_CHROMIUM
 * (/usr/bin/chromium), BENCH_VIEWPORT (1350x940; 390x844 is a phone, where the variants are cards).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { combinationsOf, productOptions, seedProductWorkspace } from './products-seed.ts';
import { chromiumArgs, chromiumPath } from './support/chromium.ts';
import { migrated } from './support/databases.ts';
import { machineFacts } from './support/machine.ts';
import { median } from './support/numbers.ts';
import { repoRoot } from './support/paths.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';
import { type RunningServer, startServer } from './support/server.ts';

export const productsPageTargets = {
  /** Median ms from navigation start to a focusable grid cell and an enabled Save: at most. */
  readyMs: 1500,
  /** Rows in the DOM while scrolling: fewer than. */
  rows: 200,
  /** Longest task while scrolling, ms: under. */
  longTaskMs: 100,
  /** JS heap after the scroll, MiB: under. */
  heapMiB: 300,
} as const;

export class ProductPageMissingError extends Error {
  override name = 'ProductPageMissingError';
}

export interface PageLoad {
  readyMs: number;
  /** The longest task from navigation start until ready. */
  longestLoadTaskMs: number;
  /** Rows in the grid when ready (header included). */
  rowsWhenReady: number;
  scroll: {
    steps: number;
    ms: number;
    maxRows: number;
    longestTaskMs: number;
    /** Long tasks (over 50 ms) while scrolling: how many, and the three longest. */
    longTasks: number;
    topTasksMs: number[];
    lastRowReached: boolean;
  };
  heapMiB: { ready: number; afterScroll: number };
  /** A price typed into a cell, and a bulk +10 % on every price: time and longest task of each. */
  edit: { typedMs: number; typedLongestTaskMs: number; bulkMs: number; bulkLongestTaskMs: number };
  /** The submit button's text: that the button watched is Save. */
  saveLabel: string;
}

export interface ProductsPageReport {
  machine: ReturnType<typeof machineFacts> & { chromium: string };
  webDist: string;
  variants: number;
  /** `GET /api/products/<id>` from Node: the answer's size and time (median of 3). */
  productAnswer: { bytes: number; ms: number };
  loads: PageLoad[];
  median: { readyMs: number; longestLoadTaskMs: number };
  viewport: { width: number; height: number };
  worst: { scrollRows: number; scrollLongTaskMs: number; heapMiB: number; editLongTaskMs: number };
  verdicts: { readyMs: boolean; rows: boolean; longTask: boolean; heap: boolean; editLongTask: boolean };
}

/** Installed before the page's scripts: long tasks, and the first frame the page is ready in. */
const observerScript = `
  window.__bench = { longTasks: [], readyAt: 0 };
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__bench.longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch (error) { window.__bench.error = String(error); }
  const isReady = () => {
    const cell = document.querySelector('[role="grid"] [role="gridcell"][tabindex="0"]');
    const save = document.querySelector('button[type="submit"][form]');
    return !!cell && !!save && !save.disabled && save.getAttribute('aria-busy') !== 'true';
  };
  const check = () => {
    if (isReady()) window.__bench.readyAt = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
`;

/**
 * One step of the scroll: the grid a page further down, then two frames (the rows the virtualizer
 * renders for the new position are in the DOM by the second); the rows, and whether the end is
 * reached. Run step by step from here, each with a time limit, so that a stalled page fails the
 * run instead of hanging it.
 */
const scrollStepScript = `(async () => {
  const grid = document.querySelector('[role="grid"]');
  grid.scrollTop = Math.min(grid.scrollTop + grid.clientHeight, grid.scrollHeight);
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  const last = grid.getAttribute('aria-rowcount');
  return {
    rows: grid.querySelectorAll('[role="row"]').length,
    end: grid.scrollTop + grid.clientHeight >= grid.scrollHeight - 1,
    lastRow: !!grid.querySelector('[role="row"][aria-rowindex="' + last + '"]'),
  };
})()`;

/** The promise, or an error naming `what` after `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

async function loadOnce(
  browser: Browser,
  server: RunningServer,
  token: string,
  productId: string,
  viewport: { width: number; height: number },
): Promise<PageLoad> {
  const context = await browser.newContext({
    viewport,
    locale: 'en-US',
    // The server's Content-Security-Policy refuses string evaluation, which is how the measuring
    // scripts below run (a function would be serialized with tsx's helpers); the app needs none.
    bypassCSP: true,
  });
  try {
    await context.addCookies([{ name: 'dukkan_session', value: token, url: server.url }]);
    const page = await context.newPage();
    await page.addInitScript({ content: observerScript });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const heap = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return mib(metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0);
    };
    await page.goto(`${server.url}/products/${productId}`, {
      waitUntil: 'domcontentloaded',
      timeout: 60_000,
    });
    try {
      await page.waitForFunction('window.__bench.readyAt > 0', undefined, { timeout: 60_000, polling: 100 });
    } catch (error) {
      const text = (
        (await page
          .locator('main')
          .textContent()
          .catch(() => '')) ?? ''
      )
        .trim()
        .slice(0, 300);
      throw new ProductPageMissingError(
        `the product page never showed its variant grid with Save enabled (is the product page in this web build?); the page says: ${JSON.stringify(text)} (${(error as Error).message.split('\n')[0]})`,
      );
    }
    const ready = (await page.evaluate(`({
      readyAt: window.__bench.readyAt,
      longTasks: window.__bench.longTasks,
      error: window.__bench.error,
      rows: document.querySelectorAll('[role="grid"] [role="row"]').length,
      rowCount: Number(document.querySelector('[role="grid"]').getAttribute('aria-rowcount')),
      saveLabel: document.querySelector('button[type="submit"][form]').textContent.trim(),
    })`)) as {
      readyAt: number;
      longTasks: [number, number][];
      error?: string;
      rows: number;
      rowCount: number;
      saveLabel: string;
    };
    if (ready.error) throw new Error(`the long task observer failed: ${ready.error}`);
    // The first cell takes focus (outside the timing): focusable in fact, not only by attribute.
    const focused = await page.evaluate(`(() => {
      const cell = document.querySelector('[role="grid"] [role="gridcell"][tabindex="0"]');
      cell.focus();
      return document.activeElement === cell;
    })()`);
    if (!focused) throw new Error('the grid cell with tabindex 0 did not take focus');
    const heapReady = await heap();
    await page.evaluate(`(async () => {
      document.querySelector('[role="grid"]').scrollTop = 0;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
    })()`);
    const scroll = {
      started: (await page.evaluate('performance.now()')) as number,
      ended: 0,
      steps: 0,
      maxRows: ready.rows,
      lastRowReached: false,
    };
    for (let step = 1; step <= 10_000; step++) {
      const at = (await within(page.evaluate(scrollStepScript), 15_000, `scroll step ${step}`)) as {
        rows: number;
        end: boolean;
        lastRow: boolean;
      };
      scroll.steps = step;
      scroll.maxRows = Math.max(scroll.maxRows, at.rows);
      if (at.end) {
        scroll.lastRowReached = at.lastRow;
        break;
      }
    }
    scroll.ended = (await page.evaluate('performance.now()')) as number;
    // Long task entries are delivered after the task: a moment for the last ones.
    await page.waitForTimeout(200);
    const longTasks = (await page.evaluate('window.__bench.longTasks')) as [number, number][];
    const durations = (from: number, to: number) =>
      longTasks
        .filter(([start]) => start >= from && start <= to)
        .map(([, duration]) => Math.round(duration))
        .sort((a, b) => b - a);
    const longest = (from: number, to: number) => durations(from, to)[0] ?? 0;
    const scrollTasks = durations(scroll.started, scroll.ended);
    const heapAfterScroll = await heap();

    // Editing: a price typed into the first row's cell, then +10 % on every price from the bar.
    const now = async () => (await page.evaluate('performance.now()')) as number;
    await page.evaluate(`(async () => {
      document.querySelector('[role="grid"]').scrollTop = 0;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
    })()`);
    const priceCell = page.locator('[role="row"][aria-rowindex="2"] [role="gridcell"][aria-colindex="5"]');
    await priceCell.click();
    const typedFrom = await now();
    await page.keyboard.press('Enter');
    await priceCell.getByRole('textbox').fill('123.45');
    await page.keyboard.press('Enter');
    await within(priceCell.getByText('123.45').waitFor(), 15_000, 'the typed price');
    const typedTo = await now();
    const bar = page.getByRole('form', { name: 'Edit several variants' });
    await bar.getByLabel('Change').selectOption('price');
    await bar.getByLabel('How').selectOption('percent');
    await bar.getByLabel('Percentage').fill('10');
    const bulkFrom = await now();
    await bar.getByRole('button', { name: 'Apply' }).click();
    await within(priceCell.getByText('135.80').waitFor(), 15_000, 'the bulk change');
    const bulkTo = await now();
    await page.waitForTimeout(200);
    const editTasks = (await page.evaluate('window.__bench.longTasks')) as [number, number][];
    const longestIn = (from: number, to: number) =>
      Math.round(
        Math.max(0, ...editTasks.filter(([start]) => start >= from && start <= to).map(([, d]) => d)),
      );
    return {
      readyMs: Math.round(ready.readyAt),
      longestLoadTaskMs: longest(0, ready.readyAt),
      rowsWhenReady: ready.rows,
      scroll: {
        steps: scroll.steps,
        ms: Math.round(scroll.ended - scroll.started),
        maxRows: scroll.maxRows,
        longestTaskMs: longest(scroll.started, scroll.ended),
        longTasks: scrollTasks.length,
        topTasksMs: scrollTasks.slice(0, 3),
        lastRowReached: scroll.lastRowReached && ready.rowCount > 1,
      },
      heapMiB: { ready: heapReady, afterScroll: heapAfterScroll },
      edit: {
        typedMs: Math.round(typedTo - typedFrom),
        typedLongestTaskMs: longestIn(typedFrom, typedTo),
        bulkMs: Math.round(bulkTo - bulkFrom),
        bulkLongestTaskMs: longestIn(bulkFrom, bulkTo),
      },
      saveLabel: ready.saveLabel,
    };
  } finally {
    // A failure above is the one to report, not a close that fails after it.
    await context.close().catch(() => undefined);
  }
}

export function productsPageMarkdown(report: ProductsPageReport): string {
  const targets = productsPageTargets;
  const verdict = (within: boolean) => (within ? 'within' : 'OVER');
  return [
    `\`/products/<id>\` with ${report.variants.toLocaleString('en-US')} variants in Chromium ${report.machine.chromium} (cold cache, ${report.viewport.width}×${report.viewport.height}, no throttling), production build served by the Dukkan server on loopback (\`GET /api/products/<id>\` answers ${(report.productAnswer.bytes / 1024).toFixed(0)} KiB in ${report.productAnswer.ms} ms); ${report.loads.length} loads; ${report.machine.cpus} cores (${report.machine.cpuModel})`,
    '',
    '| load | ready (grid cell focusable, Save enabled) | longest task before ready | rows when ready | scroll: steps, time | scroll: most rows in the DOM | scroll: long tasks (> 50 ms), longest three | JS heap ready / after scroll | a typed price: time, longest task | bulk +10 % on every price: time, longest task |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.loads.map(
      (load, index) =>
        `| ${index + 1} | ${load.readyMs} ms | ${load.longestLoadTaskMs} ms | ${load.rowsWhenReady} | ${load.scroll.steps}, ${load.scroll.ms} ms | ${load.scroll.maxRows} | ${load.scroll.longTasks}: ${load.scroll.topTasksMs.join(', ') || '–'} ms | ${load.heapMiB.ready} / ${load.heapMiB.afterScroll} MiB | ${load.edit.typedMs} ms, ${load.edit.typedLongestTaskMs} ms | ${load.edit.bulkMs} ms, ${load.edit.bulkLongestTaskMs} ms |`,
    ),
    '',
    '| measure | result | target | verdict |',
    '|---|---:|---:|---|',
    `| ready, median | ${report.median.readyMs} ms | ≤ ${targets.readyMs} ms | ${verdict(report.verdicts.readyMs)} |`,
    `| rows in the DOM while scrolling, most | ${report.worst.scrollRows} | < ${targets.rows} | ${verdict(report.verdicts.rows)} |`,
    `| longest task while scrolling, worst load | ${report.worst.scrollLongTaskMs} ms | < ${targets.longTaskMs} ms | ${verdict(report.verdicts.longTask)} |`,
    `| JS heap, worst load | ${report.worst.heapMiB} MiB | < ${targets.heapMiB} MiB | ${verdict(report.verdicts.heap)} |`,
    `| longest task while editing (a typed price, a bulk +10 %), worst load | ${report.worst.editLongTaskMs} ms | < ${targets.longTaskMs} ms | ${verdict(report.verdicts.editLongTask)} |`,
    `| longest task before ready, median (reported) | ${report.median.longestLoadTaskMs} ms | – | – |`,
  ].join('\n');
}

export async function runProductsPageBench(): Promise<{ report: ProductsPageReport; ok: boolean }> {
  const webDist = process.env.BENCH_WEB_DIST ?? join(repoRoot, 'apps/web/dist');
  if (!existsSync(join(webDist, 'index.html')))
    throw new ProductPageMissingError(
      `No web build at ${webDist}: run \`npm run build -w @dukkan/web\` first (or set BENCH_WEB_DIST).`,
    );
  if (!existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath}`);
  const runs = intFromEnv('BENCH_RUNS', 5);
  const valueCounts = (process.env.BENCH_VALUES ?? '16x16x8').split('x').map(Number);
  const [width, height] = (process.env.BENCH_VIEWPORT ?? '1350x940').split('x').map(Number);
  const viewport = { width: width ?? 1350, height: height ?? 940 };

  process.stdout.write(
    `\nThe product page with ${valueCounts.join(' × ')} variants (web build ${webDist})\n`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'dukkan-bench-products-page-'));
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  try {
    const workspace = await migrated({ kind: 'pglite', dataDir }, (db) =>
      seedProductWorkspace(db, valueCounts),
    );
    const combinations = combinationsOf(workspace.options);
    server = await startServer({ DATA_DIR: dataDir, WEB_DIST_DIR: webDist }, 'products page bench');
    const headers = { cookie: workspace.cookie, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/api/products?workspaceId=${workspace.workspaceId}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        code: 'PAGE-1',
        name: [
          { locale: 'en', value: 'Bench Sneaker' },
          { locale: 'ar', value: 'حذاء' },
        ],
        measurementUnitId: workspace.measurementUnitId,
        options: productOptions(workspace),
        variants: combinations.map((combination) => ({
          key: combination.key,
          sku: `PAGE-1-${String(combination.position).padStart(4, '0')}`,
        })),
      }),
    });
    if (created.status !== 201)
      throw new Error(`POST /api/products answered ${created.status}: ${await created.text()}`);
    const productId = ((await created.json()) as { data: { id: string } }).data.id;
    const answers: { bytes: number; ms: number }[] = [];
    for (let index = 0; index < 3; index++) {
      const started = performance.now();
      const response = await fetch(
        `${server.url}/api/products/${productId}?workspaceId=${workspace.workspaceId}`,
        { headers },
      );
      const body = await response.arrayBuffer();
      answers.push({ bytes: body.byteLength, ms: performance.now() - started });
    }

    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
    const loads: PageLoad[] = [];
    for (let run = 0; run < runs; run++) {
      const load = await loadOnce(browser, server, workspace.token, productId, viewport);
      loads.push(load);
      process.stdout.write(
        `  load ${run + 1}: ready ${load.readyMs} ms (longest task before ${load.longestLoadTaskMs} ms); scroll ${load.scroll.steps} steps in ${load.scroll.ms} ms, at most ${load.scroll.maxRows} rows, ${load.scroll.longTasks} long tasks (longest ${load.scroll.topTasksMs.join(', ') || '–'} ms)${load.scroll.lastRowReached ? '' : ' (LAST ROW NOT REACHED)'}; heap ${load.heapMiB.ready} / ${load.heapMiB.afterScroll} MiB; typed price ${load.edit.typedMs} ms (longest task ${load.edit.typedLongestTaskMs} ms), bulk +10 % ${load.edit.bulkMs} ms (longest task ${load.edit.bulkLongestTaskMs} ms)\n`,
      );
    }
    const worst = {
      scrollRows: Math.max(...loads.map((load) => load.scroll.maxRows)),
      scrollLongTaskMs: Math.max(...loads.map((load) => load.scroll.longestTaskMs)),
      heapMiB: Math.max(...loads.map((load) => Math.max(load.heapMiB.ready, load.heapMiB.afterScroll))),
      editLongTaskMs: Math.max(
        ...loads.map((load) => Math.max(load.edit.typedLongestTaskMs, load.edit.bulkLongestTaskMs)),
      ),
    };
    const medianReady = median(loads.map((load) => load.readyMs));
    const report: ProductsPageReport = {
      machine: { ...machineFacts(), chromium: browser.version() },
      webDist,
      variants: combinations.length,
      productAnswer: {
        bytes: answers[0]!.bytes,
        ms: Math.round(median(answers.map((answer) => answer.ms))),
      },
      loads,
      viewport,
      median: {
        readyMs: medianReady,
        longestLoadTaskMs: median(loads.map((load) => load.longestLoadTaskMs)),
      },
      worst,
      verdicts: {
        readyMs: medianReady <= productsPageTargets.readyMs,
        rows: worst.scrollRows < productsPageTargets.rows,
        longTask: worst.scrollLongTaskMs < productsPageTargets.longTaskMs,
        heap: worst.heapMiB < productsPageTargets.heapMiB,
        editLongTask: worst.editLongTaskMs < productsPageTargets.longTaskMs,
      },
    };
    const path = writeResult('products-page', report);
    const reached = loads.every((load) => load.scroll.lastRowReached);
    const ok = reached && Object.values(report.verdicts).every(Boolean);
    process.stdout.write(
      `\n${productsPageMarkdown(report)}\n\n${reached ? '' : 'The last row was not reached in every scroll. '}Ready ≤ ${productsPageTargets.readyMs} ms, < ${productsPageTargets.rows} rows, longest scroll task < ${productsPageTargets.longTaskMs} ms, heap < ${productsPageTargets.heapMiB} MiB: ${ok ? 'PASS' : 'FAIL'}\nResults: ${path}\n`,
    );
    return { report, ok };
  } finally {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runAsScript(import.meta.url, runProductsPageBench);
