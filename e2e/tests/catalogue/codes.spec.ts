import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { newWorkspaceOwner } from '../../fixtures/platform.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { expect, expectAccessible, type Page, test } from '../../fixtures/test.ts';

/**
 * A code is optional to type (issue 29): a brand saved without one gets the next of the new
 * workspace's sequence, BR-0001, shown in the list; a code typed in another Unicode form of one
 * taken (full-width letters) is refused as not unique, under the field. The product page's code
 * field says it is optional the same way.
 */
const texts = {
  en: {
    newBrand: 'New brand',
    code: 'Code',
    optional: 'Optional',
    hint: 'Left empty, a code is assigned when you save',
    nameEn: 'Name (English)',
    nameAr: 'Name (Arabic)',
    create: 'Create',
    notUnique: 'This code must be unique',
  },
  ar: {
    newBrand: 'إضافة علامة تجارية',
    code: 'الرمز',
    optional: 'اختياري',
    hint: 'اتركه فارغًا ليُعيَّن له رمز تلقائيًا عند الحفظ',
    nameEn: 'الاسم (بالإنجليزية)',
    nameAr: 'الاسم (بالعربية)',
    create: 'إنشاء',
    notUnique: 'يجب أن يكون هذا الرمز فريدًا',
  },
};

// A new workspace's owner accepts an invitation and signs in first: slow on a loaded machine.
test.describe.configure({ timeout: 300_000 });
const loaded = { timeout: 45_000 };

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((chosen) => {
    localStorage.setItem('theme', chosen);
    document.documentElement.classList.toggle('dark', chosen === 'dark');
  }, theme);
}

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test(`a brand saved without a code is BR-0001 in the list; a full-width twin is refused (${language})`, async ({
    browser,
  }) => {
    const owner = await newWorkspaceOwner(browser, language);
    const { page } = owner;
    const shots = process.env.E2E_SHOTS_DIR ?? 'e2e/artifacts';
    const variants = shotVariants(language);
    /** The page in each theme and width of the sweep (the last one stays), each shot and checked. */
    const shoot = async (name: string) => {
      for (const [theme, size] of variants) {
        await page.setViewportSize(shotViewports[size]);
        await setTheme(page, theme);
        await expectNoHorizontalOverflow(page);
        await expectAccessible(page, `${name}, ${theme}, ${size}`);
        await page.screenshot({ path: `${shots}/codes-${name}-${language}-${theme}-${size}.png` });
      }
    };
    try {
      await page.setViewportSize(shotViewports[variants[0]![1]]);
      await page.goto(`/brands?lng=${language}`);
      await expect(page.locator('html')).toHaveAttribute('lang', language);

      await page.getByRole('button', { name: text.newBrand }).first().click(loaded);
      const dialog = page.getByRole('dialog');
      const code = dialog.getByLabel(text.code, { exact: true });
      await expect(code).toHaveValue('');
      await expect(code).not.toHaveAttribute('aria-required', 'true');
      await expect(code).toHaveAccessibleDescription(text.hint);
      await expect(dialog.locator('[data-field="code"]')).toContainText(text.optional);
      await dialog.getByLabel(text.nameEn).fill('Nile Sweets');
      await dialog.getByLabel(text.nameAr).fill('حلويات النيل');
      await shoot('brand-form');
      await dialog.getByRole('button', { name: text.create, exact: true }).click();
      await expect(dialog).toBeHidden();
      const row = page.getByRole('row', {
        name: new RegExp(language === 'ar' ? 'حلويات النيل' : 'Nile Sweets'),
      });
      await expect(row).toContainText('BR-0001');
      await shoot('brand-list');

      // The same code typed with full-width letters (an East Asian keyboard) is that code.
      await page.getByRole('button', { name: text.newBrand }).first().click();
      const twin = page.getByRole('dialog');
      await twin.getByLabel(text.code, { exact: true }).fill('\uff22\uff32-0001');
      await twin.getByLabel(text.nameEn).fill('Twin Sweets');
      await twin.getByRole('button', { name: text.create, exact: true }).click();
      await expect(twin.getByText(text.notUnique)).toBeVisible();
      await expect(twin.getByLabel(text.code, { exact: true })).toHaveAttribute('aria-invalid', 'true');
      await shoot('brand-refused');
      // Emptied, the code is assigned: the next of the sequence.
      await twin.getByLabel(text.code, { exact: true }).fill('');
      await twin.getByRole('button', { name: text.create, exact: true }).click();
      await expect(twin).toBeHidden();
      await expect(page.getByRole('row', { name: /Twin Sweets/ })).toContainText('BR-0002');

      // The product page's code says the same (SKU and barcode stay optional as they were).
      await page.goto(`/products/add?lng=${language}`);
      const productCode = page.getByRole('main').getByLabel(text.code, { exact: true });
      await expect(productCode).toHaveAccessibleDescription(text.hint, loaded);
      await expect(productCode).not.toHaveAttribute('aria-required', 'true');
      await shoot('product-page');
    } finally {
      await owner.close();
    }
  });
}
