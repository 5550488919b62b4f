import { signIn } from '../../fixtures/auth.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { expect, expectAccessible, type Page, test } from '../../fixtures/test.ts';

/**
 * Leaving a full page with unsaved changes asks "Discard your changes?" (issue 29): Cancel, the
 * browser's Back, a menu link and sign-out; Keep editing stays with every value, Discard goes on
 * to where the member was going. English at 1280 px, Arabic on a 390-px phone (its menu in the
 * drawer). The workspace switch: tests/workspaces/unsaved-changes-switch.spec.ts.
 */
const texts = {
  en: {
    discardTitle: 'Discard your changes?',
    keepEditing: 'Keep editing',
    discard: 'Discard',
    cancel: 'Cancel',
    newProduct: 'New product',
    addProduct: 'Add product',
    code: 'Code',
    nameEn: 'Name (English)',
    nameAr: 'Name (Arabic)',
    unit: 'Unit of measurement',
    piece: 'Piece',
    save: 'Save',
    dashboard: 'Dashboard',
    brands: 'Brands',
    profile: 'My profile',
    name: 'Name',
    saveProfile: 'Save changes',
    profileSaved: 'Profile updated successfully',
    logout: 'Logout',
    openMenu: 'Open menu',
    accountMenu: /account menu/i,
  },
  ar: {
    discardTitle: 'هل تريد تجاهل تغييراتك؟',
    keepEditing: 'متابعة التعديل',
    discard: 'تجاهل',
    cancel: 'إلغاء',
    newProduct: 'إضافة منتج',
    addProduct: 'إضافة منتج',
    code: 'الرمز',
    nameEn: 'الاسم (بالإنجليزية)',
    nameAr: 'الاسم (بالعربية)',
    unit: 'وحدة القياس',
    piece: 'قطعة',
    save: 'حفظ',
    dashboard: 'لوحة التحكم',
    brands: 'العلامات التجارية',
    profile: 'ملفي الشخصي',
    name: 'الاسم',
    saveProfile: 'حفظ التغييرات',
    profileSaved: 'تم تحديث الملف الشخصي بنجاح',
    logout: 'تسجيل الخروج',
    openMenu: 'فتح القائمة',
    accountMenu: /قائمة الحساب/,
  },
};
type Language = keyof typeof texts;
type Texts = (typeof texts)[Language];

const sizes = { en: shotViewports.wide, ar: shotViewports.narrow };

async function open(page: Page, path: string, language: Language) {
  await page.goto(`${path}${path.includes('?') ? '&' : '?'}lng=${language}`);
  await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
}

const discardDialog = (page: Page, text: Texts) => page.getByRole('alertdialog', { name: text.discardTitle });

/** Keep editing: the dialog closes, the page and its address stay. */
async function keepEditing(page: Page, text: Texts, path: string | RegExp) {
  const dialog = discardDialog(page, text);
  await expect(dialog).toBeVisible();
  // The safe answer has the focus first: Enter never discards by accident.
  await expect(dialog.getByRole('button', { name: text.keepEditing })).toBeFocused();
  await dialog.getByRole('button', { name: text.keepEditing }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(path);
}

/** A link of the main menu: in the sidebar on a wide screen, in the drawer on a phone. */
async function clickMenuLink(page: Page, text: Texts, name: string) {
  const drawer = page.locator('#navigation-drawer').getByRole('navigation');
  if ((page.viewportSize()?.width ?? 0) < 1024 && !(await drawer.isVisible()))
    await page.getByRole('button', { name: text.openMenu }).click();
  await page
    .getByRole('navigation')
    .getByRole('link', { name, exact: true })
    .and(page.locator(':visible'))
    .click();
}

/** Closes the drawer a refused menu link left open (a phone). */
async function closeDrawerIfOpen(page: Page) {
  const drawer = page.locator('#navigation-drawer').getByRole('navigation');
  if (!(await drawer.isVisible())) return;
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
}

async function openUserMenuItem(page: Page, text: Texts, item: string) {
  await page.getByRole('button', { name: text.accountMenu }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test.describe(`unsaved changes (${language}, ${sizes[language].width} px)`, () => {
    test.use({ viewport: sizes[language] });

    test(`the product page asks before Cancel, Back or a menu link leaves its changes (${language})`, async ({
      page,
    }) => {
      await signIn(page);
      await open(page, '/products', language);
      await page.getByRole('link', { name: text.newProduct }).first().click();
      await expect(page).toHaveURL(/\/products\/add/);
      const code = page.getByLabel(text.code, { exact: true });
      await code.fill(`GUARD-${randomDigits(6)}`);
      const typed = await code.inputValue();

      // Cancel asks; Keep editing stays with the value.
      await page.getByRole('link', { name: text.cancel, exact: true }).click();
      await expectAccessible(page, 'discard dialog over the product page');
      await keepEditing(page, text, /\/products\/add/);
      await expect(code).toHaveValue(typed);

      // The browser's Back asks; the address is put back while it does.
      await page.goBack();
      await keepEditing(page, text, /\/products\/add/);
      await expect(code).toHaveValue(typed);
      await expect(page.getByRole('heading', { name: text.addProduct, level: 1 })).toBeVisible();

      // A menu link asks; Discard goes on to that page.
      await clickMenuLink(page, text, text.brands);
      await discardDialog(page, text).getByRole('button', { name: text.discard }).click();
      await expect(page).toHaveURL(/\/brands/);
      await expect(page.getByRole('heading', { name: text.brands, level: 1 })).toBeVisible();
      await expect(discardDialog(page, text)).toHaveCount(0);

      // Back now returns to the page, afresh: nothing was kept of what was discarded.
      await page.goBack();
      await expect(page).toHaveURL(/\/products\/add/);
      await expect(page.getByLabel(text.code, { exact: true })).toHaveValue('');

      // Forward asks the same way as Back.
      await page.getByLabel(text.code, { exact: true }).fill(typed);
      await page.goForward();
      await keepEditing(page, text, /\/products\/add/);
      await expect(page.getByLabel(text.code, { exact: true })).toHaveValue(typed);
      await page.goForward();
      await discardDialog(page, text).getByRole('button', { name: text.discard }).click();
      await expect(page).toHaveURL(/\/brands/);
    });

    test(`/profile asks before Back, a menu link or sign-out leaves its changes (${language})`, async ({
      page,
    }) => {
      await signIn(page);
      await open(page, '/', language);
      await openUserMenuItem(page, text, text.profile);
      await expect(page).toHaveURL(/\/profile/);
      const name = page.getByLabel(text.name, { exact: true });
      await expect(name).not.toHaveValue('');
      const saved = await name.inputValue();
      await name.fill(`${saved} (draft)`);

      await page.goBack();
      await keepEditing(page, text, /\/profile/);
      await expect(name).toHaveValue(`${saved} (draft)`);

      // A menu link on a phone asks over the drawer; Keep editing, then the drawer closes.
      await clickMenuLink(page, text, text.dashboard);
      await keepEditing(page, text, /\/profile/);
      await closeDrawerIfOpen(page);
      await expect(name).toHaveValue(`${saved} (draft)`);

      // Sign-out asks too; Keep editing stays signed in.
      await openUserMenuItem(page, text, text.logout);
      await keepEditing(page, text, /\/profile/);
      await expect(name).toHaveValue(`${saved} (draft)`);

      // Discard goes on: to the dashboard, and the name was not saved.
      await clickMenuLink(page, text, text.dashboard);
      await discardDialog(page, text).getByRole('button', { name: text.discard }).click();
      await expect(page).toHaveURL(/\/(\?.*)?$/);
      await openUserMenuItem(page, text, text.profile);
      await expect(page.getByLabel(text.name, { exact: true })).toHaveValue(saved);

      // Sign-out, discarding: the login page.
      await page.getByLabel(text.name, { exact: true }).fill(`${saved} (draft)`);
      await openUserMenuItem(page, text, text.logout);
      await discardDialog(page, text).getByRole('button', { name: text.discard }).click();
      await expect(page).toHaveURL(/\/login/);
    });
  });
}

test('a page without changes, or just saved, is left without asking', async ({ page }) => {
  const text = texts.en;
  await signIn(page);

  // Nothing typed: the menu link goes at once.
  await open(page, '/profile', 'en');
  const name = page.getByLabel(text.name, { exact: true });
  await expect(name).not.toHaveValue('');
  await clickMenuLink(page, text, text.dashboard);
  await expect(page).toHaveURL(/\/(\?.*)?$/);

  // Typed, then saved: the menu link goes at once.
  await open(page, '/profile', 'en');
  const saved = await name.inputValue();
  await name.fill(`${saved} QA`);
  await page.getByRole('button', { name: text.saveProfile }).click();
  await expect(page.getByText(text.profileSaved)).toBeVisible();
  await clickMenuLink(page, text, text.dashboard);
  await expect(page).toHaveURL(/\/(\?.*)?$/);
  await expect(discardDialog(page, text)).toHaveCount(0);
  // The name as it was, for the other tests.
  await open(page, '/profile', 'en');
  await name.fill(saved);
  await page.getByRole('button', { name: text.saveProfile }).click();
  await expect(page.getByText(text.profileSaved).first()).toBeVisible();

  // A new product saved: its page opens without asking, and leaving it does not ask either.
  await open(page, '/products/add', 'en');
  const unique = randomDigits(6);
  await page.getByLabel(text.code, { exact: true }).fill(`GUARD-${unique}`);
  await page.getByLabel(text.nameEn).fill(`Guarded cake ${unique}`);
  await page.getByLabel(text.nameAr).fill(`كعكة ${unique}`);
  await page.getByLabel(text.unit).selectOption({ label: text.piece });
  await page.getByRole('button', { name: text.save, exact: true }).click();
  await expect(page).toHaveURL(/\/products\/(?!add)[\w-]+/);
  await expect(page.getByRole('heading', { name: `Guarded cake ${unique}` })).toBeVisible();
  await expect(discardDialog(page, text)).toHaveCount(0);
  await clickMenuLink(page, text, text.brands);
  await expect(page).toHaveURL(/\/brands/);
  await expect(discardDialog(page, text)).toHaveCount(0);
});

test('the discard dialog in en/ar, light/dark, wide and narrow', async ({ page }) => {
  await signIn(page);
  for (const language of ['en', 'ar'] as const) {
    const text = texts[language];
    for (const [theme, size] of shotVariants(language)) {
      await page.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
      await page.setViewportSize(shotViewports[size]);
      await open(page, '/products/add', language);
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      await page.getByLabel(text.code, { exact: true }).fill('CAKE-1');
      await page.getByRole('link', { name: text.cancel, exact: true }).click();
      const dialog = discardDialog(page, text);
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: text.discard })).toBeInViewport({ ratio: 1 });
      await page.screenshot({ path: `e2e/artifacts/unsaved-changes-${size}-${language}-${theme}.png` });
      await dialog.getByRole('button', { name: text.discard }).click();
      await expect(page).toHaveURL(/\/products(\?|$)/);
    }
  }
});
