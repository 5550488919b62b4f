import { signIn } from '../../fixtures/auth.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { findMailLink } from '../../fixtures/outbox.ts';
import { catalogueApi, type SeededProduct } from '../../fixtures/products.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { type Browser, type BrowserContext, expect, type Page, test } from '../../fixtures/test.ts';

const acceptLink = /http:\/\/localhost:\d+\/accept-invite\?token=[\w-]+/;
const pathOf = (link: string) => link.replace(/^http:\/\/localhost:\d+/, '');

const texts = {
  en: {
    readOnly: 'You can view this product but not change it.',
    save: 'Save',
    grid: 'Variants',
    recipe: 'Recipe',
    back: 'Back to products',
    newProduct: 'New product',
  },
  ar: {
    readOnly: 'يمكنك عرض هذا المنتج دون تعديله.',
    save: 'حفظ',
    grid: 'المتغيرات',
    recipe: 'الوصفة',
    back: 'العودة إلى المنتجات',
    newProduct: 'إضافة منتج',
  },
};

/**
 * As staff.spec.ts does it: the admin creates a role with the given permissions and invites a new
 * member with it; the member accepts in a browser of their own, completes the profile and signs in.
 */
async function signedInStaff(page: Page, browser: Browser, permissions: string[]) {
  const unique = randomDigits(7);
  const staff = { email: `viewer.${unique}@shop.test`, password: 'Viewer-pass1!' };
  const roleTitle = `Product viewer ${unique}`;
  await page.goto('/authority-roles?lng=en');
  await page.getByRole('button', { name: 'New role' }).first().click();
  const editor = page.getByRole('dialog');
  await editor.getByLabel('Code').fill(`viewer-${unique}`);
  await editor.getByLabel('Title').fill(roleTitle);
  for (const permission of permissions) await editor.getByRole('checkbox', { name: permission }).check();
  await editor.getByRole('button', { name: 'Create role' }).click();
  await expect(editor).toBeHidden();

  await page.goto('/users?lng=en');
  await page.getByRole('button', { name: 'Invite user' }).first().click();
  const invite = page.getByRole('dialog');
  await invite.getByLabel('Email').fill(staff.email);
  await invite.getByLabel('Role').selectOption({ label: roleTitle });
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invite).toBeHidden();

  const link = await findMailLink(staff.email, acceptLink);
  const context = await browser.newContext();
  const staffPage = await context.newPage();
  await staffPage.goto(pathOf(link));
  await staffPage.getByRole('button', { name: 'Accept Invitation' }).click();
  await staffPage.getByLabel('Full name').fill('Salma Viewer');
  await staffPage.getByLabel('Phone number').fill('+201001234567');
  await staffPage.getByLabel('Password', { exact: true }).fill(staff.password);
  await staffPage.getByLabel('Confirm password').fill(staff.password);
  await staffPage.getByRole('button', { name: 'Update Profile' }).click();
  await expect(staffPage).toHaveURL(/\/login/, { timeout: 20_000 });
  await signIn(staffPage, staff);
  return { staffPage, context };
}

/** Set up once for both tests: a product seeded by the admin, and a member who may only view products. */
let setup: {
  staffPage: Page;
  contexts: BrowserContext[];
  product: SeededProduct;
  sugarCode: string;
  unique: string;
};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  // A limit, not a wait: the setup creates a member, types, values and a product over the API.
  test.setTimeout(90_000);
  const unique = randomDigits(6);
  const adminContext = await browser.newContext();
  const page = await adminContext.newPage();
  await signIn(page);

  // A product with 3 × 4 variants with SKUs and a recipe line.
  const api = await catalogueApi(page);
  const size = await api.createType(`VSIZE-${unique}`, { en: `Size ${unique}`, ar: `المقاس ${unique}` }, [
    { en: 'Small', ar: 'صغير' },
    { en: 'Medium', ar: 'وسط' },
    { en: 'Large', ar: 'كبير' },
  ]);
  const colour = await api.createType(
    `VCOLOUR-${unique}`,
    { en: `Colour ${unique}`, ar: `اللون ${unique}` },
    [
      { en: 'Red', ar: 'أحمر' },
      { en: 'Green', ar: 'أخضر' },
      { en: 'Blue', ar: 'أزرق' },
      { en: 'Black', ar: 'أسود' },
    ],
  );
  const sugar = await api.createProduct({ code: `SUGAR-${unique}`, name: { en: 'Sugar', ar: 'سكر' } });
  const product = await api.createProduct({
    code: `TEE-${unique}`,
    name: { en: `Tee ${unique}`, ar: `تيشيرت ${unique}` },
    types: [size, colour],
    sku: (index) => `TEE-${unique}-${String(index + 1).padStart(2, '0')}`,
    recipe: [{ ingredientProductId: sugar.id, quantity: 2 }],
  });

  const { staffPage, context } = await signedInStaff(page, browser, ['View Products']);
  setup = { staffPage, contexts: [adminContext, context], product, sugarCode: sugar.code, unique };
});

test.afterAll(async () => {
  for (const context of setup?.contexts ?? []) await context.close();
});

test('a member who may only view products sees a product read-only: no inputs, no Save (en, ar)', async () => {
  const { staffPage, product, sugarCode, unique } = setup;
  for (const language of ['en', 'ar'] as const) {
    const text = texts[language];
    await staffPage.goto(`/products/${product.id}?lng=${language}`);
    await expect(staffPage.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
    await expect(staffPage.getByRole('heading', { level: 1 })).toHaveText(product.name[language]);
    await expect(staffPage.getByText(text.readOnly)).toBeVisible();

    // What the product is: its variants and their SKUs, its recipe...
    const grid = staffPage.getByRole('grid', { name: text.grid });
    await expect(grid).toHaveAttribute('aria-readonly', 'true');
    await expect(grid).toHaveAttribute('aria-rowcount', '13');
    await expect(grid.getByRole('gridcell', { name: `TEE-${unique}-01`, exact: true })).toBeVisible();
    await expect(staffPage.getByRole('table', { name: text.recipe })).toContainText(sugarCode);

    // ...and nothing to change it with.
    const main = staffPage.getByRole('main');
    await expect(main.locator('input, select, textarea, [contenteditable="true"]')).toHaveCount(0);
    for (const role of ['textbox', 'combobox', 'checkbox', 'spinbutton', 'switch', 'searchbox'] as const)
      await expect(main.getByRole(role), role).toHaveCount(0);
    await expect(staffPage.getByRole('button', { name: text.save, exact: true })).toHaveCount(0);
    await expect(staffPage.getByRole('link', { name: text.back })).toBeVisible();
    await staffPage.waitForLoadState('networkidle');
    await staffPage.screenshot({ path: `e2e/artifacts/product-read-only-${language}.png`, fullPage: true });
    await expectNoHorizontalOverflow(staffPage);
    // Typing into the grid edits nothing.
    await grid.getByRole('gridcell', { name: `TEE-${unique}-01`, exact: true }).click();
    await staffPage.keyboard.type('x');
    await staffPage.keyboard.press('Enter');
    await expect(grid.locator('input')).toHaveCount(0);

    // The list opens it too, without New (searched for: the products other tests made may fill the first page).
    await staffPage.goto(`/products?lng=${language}&search=${unique}`);
    await expect(staffPage.getByRole('link', { name: product.name[language] })).toBeVisible();
    await expect(staffPage.getByRole('link', { name: text.newProduct })).toHaveCount(0);
    await expect(staffPage.getByRole('button', { name: text.newProduct })).toHaveCount(0);
  }
  // The add page is refused.
  await staffPage.goto('/products/add?lng=en');
  await expect(staffPage.getByText('You are not authorized to access this page')).toBeVisible();
});

// With viewProducts alone the page cannot list variation types or units: it names them from the
// product's own answer (its references).
test('a read-only product names its variation types, their values and its unit', async () => {
  const { staffPage, product } = setup;
  await staffPage.goto(`/products/${product.id}?lng=en`);
  await expect(staffPage.getByRole('grid', { name: 'Variants' })).toHaveAttribute('aria-rowcount', '13');
  const variants = staffPage.getByRole('region', { name: 'Variants' });
  await expect(variants.getByRole('term')).toHaveText([/^Size /, /^Colour /]);
  await expect(variants.getByRole('definition')).toHaveText([
    'Small, Medium, Large',
    'Red, Green, Blue, Black',
  ]);
  const unit = staffPage.getByRole('region', { name: 'Details' }).getByRole('definition').nth(4);
  await expect(unit).toHaveText('Piece');
});
