/// <reference lib="dom" />
/**
 * Accessibility of every page and a set of dialogs: axe-core (WCAG 2.1 A/AA, the browser tests'
 * own check, `e2e/fixtures/axe.ts`) in Debian's Chromium, in English and Arabic, light and dark,
 * at 1280×800, on the production web build served by the real server (PGlite in a temporary
 * folder, the demo admin signed in through the form).
 *
 * Views: the public pages (/login, /request-for-access, /forgot-password, /reset-password and
 * /set-password with a token, /accept-invite with a token, /404); signed in: the dashboard, every
 * screen of `apps/web/src/app/screens.ts` (each resource's list, /profile, /settings, a new and a
 * saved product), the workspace selector and user menu open, each list's "New …" dialog, and a
 * delete confirmation. Counts the serious and critical violations per rule: the elements (a rule
 * on one element of one view counts once) and the views they are on.
 *
 * Needs the production web build: `npm run build -w @dukkan/web` (or BENCH_WEB_DIST=<folder>).
 * BENCH_A11Y_VARIANTS=en/light,ar/dark checks only those. Environment: BENCH_CHROMIUM (/usr/bin/chromium), BENCH_A11Y_LABEL (a name for the run, e.g.
 * "before"), BENCH_A11Y_VERBOSE=1 (print each violation as found). Exit code 1 when any serious or critical violation is found.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { screens } from '../apps/web/src/app/screens.ts';
import { type AxeViolation, axeViolations } from '../e2e/fixtures/axe.ts';
import { chromiumArgs, chromiumPath } from './support/chromium.ts';
import { machineFacts } from './support/machine.ts';
import { repoRoot } from './support/paths.ts';
import { writeResult } from './support/results.ts';
import { runAsScript } from './support/script.ts';
import { type RunningServer, startServer } from './support/server.ts';

const admin = { email: 'admin@a11y.dukkan.test', password: 'Admin123!a11y' };
const languages = ['en', 'ar'] as const;
const themes = ['light', 'dark'] as const;
type Variant = `${(typeof languages)[number]}/${(typeof themes)[number]}`;
const variants: Variant[] = languages.flatMap((language) =>
  themes.map((theme) => `${language}/${theme}` as Variant),
);

export interface AccessibilityReport {
  label: string;
  machine: ReturnType<typeof machineFacts>;
  webDist: string;
  views: string[];
  /** Per rule: its impact, and per language/theme the elements and views that fail it. */
  rules: Record<
    string,
    { impact: string; byVariant: Partial<Record<Variant, { elements: number; views: string[] }>> }
  >;
  totals: Record<Variant, { elements: number; views: number }>;
  /** Each violation as found: rule, view, language/theme and its elements with axe's message. */
  details: {
    variant: Variant;
    rule: string;
    view: string;
    targets: { selector: string; message: string }[];
  }[];
  /** Views that could not be opened (a missing button, say), with why. */
  skipped: string[];
}

const createButton = /^(new |invite|add |جديد|إضافة|دعوة)|(جديد|جديدة)$/i;
const deleteButton = /^(delete|حذف)/i;

async function signIn(page: Page) {
  await page.goto('/login');
  await page.locator('input[type=email]').fill(admin.email);
  await page.locator('input[type=password]').fill(admin.password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 30_000 });
}

/** The page shown: no "Loading…" status left in the main region. */
async function settled(page: Page) {
  await page.waitForLoadState('load');
  await page
    .waitForFunction(
      () => !document.querySelector('[aria-busy=true], [role=status][aria-live] .animate-spin'),
      undefined,
      {
        timeout: 15_000,
      },
    )
    .catch(() => undefined);
}

async function runVariant(
  browser: Browser,
  baseURL: string,
  variant: Variant,
  productId: string | undefined,
) {
  const [language, theme] = variant.split('/') as [string, string];
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    locale: language === 'ar' ? 'ar-EG' : 'en-US',
  });
  await context.addInitScript(
    ([lng, th]) => {
      localStorage.setItem('i18nextLng', lng as string);
      localStorage.setItem('theme', th as string);
    },
    [language, theme],
  );
  const page = await context.newPage();
  const found: AxeViolation[] = [];
  const views: string[] = [];
  const skipped: string[] = [];
  const check = async (view: string) => {
    views.push(view);
    for (const violation of await axeViolations(page, view)) {
      found.push(violation);
      if (process.env.BENCH_A11Y_VERBOSE)
        process.stdout.write(
          `    ${violation.rule} on ${view}: ${violation.targets.map((target) => `${target.selector} (${target.message})`).join('; ')}\n`,
        );
    }
  };
  const visit = async (path: string, view = path) => {
    await page.goto(path);
    await settled(page);
    await check(view);
  };

  for (const path of [
    '/login',
    '/request-for-access',
    '/forgot-password',
    '/reset-password?token=a11y-check',
    '/set-password?token=a11y-check',
    '/accept-invite?token=a11y-check',
    '/404',
  ])
    await visit(path);

  await signIn(page);
  await settled(page);
  await check('/ (dashboard)');

  // The shell's menus.
  for (const [name, view] of [
    [/workspace|مساحة/i, 'workspace selector open'],
    [/user menu|account|الحساب|المستخدم/i, 'user menu open'],
  ] as const) {
    const trigger = page
      .locator('button[aria-haspopup=menu]')
      .filter({ hasText: name })
      .or(page.getByRole('button', { name }))
      .first();
    if ((await trigger.count()) === 0) {
      skipped.push(`${view}: no button`);
      continue;
    }
    await trigger.click();
    await page
      .getByRole('menu')
      .waitFor({ timeout: 5_000 })
      .catch(() => undefined);
    await check(view);
    await page.keyboard.press('Escape');
  }

  for (const screen of Object.values(screens)) {
    const path = screen.path.replace(/\/\*$/, '');
    if (path === '/' || path.includes(':')) continue;
    await visit(path);
    if (!screen.definition) continue;
    const create = page.getByRole('main').getByRole('button', { name: createButton }).first();
    if ((await create.count()) > 0 && (await create.isEnabled())) {
      const createLabel = (await create.textContent())?.trim();
      await create.click();
      const dialog = page.getByRole('dialog');
      if (
        await dialog.waitFor({ timeout: 5_000 }).then(
          () => true,
          () => false,
        )
      ) {
        await check(`${path}: ${createLabel} dialog`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
      }
    }
    const remove = page.getByRole('main').getByRole('button', { name: deleteButton }).first();
    if (path === '/measurement-units' && (await remove.count()) > 0) {
      await remove.click();
      const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog'));
      if (
        await confirm
          .first()
          .waitFor({ timeout: 5_000 })
          .then(
            () => true,
            () => false,
          )
      ) {
        await check(`${path}: delete confirmation`);
        await page.keyboard.press('Escape');
      }
    }
  }
  if (productId) await visit(`/products/${productId}`, '/products/<id>');

  await context.close();
  return { found, views, skipped };
}

/** One product through the API, so that a saved product's page can be checked. */
async function seedProduct(browser: Browser, baseURL: string): Promise<string | undefined> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  try {
    await signIn(page);
    const user = await (await page.request.get('/api/auth/user')).json();
    const workspaceId: string = user.data.adminWorkspaces[0].id;
    const units = await (
      await page.request.get(`/api/measurement-units?workspaceId=${workspaceId}&search=PC`)
    ).json();
    const unit = (units.data as { id: string; code: string }[]).find((candidate) => candidate.code === 'PC');
    const response = await page.request.post(`/api/products?workspaceId=${workspaceId}`, {
      headers: { origin: baseURL.replace('127.0.0.1', 'localhost') },
      data: {
        code: 'A11Y-1',
        name: [
          { locale: 'en', value: 'Falafel sandwich' },
          { locale: 'ar', value: 'ساندويتش فلافل' },
        ],
        measurementUnitId: unit?.id,
        options: [],
        recipe: [],
      },
    });
    if (!response.ok())
      process.stdout.write(`  (no product page: ${response.status()} ${await response.text()})\n`);
    return response.ok() ? (await response.json()).data.id : undefined;
  } finally {
    await context.close();
  }
}

export async function runAccessibilityBench(): Promise<{ report: AccessibilityReport; ok: boolean }> {
  const webDist = process.env.BENCH_WEB_DIST ?? join(repoRoot, 'apps/web/dist');
  if (!existsSync(join(webDist, 'index.html')))
    throw new Error(
      `No web build at ${webDist}: run \`npm run build -w @dukkan/web\` first (or set BENCH_WEB_DIST).`,
    );
  const label = process.env.BENCH_A11Y_LABEL ?? 'latest';
  process.stdout.write(`\nAccessibility (axe-core, WCAG 2.1 A/AA) of the web build ${webDist}\n`);
  const dataDir = mkdtempSync(join(tmpdir(), 'dukkan-bench-a11y-'));
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startServer(
      {
        DATA_DIR: dataDir,
        WEB_DIST_DIR: webDist,
        BOOTSTRAP_ADMIN_EMAIL: admin.email,
        BOOTSTRAP_ADMIN_PASSWORD: admin.password,
        AUTH_RATE_LIMIT: '1000',
      },
      'accessibility bench',
    );
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
    const productId = await seedProduct(browser, server.url);
    const report: AccessibilityReport = {
      label,
      machine: machineFacts(),
      webDist,
      views: [],
      rules: {},
      totals: Object.fromEntries(
        variants.map((variant) => [variant, { elements: 0, views: 0 }]),
      ) as AccessibilityReport['totals'],
      skipped: [],
      details: [],
    };
    const only = process.env.BENCH_A11Y_VARIANTS?.split(',');
    for (const variant of variants) {
      if (only && !only.includes(variant)) continue;
      process.stdout.write(`  ${variant}…\n`);
      const { found, views, skipped } = await runVariant(browser, server.url, variant, productId);
      if (report.views.length === 0) report.views = views;
      report.skipped.push(...skipped.map((reason) => `${variant}: ${reason}`));
      const viewsWithViolations = new Set<string>();
      for (const violation of found) {
        report.details.push({
          variant,
          rule: violation.rule,
          view: violation.label,
          targets: violation.targets,
        });
        const rule = report.rules[violation.rule] ?? { impact: violation.impact, byVariant: {} };
        report.rules[violation.rule] = rule;
        const entry = rule.byVariant[variant] ?? { elements: 0, views: [] };
        rule.byVariant[variant] = entry;
        entry.elements += violation.targets.length;
        if (!entry.views.includes(violation.label)) entry.views.push(violation.label);
        report.totals[variant].elements += violation.targets.length;
        viewsWithViolations.add(violation.label);
      }
      report.totals[variant].views = viewsWithViolations.size;
    }
    const path = writeResult(`accessibility-${label}`, report);
    process.stdout.write(`${accessibilityMarkdown(report)}\n\nResult: ${path}\n`);
    return { report, ok: Object.values(report.totals).every((total) => total.elements === 0) };
  } finally {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The table of the README: per rule, elements (views) in each language and theme. */
export function accessibilityMarkdown(report: AccessibilityReport): string {
  const cell = (entry?: { elements: number; views: string[] | number }) =>
    entry ? `${entry.elements} (${Array.isArray(entry.views) ? entry.views.length : entry.views})` : '0';
  const lines = [
    `Accessibility, ${report.label}: ${report.views.length} views × ${variants.length} (en/ar × light/dark), 1280×800 — serious/critical axe-core violations, elements (views)`,
    `Machine: ${report.machine.cpus} cores (${report.machine.cpuModel}), Node ${report.machine.node}, ${report.machine.date}`,
    '',
    `| rule | impact | ${variants.join(' | ')} |`,
    `|---|---|${variants.map(() => '---:').join('|')}|`,
  ];
  for (const [rule, entry] of Object.entries(report.rules).sort()) {
    lines.push(
      `| ${rule} | ${entry.impact} | ${variants.map((variant) => cell(entry.byVariant[variant])).join(' | ')} |`,
    );
  }
  lines.push(
    `| **total** | | ${variants.map((variant) => `**${cell(report.totals[variant])}**`).join(' | ')} |`,
  );
  if (report.skipped.length > 0) lines.push('', `Not checked: ${report.skipped.join('; ')}`);
  return lines.join('\n');
}

runAsScript(import.meta.url, async () => runAccessibilityBench());
