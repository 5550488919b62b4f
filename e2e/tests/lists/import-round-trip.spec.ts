import type { Page } from '@playwright/test';
import { type DialogLanguage, importDialog } from '../../fixtures/import-dialog.ts';
import { newWorkspaceOwner } from '../../fixtures/platform.ts';
import { catalogueApi } from '../../fixtures/products.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { columnOf, csvFile, readCsv, readXlsx, type Sheet, xlsxFile } from '../../fixtures/spreadsheets.ts';
import { expect, test } from '../../fixtures/test.ts';

/**
 * The round trip a merchant makes with a list: export what a filtered list shows, change it in a
 * spreadsheet, import it back. A bad row added to the file is named by the check (its row, its
 * column, the problem in the reader's language) and the check changes nothing; with the row fixed
 * the import changes what was changed in the file, and the list (or the product's page) shows it.
 * Customers as CSV, products with variants (a row per variant, a column per variation type) as
 * XLSX; each in its own new workspace, in English and in Arabic.
 */

const texts = {
  en: {
    export: 'Export',
    csv: 'CSV (.csv)',
    xlsx: 'Excel (.xlsx)',
    customerHeaders: ['Code', 'Name', 'Phone numbers', 'Source', 'Brand', 'Status'],
    brand: 'Brand',
    noBrand: (code: string) => `No record of this workspace has the code ${code}`,
    customerCounts: 'Rows: 3 · to add: 1 · to change: 1 · unchanged: 1',
    size: { type: 'Size', small: 'Small', large: 'Large' },
    colour: { type: 'Colour', red: 'Red', blue: 'Blue' },
    tee: 'T-shirt',
    code: 'Code',
    sku: 'SKU',
    price: 'Price',
    noValue: (type: string, value: string) => `“${type}” has no value “${value}” in this workspace`,
    productCounts: 'Rows: 4 · to add: 0 · to change: 1 · unchanged: 0',
    grid: 'Variants',
    oldPrice: '100.00',
    newPrice: '135.50',
  },
  ar: {
    export: 'تصدير',
    csv: 'ملف CSV',
    xlsx: 'ملف إكسل',
    customerHeaders: ['الرمز', 'الاسم', 'أرقام الهاتف', 'المصدر', 'العلامة التجارية', 'الحالة'],
    brand: 'العلامة التجارية',
    noBrand: (code: string) => `لا يوجد في مساحة العمل سجل رمزه ${code}`,
    customerCounts: 'الصفوف: 3 · للإضافة: 1 · للتعديل: 1 · بلا تغيير: 1',
    size: { type: 'المقاس', small: 'صغير', large: 'كبير' },
    colour: { type: 'اللون', red: 'أحمر', blue: 'أزرق' },
    tee: 'تيشيرت',
    code: 'الرمز',
    sku: 'رمز SKU',
    price: 'السعر',
    noValue: (type: string, value: string) => `لا توجد في مساحة العمل قيمة «${value}» للنوع «${type}»`,
    productCounts: 'الصفوف: 4 · للإضافة: 0 · للتعديل: 1 · بلا تغيير: 0',
    grid: 'المتغيرات',
    oldPrice: '١٠٠٫٠٠',
    newPrice: '١٣٥٫٥٠',
  },
};

/** Chooses a format in the list's Export menu and returns the file it downloads. */
async function exportList(page: Page, language: DialogLanguage, format: 'csv' | 'xlsx') {
  const text = texts[language];
  await page.getByRole('button', { name: text.export }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: text[format] }).click();
  return downloading;
}

const rowsOf = (page: Page) => page.locator('main tbody tr');

for (const language of ['en', 'ar'] as const) {
  test(`customers: a filtered list exported as CSV, changed, a bad row named, then imported, in ${language}`, async ({
    browser,
  }) => {
    const text = texts[language];
    const owner = await newWorkspaceOwner(browser, language);
    const { page } = owner;
    try {
      const api = await catalogueApi(page);
      const prefix = `RT${randomDigits(6)}`;
      const phone = () => `+2010${randomDigits(8)}`;
      await api.send('POST', 'customers/bulk', [
        { code: `${prefix}-1`, name: 'Nour One', phones: [phone()], source: 'online' },
        { code: `${prefix}-2`, name: 'Nour Two', phones: [phone()], source: 'online' },
        { code: `${prefix}-3`, name: 'Nour Three', phones: [phone()], source: 'walkIn' },
      ]);

      // The list searched and filtered to the customers who came online: two of the three.
      const listAddress = `/customers?lng=${language}&search=${prefix}&source=online`;
      await page.goto(listAddress);
      await expect(rowsOf(page)).toHaveCount(2, { timeout: 60_000 });
      const exported = await readCsv(await exportList(page, language, 'csv'));
      expect(exported[0]).toEqual(text.customerHeaders);
      expect(
        exported
          .slice(1)
          .map((row) => row[0])
          .sort(),
      ).toEqual([`${prefix}-1`, `${prefix}-2`]);

      // One name changed, one customer added with a brand the workspace lacks.
      const name = columnOf(exported, text.customerHeaders[1]!);
      const changed = exported.map((row) => [...row]);
      const first = changed.find((row) => row[0] === `${prefix}-1`)!;
      first[name] = 'Nour Renamed';
      const added = [`${prefix}-4`, 'Nour Four', phone(), 'online', 'NOPE', ''];
      const file = (rows: Sheet) => ({ name: 'customers.csv', mimeType: 'text/csv', buffer: csvFile(rows) });

      const dialog = importDialog(page, language);
      await dialog.open();
      await dialog.choose(file([...changed, added]));
      await dialog.check();
      expect(await dialog.problems()).toEqual([
        { row: 4, column: text.brand, problem: text.noBrand('NOPE') },
      ]);
      await dialog.close();
      // The check changed nothing.
      await page.reload();
      await expect(rowsOf(page)).toHaveCount(2, { timeout: 60_000 });
      await expect(rowsOf(page).filter({ hasText: `${prefix}-1` })).toContainText('Nour One');
      await expect(rowsOf(page).filter({ hasText: `${prefix}-4` })).toHaveCount(0);

      // The bad row fixed (no brand): imported, the list shows both changes.
      added[4] = '';
      await dialog.open();
      await dialog.choose(file([...changed, added]));
      expect(await dialog.check()).toBe(text.customerCounts);
      expect(await dialog.problems()).toEqual([]);
      await dialog.commit({ added: 1, changed: 1 });
      await dialog.close();
      await expect(rowsOf(page)).toHaveCount(3);
      await expect(rowsOf(page).filter({ hasText: `${prefix}-1` })).toContainText('Nour Renamed');
      await expect(rowsOf(page).filter({ hasText: `${prefix}-4` })).toContainText('Nour Four');
    } finally {
      await owner.close();
    }
  });

  test(`products with variants: a filtered list exported as XLSX, a variant changed, a bad row named, then imported, in ${language}`, async ({
    browser,
  }) => {
    const text = texts[language];
    const owner = await newWorkspaceOwner(browser, language);
    const { page } = owner;
    try {
      const api = await catalogueApi(page);
      const unique = randomDigits(6);
      const size = await api.createType(`SIZE-${unique}`, { en: 'Size', ar: 'المقاس' }, [
        { en: 'Small', ar: 'صغير' },
        { en: 'Large', ar: 'كبير' },
      ]);
      const colour = await api.createType(`COLOUR-${unique}`, { en: 'Colour', ar: 'اللون' }, [
        { en: 'Red', ar: 'أحمر' },
        { en: 'Blue', ar: 'أزرق' },
      ]);
      const tee = await api.createProduct({
        code: `TEE-${unique}`,
        name: { en: 'T-shirt', ar: 'تيشيرت' },
        types: [size, colour],
        sku: (index) => `TEE-${unique}-${index + 1}`,
      });
      await api.send('PATCH', `products/${tee.id}`, {
        variants: tee.variants.map((variant) => ({ key: variant.key, price: 10_000 })),
      });
      // Another product the search leaves out.
      await api.createProduct({ code: `MUG-${unique}`, name: { en: 'Mug', ar: 'كوب' } });

      await page.goto(`/products?lng=${language}&search=TEE-${unique}`);
      await expect(rowsOf(page)).toHaveCount(1, { timeout: 60_000 });
      const exported = await readXlsx(await exportList(page, language, 'xlsx'));
      const [code, sizeColumn, colourColumn, skuColumn, priceColumn] = [
        text.code,
        text.size.type,
        text.colour.type,
        text.sku,
        text.price,
      ].map((header) => columnOf(exported, header)) as [number, number, number, number, number];
      // A row per variant of the one product found, its values named in the reader's language.
      expect(exported.slice(1).map((row) => row[code])).toEqual(Array(4).fill(`TEE-${unique}`));
      expect(
        exported
          .slice(1)
          .map((row) => `${row[sizeColumn]} ${row[colourColumn]}`)
          .sort(),
      ).toEqual(
        [
          `${text.size.small} ${text.colour.red}`,
          `${text.size.small} ${text.colour.blue}`,
          `${text.size.large} ${text.colour.red}`,
          `${text.size.large} ${text.colour.blue}`,
        ].sort(),
      );

      // The large blue variant's price and SKU changed; a row of a size the workspace lacks added.
      const changed = exported.map((row) => [...row]);
      const largeBlue = changed.find(
        (row) => row[sizeColumn] === text.size.large && row[colourColumn] === text.colour.blue,
      )!;
      const oldSku = largeBlue[skuColumn]!;
      const newSku = `TEE-${unique}-LB`;
      largeBlue[skuColumn] = newSku;
      largeBlue[priceColumn] = '135.5';
      const huge = [...changed[1]!];
      huge[sizeColumn] = 'Huge';
      huge[skuColumn] = '';
      const file = async (rows: Sheet) => ({
        name: 'products.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: await xlsxFile(rows, language === 'ar'),
      });

      const dialog = importDialog(page, language);
      await dialog.open();
      await dialog.choose(await file([...changed, huge]));
      await dialog.check();
      expect(await dialog.problems()).toEqual([
        { row: 6, column: text.size.type, problem: text.noValue(text.size.type, 'Huge') },
      ]);
      await dialog.close();

      // The check changed nothing: the list shows the one price, and every variant keeps its SKU and price.
      await page.reload();
      await expect(rowsOf(page)).toHaveCount(1, { timeout: 60_000 });
      await expect(rowsOf(page)).toContainText(text.oldPrice);
      await expect(rowsOf(page)).not.toContainText(text.newPrice);
      const stored = await api.send<{ variants: { sku: string; price: number }[] }>(
        'GET',
        `products/${tee.id}`,
      );
      expect(stored.variants.map(({ sku, price }) => ({ sku, price }))).toEqual(
        tee.variants.map(({ sku }) => ({ sku, price: 10_000 })),
      );

      // The bad row taken out: imported, the list shows the new price among the old, the
      // product's page the new SKU and price on the large blue variant.
      await dialog.open();
      await dialog.choose(await file(changed));
      expect(await dialog.check()).toBe(text.productCounts);
      expect(await dialog.problems()).toEqual([]);
      await dialog.commit({ added: 0, changed: 1 });
      await dialog.close();
      await expect(rowsOf(page)).toContainText(`${text.oldPrice} – ${text.newPrice}`);
      const grid = page.getByRole('grid', { name: text.grid });
      const variantRow = (sku: string) => grid.getByRole('row').filter({ hasText: sku });
      await page.goto(`/products/${tee.id}?lng=${language}`);
      await expect(grid).toHaveAttribute('aria-rowcount', '5', { timeout: 60_000 });
      await expect(variantRow(newSku)).toContainText(text.newPrice);
      await expect(variantRow(newSku)).toContainText(text.size.large);
      await expect(variantRow(newSku)).toContainText(text.colour.blue);
      await expect(variantRow(oldSku)).toHaveCount(0);
    } finally {
      await owner.close();
    }
  });
}
