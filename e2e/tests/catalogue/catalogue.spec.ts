import { signIn } from '../../fixtures/auth.ts';
import { expectNoHorizontalOverflow, expectRowActionsVisible } from '../../fixtures/layout.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** The texts each language shows; the flows below are the same in both. */
const texts = {
  en: {
    brands: 'Brands',
    newBrand: 'New brand',
    newLocation: 'New location',
    code: 'Code',
    nameEn: 'Name (English)',
    nameAr: 'Name (Arabic)',
    brand: 'Brand',
    logo: 'Logo',
    currencies: 'Currencies',
    create: 'Create',
    save: 'Save',
    edit: 'Edit',
    disable: 'Disable',
    delete: 'Delete',
    inactive: 'Inactive',
    search: 'Search Brands',
    searchLocations: 'Search Locations',
    created: 'Creating BRAND successful!',
    locationCreated: 'Creating LOCATION successful!',
    deleted: 'Deleting BRAND successful!',
    addPhone: 'Add phone',
    phoneLabel: (index: number) => `Label Phone ${index}`,
    phoneNumber: (index: number) => `Number Phone ${index}`,
    opens: (day: string) => `${day} opens`,
    closes: (day: string) => `${day} closes`,
    monday: 'Monday',
    saturday: 'Saturday',
    closedOn: (day: string) => `${day} closed`,
    friday: 'Friday',
    mondayShort: 'Mon',
    hours: '09:00 AM – 05:00 PM',
    closedDays: 'Tue–Fri Closed',
    nightShift: 'Sat 08:00 PM – 02:00 AM+1',
    openingDate: 'Opening date',
    calendar: 'Calendar',
    year: 'Choose the Year',
    month: 'Choose the Month',
    march: 'March',
    march9: /March 9th, 2015/,
    year2015: '2015',
    noMatch: 'Nothing matches your search',
  },
  ar: {
    brands: 'العلامات التجارية',
    newBrand: 'إضافة علامة تجارية',
    newLocation: 'إضافة فرع',
    code: 'الرمز',
    nameEn: 'الاسم (بالإنجليزية)',
    nameAr: 'الاسم (بالعربية)',
    brand: 'العلامة التجارية',
    logo: 'الشعار',
    currencies: 'العملات',
    create: 'إنشاء',
    save: 'حفظ',
    edit: 'تعديل',
    disable: 'تعطيل',
    delete: 'حذف',
    inactive: 'معطّل',
    search: 'البحث في العلامات التجارية',
    searchLocations: 'البحث في الفروع',
    created: null,
    locationCreated: null,
    deleted: null,
    addPhone: 'إضافة هاتف',
    phoneLabel: (index: number) => `التسمية الهاتف ${index}`,
    phoneNumber: (index: number) => `الرقم الهاتف ${index}`,
    opens: (day: string) => `${day}: يفتح`,
    closes: (day: string) => `${day}: يغلق`,
    monday: 'الاثنين',
    saturday: 'السبت',
    closedOn: (day: string) => `${day}: مغلق`,
    friday: 'الجمعة',
    mondayShort: 'الاثنين',
    hours: '٠٩:٠٠ ص – ٠٥:٠٠ م',
    closedDays: 'الثلاثاء–الجمعة مغلق',
    nightShift: 'السبت ٠٨:٠٠ م – ٠٢:٠٠ ص+١',
    openingDate: 'تاريخ الافتتاح',
    calendar: 'التقويم',
    year: 'اختر السنة',
    month: 'اختر الشهر',
    march: 'مارس',
    march9: /، ٩ مارس ٢٠١٥/,
    year2015: '٢٠١٥',
    noMatch: null,
  },
};

async function openList(page: Page, path: string, language: 'en' | 'ar') {
  await page.goto(`${path}?lng=${language}`);
  await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
}

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test(`brands and locations: create, search, edit, disable, delete (${language})`, async ({ page }) => {
    const unique = `${language}${randomDigits(6)}`;
    const brandName = `Nile Bakery ${unique}`;
    await signIn(page);

    // A brand, with its Arabic name and a currency.
    await openList(page, '/brands', language);
    await page.getByRole('button', { name: text.newBrand }).first().click();
    const brandDialog = page.getByRole('dialog');
    await brandDialog.getByLabel(text.code, { exact: true }).fill(`BR-${unique}`);
    await brandDialog.getByLabel(text.nameEn).fill(brandName);
    await brandDialog.getByLabel(text.nameAr).fill(`مخبز النيل ${unique}`);
    await brandDialog.getByRole('combobox', { name: text.currencies }).fill('EGP');
    await page.keyboard.press('Enter');
    await brandDialog
      .getByLabel(text.logo, { exact: true })
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: tinyPng });
    await expect(brandDialog.getByRole('img')).toHaveAttribute(
      'src',
      /^\/files\/[0-9a-f-]+\/[0-9a-f-]+\.png$/,
    );
    await brandDialog.getByRole('button', { name: text.create, exact: true }).click();
    await expect(brandDialog).toBeHidden();
    if (text.created) await expect(page.getByText(text.created)).toBeVisible();
    const shownName = language === 'ar' ? `مخبز النيل ${unique}` : brandName;
    const brandRow = page.getByRole('row', { name: new RegExp(shownName) });
    await expect(brandRow).toContainText('EGP');
    await expect(brandRow.locator('img')).toHaveAttribute('src', /^\/files\//);

    // A location of that brand, open Monday, closed Friday, a night shift on Saturday (20:00 → 02:00),
    // with two phones, opened on 9 March 2015 (picked with the year and month lists).
    await openList(page, '/locations', language);
    await page.getByRole('button', { name: text.newLocation }).first().click();
    const locationDialog = page.getByRole('dialog');
    await locationDialog.getByLabel(text.code, { exact: true }).fill(`LOC-${unique}`);
    await locationDialog.getByLabel(text.nameEn).fill(`Downtown ${unique}`);
    await locationDialog.getByLabel(text.brand, { exact: true }).selectOption({ label: shownName });
    await locationDialog.getByLabel(text.phoneLabel(1)).fill('Front desk');
    await locationDialog.getByLabel(text.phoneNumber(1)).fill('0223456789');
    await locationDialog.getByRole('button', { name: text.addPhone }).click();
    await locationDialog.getByLabel(text.phoneLabel(2)).fill('Manager');
    await locationDialog.getByLabel(text.phoneNumber(2)).fill('+201001234567');
    await locationDialog.getByLabel(text.opens(text.monday)).fill('09:00');
    await locationDialog.getByLabel(text.closes(text.monday)).fill('17:00');
    await locationDialog.getByLabel(text.opens(text.saturday)).fill('20:00');
    await locationDialog.getByLabel(text.closes(text.saturday)).fill('02:00');
    await locationDialog.getByLabel(text.closedOn(text.friday)).check();
    await locationDialog.getByRole('button', { name: text.openingDate }).click();
    const calendar = page.getByRole('dialog', { name: text.calendar });
    await calendar.getByRole('combobox', { name: text.year }).selectOption('2015');
    await calendar.getByRole('combobox', { name: text.month }).selectOption({ label: text.march });
    await calendar.getByRole('button', { name: text.march9 }).click();
    await expect(calendar).toBeHidden();
    await locationDialog.getByRole('button', { name: text.create, exact: true }).click();
    await expect(locationDialog).toBeHidden();
    if (text.locationCreated) await expect(page.getByText(text.locationCreated)).toBeVisible();
    const locationRow = page.getByRole('row', { name: new RegExp(`Downtown ${unique}`) });
    await expect(locationRow).toContainText(shownName);
    await expect(locationRow).toContainText(`${text.mondayShort} ${text.hours}`);
    await expect(locationRow).toContainText(text.closedDays);
    // Four lines of hours fold to three: the night shift is behind "+N more".
    await expect(locationRow).not.toContainText(text.nightShift);
    await locationRow.getByRole('button', { name: /^\+/ }).click();
    await expect(locationRow).toContainText(text.nightShift);
    await expect(locationRow).toContainText(text.year2015);
    await expect(locationRow).toContainText('0223456789');
    await expect(locationRow).toContainText('+201001234567');
    await page.screenshot({ path: `e2e/artifacts/locations-${language}.png`, fullPage: true });
    await expectNoHorizontalOverflow(page);
    await expectRowActionsVisible(page);

    // The location's hours survive an edit round trip.
    await locationRow.getByRole('button', { name: new RegExp(`^${text.edit}`) }).click();
    const editLocation = page.getByRole('dialog');
    await expect(editLocation.getByLabel(text.opens(text.monday))).toHaveValue('09:00');
    await expect(editLocation.getByLabel(text.closes(text.saturday))).toHaveValue('02:00');
    await expect(editLocation.getByLabel(text.closedOn(text.friday))).toBeChecked();
    await expect(editLocation.getByLabel(text.brand, { exact: true })).toHaveValue(/[0-9a-f-]{36}/);
    await page.keyboard.press('Escape');
    await expect(editLocation).toBeHidden();

    // Search finds the location by its code; an unknown term finds nothing.
    await page.getByRole('searchbox', { name: text.searchLocations }).fill(`LOC-${unique}`);
    await expect(page.getByRole('row')).toHaveCount(2);
    await page.getByRole('searchbox', { name: text.searchLocations }).fill(`zz-${unique}`);
    if (text.noMatch) await expect(page.getByText(text.noMatch)).toBeVisible();

    // Back to the brand: search, rename, disable, then delete once its location is gone.
    await openList(page, '/brands', language);
    await page.getByRole('searchbox', { name: text.search }).fill(unique);
    await expect(page.getByRole('row')).toHaveCount(2);
    await brandRow.getByRole('button', { name: new RegExp(`^${text.edit}`) }).click();
    const editBrand = page.getByRole('dialog');
    await expect(editBrand.getByLabel(text.nameEn)).toHaveValue(brandName);
    await editBrand.getByLabel(text.nameAr).fill(`مخبز النيل الجديد ${unique}`);
    await editBrand.getByLabel(text.nameEn).fill(`New Nile Bakery ${unique}`);
    await editBrand.getByRole('button', { name: text.save, exact: true }).click();
    await expect(editBrand).toBeHidden();
    const renamed = page.getByRole('row', {
      name: new RegExp(language === 'ar' ? `مخبز النيل الجديد ${unique}` : `New Nile Bakery ${unique}`),
    });
    await renamed.getByRole('button', { name: new RegExp(`^${text.disable}`) }).click();
    await expect(renamed).toContainText(text.inactive);

    await openList(page, '/locations', language);
    await page
      .getByRole('row', { name: new RegExp(`Downtown ${unique}`) })
      .getByRole('button', { name: new RegExp(`^${text.delete}`) })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: text.delete, exact: true }).click();
    await expect(page.getByRole('row', { name: new RegExp(`Downtown ${unique}`) })).toHaveCount(0);

    await openList(page, '/brands', language);
    await renamed.getByRole('button', { name: new RegExp(`^${text.delete}`) }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: text.delete, exact: true }).click();
    if (text.deleted) await expect(page.getByText(text.deleted)).toBeVisible();
    await expect(renamed).toHaveCount(0);
  });
}

test('a category opens its sub-categories, with breadcrumbs; what is created there is created under it', async ({
  page,
}) => {
  const unique = Date.now().toString().slice(-6);
  await signIn(page);
  await page.goto('/categories');
  await page.getByRole('button', { name: 'New category' }).first().click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Code', { exact: true }).fill(`BEV-${unique}`);
  await dialog.getByLabel('Name (English)').fill(`Beverages ${unique}`);
  await dialog.getByLabel('Description (English)').fill('Everything to drink');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('link', { name: `Beverages ${unique}` }).click();
  await expect(page).toHaveURL(/\/categories\/[0-9a-f-]{36}$/);
  const trail = page.getByRole('navigation', { name: 'Category path' });
  await expect(trail.getByRole('link', { name: 'Categories' })).toBeVisible();
  await expect(trail.getByText(`Beverages ${unique}`)).toHaveAttribute('aria-current', 'page');

  await page.getByRole('button', { name: 'New category' }).first().click();
  dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Parent category')).toHaveValue(/[0-9a-f-]{36}/);
  await dialog.getByLabel('Code', { exact: true }).fill(`HOT-${unique}`);
  await dialog.getByLabel('Name (English)').fill(`Hot drinks ${unique}`);
  await dialog.getByLabel('Description (English)').fill('Tea and coffee');
  await dialog.getByLabel('Description (Arabic)').fill('الشاي والقهوة');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: `Hot drinks ${unique}` })).toBeVisible();

  // Two levels down, the trail names both ancestors.
  await page.getByRole('link', { name: `Hot drinks ${unique}` }).click();
  await expect(trail.getByRole('link', { name: `Beverages ${unique}` })).toBeVisible();
  await expect(trail.getByText(`Hot drinks ${unique}`)).toHaveAttribute('aria-current', 'page');
  await page.screenshot({ path: 'e2e/artifacts/sub-categories-en.png', fullPage: true });
  // Hot drinks has no sub-categories of its own: no rows, so no row actions to check.
  await expectNoHorizontalOverflow(page);

  // The top level lists the parent only.
  await trail.getByRole('link', { name: 'Categories' }).click();
  await expect(page.getByRole('link', { name: `Beverages ${unique}` })).toBeVisible();
  await expect(page.getByRole('link', { name: `Hot drinks ${unique}` })).toHaveCount(0);
});
