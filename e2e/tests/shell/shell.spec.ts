import { signIn } from '../../fixtures/auth.ts';
import { expect, test } from '../../fixtures/test.ts';

test.describe('shell: language, theme, layout', () => {
  test('Arabic: rtl document, sidebar on the right, Arabic texts', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page);
    await page.goto('/?lng=ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    const sidebar = page.getByRole('navigation').first();
    await expect(sidebar).toBeVisible();
    const box = await sidebar.boundingBox();
    expect(box).not.toBeNull();
    // The sidebar hugs the right edge in right-to-left layout.
    expect(box!.x + box!.width).toBeGreaterThan(1280 - 5);
    expect(box!.x).toBeGreaterThan(640);
    await expect(page.getByText('الإعدادات').first()).toBeVisible();

    // Back to English from the user menu: the choice is kept.
    await page.goto('/?lng=en');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    const ltrBox = await page.getByRole('navigation').first().boundingBox();
    expect(ltrBox!.x).toBeLessThan(5);
  });

  test('the dark theme survives a reload', async ({ page }) => {
    await signIn(page);
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    await page.getByRole('button', { name: /user menu|account/i }).click();
    await page.getByRole('menuitem', { name: /dark|theme/i }).click();
    await expect(page.locator('html')).toHaveClass(/dark/);
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/dark/);
    // Restore the default for the next tests.
    await page.evaluate(() => localStorage.setItem('theme', 'light'));
  });

  test('the narrow layout opens the drawer', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    const openMenu = page.getByRole('button', { name: /open menu|menu/i }).first();
    await expect(openMenu).toBeVisible();
    // Neither the hidden sidebar nor the closed drawer draws the menu: the page renders it once opened.
    await expect(page.locator('nav a[href="/brands"]')).toHaveCount(0);
    await openMenu.click();
    const drawer = page.getByRole('dialog');
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('link', { name: /dashboard/i })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(page.locator('nav a[href="/brands"]')).toHaveCount(1);
    // Widened past the breakpoint: the sidebar shows its own menu.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.locator('aside').getByRole('link', { name: /dashboard/i })).toBeVisible();
  });
});
