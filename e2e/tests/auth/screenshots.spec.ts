import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { expect, test } from '../../fixtures/test.ts';

/**
 * Screenshots of every public page in en/ar × light/dark, kept as artifacts in e2e/artifacts/
 * for a person to look at. Each also checks the page rendered in the right direction and theme,
 * and does not scroll sideways.
 */
const pages = [
  { name: 'login', path: '/login' },
  { name: 'request-for-access', path: '/request-for-access' },
  { name: 'forgot-password', path: '/forgot-password' },
  { name: 'reset-password', path: '/reset-password?token=example' },
  { name: 'set-password', path: '/set-password?token=example' },
  { name: '404', path: '/404' },
];

for (const language of ['en', 'ar'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`public pages in ${language}, ${theme}`, async ({ page }) => {
      await page.addInitScript((chosen) => localStorage.setItem('theme', chosen), theme);
      for (const entry of pages) {
        await page.goto(`${entry.path}${entry.path.includes('?') ? '&' : '?'}lng=${language}`);
        await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
        if (theme === 'dark') await expect(page.locator('html')).toHaveClass(/dark/);
        await expect(page.locator('main, form, h1').first()).toBeVisible();
        await page.waitForLoadState('networkidle');
        await page.screenshot({
          path: `e2e/artifacts/${entry.name}-${language}-${theme}.png`,
          fullPage: true,
        });
        await expectNoHorizontalOverflow(page);
      }
    });
  }
}
