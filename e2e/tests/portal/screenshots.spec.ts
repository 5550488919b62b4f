import * as client from 'openid-client';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { applicationCard, newWorkspaceOwner } from '../../fixtures/platform.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * Screenshots of the portal page (its question, and Access Denied) in en/ar × light/dark, wide
 * (1280 × 800) and narrow (390 × 844), kept in e2e/artifacts/. At each: the page does not scroll
 * sideways, and Login and Switch Account (or the link home) are wholly on screen.
 */
const texts = {
  en: { login: 'Login', switchAccount: 'Switch Account', accessDenied: 'Access Denied', home: /home/i },
  ar: {
    login: 'تسجيل الدخول',
    switchAccount: 'تبديل الحساب',
    accessDenied: 'تم رفض الوصول',
    home: /الرئيسية/,
  },
};

async function portalAddress(clientId: string): Promise<string> {
  const config = await client.discovery(new URL(`${e2eServer.url}/oidc`), clientId, undefined, undefined, {
    execute: [client.allowInsecureRequests],
  });
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: 'http://localhost:3001/callback',
    scope: 'openid profile email',
    code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    state: client.randomState(),
  });
  return url.href.slice(e2eServer.url.length);
}

async function expectWhollyOnScreen(
  page: Page,
  what: string,
  name: string | RegExp,
  role: 'button' | 'link',
) {
  const control = page.getByRole(role, { name, exact: typeof name === 'string' });
  await expect.soft(control, `${what} at ${page.viewportSize()?.width} px`).toBeInViewport({ ratio: 1 });
}

test('the portal page and Access Denied in en/ar, light/dark, wide and narrow', async ({ browser }) => {
  // A limit, not a wait: a new account, then 16 pages rendered and shot in turn.
  test.setTimeout(240_000);
  const owner = await newWorkspaceOwner(browser, 'en');
  const { page } = owner;

  for (const state of ['denied', 'question'] as const) {
    if (state === 'question') {
      await page.goto('/?lng=en');
      await applicationCard(page).getByRole('button', { name: 'Start free trial' }).click();
      await expect(applicationCard(page)).toContainText('Free trial');
    }
    for (const language of ['en', 'ar'] as const) {
      const text = texts[language];
      for (const [theme, size] of shotVariants(language)) {
        await page.evaluate(
          ([chosenTheme, chosenLanguage]) => {
            localStorage.setItem('theme', chosenTheme!);
            localStorage.setItem('i18nextLng', chosenLanguage!);
          },
          [theme, language],
        );
        await page.setViewportSize(shotViewports[size]);
        await page.goto(await portalAddress('dukkan-demo'));
        await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
        await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
        if (state === 'question') {
          await expect(page.getByRole('button', { name: text.login, exact: true })).toBeFocused();
          await expect(page.getByText(owner.workspace)).toBeVisible();
          await expectWhollyOnScreen(page, 'Login', text.login, 'button');
          await expectWhollyOnScreen(page, 'Switch Account', text.switchAccount, 'button');
        } else {
          await expect(page.getByRole('heading', { name: text.accessDenied })).toBeVisible();
          await expectWhollyOnScreen(page, 'the link home', text.home, 'link');
        }
        await expectNoHorizontalOverflow(page);
        await page.screenshot({
          path: `e2e/artifacts/portal-${state}-${size}-${language}-${theme}.png`,
          fullPage: true,
        });
      }
    }
  }
  await owner.close();
});
