/**
 * What a first visit costs a browser: the JavaScript transferred (compressed, as the server sends
 * it, headers included) until the page is usable — `/login` until its form shows (budget 100 KB),
 * a signed-in list page (`/brands` with 30 brands) until its rows show (budget 200 KB) — every
 * byte transferred, and Lighthouse-style paint figures (First
 * Contentful Paint, Largest Contentful Paint, Total Blocking Time, Cumulative Layout Shift)
 * measured in Debian's Chromium with a cold cache.
 *
 * Two profiles: "desktop" (loopback, no throttling) and "mobile" (Lighthouse's DevTools throttling:
 * 4× CPU slowdown, 562.5 ms RTT, 1.47 Mbps down, 675 kbps up, a 412×823 phone screen). Lighthouse
 * itself simulates throttling by default, so its scores differ; the byte counts do not depend on it.
 *
 * Needs the production web build: `npm run build -w @dukkan/web` (or BENCH_WEB_DIST=<folder>).
 * Environment: BENCH_RUNS_DESKTOP (5), BENCH_RUNS_MOBILE (3), BENCH_CHROMIUM (/usr/bin/chromium).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { type Browser, type BrowserContext, chromium, type Request } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './support/chromium.ts';
import { benchWorkspaces, migrated } from './support/databases.ts';
import { machineFacts } from './support/machine.ts';
import { median } from './support/numbers.ts';
import { repoRoot } from './support/paths.ts';
import { writeResult } from './support/results.ts';
import { isEntry } from './support/script.ts';
import { type RunningServer, startServer } from './support/server.ts';
import { adminSession } from './support/sessions.ts';

/** 100 KB for /login, counted as 100,000 bytes (the stricter reading of "KB"), as transferred. */
export const initialJsBudgetBytes = 100_000;
/** 200 KB for a signed-in list page, as transferred. */
export const listPageJsBudgetBytes = 200_000;

/** A page to measure: where, what shows it is usable, and the session cookie it needs. */
interface MeasuredPage {
  path: string;
  /** A CSS selector; the page counts as usable in the frame after it is laid out. */
  readySelector: string;
  sessionToken?: string;
}

export class WebBuildMissingError extends Error {
  override name = 'WebBuildMissingError';
}

interface Profile {
  name: 'desktop' | 'mobile';
  runs: number;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  isMobile: boolean;
  throttle?: {
    cpuRate: number;
    latencyMs: number;
    downloadBytesPerSecond: number;
    uploadBytesPerSecond: number;
  };
}

const profiles: Profile[] = [
  {
    name: 'desktop',
    runs: Number(process.env.BENCH_RUNS_DESKTOP ?? 5),
    viewport: { width: 1350, height: 940 },
    deviceScaleFactor: 1,
    isMobile: false,
  },
  {
    name: 'mobile',
    runs: Number(process.env.BENCH_RUNS_MOBILE ?? 3),
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    // Lighthouse's "devtools" throttling preset for mobile (applied, not simulated).
    throttle: {
      cpuRate: 4,
      latencyMs: 562.5,
      downloadBytesPerSecond: Math.floor((1.4744 * 1024 * 1024) / 8),
      uploadBytesPerSecond: Math.floor((675 * 1024) / 8),
    },
  },
];

export interface LoadedFile {
  url: string;
  kind: 'script' | 'stylesheet' | 'font' | 'document' | 'image' | 'api' | 'other';
  status: number;
  bodyBytes: number;
  gzipBytes: number;
  brotliBytes: number;
  /** Body as sent (encoded) plus response headers, as Chromium counted them. */
  transferredBytes: number;
  contentEncoding?: string;
}

export interface PageRun {
  files: LoadedFile[];
  initialJs: {
    files: number;
    rawBytes: number;
    gzipBytes: number;
    brotliBytes: number;
    /** Scripts requested before the page was usable, as transferred (body as sent + headers). */
    transferredBytes: number;
    transferredFiles: number;
    /** Those scripts, largest first: path and size as transferred. */
    transferred: { url: string; bytes: number }[];
  };
  transferredBytes: number;
  transferredGzipBytes: number;
  requests: number;
  timingsMs: {
    ttfb: number;
    fcp: number;
    lcp: number;
    loginFormVisible: number;
    domContentLoaded: number;
    load: number;
    totalBlockingTime: number;
  };
  cumulativeLayoutShift: number;
}

export interface BundleReport {
  machine: ReturnType<typeof machineFacts> & { chromium: string };
  budgetBytes: number;
  withinBudget: boolean;
  webDist: string;
  profiles: {
    name: string;
    runs: number;
    median: PageRun['timingsMs'] & { cls: number };
    runsDetail: PageRun[];
  }[];
  /** From the first desktop run: what /login loads. */
  initialJs: PageRun['initialJs'];
  files: LoadedFile[];
  /** A signed-in list page with data, desktop profile. */
  listPage: {
    path: string;
    budgetBytes: number;
    withinBudget: boolean;
    runs: number;
    initialJs: PageRun['initialJs'];
    median: PageRun['timingsMs'] & { cls: number };
  };
}

/** Installed before any page script: collects LCP, layout shifts, long tasks and when the form shows. */
const observerScript = (readySelector: string) => `
  window.__bench = { lcp: 0, cls: 0, longTasks: [], formAt: 0 };
  try {
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__bench.lcp = entry.startTime; })
      .observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__bench.cls += entry.value; })
      .observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__bench.longTasks.push([entry.startTime, entry.duration]); })
      .observe({ type: 'longtask', buffered: true });
  } catch (error) { window.__bench.error = String(error); }
  const isVisible = (element) => { const box = element.getBoundingClientRect(); return box.width > 0 && box.height > 0; };
  const watch = new MutationObserver(() => {
    const field = document.querySelector(${JSON.stringify(readySelector)});
    if (field && isVisible(field)) {
      // The frame after the field is in the DOM and laid out: when it is painted.
      requestAnimationFrame(() => { window.__bench.formAt = performance.now(); });
      watch.disconnect();
    }
  });
  document.addEventListener('DOMContentLoaded', () => watch.observe(document.body, { childList: true, subtree: true }));
`;

/** Read once the page is idle; a string, so no bundler helper leaks into the page. */
const readMetricsScript = `(() => {
  const navigation = performance.getEntriesByType('navigation')[0];
  const fcpEntry = performance.getEntriesByName('first-contentful-paint')[0];
  const fcp = fcpEntry ? fcpEntry.startTime : 0;
  let blocking = 0;
  for (const [start, duration] of window.__bench.longTasks) if (start >= fcp) blocking += Math.max(0, duration - 50);
  return {
    ttfb: navigation ? navigation.responseStart : 0,
    fcp,
    lcp: window.__bench.lcp,
    loginFormVisible: window.__bench.formAt,
    domContentLoaded: navigation ? navigation.domContentLoadedEventEnd : 0,
    load: navigation ? navigation.loadEventEnd : 0,
    totalBlockingTime: blocking,
    cls: window.__bench.cls,
    error: window.__bench.error,
    // Resource timing's transferSize is the body as sent plus the response headers.
    scriptsBeforeUsable: performance.getEntriesByType('resource')
      .filter((entry) => /\\.m?js(\\?|$)/.test(entry.name) && entry.startTime <= window.__bench.formAt)
      .map((entry) => ({ name: entry.name, transferSize: entry.transferSize })),
  };
})()`;

function kindOf(request: Request, contentType: string): LoadedFile['kind'] {
  const type = request.resourceType();
  const path = new URL(request.url()).pathname;
  if (path.startsWith('/api/')) return 'api';
  if (type === 'script' || /javascript/.test(contentType) || /\.m?js$/.test(path)) return 'script';
  if (type === 'stylesheet' || /text\/css/.test(contentType)) return 'stylesheet';
  if (type === 'font' || /font/.test(contentType) || /\.(woff2?|ttf|otf)$/.test(path)) return 'font';
  if (type === 'document') return 'document';
  if (type === 'image' || /^image\//.test(contentType)) return 'image';
  return 'other';
}

async function loadPageOnce(
  browser: Browser,
  baseUrl: string,
  profile: Profile,
  target: MeasuredPage,
): Promise<PageRun> {
  const context: BrowserContext = await browser.newContext({
    viewport: profile.viewport,
    deviceScaleFactor: profile.deviceScaleFactor,
    isMobile: profile.isMobile,
    hasTouch: profile.isMobile,
    locale: 'en-US',
  });
  try {
    if (target.sessionToken)
      await context.addCookies([{ name: 'dukkan_session', value: target.sessionToken, url: baseUrl }]);
    const page = await context.newPage();
    await page.addInitScript({ content: observerScript(target.readySelector) });
    if (profile.throttle) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: profile.throttle.latencyMs,
        downloadThroughput: profile.throttle.downloadBytesPerSecond,
        uploadThroughput: profile.throttle.uploadBytesPerSecond,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.throttle.cpuRate });
    }

    const pending: Promise<LoadedFile | undefined>[] = [];
    const onFinished = (request: Request) => {
      pending.push(
        (async () => {
          const response = await request.response();
          if (!response) return undefined;
          const headers = await response.allHeaders();
          const contentType = headers['content-type'] ?? '';
          const body = await response.body().catch(() => Buffer.alloc(0));
          const sizes = await request.sizes();
          return {
            url: new URL(request.url()).pathname,
            kind: kindOf(request, contentType),
            status: response.status(),
            bodyBytes: body.length,
            gzipBytes: gzipSync(body, { level: 9 }).length,
            brotliBytes: brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } })
              .length,
            transferredBytes: sizes.responseBodySize + sizes.responseHeadersSize,
            contentEncoding: headers['content-encoding'],
          };
        })().catch(() => undefined), // a response still arriving when the context closes
      );
    };
    page.on('requestfinished', onFinished);

    await page.goto(`${baseUrl}${target.path}`, { waitUntil: 'networkidle', timeout: 120_000 });
    await page.locator(target.readySelector).first().waitFor({ state: 'visible', timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await page.waitForFunction('window.__bench.formAt > 0', undefined, { timeout: 10_000 });
    // LCP entries are final once the page is idle; a short pause lets the observer deliver them.
    await page.waitForTimeout(300);
    const metrics = (await page.evaluate(readMetricsScript)) as PageRun['timingsMs'] & {
      cls: number;
      error?: string;
      scriptsBeforeUsable: { name: string; transferSize: number }[];
    };
    if (metrics.error) throw new Error(`performance observers failed: ${metrics.error}`);

    // What loaded until now is the page's initial load; later requests are not counted.
    page.off('requestfinished', onFinished);
    const files = (await Promise.all(pending)).filter((file): file is LoadedFile => file !== undefined);
    const scripts = files.filter((file) => file.kind === 'script');
    const round = (value: number) => Math.round(value);
    return {
      files,
      initialJs: {
        files: scripts.length,
        rawBytes: scripts.reduce((sum, file) => sum + file.bodyBytes, 0),
        gzipBytes: scripts.reduce((sum, file) => sum + file.gzipBytes, 0),
        brotliBytes: scripts.reduce((sum, file) => sum + file.brotliBytes, 0),
        transferredBytes: metrics.scriptsBeforeUsable.reduce((sum, entry) => sum + entry.transferSize, 0),
        transferredFiles: metrics.scriptsBeforeUsable.length,
        transferred: metrics.scriptsBeforeUsable
          .map((entry) => ({ url: new URL(entry.name).pathname, bytes: entry.transferSize }))
          .sort((a, b) => b.bytes - a.bytes),
      },
      transferredBytes: files.reduce((sum, file) => sum + file.transferredBytes, 0),
      transferredGzipBytes: files.reduce(
        (sum, file) =>
          sum + (file.kind === 'font' || file.kind === 'image' ? file.bodyBytes : file.gzipBytes),
        0,
      ),
      requests: files.length,
      timingsMs: {
        ttfb: round(metrics.ttfb),
        fcp: round(metrics.fcp),
        lcp: round(metrics.lcp),
        loginFormVisible: round(metrics.loginFormVisible),
        domContentLoaded: round(metrics.domContentLoaded),
        load: round(metrics.load),
        totalBlockingTime: round(metrics.totalBlockingTime),
      },
      cumulativeLayoutShift: Math.round(metrics.cls * 1000) / 1000,
    };
  } finally {
    await context.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

export function bundleMarkdown(report: BundleReport): string {
  const lines = [
    `\`/login\` in Chromium ${report.machine.chromium} (cold cache), production build, served by the Dukkan server on loopback`,
    '',
    `JavaScript before the form is usable: ${report.initialJs.transferredFiles} files, **${kb(report.initialJs.transferredBytes)} as transferred** (brotli as served, headers included) — budget ${kb(report.budgetBytes)}: **${report.withinBudget ? 'PASS' : 'FAIL'}**`,
    `All JavaScript until the network is idle: ${report.initialJs.files} files, ${kb(report.initialJs.rawBytes)} raw, ${kb(report.initialJs.gzipBytes)} gzip -9, ${kb(report.initialJs.brotliBytes)} brotli`,
    '',
    `\`${report.listPage.path}\` signed in, with data (desktop, median of ${report.listPage.runs}): JavaScript before the rows show ${report.listPage.initialJs.transferredFiles} files, **${kb(report.listPage.initialJs.transferredBytes)} as transferred** — budget ${kb(report.listPage.budgetBytes)}: **${report.listPage.withinBudget ? 'PASS' : 'FAIL'}**; FCP ${report.listPage.median.fcp} ms, LCP ${report.listPage.median.lcp} ms, rows visible ${report.listPage.median.loginFormVisible} ms, TBT ${report.listPage.median.totalBlockingTime} ms`,
    '',
    '| profile | runs | FCP | LCP | login form visible | TBT | CLS | requests | transferred (as served) | transferred if gzipped |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const profile of report.profiles) {
    const first = profile.runsDetail[0];
    lines.push(
      `| ${profile.name} | ${profile.runs} | ${profile.median.fcp} ms | ${profile.median.lcp} ms | ${profile.median.loginFormVisible} ms | ${profile.median.totalBlockingTime} ms | ${profile.median.cls} | ${first?.requests ?? 0} | ${kb(first?.transferredBytes ?? 0)} | ${kb(first?.transferredGzipBytes ?? 0)} |`,
    );
  }
  lines.push('', '| file | kind | raw | gzip -9 | served encoding |', '|---|---|---:|---:|---|');
  for (const file of [...report.files].sort((a, b) => b.gzipBytes - a.gzipBytes)) {
    lines.push(
      `| \`${file.url}\` | ${file.kind} | ${kb(file.bodyBytes)} | ${kb(file.gzipBytes)} | ${file.contentEncoding ?? 'identity'} |`,
    );
  }
  return lines.join('\n');
}

/** 30 brands through the API, so the list page shows a full first page (also used by lighthouse.ts). */
export async function seedBrands(baseUrl: string, workspaceId: string, cookie: string) {
  for (let index = 1; index <= 30; index++) {
    const response = await fetch(`${baseUrl}/api/brands?workspaceId=${workspaceId}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: baseUrl },
      body: JSON.stringify({
        code: `B${String(index).padStart(3, '0')}`,
        name: [
          { locale: 'en', value: `Brand ${index}` },
          { locale: 'ar', value: `العلامة ${index}` },
        ],
        currencies: ['EGP'],
      }),
    });
    if (response.status !== 201)
      throw new Error(`POST /api/brands answered ${response.status}: ${await response.text()}`);
  }
}

export async function runBundleSize(): Promise<{ report: BundleReport; ok: boolean }> {
  const webDist = process.env.BENCH_WEB_DIST ?? join(repoRoot, 'apps/web/dist');
  if (!existsSync(join(webDist, 'index.html'))) {
    throw new WebBuildMissingError(
      `No web build at ${webDist}: run \`npm run build -w @dukkan/web\` first (or set BENCH_WEB_DIST).`,
    );
  }
  if (!existsSync(chromiumPath))
    throw new Error(`Chromium not found at ${chromiumPath} (Debian: apt-get install chromium)`);

  process.stdout.write(`\nBundle size and paint timings of /login and /brands (web build ${webDist})\n`);
  const dataDir = mkdtempSync(join(tmpdir(), 'dukkan-bench-web-'));
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  try {
    const admin = await migrated({ kind: 'pglite', dataDir }, async (db) => {
      const [workspaceId] = await benchWorkspaces(db, 1, 'Bundle bench');
      return {
        workspaceId: workspaceId!,
        ...(await adminSession(db, workspaceId!, { email: 'bench@example.com', name: 'Bench Admin' })),
      };
    });
    server = await startServer({ DATA_DIR: dataDir, WEB_DIST_DIR: webDist }, 'bundle bench');
    await seedBrands(server.url, admin.workspaceId, admin.cookie);
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
    const login: MeasuredPage = { path: '/login', readySelector: 'input[type="password"]' };
    const results: BundleReport['profiles'] = [];
    for (const profile of profiles) {
      const runs: PageRun[] = [];
      for (let run = 0; run < profile.runs; run++)
        runs.push(await loadPageOnce(browser, server.url, profile, login));
      // Whole milliseconds, and 0 for a profile with no runs.
      const pick = (key: keyof PageRun['timingsMs']) =>
        runs.length ? Math.round(median(runs.map((entry) => entry.timingsMs[key]))) : 0;
      const summary = {
        name: profile.name,
        runs: runs.length,
        median: {
          ttfb: pick('ttfb'),
          fcp: pick('fcp'),
          lcp: pick('lcp'),
          loginFormVisible: pick('loginFormVisible'),
          domContentLoaded: pick('domContentLoaded'),
          load: pick('load'),
          totalBlockingTime: pick('totalBlockingTime'),
          cls: Math.max(...runs.map((entry) => entry.cumulativeLayoutShift)),
        },
        runsDetail: runs,
      };
      results.push(summary);
      process.stdout.write(
        `  ${profile.name.padEnd(8)} FCP ${summary.median.fcp} ms, LCP ${summary.median.lcp} ms, form visible ${summary.median.loginFormVisible} ms, TBT ${summary.median.totalBlockingTime} ms (median of ${runs.length})\n`,
      );
    }
    const first = results[0]?.runsDetail[0];
    if (!first) throw new Error('no page load was measured');

    const list: MeasuredPage = {
      path: '/brands',
      readySelector: 'main :is(tr, li) :is(td, div)',
      sessionToken: admin.token,
    };
    const desktop = profiles[0]!;
    const listRuns: PageRun[] = [];
    for (let run = 0; run < Math.max(1, desktop.runs); run++)
      listRuns.push(await loadPageOnce(browser, server.url, desktop, list));
    const listPick = (key: keyof PageRun['timingsMs']) =>
      Math.round(median(listRuns.map((entry) => entry.timingsMs[key])));
    const listFirst = listRuns[0]!;

    const report: BundleReport = {
      machine: { ...machineFacts(), chromium: browser.version() },
      budgetBytes: initialJsBudgetBytes,
      withinBudget: first.initialJs.transferredBytes <= initialJsBudgetBytes,
      webDist,
      profiles: results,
      initialJs: first.initialJs,
      files: first.files,
      listPage: {
        path: list.path,
        budgetBytes: listPageJsBudgetBytes,
        withinBudget: listFirst.initialJs.transferredBytes <= listPageJsBudgetBytes,
        runs: listRuns.length,
        initialJs: listFirst.initialJs,
        median: {
          ttfb: listPick('ttfb'),
          fcp: listPick('fcp'),
          lcp: listPick('lcp'),
          loginFormVisible: listPick('loginFormVisible'),
          domContentLoaded: listPick('domContentLoaded'),
          load: listPick('load'),
          totalBlockingTime: listPick('totalBlockingTime'),
          cls: Math.max(...listRuns.map((entry) => entry.cumulativeLayoutShift)),
        },
      },
    };
    const path = writeResult('bundle-size', report);
    const ok = report.withinBudget && report.listPage.withinBudget;
    process.stdout.write(
      `\n${bundleMarkdown(report)}\n\nJavaScript of /login ${kb(report.initialJs.transferredBytes)} ≤ ${kb(initialJsBudgetBytes)}: ${report.withinBudget ? 'PASS' : 'FAIL'}; of ${list.path} ${kb(report.listPage.initialJs.transferredBytes)} ≤ ${kb(listPageJsBudgetBytes)}: ${report.listPage.withinBudget ? 'PASS' : 'FAIL'}\nResults: ${path}\n`,
    );
    return { report, ok };
  } finally {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (isEntry(import.meta.url)) {
  runBundleSize().then(
    ({ ok }) => process.exit(ok ? 0 : 1),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
