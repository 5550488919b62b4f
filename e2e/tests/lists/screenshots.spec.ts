import { signIn } from '../../fixtures/auth.ts';
import { expectNoHorizontalOverflow, expectRowActionsVisible } from '../../fixtures/layout.ts';
import { catalogueApi } from '../../fixtures/products.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { expect, type Locator, type Page, test } from '../../fixtures/test.ts';

/**
 * Screenshots of every list page of the main navigation, and of every New and Edit dialog they
 * open, in en and ar, light and dark, 1280 × 800 and 390 × 844 (one pair a language by default,
 * see `fixtures/shots.ts`; every combination with E2E_SHOTS=all), kept in e2e/artifacts/ for a
 * person to look at. The pages are read from the navigation (it is built from the resource
 * registry), so a new resource is shot without being added here. At each shot: the page does not
 * scroll sideways; on a list, every row's name, status and actions can be seen; in a dialog, its
 * buttons are wholly on screen. One load per page and language; theme and width change in place.
 */
const texts = {
  en: { create: /^(New |Invite )/, edit: /^Edit: /, navigation: 'Main navigation' },
  ar: { create: /^(إضافة |دعوة |دور جديد)/, edit: /^تعديل: /, navigation: 'التنقل الرئيسي' },
};

const viewports = shotViewports;

/** Pages of the navigation that are not lists, and lists with nothing a user may change. */
// The Activity page is a feed, not a table: its shots are in tests/audit/activity.spec.ts.
const notLists = new Set(['/', '/settings', '/profile', '/activity']);
const readOnly = new Set(['/subscriptions', '/payments']);

type Language = keyof typeof texts;

/** Switches the theme the way the app's own switch does (the class on <html>, kept in storage). */
async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((chosen) => {
    localStorage.setItem('theme', chosen);
    document.documentElement.classList.toggle('dark', chosen === 'dark');
  }, theme);
}

/** One record of most lists, with long texts where they matter, seeded through the API. */
async function seed(page: Page) {
  const user = await (await page.request.get('/api/auth/user')).json();
  const workspaceId: string = user.data.adminWorkspaces[0].id;
  const post = async (path: string, data: unknown) => {
    const response = await page.request.post(`/api/${path}?workspaceId=${workspaceId}`, {
      data,
      headers: { origin: e2eServer.url },
    });
    expect(response.status(), `${path}: ${await response.text()}`).toBe(201);
    return (await response.json()).data as { id: string };
  };
  const name = (en: string, ar: string) => [
    { locale: 'en', value: en },
    { locale: 'ar', value: ar },
  ];
  const unique = randomDigits(6);
  const brand = await post('brands', {
    code: `SHOT-${unique}`,
    name: name('Cairo Sweets and Pastries', 'حلويات ومعجنات القاهرة'),
    creationDate: '2015-04-01',
    currencies: ['EGP', 'USD', 'EUR', 'SAR', 'AED', 'GBP', 'KWD', 'QAR'],
  });
  await post('locations', {
    code: `ZAM-${unique}`,
    name: name('Zamalek, 26 July Street branch', 'فرع الزمالك، شارع ٢٦ يوليو'),
    brandId: brand.id,
    openingDate: '2021-09-15',
    address: '26 July St, Zamalek',
    workingHours: ['monday', 'tuesday', 'wednesday', 'thursday', 'saturday', 'sunday'].map((day, index) => ({
      day,
      opensAt: (8 + index) * 3600,
      closesAt: 2 * 3600,
    })),
    phones: [
      { label: 'Front desk', number: '0227350000' },
      { label: 'Delivery', number: '+201001112233' },
      { label: 'Manager', number: '+201223334455' },
      { label: 'Kitchen', number: '0227350001' },
    ],
  });
  await post('taxes', {
    code: `VAT-${unique}`,
    title: name('Value added tax', 'ضريبة القيمة المضافة'),
    country: 'EG',
    rate: 14,
  });
  await post('customers', {
    code: `C-${unique}`,
    name: 'Mona Hassan',
    phones: ['01001234567'],
    source: 'referral',
    brandId: brand.id,
  });
  await post('categories', {
    code: `CAT-${unique}`,
    name: name('Hot drinks', 'مشروبات ساخنة'),
    description: name('Coffee, tea and chocolate', 'القهوة والشاي والشوكولاتة'),
  });
  await post('waste-categories', {
    code: `W-${unique}`,
    name: name('Expired', 'منتهي الصلاحية'),
    description: name('Past its date', 'تجاوز تاريخ صلاحيته'),
  });
  await post('product-tags', { code: `TAG-${unique}`, name: name('Seasonal', 'موسمي') });
  // The one rate of a currency: a second run on the same server finds it there already.
  await post('exchange-rates', { currency: 'USD', rate: 48.5 }).catch(() => undefined);
  const api = await catalogueApi(page);
  const size = await api.createType(`SIZE-${unique}`, { en: 'Size', ar: 'المقاس' }, [
    { en: 'Small', ar: 'صغير' },
    { en: 'Medium', ar: 'وسط' },
    { en: 'Large', ar: 'كبير' },
    { en: 'Extra large', ar: 'كبير جدًا' },
    { en: 'Family', ar: 'عائلي' },
    { en: 'Party', ar: 'حفلة' },
  ]);
  await api.createProduct({
    code: `LATTE-${unique}`,
    name: { en: 'Iced caramel latte', ar: 'لاتيه كراميل مثلج' },
    types: [size],
  });
}

/** The address of every page of the main navigation, its groups opened. */
async function navigationPaths(page: Page, language: Language): Promise<string[]> {
  await page.setViewportSize(viewports.wide);
  await page.goto(`/?lng=${language}`);
  const navigation = page.getByRole('navigation', { name: texts[language].navigation });
  await expect(navigation.getByRole('link').first()).toBeVisible({ timeout: 30_000 });
  for (const group of await navigation.locator('button[aria-expanded]').all()) {
    if ((await group.getAttribute('aria-expanded')) === 'false') await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'true');
  }
  const hrefs = await navigation
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
  return [...new Set(hrefs)].filter((path) => !notLists.has(path));
}

/**
 * The footer's way out: Cancel on a form, Close on a dialog whose every change is saved at once (a
 * variation type's values); the last of the dialog's buttons so named, the header's × being first.
 */
const leaveButton = (dialog: Locator) =>
  dialog.getByRole('button', { name: /^(Cancel|إلغاء|Close|إغلاق)$/ }).last();

/** The dialog's buttons (its footer's and its close) lie wholly on screen, as it is first shown. */
async function expectDialogButtonsOnScreen(page: Page, dialog: Locator, what: string) {
  const width = page.viewportSize()?.width;
  await expect.soft(leaveButton(dialog), `${what} at ${width} px: Cancel or Close`).toBeVisible();
  const submit = dialog.locator('button[type=submit]');
  if ((await submit.count()) > 0)
    await expect.soft(submit.first(), `${what} at ${width} px: its submit button`).toBeVisible();
  await expectNoHorizontalOverflow(page);
}

/**
 * Shoots the page as it is now in the language's themes and widths, checking each. With one pair
 * (the default) the page stays in it: switching the width back and forth around every shot had
 * the whole list laid out again twice a dialog, which tripled the narrow sweep's time.
 */
async function shootEverywhere(page: Page, language: Language, name: string, check: () => Promise<void>) {
  const variants = shotVariants(language);
  for (const [theme, size] of variants) {
    await setTheme(page, theme);
    await page.setViewportSize(viewports[size]);
    await page.screenshot({ path: `e2e/artifacts/${name}-${size}-${theme}.png` });
    await check();
  }
  if (variants.length > 1) await useFirstPair(page, language);
}

/** The language's first theme and width pair, where each page of a sweep is opened. */
async function useFirstPair(page: Page, language: Language) {
  const [theme, size] = shotVariants(language)[0]!;
  await setTheme(page, theme);
  await page.setViewportSize(viewports[size]);
}

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];
  // The theme and width pairs this run shoots the language in (all four with E2E_SHOTS=all).
  const shot = shotVariants(language)
    .map(([theme, size]) => `${theme} ${size}`)
    .join(', ');

  test(`every list of the navigation in ${language}, ${shot}`, async ({ page }) => {
    // A limit, not a wait: some fifteen pages, each shot once (four times with E2E_SHOTS=all), with their axe checks.
    test.setTimeout(480_000);
    await signIn(page);
    await seed(page);
    const paths = await navigationPaths(page, language);
    await useFirstPair(page, language);
    expect(paths.length, paths.join(', ')).toBeGreaterThanOrEqual(12);
    for (const path of paths) {
      await page.goto(`${path}?lng=${language}`);
      const table = page.getByRole('main').getByRole('table');
      // Invoices and subscriptions may be none on a fresh server: their empty state is shot instead.
      if (readOnly.has(path)) await page.waitForLoadState('networkidle');
      else await expect(table.locator('tbody tr').first(), path).toBeVisible({ timeout: 30_000 });
      const hasRows = (await table.locator('tbody tr').count()) > 0;
      await shootEverywhere(page, language, `list${path.replaceAll('/', '-')}-${language}`, async () => {
        await expectNoHorizontalOverflow(page);
        if (hasRows) await expectRowActionsVisible(page, { actions: !readOnly.has(path) });
      });
    }
  });

  test(`every New and Edit dialog of the lists in ${language}, ${shot}`, async ({ page }) => {
    test.setTimeout(480_000);
    await signIn(page);
    await seed(page);
    const paths = (await navigationPaths(page, language)).filter((path) => !readOnly.has(path));
    await useFirstPair(page, language);
    let dialogs = 0;
    for (const path of paths) {
      await page.goto(`${path}?lng=${language}`);
      const main = page.getByRole('main');
      await expect(main.getByRole('table').locator('tbody tr').first(), path).toBeVisible({
        timeout: 30_000,
      });
      const name = `dialog${path.replaceAll('/', '-')}-${language}`;
      const openers: [string, Locator][] = [
        ['new', main.getByRole('button', { name: text.create })],
        ['edit', main.getByRole('button', { name: text.edit })],
      ];
      for (const [kind, opener] of openers) {
        // A product is created and edited on a page of its own (shot in tests/products).
        if ((await opener.count()) === 0) continue;
        for (const button of (await opener.all()).slice(0, kind === 'new' ? undefined : 1)) {
          await button.click();
          const dialog = page.getByRole('dialog');
          await expect(dialog).toBeVisible();
          await page.waitForLoadState('networkidle');
          dialogs += 1;
          await shootEverywhere(page, language, `${name}-${kind}-${dialogs}`, () =>
            expectDialogButtonsOnScreen(page, dialog, `${path} ${kind}`),
          );
          await leaveButton(dialog).click();
          await expect(dialog).toBeHidden();
        }
      }
    }
    expect(dialogs).toBeGreaterThanOrEqual(20);
  });
}
