import { signIn } from '../../fixtures/auth.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * Speed on a slow line (issue 14): what a first visit to /login downloads before its form is
 * usable, counted in bytes as transferred (not timed). The public pages' console staying clean is
 * checked where they are shot (tests/auth/screenshots.spec.ts).
 */

/** 100 KB of JavaScript as transferred (body as sent plus headers), the budget of bench/bundle-size.ts. */
const loginJsBudgetBytes = 100_000;
/** A signed-in list page's budget, as transferred, until its rows show. */
const listJsBudgetBytes = 200_000;

/** The scripts the page requested before `selector` was shown, with their size as transferred. */
async function scriptsBefore(page: Page, selector: string) {
  await page.addInitScript((ready) => {
    const marks = window as unknown as { __loadedWhenUsable?: string[] };
    new MutationObserver((_records, observer) => {
      if (document.querySelector(ready)) {
        // What had loaded when the form appeared: a script that runs before it has finished loading.
        marks.__loadedWhenUsable = performance.getEntriesByType('resource').map((entry) => entry.name);
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  }, selector);
  return async () => {
    await page.waitForLoadState('networkidle');
    return page.evaluate(() => {
      const loaded = (window as unknown as { __loadedWhenUsable?: string[] }).__loadedWhenUsable;
      return performance
        .getEntriesByType('resource')
        .filter((entry) => /\.m?js(\?|$)/.test(entry.name) && (!loaded || loaded.includes(entry.name)))
        .map((entry) => ({
          url: new URL(entry.name).pathname,
          transferSize: (entry as PerformanceResourceTiming).transferSize,
        }));
    });
  };
}

for (const language of ['en', 'ar'] as const) {
  test(`/login (${language}) loads at most 100 KB of JavaScript before its form is usable`, async ({
    page,
  }) => {
    const cacheHeaders = new Map<string, string | undefined>();
    page.on('response', (response) => {
      if (/\/assets\/.+-[\w-]{8}\.(js|css)$/.test(new URL(response.url()).pathname))
        cacheHeaders.set(new URL(response.url()).pathname, response.headers()['cache-control']);
    });
    const fonts: string[] = [];
    page.on('response', (response) => {
      if (/\.woff2?$/.test(response.url())) fonts.push(new URL(response.url()).pathname);
    });
    const measure = await scriptsBefore(page, 'input[type="password"]');
    await page.goto(`/login?lng=${language}`);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.locator('input[type="password"]')).toBeVisible();
    const scripts = await measure();

    const total = scripts.reduce((sum, script) => sum + script.transferSize, 0);
    const listing = scripts.map((script) => `${script.url} ${script.transferSize}`).join('\n');
    expect(scripts.length, listing).toBeGreaterThan(0);
    // A size of 0 would mean the count is blind (a cached or cross-origin file), not that it is small.
    expect(
      scripts.every((script) => script.transferSize > 0),
      listing,
    ).toBe(true);
    expect(total, `JavaScript before the login form is usable:\n${listing}`).toBeLessThanOrEqual(
      loginJsBudgetBytes,
    );
    // Neither the signed-in area, nor the form library, nor the server-state library is on the path.
    expect(listing).not.toMatch(/signed-in-app|resource-|query-root/);
    // Nor the other language's texts (once downloaded as i18next's fallback language).
    expect(listing).not.toMatch(language === 'en' ? /\/assets\/ar-/ : /\/assets\/en-/);

    // The language switch names the other language in the device's face: on the English page the
    // Arabic font file of the button's weight (46 KB) is not downloaded for that one word. The
    // logotype's Arabic word, in the regular weight, is the only Arabic text there. (The Arabic
    // page has Latin text of its own: the logotype, addresses.)
    if (language === 'en')
      expect(
        fonts.filter((font) => /-arabic-arabic-(?!400)/.test(font)),
        fonts.join('\n'),
      ).toEqual([]);

    // Two weights, regular and semibold: a third face was a third file before the text settled.
    expect(
      fonts.filter((font) => !/-(400|600)-normal-/.test(font)),
      fonts.join('\n'),
    ).toEqual([]);

    // Hashed assets are cached for a year (the server's own test checks their compression too).
    expect(cacheHeaders.size).toBeGreaterThan(0);
    for (const [path, cacheControl] of cacheHeaders)
      expect(cacheControl, path).toBe('public, max-age=31536000, immutable');
  });
}

test('/brands loads at most 200 KB of JavaScript before its rows show; a public page none of the signed-in area', async ({
  browser,
  page,
}) => {
  await signIn(page);
  // A first visit: the session cookie, an empty cache.
  const context = await browser.newContext({ storageState: await page.context().storageState() });
  try {
    const visit = await context.newPage();
    const fonts: string[] = [];
    visit.on('response', (response) => {
      if (/\.woff2?$/.test(response.url())) fonts.push(new URL(response.url()).pathname);
    });
    const rows = 'main :is(tr, li) :is(td, div)';
    // The list answers only once the shell is up and the browser has been idle, as on a busy
    // server: what loads "once the page has shown" must still wait for the rows.
    let answerList = () => {};
    const listHeld = new Promise<void>((resolve) => {
      answerList = resolve;
    });
    await visit.route(/\/api\/+brands\?/, async (route) => {
      await listHeld;
      await route.continue();
    });
    const measure = await scriptsBefore(visit, rows);
    await visit.goto('/brands?lng=en');
    await expect(visit.getByRole('navigation').first()).toBeVisible();
    await expect(visit.locator('button[aria-haspopup="menu"]').first()).toBeVisible();
    await visit.evaluate(
      () => new Promise<void>((resolve) => requestIdleCallback(() => requestIdleCallback(() => resolve()))),
    );
    answerList();
    await expect(visit.locator(rows).first()).toBeVisible();
    const scripts = await measure();
    const total = scripts.reduce((sum, script) => sum + script.transferSize, 0);
    const listing = scripts.map((script) => `${script.url} ${script.transferSize}`).join('\n');
    expect(listing).toMatch(/signed-in-app/);
    expect(
      scripts.every((script) => script.transferSize > 0),
      listing,
    ).toBe(true);
    expect(total, `JavaScript before the rows show:\n${listing}`).toBeLessThanOrEqual(listJsBudgetBytes);
    // Nor does the list wait for the form renderer: the editor downloads after the rows show.
    expect(listing).not.toMatch(/form-dialog|resource-editor-dialog|select-field/);
    // What the page names to download with it (its scripts and modulepreload hints) carries neither
    // zod (forms build the schemas: apps/web/src/lib/zod/) nor Radix's layers (the menus and the
    // confirmation load after the page), each found by a name its code carries.
    const firstAnswer = await visit.evaluate(async () => {
      const html = await (await fetch('/brands')).text();
      const named = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map(
        (match) => match[1] as string,
      );
      return Promise.all(named.map(async (url) => ({ url, body: await (await fetch(url)).text() })));
    });
    expect(firstAnswer.map((script) => script.url).join('\n')).toMatch(/signed-in-app/);
    for (const marker of ['ZodType', 'DismissableLayer'])
      expect(
        firstAnswer.filter((script) => script.body.includes(marker)).map((script) => script.url),
        `scripts /brands names in its first answer that carry ${marker}`,
      ).toEqual([]);
    // The shell and the list in two weights of the face, regular and semibold.
    await visit.waitForLoadState('networkidle');
    expect(fonts.length, fonts.join('\n')).toBeGreaterThan(0);
    expect(
      fonts.filter((font) => !/-(400|600)-normal-/.test(font)),
      fonts.join('\n'),
    ).toEqual([]);
  } finally {
    await context.close();
  }

  const visitor = await browser.newContext();
  try {
    const visit = await visitor.newPage();
    const loaded: string[] = [];
    visit.on('response', (response) => loaded.push(new URL(response.url()).pathname));
    await visit.goto('/forgot-password?lng=en');
    await expect(visit.locator('form')).toBeVisible();
    await visit.waitForLoadState('networkidle');
    expect(loaded.filter((path) => path.includes('query-root')).length, loaded.join('\n')).toBe(1);
    expect(
      loaded.filter((path) => path.includes('signed-in-app')),
      loaded.join('\n'),
    ).toEqual([]);
  } finally {
    await visitor.close();
  }
});
