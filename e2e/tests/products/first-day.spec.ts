import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { idOnLineWith, operator } from '../../fixtures/platform.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { shotViewports } from '../../fixtures/shots.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * A merchant's first day (issue 29), alone: an access request, the operator's `approve`, the
 * invitation accepted, and from the new workspace's empty catalogue to a saved product of 12
 * variants — a starter unit chosen, the category and two variation types with their values made
 * from the product page, no code typed anywhere — with Cancel, the browser's Back and a menu link
 * each asking "Discard your changes?" before an edit is discarded. In Arabic on a 390-px phone,
 * and in English at 1280 px.
 */
const texts = {
  en: {
    name: 'Full name',
    email: 'Email',
    phone: 'Phone number',
    company: 'Company name',
    businessCategory: 'Business category',
    heardFrom: 'How did you hear about us?',
    sendRequest: 'Send request',
    requestSent: 'Request sent successfully.',
    accept: 'Accept Invitation',
    password: 'Password',
    confirm: 'Confirm password',
    update: 'Update Profile',
    openMenu: 'Open menu',
    dataGroup: 'Data',
    products: 'Products',
    newProduct: 'New product',
    nameEn: 'Name (English)',
    nameAr: 'Name (Arabic)',
    ownName: 'Name (English)',
    code: 'Code',
    unit: 'Unit of measurement',
    piece: 'Piece',
    category: 'Category',
    newCategory: 'New category',
    newType: 'New variation type',
    description: 'Description (English)',
    values: 'Values',
    create: 'Create',
    save: 'Save',
    cancel: 'Cancel',
    created: 'Creating PRODUCT successful!',
    discardTitle: 'Discard your changes?',
    keepEditing: 'Keep editing',
    discard: 'Discard',
    grid: 'Variants',
    willBeCreated: (count: number) => `Variants that will be created: ${count}`,
    valuesOf: (type: string) => `Values of ${type}`,
    product: 'Cotton shirt',
    categoryName: 'Shirts',
    categoryDescription: 'Shirts of every kind',
    types: [
      { name: 'Size', values: ['Small', 'Medium', 'Large'] },
      { name: 'Colour', values: ['Red', 'Green', 'Blue', 'Black'] },
    ],
    kept: ['category “Shirts”', 'variation type “Size”', 'variation type “Colour”'],
  },
  ar: {
    name: 'الاسم الكامل',
    email: 'البريد الإلكتروني',
    phone: 'رقم الهاتف',
    company: 'اسم الشركة',
    businessCategory: 'مجال النشاط',
    heardFrom: 'كيف عرفت عنّا؟',
    sendRequest: 'إرسال الطلب',
    requestSent: 'تم إرسال الطلب بنجاح.',
    accept: 'قبول الدعوة',
    password: 'كلمة المرور',
    confirm: 'تأكيد كلمة المرور',
    update: 'تحديث الملف الشخصي',
    openMenu: 'فتح القائمة',
    dataGroup: 'البيانات',
    products: 'المنتجات',
    newProduct: 'إضافة منتج',
    nameEn: 'الاسم (بالإنجليزية)',
    nameAr: 'الاسم (بالعربية)',
    ownName: 'الاسم (بالعربية)',
    code: 'الرمز',
    unit: 'وحدة القياس',
    piece: 'قطعة',
    category: 'الفئة',
    newCategory: 'إضافة فئة',
    newType: 'إضافة نوع متغير',
    description: 'الوصف (بالعربية)',
    values: 'القيم',
    create: 'إنشاء',
    save: 'حفظ',
    cancel: 'إلغاء',
    created: 'تم إنشاء المنتج بنجاح!',
    discardTitle: 'هل تريد تجاهل تغييراتك؟',
    keepEditing: 'متابعة التعديل',
    discard: 'تجاهل',
    grid: 'المتغيرات',
    willBeCreated: (count: number) => `عدد المتغيرات التي ستُنشأ: ${count}`,
    valuesOf: (type: string) => `قيم ${type}`,
    product: 'قميص قطني',
    categoryName: 'قمصان',
    categoryDescription: 'قمصان بكل أنواعها',
    types: [
      { name: 'المقاس', values: ['صغير', 'وسط', 'كبير'] },
      { name: 'اللون', values: ['أحمر', 'أخضر', 'أزرق', 'أسود'] },
    ],
    kept: ['فئة «قمصان»', 'نوع متغير «المقاس»', 'نوع متغير «اللون»'],
  },
};
type Language = keyof typeof texts;
type Texts = (typeof texts)[Language];

const sizes = { ar: shotViewports.narrow, en: shotViewports.wide };

/**
 * A link of the main menu's Data group: in the sidebar on a wide screen, in the drawer on a phone;
 * the group is opened first when it is closed (it is, away from its pages).
 */
async function clickMenuLink(page: Page, text: Texts, name: string) {
  const drawer = page.locator('#navigation-drawer').getByRole('navigation');
  if ((page.viewportSize()?.width ?? 0) < 1024 && !(await drawer.isVisible())) {
    await page.getByRole('button', { name: text.openMenu }).click();
    await expect(drawer).toBeVisible();
  }
  // Whether the group is open is its button's state, not whether the link has appeared yet: a
  // check while the drawer still slides in would close a group that was open.
  const group = page
    .getByRole('navigation')
    .getByRole('button', { name: text.dataGroup, exact: true })
    .and(page.locator(':visible'));
  await expect(group).toBeVisible();
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  await page
    .getByRole('navigation')
    .getByRole('link', { name, exact: true })
    .and(page.locator(':visible'))
    .click();
}

/** "Discard your changes?" is asked; Keep editing stays where the member was, every value kept. */
async function askedThenKept(page: Page, text: Texts, at: RegExp) {
  const question = page.getByRole('alertdialog', { name: text.discardTitle });
  await expect(question).toBeVisible();
  await expect(question.getByRole('button', { name: text.keepEditing })).toBeFocused();
  await question.getByRole('button', { name: text.keepEditing }).click();
  await expect(question).toBeHidden();
  await expect(page).toHaveURL(at);
}

/** The access request, the operator's approval, the invitation accepted and the first sign-in. */
async function newMerchant(page: Page, language: Language, unique: string) {
  const text = texts[language];
  const email = `merchant.${language}.${unique}@shop.test`;
  const password = 'Merchant-pass1!';
  await page.goto(`/request-for-access?lng=${language}`);
  await page.getByLabel(text.name).fill(language === 'ar' ? 'سارة علي' : 'Sara Ali');
  await page.getByLabel(text.email).fill(email);
  await page.getByLabel(text.phone).fill(`+2010${unique.slice(0, 8)}`);
  await page.getByLabel(text.company).fill(`${language === 'ar' ? 'متجر سارة' : 'Sara Shop'} ${unique}`);
  await page.getByLabel(text.businessCategory).selectOption('other');
  await page.getByLabel(text.heardFrom).selectOption('friend');
  await page.getByRole('button', { name: text.sendRequest }).click();
  await expect(page.getByText(text.requestSent)).toBeVisible({ timeout: 30_000 });

  // The operator approves it: a workspace with its starter set, its admin invited.
  const approved = operator('approve', idOnLineWith(operator('requests', '--status', 'pending'), email));
  const link = approved.match(/Invitation link[^:]*: (\S+)/)?.[1] ?? '';
  expect(link.startsWith(`${e2eServer.url}/accept-invite?token=`), approved).toBe(true);

  await page.goto(`${link.slice(e2eServer.url.length)}&lng=${language}`);
  await page.getByRole('button', { name: text.accept }).click();
  await page.getByLabel(text.name).fill(language === 'ar' ? 'سارة علي' : 'Sara Ali');
  await page.getByLabel(text.phone).fill('+201001234567');
  await page.getByLabel(text.password, { exact: true }).fill(password);
  await page.getByLabel(text.confirm).fill(password);
  await page.getByRole('button', { name: text.update }).click();
  await expect(page).toHaveURL(/\/login$/, { timeout: 20_000 });
  await expect(page.getByLabel(text.email)).toHaveValue(email);
  await page.getByLabel(text.password, { exact: true }).fill(password);
  await page.getByLabel(text.password, { exact: true }).press('Enter');
  await expect(page).not.toHaveURL(/\/login/);
}

/** A variation type and its values, typed one per line in the dialog "New variation type" opens. */
async function newType(page: Page, text: Texts, type: { name: string; values: string[] }) {
  await page.getByRole('button', { name: text.newType }).click();
  const dialog = page.getByRole('dialog', { name: text.newType });
  await dialog.getByLabel(text.ownName).fill(type.name);
  await dialog.getByRole('textbox', { name: text.values }).fill(type.values.join('\n'));
  await dialog.getByRole('button', { name: text.create, exact: true }).click();
  await expect(dialog).toBeHidden();
  const values = page.getByRole('group', { name: text.valuesOf(type.name) });
  await expect(values.getByRole('checkbox', { checked: true })).toHaveCount(type.values.length);
}

for (const language of ['ar', 'en'] as const) {
  const text = texts[language];

  test.describe(`a merchant's first day (${language}, ${sizes[language].width} px)`, () => {
    test.use({ viewport: sizes[language] });

    test(`from the accepted invitation to a saved product of 12 variants, no code typed (${language})`, async ({
      page,
    }) => {
      // A limit, not a wait: the request's proof of work, the invitation and the product take ~60 s.
      test.slow(); // the whole first day, from the request for access on: three times the usual time
      const unique = randomDigits(9);
      await newMerchant(page, language, unique);

      // From the menu to a new product.
      await clickMenuLink(page, text, text.products);
      await expect(page).toHaveURL(/\/products$/);
      await page.getByRole('link', { name: text.newProduct }).first().click();
      await expect(page).toHaveURL(/\/products\/add/);
      await page.getByLabel(text.ownName).fill(text.product);

      // A starter unit; the category and both variation types made where they are needed.
      await page.getByLabel(text.unit).selectOption({ label: text.piece });
      await page.getByRole('button', { name: text.newCategory, exact: true }).click();
      const categoryDialog = page.getByRole('dialog', { name: text.newCategory });
      await categoryDialog.getByLabel(text.ownName).fill(text.categoryName);
      await categoryDialog.getByLabel(text.description).fill(text.categoryDescription);
      await categoryDialog.getByRole('button', { name: text.create, exact: true }).click();
      await expect(categoryDialog).toBeHidden();
      await expect(page.getByLabel(text.category, { exact: true }).locator('option:checked')).toHaveText(
        text.categoryName,
      );
      for (const type of text.types) await newType(page, text, type);
      await expect(page.getByText(text.willBeCreated(12))).toBeVisible();
      await expect(page.getByLabel(text.code, { exact: true })).toHaveValue('');
      await expectNoHorizontalOverflow(page);

      // Cancel asks, and says what was made meanwhile is kept; so does the browser's Back.
      await page.getByRole('link', { name: text.cancel, exact: true }).click();
      const question = page.getByRole('alertdialog', { name: text.discardTitle });
      for (const kept of text.kept) await expect(question).toContainText(kept);
      await page.screenshot({ path: `e2e/artifacts/first-day-kept-${language}.png` });
      await askedThenKept(page, text, /\/products\/add/);
      await page.goBack();
      await askedThenKept(page, text, /\/products\/add/);
      await expect(page.getByText(text.willBeCreated(12))).toBeVisible();

      // Saved: its own page, 12 variants, and codes assigned to everything, none typed.
      await page.getByRole('button', { name: text.save, exact: true }).click();
      await expect(page.getByText(text.created).first()).toBeVisible();
      await expect(page).toHaveURL(/\/products\/(?!add)[\w-]+$/);
      const productUrl = page.url();
      await expect(page.getByRole('heading', { level: 1, name: text.product })).toBeVisible();
      await expect(page.getByLabel(text.code, { exact: true })).toHaveValue('PRD-0001');
      await expect(page.getByRole('grid', { name: text.grid })).toHaveAttribute('aria-rowcount', '13');
      await page.screenshot({ path: `e2e/artifacts/first-day-saved-${language}.png`, fullPage: true });
      const me = await (await page.request.get('/api/auth/user')).json();
      const workspaceId = me.data.adminWorkspaces[0].id as string;
      const types = (await (await page.request.get(`/api/variation-types?workspaceId=${workspaceId}`)).json())
        .data as { code: string; values: { code: string }[] }[];
      expect(types.map((type) => [type.code, type.values.map((value) => value.code)])).toEqual([
        ['VAR-0001', ['VAR-0001-01', 'VAR-0001-02', 'VAR-0001-03']],
        ['VAR-0002', ['VAR-0002-01', 'VAR-0002-02', 'VAR-0002-03', 'VAR-0002-04']],
      ]);
      const categories = (await (await page.request.get(`/api/categories?workspaceId=${workspaceId}`)).json())
        .data as { code: string }[];
      expect(categories.map((category) => category.code)).toEqual(['CAT-0001']);

      // An edit of the saved product: Cancel and Back ask and keep it; a menu link asks and discards it.
      const name = page.getByLabel(text.ownName);
      await name.fill(`${text.product} (draft)`);
      await page.getByRole('link', { name: text.cancel, exact: true }).click();
      await askedThenKept(page, text, /\/products\/(?!add)[\w-]+$/);
      await page.goBack();
      await askedThenKept(page, text, /\/products\/(?!add)[\w-]+$/);
      await expect(name).toHaveValue(`${text.product} (draft)`);
      await clickMenuLink(page, text, text.products);
      await page
        .getByRole('alertdialog', { name: text.discardTitle })
        .getByRole('button', { name: text.discard })
        .click();
      await expect(page).toHaveURL(/\/products$/);
      await expect(page.getByRole('link', { name: text.product, exact: true })).toBeVisible();
      await page.goto(productUrl);
      await expect(page.getByLabel(text.ownName)).toHaveValue(text.product);
      await expect(page.getByRole('grid', { name: text.grid })).toHaveAttribute('aria-rowcount', '13');
    });
  });
}
