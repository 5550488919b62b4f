import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { newWorkspaceOwner } from '../../fixtures/platform.ts';
import { enrolTotp } from '../../fixtures/second-factor.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { expect, test } from '../../fixtures/test.ts';

/**
 * The second factor's screens in en/ar (`E2E_SHOTS=all`: light/dark, wide and narrow), kept in
 * e2e/artifacts/ for a person to look at: the profile's Security and sessions with a factor, the
 * authenticator app's dialog with its QR code, and /login's second step. Each checks the page's
 * direction, what it shows, and that it does not scroll sideways.
 */

const texts = {
  en: {
    security: 'Security',
    sessions: 'Your sessions',
    addApp: 'Add authenticator app',
    code: 'Authentication code',
    thisDevice: 'This device',
  },
  ar: {
    security: 'الأمان',
    sessions: 'جلساتك',
    addApp: 'إضافة تطبيق مصادقة',
    code: 'رمز المصادقة',
    thisDevice: 'هذا الجهاز',
  },
} as const;

test('the second factor screens in en/ar', async ({ browser }) => {
  test.setTimeout(400_000);
  const owner = await newWorkspaceOwner(browser, 'en');
  const { page } = owner;
  // A factor to list: enrolled through the API, as the enrolment itself is the other spec's.
  await enrolTotp(page, 'Owner-pass1!', 'Pixel 9');

  for (const language of ['en', 'ar'] as const) {
    const text = texts[language];
    for (const [theme, size] of shotVariants(language)) {
      const name = `${size}-${language}-${theme}`;
      await page.evaluate(
        ([chosenTheme, chosenLanguage]) => {
          localStorage.setItem('theme', chosenTheme!);
          localStorage.setItem('i18nextLng', chosenLanguage!);
        },
        [theme, language],
      );
      await page.setViewportSize(shotViewports[size]);
      await page.goto('/profile');
      await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
      await expect(page.getByRole('heading', { name: text.security })).toBeVisible();
      await expect(page.getByTestId('second-factor')).toContainText('Pixel 9');
      await expect(page.getByTestId('session').first()).toContainText(text.thisDevice);
      await expectNoHorizontalOverflow(page);
      await page
        .locator('#security')
        .screenshot({ path: `e2e/artifacts/second-factor-security-${name}.png` });
      await page
        .getByRole('heading', { name: text.sessions })
        .locator('..')
        .screenshot({ path: `e2e/artifacts/second-factor-sessions-${name}.png` });

      await page.getByRole('button', { name: text.addApp }).click();
      await page.getByRole('dialog').locator('input[name="password"]').fill('Owner-pass1!');
      await page.getByRole('dialog').locator('button[type="submit"]').click();
      await expect(page.getByTestId('totp-qr')).toBeVisible();
      await page.screenshot({ path: `e2e/artifacts/second-factor-add-app-${name}.png` });
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
  }

  // /login's second step, in a browser of its own (the owner stays signed in above).
  const context = await browser.newContext();
  const login = await context.newPage();
  for (const language of ['en', 'ar'] as const) {
    for (const [theme, size] of shotVariants(language)) {
      await login.addInitScript((chosen) => localStorage.setItem('theme', chosen), theme);
      await login.setViewportSize(shotViewports[size]);
      await login.goto(`/login?lng=${language}`);
      await login.locator('input[name="email"]').fill(owner.email);
      await login.locator('input[name="password"]').fill('Owner-pass1!');
      await login.locator('button[type="submit"]').click();
      await expect(login.getByLabel(texts[language].code)).toBeFocused();
      await expectNoHorizontalOverflow(login);
      await login.screenshot({ path: `e2e/artifacts/second-factor-login-${size}-${language}-${theme}.png` });
      await context.clearCookies();
    }
  }
  await context.close();
  await owner.close();
});
