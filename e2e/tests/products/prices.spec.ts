import { signIn } from '../../fixtures/auth.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { catalogueApi } from '../../fixtures/products.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * Prices on a product of 3 × 4 variants, as a merchant gives them: in Arabic on a phone by a bulk
 * change and one typed card, in English on a laptop by pasting a column from a spreadsheet; each
 * saved and found as a range on the products list. Needs the server's prices (stored, answered,
 * kept as the product's range).
 */

const texts = {
  en: {
    grid: 'Variants',
    field: 'Change',
    price: 'Price',
    how: 'How',
    amount: 'Amount (EGP)',
    percent: 'Percentage',
    apply: 'Apply',
    save: 'Save',
    search: 'Search Products',
  },
  ar: {
    grid: 'المتغيرات',
    field: 'التغيير',
    price: 'السعر',
    how: 'الطريقة',
    amount: 'المبلغ (EGP)',
    percent: 'النسبة المئوية',
    apply: 'تطبيق',
    save: 'حفظ',
    search: 'البحث في المنتجات',
  },
};

async function seed(page: Page) {
  const unique = randomDigits(6);
  const api = await catalogueApi(page);
  const size = await api.createType(`PRICE-SIZE-${unique}`, { en: 'Size', ar: 'المقاس' }, [
    { en: 'Small', ar: 'صغير' },
    { en: 'Medium', ar: 'وسط' },
    { en: 'Large', ar: 'كبير' },
  ]);
  const milk = await api.createType(`PRICE-MILK-${unique}`, { en: 'Milk', ar: 'الحليب' }, [
    { en: 'Whole', ar: 'كامل الدسم' },
    { en: 'Skim', ar: 'خالي الدسم' },
    { en: 'Oat', ar: 'شوفان' },
    { en: 'Soy', ar: 'صويا' },
  ]);
  return api.createProduct({
    code: `PRICED-${unique}`,
    name: { en: 'Flat white', ar: 'فلات وايت' },
    types: [size, milk],
    sku: (index) => `FW-${unique}-${String(index + 1).padStart(2, '0')}`,
  });
}

/** The grid cell of a variant (from 0) in a column (from 0: select, title, SKU, barcode, price…). */
const cell = (page: Page, row: number, column: number) =>
  page.locator(`[role="row"][aria-rowindex="${row + 2}"] [role="gridcell"][aria-colindex="${column + 1}"]`);
const PRICE = 4;

/** Save, and the server's answer to it. */
async function saveAndWait(page: Page, save: string) {
  const saved = page.waitForResponse(
    (response) => response.request().method() === 'PATCH' && /\/api\/+products\//.test(response.url()),
  );
  await page.getByRole('button', { name: save, exact: true }).click();
  expect((await saved).ok()).toBe(true);
}

/** The products list's row of a product, found by its code. */
async function listRow(page: Page, language: 'en' | 'ar', code: string) {
  await page.goto(`/products?lng=${language}&search=${code}`);
  return page.getByRole('row').filter({ hasText: code });
}

test.describe('prices on every variant', () => {
  test('in Arabic on a 390-px phone: a bulk +10 % and one typed card, saved, the range listed', async ({
    page,
  }) => {
    test.slow(); // a product of 12 variants seeded, edited on cards, saved and listed
    const text = texts.ar;
    await page.setViewportSize(shotViewports.narrow);
    await signIn(page);
    const product = await seed(page);
    await page.goto(`/products/${product.id}?lng=ar`);
    const grid = page.getByRole('grid', { name: text.grid });
    await expect(grid).toHaveAttribute('aria-rowcount', '13');
    // Cards: the variant's full title, and its SKU left to right and visible inside the Arabic page.
    await expect(grid.getByText('فلات وايت - صغير، كامل الدسم')).toBeVisible();
    const sku = cell(page, 0, 2).locator('bdi[dir="ltr"]');
    await expect(sku).toHaveText(`FW-${product.code.slice(7)}-01`);
    await expect(sku).toBeVisible();

    // Every variant at 100, then +10 %: nothing selected, the bar applies to all.
    const bar = page.getByRole('form', { name: 'تعديل عدة متغيرات' });
    await bar.getByLabel(text.field).selectOption('price');
    await bar.getByLabel(text.how).selectOption('set');
    await bar.getByLabel(text.amount).fill('١٠٠');
    await bar.getByRole('button', { name: text.apply }).click();
    await expect(bar.getByRole('status')).toHaveText('عدد المتغيرات التي تغيّرت: 12');
    await bar.getByLabel(text.how).selectOption('percent');
    await bar.getByLabel(text.percent).fill('10');
    await bar.getByRole('button', { name: text.apply }).click();
    await expect(cell(page, 0, PRICE)).toContainText('١١٠٫٠٠');
    await expect(cell(page, 1, PRICE)).toContainText('١١٠٫٠٠');

    // One card's price typed in Arabic-Indic digits: Enter edits the cell, Enter keeps the amount.
    await cell(page, 1, PRICE).click();
    await page.keyboard.press('Enter');
    const editor = cell(page, 1, PRICE).getByRole('textbox');
    await expect(editor).toHaveAttribute('dir', 'ltr');
    await editor.fill('١٢٥٫٥');
    await page.keyboard.press('Enter');
    await expect(cell(page, 1, PRICE)).toContainText('١٢٥٫٥٠');
    await saveAndWait(page, text.save);

    const row = await listRow(page, 'ar', product.code);
    await expect(row).toContainText('١١٠٫٠٠ – ١٢٥٫٥٠');
  });

  test('in English at 1280 × 800: a pasted column of 12 prices, saved, the range listed', async ({
    page,
  }) => {
    test.slow();
    const text = texts.en;
    await page.setViewportSize(shotViewports.wide);
    await signIn(page);
    const product = await seed(page);
    await page.goto(`/products/${product.id}?lng=en`);
    const grid = page.getByRole('grid', { name: text.grid });
    await expect(grid).toHaveAttribute('aria-rowcount', '13');
    await cell(page, 0, PRICE).click();
    // As a spreadsheet copies a column: one amount a line, grouped thousands, a last line break.
    const column = Array.from({ length: 12 }, (_, index) => `${120 + index * 5}.00`).join('\r\n');
    await cell(page, 0, PRICE).evaluate((target, pasted) => {
      const data = new DataTransfer();
      data.setData('text/plain', `${pasted}\r\n`);
      target.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, column);
    await expect(cell(page, 0, PRICE)).toHaveText('120.00');
    await expect(cell(page, 11, PRICE)).toHaveText('175.00');
    await saveAndWait(page, text.save);

    const row = await listRow(page, 'en', product.code);
    await expect(row).toContainText(/EGP\s120\.00 – 175\.00/);
  });

  test('screenshots of the product page and the products list with prices', async ({ page }) => {
    test.slow();
    await signIn(page);
    const product = await seed(page);
    const api = await catalogueApi(page);
    await api.send('PATCH', `products/${product.id}`, {
      variants: product.variants.map((variant, index) => ({ key: variant.key, price: 12_000 + index * 500 })),
    });
    for (const language of ['en', 'ar'] as const) {
      for (const [theme, size] of shotVariants(language)) {
        await page.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
        await page.setViewportSize(shotViewports[size]);
        await page.goto(`/products/${product.id}?lng=${language}`);
        await expect(page.getByRole('grid', { name: texts[language].grid })).toHaveAttribute(
          'aria-rowcount',
          '13',
        );
        await page.waitForLoadState('networkidle');
        await page.screenshot({
          path: `e2e/artifacts/product-prices-${size}-${language}-${theme}.png`,
          fullPage: true,
        });
        await expectNoHorizontalOverflow(page);
        await page.goto(`/products?lng=${language}`);
        await expect(page.getByRole('row').filter({ hasText: product.code })).toBeVisible();
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: `e2e/artifacts/products-list-${size}-${language}-${theme}.png` });
        await expectNoHorizontalOverflow(page);
      }
    }
  });
});
