import type { Server } from 'node:http';
import { startDemoClient } from '../../../examples/demo-client/src/server.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { applicationCard, newWorkspaceOwner } from '../../fixtures/platform.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/*
 * The newcomer's walk of the README: the demo client (examples/demo-client, as `npm run
 * demo-client` starts it, on :3001) signs in through Dukkan, shows the user and the workspace,
 * refreshes, and is signed out when the workspace's subscription ends; Dukkan then refuses it.
 */

const demoUrl = 'http://localhost:3001';
let demo: Server;

test.beforeAll(async () => {
  demo = await startDemoClient({ dukkanUrl: e2eServer.url, clientId: 'dukkan-demo', port: 3001 });
});
test.afterAll(async () => {
  await new Promise((resolve) => demo.close(resolve));
});

test('the demo client signs in through Dukkan, refreshes, and is signed out when the trial ends', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = await newWorkspaceOwner(browser, 'en');
  const { page } = owner;
  await page.goto('/?lng=en');
  const card = applicationCard(page);
  await card.getByRole('button', { name: 'Start free trial' }).click();
  await expect(card).toContainText('Free trial');

  await page.goto(demoUrl);
  await page.getByRole('link', { name: 'Sign in with Dukkan' }).click();
  await expect(page.getByRole('heading', { name: 'You are about to login to Demo app' })).toBeVisible();
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(`${demoUrl}/`);
  await expect(page.getByText(owner.workspace)).toBeVisible();
  await expect(page.getByText(owner.email)).toBeVisible();

  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByText(owner.workspace)).toBeVisible();

  // The owner ends the trial on the dashboard: the demo client's next look at Dukkan signs it out.
  await page.goto(`${e2eServer.url}/?lng=en`);
  await applicationCard(page).getByRole('button', { name: 'Cancel subscription' }).click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: 'End trial now — it cannot be restarted' })
    .click();
  await expect(applicationCard(page)).toContainText('Expired free trial');

  await page.goto(demoUrl);
  // In a person's words, not the OAuth refusal's ("grant request is invalid").
  await expect(page.getByText(/You were signed out: Dukkan no longer lets you into Demo app/)).toBeVisible();
  await expect(page.getByText(/grant request is invalid/)).toHaveCount(0);
  await page.getByRole('link', { name: 'Sign in with Dukkan' }).click();
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText('You are not authorized to access Demo app')).toBeVisible();
  await owner.close();
});

const texts = {
  en: {
    app: 'Demo app',
    accessDenied: 'Access Denied',
    notAuthorized: 'You are not authorized to access Demo app',
    contactAdministrator: 'Please contact your administrator',
    startTrial: 'Start free trial',
    signOutHeading: 'Sign out of Demo app?',
    signOut: 'Sign out',
    stay: 'Stay signed in',
  },
  ar: {
    app: 'التطبيق التجريبي',
    accessDenied: 'تم رفض الوصول',
    notAuthorized: 'ليست لديك صلاحية للوصول إلى التطبيق التجريبي',
    contactAdministrator: 'يُرجى التواصل مع المسؤول',
    startTrial: 'ابدأ التجربة المجانية',
    signOutHeading: 'تسجيل الخروج من التطبيق التجريبي؟',
    signOut: 'تسجيل الخروج',
    stay: 'البقاء مسجَّل الدخول',
  },
};

/** The addresses of Dukkan's pages a tab showed, in order (its main frame's navigations). */
function dukkanPagesVisited(page: Page): string[] {
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return;
    const url = new URL(frame.url());
    if (url.origin === e2eServer.url) visited.push(url.pathname);
  });
  return visited;
}

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test(`${language}: from the demo client with no subscription, the trial starts on Access Denied and the client signs in; signing out asks in one language`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    // The workspace's new admin (saving their language); they start over in a fresh browser.
    const owner = await newWorkspaceOwner(browser, language);
    await owner.close();
    const context = await browser.newContext({ locale: language === 'ar' ? 'ar-EG' : 'en-US' });
    const page = await context.newPage();
    const visited = dukkanPagesVisited(page);

    await page.goto(demoUrl);
    await page.getByRole('link', { name: 'Sign in with Dukkan' }).click();
    await expect(page).toHaveURL(/\/login\?from=(%2F|\/)authenticate/);
    await page.getByLabel(/email|البريد/i).fill(owner.email);
    await page.getByLabel(/^(password|كلمة المرور)/i).fill('Owner-pass1!');
    await page.getByRole('button', { name: /log ?in|sign ?in|تسجيل الدخول|دخول/i }).click();

    // The spec's words stay; below them, the admin is offered the application's card, not told
    // to contact themselves.
    await expect(page.getByRole('heading', { name: text.accessDenied })).toBeVisible();
    await expect(page.getByText(text.notAuthorized)).toBeVisible();
    const card = page.getByRole('article', { name: text.app });
    await expect(card.getByRole('button', { name: text.startTrial })).toBeVisible();
    await expect(page.getByText(text.contactAdministrator)).toHaveCount(0);
    await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
    await shootAccessDenied(page, language);

    await card.getByRole('button', { name: text.startTrial }).click();
    await expect(page).toHaveURL(`${demoUrl}/`);
    await expect(page.getByText(owner.workspace)).toBeVisible();
    await expect(page.getByText(owner.email)).toBeVisible();
    // Login, the portal, and nothing else of Dukkan: never its dashboard.
    expect(visited).not.toContain('/');
    expect(visited).toContain('/authenticate');

    // Signing out of the client: Dukkan's own page, in the person's saved language only.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: text.signOutHeading })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
    await expect(page.getByRole('button', { name: text.stay })).toBeVisible();
    await expect(
      page.getByText(language === 'ar' ? texts.en.signOutHeading : texts.ar.signOutHeading),
    ).toHaveCount(0);
    await shootSignOut(page, language);
    await page.getByRole('button', { name: text.signOut, exact: true }).click();
    await expect(page).toHaveURL(`${demoUrl}/`);
    await expect(page.getByRole('link', { name: 'Sign in with Dukkan' })).toBeVisible();
    await context.close();
  });
}

/**
 * Access Denied with the card, in the language's theme and width pairs (`E2E_SHOTS=all`: all
 * four), into e2e/artifacts/: the page does not scroll sideways and the trial's button is on screen.
 */
async function shootAccessDenied(page: Page, language: 'en' | 'ar') {
  for (const [theme, size] of shotVariants(language)) {
    await page.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
    await page.setViewportSize(shotViewports[size]);
    await page.reload();
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    const start = page.getByRole('button', { name: texts[language].startTrial });
    await start.scrollIntoViewIfNeeded();
    await expect(start).toBeInViewport({ ratio: 1 });
    await expectNoHorizontalOverflow(page);
    await page.screenshot({
      path: `e2e/artifacts/portal-denied-offer-${size}-${language}-${theme}.png`,
      fullPage: true,
    });
  }
}

/** The authorization server's sign-out page, light and dark as the system says, wide and narrow. */
async function shootSignOut(page: Page, language: 'en' | 'ar') {
  for (const [theme, size] of shotVariants(language)) {
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize(shotViewports[size]);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundImage);
    // The palette follows the system's: slate-50 by day, slate-950 by night.
    expect(background).toContain(theme === 'dark' ? 'rgb(2, 6, 23)' : 'rgb(248, 250, 252)');
    await expect(page.getByRole('button', { name: texts[language].signOut, exact: true })).toBeInViewport({
      ratio: 1,
    });
    await expectNoHorizontalOverflow(page);
    await page.screenshot({
      path: `e2e/artifacts/sign-out-${size}-${language}-${theme}.png`,
      fullPage: true,
    });
  }
}
