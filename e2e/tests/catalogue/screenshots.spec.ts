import { signIn } from '../../fixtures/auth.ts';
import { expectNoHorizontalOverflow, expectRowActionsVisible } from '../../fixtures/layout.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * Screenshots of the catalogue screens in en/ar × light/dark, wide and narrow, with records
 * seeded through the API, kept in e2e/artifacts/ for a person to look at. At each, the page does
 * not scroll sideways; on the wide (1280 px) lists every row's actions can be seen too.
 */
async function seed(page: Page) {
  const user = await (await page.request.get('/api/auth/user')).json();
  const workspaceId: string = user.data.adminWorkspaces[0].id;
  const post = async (path: string, data: unknown) => {
    const response = await page.request.post(`/api/${path}?workspaceId=${workspaceId}`, {
      data,
      headers: { origin: e2eServer.url },
    });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()).data as { id: string };
  };
  const unique = Date.now().toString().slice(-6);
  const brand = await post('brands', {
    code: `SHOT-${unique}`,
    name: [
      { locale: 'en', value: 'Cairo Sweets' },
      { locale: 'ar', value: 'حلويات القاهرة' },
    ],
    creationDate: '2019-04-01',
    currencies: ['EGP', 'USD'],
  });
  await post('locations', {
    code: `ZAM-${unique}`,
    name: [
      { locale: 'en', value: 'Zamalek' },
      { locale: 'ar', value: 'الزمالك' },
    ],
    brandId: brand.id,
    openingDate: '2021-09-15',
    address: '26 July St, Zamalek',
    workingHours: [
      { day: 'saturday', opensAt: 9 * 3600, closesAt: 23 * 3600 },
      { day: 'sunday', opensAt: 9 * 3600, closesAt: 23 * 3600 },
    ],
    phones: [
      { label: 'Front desk', number: '0227350000' },
      { label: 'Delivery', number: '+201001112233' },
    ],
  });
  await post('taxes', { code: `VAT-${unique}`, title: 'VAT', country: 'EG', rate: 14 });
  await post('customers', {
    code: `C-${unique}`,
    name: 'Mona Hassan',
    phones: ['01001234567'],
    source: 'referral',
    brandId: brand.id,
  });
}

const screens = ['/brands', '/locations', '/taxes', '/customers'];

test('catalogue screens in en/ar, light/dark, wide and narrow', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await seed(page);
  for (const language of ['en', 'ar'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
      for (const path of screens) {
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.goto(`${path}?lng=${language}`);
        await expect(page.getByRole('row').nth(1)).toBeVisible();
        await page.waitForLoadState('networkidle');
        await page.screenshot({
          path: `e2e/artifacts/catalogue${path.replace('/', '-')}-${language}-${theme}.png`,
        });
        await expectNoHorizontalOverflow(page);
        await expectRowActionsVisible(page);
      }
      await page.goto(`/locations?lng=${language}`);
      await page
        .getByRole('button', { name: language === 'en' ? 'New location' : 'إضافة فرع' })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `e2e/artifacts/catalogue-location-form-${language}-${theme}.png` });
      await expectNoHorizontalOverflow(page);
      // The calendar in the theme's colours, at a year chosen from its list, a day under the pointer.
      await page
        .getByRole('dialog')
        .getByRole('button', { name: language === 'en' ? 'Opening date' : 'تاريخ الافتتاح' })
        .click();
      const calendar = page.getByRole('dialog', { name: language === 'en' ? 'Calendar' : 'التقويم' });
      await calendar.getByRole('combobox').last().selectOption('2015');
      await calendar.locator('.rdp-day_button').nth(10).hover();
      await page.screenshot({ path: `e2e/artifacts/catalogue-calendar-${language}-${theme}.png` });
      await page.keyboard.press('Escape');
      await expect(calendar).toBeHidden();
      const hours = page.getByRole('group', { name: language === 'en' ? 'Working hours' : 'ساعات العمل' });
      await hours.scrollIntoViewIfNeeded();
      await hours.screenshot({ path: `e2e/artifacts/catalogue-working-hours-${language}-${theme}.png` });
      await page.keyboard.press('Escape');

      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/locations?lng=${language}`);
      await expect(page.getByRole('row').nth(1)).toBeVisible();
      await page.screenshot({ path: `e2e/artifacts/catalogue-locations-narrow-${language}-${theme}.png` });
      await expectNoHorizontalOverflow(page);
    }
  }
});
