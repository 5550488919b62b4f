import { signIn } from '../../fixtures/auth.ts';
import { catalogueApi } from '../../fixtures/products.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { expect, type Locator, type Page, test } from '../../fixtures/test.ts';

/** The texts each language shows; the flow is the same in both. */
const texts = {
  en: {
    newType: 'New variation type',
    create: 'Create',
    edit: 'Edit',
    code: 'Code',
    nameEn: 'Name (English)',
    nameAr: 'Name (Arabic)',
    newValue: 'New value',
    addValue: 'Add value',
    valuesOf: (type: string) => `Values of ${type}`,
    unit: 'Unit of measurement',
    piece: 'Piece',
    typeToAdd: 'Variation type to add',
    searchTypes: 'Search variation types by code or name',
    chooseAllOf: (type: string) => `Choose every value of ${type}`,
    willBeCreated: (count: number) => `Variants that will be created: ${count}`,
    save: 'Save',
    created: 'Creating PRODUCT successful!',
    updated: 'Updating PRODUCT successful!',
    grid: 'Variants',
    addIngredient: 'Add ingredient',
    ingredientOfLine: (line: number) => `Ingredient (Line ${line})`,
    searchIngredient: 'Search products by code, name, SKU or barcode',
    quantity: 'Quantity',
    searchProducts: 'Search Products',
    // The arrow that moves to the next column: right in English, left in Arabic.
    nextColumn: 'ArrowRight',
  },
  ar: {
    newType: 'إضافة نوع متغير',
    create: 'إنشاء',
    edit: 'تعديل',
    code: 'الرمز',
    nameEn: 'الاسم (بالإنجليزية)',
    nameAr: 'الاسم (بالعربية)',
    newValue: 'قيمة جديدة',
    addValue: 'إضافة القيمة',
    valuesOf: (type: string) => `قيم ${type}`,
    unit: 'وحدة القياس',
    piece: 'قطعة',
    typeToAdd: 'نوع المتغير المراد إضافته',
    searchTypes: 'ابحث في أنواع المتغيرات بالرمز أو الاسم',
    chooseAllOf: (type: string) => `اختيار كل قيم ${type}`,
    willBeCreated: (count: number) => `عدد المتغيرات التي ستُنشأ: ${count}`,
    save: 'حفظ',
    created: 'تم إنشاء المنتج بنجاح!',
    updated: 'تم تحديث المنتج بنجاح!',
    grid: 'المتغيرات',
    addIngredient: 'إضافة مكوّن',
    ingredientOfLine: (line: number) => `المكوّن (السطر ${line})`,
    searchIngredient: 'ابحث عن المنتجات بالرمز أو الاسم أو SKU أو الباركود',
    quantity: 'الكمية',
    searchProducts: 'البحث في المنتجات',
    nextColumn: 'ArrowLeft',
  },
};
type Language = keyof typeof texts;
type Texts = (typeof texts)[Language];

interface Name {
  en: string;
  ar: string;
}

/** An EAN-13 of a 12-digit body with its GS1 check digit. */
function ean13(body: string): string {
  const sum = [...body].reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

async function open(page: Page, path: string, language: Language) {
  await page.goto(`${path}?lng=${language}`);
  await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
}

/**
 * On /variations-types: a new type through the list's dialog, then its values one by one in the
 * type's own dialog (its row's Edit), where each is saved right away.
 */
async function createType(page: Page, language: Language, code: string, name: Name, values: Name[]) {
  const text = texts[language];
  const shown = name[language];
  await page.getByRole('button', { name: text.newType }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(text.code, { exact: true }).fill(code);
  await dialog.getByLabel(text.nameEn).fill(name.en);
  await dialog.getByLabel(text.nameAr).fill(name.ar);
  await dialog.getByRole('button', { name: text.create, exact: true }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('row', { name: new RegExp(shown) });
  await row.getByRole('button', { name: new RegExp(`^${text.edit}`) }).click();
  const list = dialog.getByRole('list', { name: text.valuesOf(shown) });
  const form = dialog.getByRole('region', { name: text.newValue });
  for (const [index, value] of values.entries()) {
    await form.getByLabel(text.code, { exact: true }).fill(`${code}-${index + 1}`);
    await form.getByLabel(text.nameEn).fill(value.en);
    await form.getByLabel(text.nameAr).fill(value.ar);
    await form.getByRole('button', { name: text.addValue }).click();
    // Listed at once, and the form emptied for the next.
    await expect(list.getByRole('listitem')).toHaveCount(index + 1);
    await expect(form.getByLabel(text.code, { exact: true })).toHaveValue('');
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The list shows the values inline, in order.
  await expect(row.getByRole('listitem')).toHaveText(values.map((value) => value[language]));
}

/**
 * Every variant row of the grid (title → SKU), rows being virtualized: those rendered at the top,
 * then those rendered once scrolled to the end. Columns: select, title, SKU (editable grid).
 */
async function gridSkus(grid: Locator, count: number): Promise<Map<string, string>> {
  const read = () =>
    grid.evaluate((element) =>
      Array.from(element.querySelectorAll<HTMLElement>('[role="row"][data-row]')).map(
        (row): [string, string] => [
          row.querySelector('[aria-colindex="2"]')?.textContent ?? '',
          row.querySelector('[aria-colindex="3"]')?.textContent ?? '',
        ],
      ),
    );
  await grid.evaluate((element) => element.scrollTo({ top: 0 }));
  await expect(grid.locator('[data-row="0"]')).toBeVisible();
  const rows = new Map(await read());
  await grid.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  await expect(grid.locator(`[data-row="${count - 1}"]`)).toBeVisible();
  for (const [title, sku] of await read()) rows.set(title, sku);
  expect(rows.size, 'every variant row was read').toBe(count);
  return rows;
}

/** Clicks Save and waits for the server's answer and the success toast. */
async function save(page: Page, text: Texts, toast: string) {
  const answer = page.waitForResponse(
    (response) =>
      /\/api\/+products(\/|\?)/.test(response.url()) &&
      ['POST', 'PATCH'].includes(response.request().method()),
  );
  await page.getByRole('button', { name: text.save, exact: true }).click();
  const response = await answer;
  expect(response.ok(), await response.text()).toBe(true);
  await expect(page.getByText(toast).first()).toBeVisible();
}

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test(`variation types, a 3 × 4 product, SKUs typed and pasted, a new value, a recipe, search by SKU (${language})`, async ({
    page,
    context,
  }) => {
    // A limit, not a wait: the whole flow (types, 12 variants, grid, recipe, search) runs ~30 s.
    test.setTimeout(150_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const unique = `${language.toUpperCase()}${randomDigits(6)}`;
    const size: Name = { en: `Size ${unique}`, ar: `المقاس ${unique}` };
    const colour: Name = { en: `Colour ${unique}`, ar: `اللون ${unique}` };
    const sizes: Name[] = [
      { en: 'Small', ar: 'صغير' },
      { en: 'Medium', ar: 'وسط' },
      { en: 'Large', ar: 'كبير' },
    ];
    const colours: Name[] = [
      { en: 'Red', ar: 'أحمر' },
      { en: 'Green', ar: 'أخضر' },
      { en: 'Blue', ar: 'أزرق' },
      { en: 'Black', ar: 'أسود' },
    ];
    const productName: Name = { en: `Cotton shirt ${unique}`, ar: `قميص قطن ${unique}` };
    await signIn(page);

    // 1. Two variation types, their values added inline in the type's dialog.
    await open(page, '/variations-types', language);
    await createType(page, language, `SIZE-${unique}`, size, sizes);
    await createType(page, language, `COLOUR-${unique}`, colour, colours);

    // 2. A product choosing every value of both: 3 × 4 = 12 variants, previewed, then saved.
    const api = await catalogueApi(page);
    const flour = await api.createProduct({
      code: `FLOUR-${unique}`,
      name: { en: `Flour ${unique}`, ar: `دقيق ${unique}` },
    });
    await open(page, '/products/add', language);
    await page.getByLabel(text.code, { exact: true }).fill(`SHIRT-${unique}`);
    await page.getByLabel(text.nameEn).fill(productName.en);
    await page.getByLabel(text.nameAr).fill(productName.ar);
    await page.getByLabel(text.unit).selectOption({ label: text.piece });
    for (const type of [size, colour]) {
      await page.getByRole('button', { name: text.typeToAdd }).click();
      await page.getByRole('combobox', { name: text.searchTypes }).fill(type[language]);
      await page.getByRole('option', { name: type[language] }).click();
      await page.getByRole('button', { name: text.chooseAllOf(type[language]) }).click();
    }
    await expect(page.getByRole('status').filter({ hasText: text.willBeCreated(12) })).toBeVisible();
    const grid = page.getByRole('grid', { name: text.grid });
    await expect(grid).toHaveAttribute('aria-rowcount', '13');
    await save(page, text, text.created);
    await expect(page).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
    const productPath = new URL(page.url()).pathname;
    // Twelve variant rows and the header, though not all are in the DOM at once.
    await expect(grid).toHaveAttribute('aria-rowcount', '13');
    const titles = [...(await gridSkus(grid, 12)).keys()];
    expect(new Set(titles).size).toBe(12);

    // 3. SKUs typed with the keyboard: from a title cell, the next column's arrow, type, Enter...
    const cell = (row: number, column: number) =>
      grid.locator(`[data-row="${row}"] [role="gridcell"][aria-colindex="${column}"]`);
    await cell(0, 2).click();
    await page.keyboard.press(text.nextColumn);
    await expect(cell(0, 3)).toBeFocused();
    await page.keyboard.type(`TS-${unique}-01`);
    await page.keyboard.press('Enter');
    await expect(cell(0, 3)).toHaveText(`TS-${unique}-01`);
    await expect(cell(0, 3)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(cell(1, 3)).toBeFocused();
    await page.keyboard.type(`TS-${unique}-02`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    await expect(cell(2, 3)).toBeFocused();
    // ...and a block of three rows (SKU, barcode) pasted from the clipboard into the next ones.
    const barcodes = [1, 2, 3].map((row) => ean13(`62${randomDigits(8)}${language === 'en' ? 1 : 2}${row}`));
    const block = [3, 4, 5].map((n, index) => `TS-${unique}-0${n}\t${barcodes[index]}`).join('\n');
    await page.evaluate((pasted) => navigator.clipboard.writeText(pasted), `${block}\n`);
    await page.keyboard.press('ControlOrMeta+V');
    await expect(cell(4, 3)).toHaveText(`TS-${unique}-05`);
    await expect(cell(2, 4)).toHaveText(barcodes[0]!);
    await expect(cell(4, 4)).toHaveText(barcodes[2]!);
    const typed = new Map(titles.slice(0, 5).map((title, index) => [title, `TS-${unique}-0${index + 1}`]));
    await save(page, text, text.updated);
    // Meanwhile a fourth size is added to the type (through the API: the type's dialog was used
    // above); the reload shows it among the choices.
    const extraLarge: Name = { en: 'Extra large', ar: 'كبير جدًا' };
    await api.addValue(`SIZE-${unique}`, `SIZE-${unique}-4`, extraLarge);
    await page.reload();
    await expect(grid).toHaveAttribute('aria-rowcount', '13');
    const keptSkus = async (count: number) => {
      const skus = await gridSkus(grid, count);
      for (const [title, sku] of typed) expect(skus.get(title), title).toBe(sku);
      return skus;
    };
    await expect(cell(3, 4)).toHaveText(barcodes[1]!);
    await keptSkus(12);

    // 4. The fourth size chosen on the product's options: 16 variants, the SKUs of the 12 kept.
    await page
      .getByRole('group', { name: text.valuesOf(size[language]) })
      .getByLabel(extraLarge[language])
      .check();
    await expect(page.getByRole('status').filter({ hasText: text.willBeCreated(16) })).toBeVisible();
    await save(page, text, text.updated);
    await expect(grid).toHaveAttribute('aria-rowcount', '17');
    const skus = await keptSkus(16);
    expect([...skus.keys()].filter((title) => title.includes(extraLarge[language]))).toHaveLength(4);

    // 5. A recipe line: another product as the ingredient, a quantity. A reload shows it, and the
    // 16 variants with their SKUs.
    await page.getByRole('button', { name: text.addIngredient }).click();
    await page.getByRole('button', { name: text.ingredientOfLine(1) }).click();
    await page.getByRole('combobox', { name: text.searchIngredient }).fill(flour.code);
    await page.getByRole('option', { name: new RegExp(flour.code) }).click();
    await expect(page.getByRole('button', { name: text.ingredientOfLine(1) })).toContainText(flour.code);
    const recipe = page.getByRole('group', { name: language === 'en' ? 'Line 1' : 'السطر 1' });
    await recipe.getByLabel(text.quantity).fill('0.25');
    await save(page, text, text.updated);
    await page.reload();
    await expect(page.getByRole('button', { name: text.ingredientOfLine(1) })).toContainText(flour.code);
    await expect(page.getByRole('button', { name: text.ingredientOfLine(1) })).toContainText(
      flour.name[language],
    );
    await expect(recipe.getByLabel(text.quantity)).toHaveValue('0.25');
    await expect(grid).toHaveAttribute('aria-rowcount', '17');
    await keptSkus(16);

    // 6. The product list finds the product by one variant's SKU.
    await open(page, '/products', language);
    await page.getByRole('searchbox', { name: text.searchProducts }).fill(`TS-${unique}-04`);
    await expect(page.getByRole('row')).toHaveCount(2);
    await expect(page.getByRole('row').nth(1)).toContainText(productName[language]);
    await page.getByRole('link', { name: productName[language] }).click();
    await expect(page).toHaveURL(new RegExp(`${productPath}$`));
  });
}
