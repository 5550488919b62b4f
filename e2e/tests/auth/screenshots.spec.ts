import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { expect, test } from '../../fixtures/test.ts';

/**
 * Screenshots of every public page in en/ar × light/dark, kept as artifacts in e2e/artifacts/
 * for a person to look at. Each also checks the page rendered in the right direction and theme,
 * does not scroll sideways, and leaves no error in the browser console — the signed-out session
 * probe included, which is answered without an error status (issue 14).
 */
const pages = [
  { name: 'login', path: '/login' },
  { name: 'request-for-access', path: '/request-for-access' },
  { name: 'forgot-password', path: '/forgot-password' },
  { name: 'reset-password', path: '/reset-password?token=example' },
  { name: 'set-password', path: '/set-password?token=example' },
  { name: 'accept-invite', path: '/accept-invite' },
  { name: 'authenticate', path: '/authenticate?client_id=some-app' },
  { name: '404', path: '/404' },
];

for (const language of ['en', 'ar'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`public pages in ${language}, ${theme}`, async ({ page }) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
      const probes: number[] = [];
      page.on('response', (response) => {
        if (/\/api\/+auth\/+user$/.test(new URL(response.url()).pathname)) probes.push(response.status());
      });
      await page.addInitScript((chosen) => localStorage.setItem('theme', chosen), theme);
      for (const entry of pages) {
        await page.goto(`${entry.path}${entry.path.includes('?') ? '&' : '?'}lng=${language}`);
        await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        if (theme === 'dark') await expect(page.locator('html')).toHaveClass(/dark/);
        await expect(page.locator('main, [role="main"], form, h1').first()).toBeVisible();
        await page.waitForLoadState('networkidle');
        await page.screenshot({
          path: `e2e/artifacts/${entry.name}-${language}-${theme}.png`,
          fullPage: true,
        });
        await expectNoHorizontalOverflow(page);
      }
      // The signed-out session check was made, and answered without an error status.
      expect(probes.length).toBeGreaterThan(0);
      expect(probes.filter((status) => status !== 200)).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
}
