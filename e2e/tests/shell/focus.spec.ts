import type { Page } from '@playwright/test';
import { signIn } from '../../fixtures/auth.ts';
import { expect, test } from '../../fixtures/test.ts';

const texts = {
  en: { newBrand: 'New brand', discard: 'Discard', openMenu: 'Open menu', closeMenu: 'Close menu' },
  ar: {
    newBrand: 'إضافة علامة تجارية',
    discard: 'تجاهل',
    openMenu: 'فتح القائمة',
    closeMenu: 'إغلاق القائمة',
  },
} as const;

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  /** Signed in on the Brands page of a desktop screen, "New brand" clicked: the button and its dialog. */
  async function openNewBrand(page: Page) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page);
    await page.goto(`/brands?lng=${language}`);
    const newBrand = page.getByRole('button', { name: text.newBrand }).first();
    await newBrand.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    return { newBrand, dialog };
  }

  test(`focus: a dialog gives it back to its opener, the phone drawer keeps it (${language})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page);
    await page.goto(`/brands?lng=${language}`);
    await expect(page.locator('html')).toHaveAttribute('lang', language);

    // A clean "New brand" closes on Escape at once; the focus is back on the button that opened it.
    const newBrand = page.getByRole('button', { name: text.newBrand }).first();
    await newBrand.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.locator(':focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(newBrand).toBeFocused();

    // The phone drawer takes the focus, keeps Tab inside, and gives it back to the menu button.
    await page.setViewportSize({ width: 390, height: 844 });
    const openMenu = page.getByRole('button', { name: text.openMenu });
    await openMenu.click();
    const drawer = page.getByRole('dialog');
    await expect(drawer.getByRole('button', { name: text.closeMenu })).toBeFocused();
    const stops = await drawer.evaluate(
      (element) => element.querySelectorAll('a[href], button:not([disabled])').length,
    );
    // Once round forwards and past the start backwards: every stop is inside the drawer.
    for (const key of [...Array<string>(stops + 1).fill('Tab'), 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(await drawer.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(openMenu).toBeFocused();
  });

  test(`a typed-into dialog asks before Escape discards it, and Discard gives the focus back (${language})`, async ({
    page,
  }) => {
    const { newBrand, dialog } = await openNewBrand(page);
    await page.keyboard.type('X');
    await page.keyboard.press('Escape');
    const question = page.getByRole('alertdialog');
    await expect(question).toBeVisible();
    await question.getByRole('button', { name: text.discard }).click();
    await expect(dialog).toBeHidden();
    await expect(newBrand).toBeFocused();
  });

  // Regression: reopened with Enter after a clean Escape, a dialog typed into and escaped at once
  // closed without asking (the form told the dialog of its change from an effect, a render late).
  test(`a dialog reopened with Enter asks before Escape discards what was typed (${language})`, async ({
    page,
  }) => {
    const { newBrand, dialog } = await openNewBrand(page);
    await page.keyboard.press('Escape');
    await expect(newBrand).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await page.keyboard.type('X');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('alertdialog')).toBeVisible();
  });
}
