import { signIn } from '../../fixtures/auth.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * Issue 14: "New brand" took 167 Tab presses to reach Create, one per currency checkbox. A long
 * choice list is now one searchable combobox: Create is a few presses away, two currencies are
 * picked by typing, and the brand is created with them; at 390 px the list and chips fit.
 */
const texts = {
  en: {
    newBrand: 'New brand',
    code: 'Code',
    nameEn: 'Name (English)',
    create: 'Create',
    currencies: 'Currencies',
    removeEgp: 'Remove EGP · Egyptian Pound',
    noMatches: 'Nothing matches',
  },
  ar: {
    newBrand: 'إضافة علامة تجارية',
    code: 'الرمز',
    nameEn: 'الاسم (بالإنجليزية)',
    create: 'إنشاء',
    currencies: 'العملات',
    removeEgp: /^إزالة EGP · جنيه/,
    noMatches: 'لا توجد نتائج مطابقة',
  },
};

/** How many Tab presses take the focus from where the dialog puts it to the button named `name`. */
async function tabsTo(page: Page, name: string): Promise<number> {
  for (let presses = 1; presses <= 40; presses += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    if (focused === name) return presses;
  }
  return Number.POSITIVE_INFINITY;
}

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test(`New brand: Create in a few Tab presses, two currencies picked by typing (${language})`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const unique = `${language}${randomDigits(6)}`;
    await signIn(page);
    await page.goto(`/brands?lng=${language}`);
    await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
    await page.getByRole('button', { name: text.newBrand }).first().click();
    const dialog = page.getByRole('dialog');
    const box = dialog.getByRole('combobox', { name: text.currencies });
    // The combobox is its own chunk, loaded with the form.
    await expect(box).toBeVisible({ timeout: 30_000 });
    await expect(dialog.getByRole('checkbox')).toHaveCount(0);

    // From the first box (Code) to Create: every field is one stop; 167 before.
    await expect(dialog.getByLabel(text.code, { exact: true })).toBeFocused();
    const presses = await tabsTo(page, text.create);
    expect(presses).toBeLessThanOrEqual(15);

    await dialog.getByLabel(text.code, { exact: true }).fill(`CUR-${unique}`);
    await dialog.getByLabel(text.nameEn).fill(`Currency House ${unique}`);
    await box.focus();
    await page.keyboard.type('egyptian');
    const list = page.getByRole('listbox', { name: text.currencies });
    await expect(list.getByRole('option')).toHaveCount(1);
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('button', { name: text.removeEgp })).toBeVisible();
    await page.keyboard.type('usd');
    await expect(list.getByRole('option')).toHaveCount(1);
    await page.keyboard.press('Enter');
    await page.keyboard.type('qqqq');
    await expect(page.getByText(text.noMatches)).toBeVisible();
    // Escape closes the list; the dialog stays, with the two chips.
    await page.keyboard.press('Escape');
    await expect(list).toBeHidden();
    await expect(dialog).toBeVisible();
    await expect(box).toBeFocused();
    await expect(dialog.getByRole('button', { name: /^(Remove|إزالة) (EGP|USD) · / })).toHaveCount(2);

    await dialog.getByRole('button', { name: text.create, exact: true }).click();
    await expect(dialog).toBeHidden();
    const row = page.getByRole('row', { name: new RegExp(`CUR-${unique}`) });
    await expect(row).toContainText('EGP');
    await expect(row).toContainText('USD');
  });

  test(`the currency list on a 390 px phone, light and dark (${language})`, async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
      await page.goto(`/brands?lng=${language}`);
      await page.getByRole('button', { name: text.newBrand }).first().click();
      const dialog = page.getByRole('dialog');
      const box = dialog.getByRole('combobox', { name: text.currencies });
      await expect(box).toBeVisible({ timeout: 30_000 });
      await box.click();
      for (const code of ['EGP', 'SAR', 'AED']) {
        await page.keyboard.type(code.toLowerCase());
        await page.keyboard.press('Enter');
      }
      await page.keyboard.type('d');
      const list = page.getByRole('listbox', { name: text.currencies });
      await expect(list).toBeVisible();
      await page.screenshot({ path: `e2e/artifacts/currency-combobox-narrow-${language}-${theme}.png` });
      await expectNoHorizontalOverflow(page);
      // The list lies within the screen, above or under the box (whichever has room), not over it.
      const [listBox, inputBox] = await Promise.all([list.boundingBox(), box.boundingBox()]);
      expect(listBox && inputBox).toBeTruthy();
      if (!listBox || !inputBox) return;
      expect(listBox.x).toBeGreaterThanOrEqual(0);
      expect(listBox.x + listBox.width).toBeLessThanOrEqual(390);
      expect(listBox.y).toBeGreaterThanOrEqual(0);
      expect(listBox.y + listBox.height).toBeLessThanOrEqual(844);
      const below = listBox.y >= inputBox.y + inputBox.height;
      const above = listBox.y + listBox.height <= inputBox.y;
      expect(below || above).toBe(true);
      await expect(list.getByRole('option', { name: /^USD/ })).toBeVisible();
      // Each chip's Remove button is on screen.
      for (const button of await dialog.getByRole('button', { name: /^(Remove|إزالة) / }).all()) {
        const chip = await button.boundingBox();
        expect(chip && chip.x >= 0 && chip.x + chip.width <= 390).toBe(true);
      }
    }
  });
}
