import { signIn } from '../../fixtures/auth.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * The audit log's retention is a workspace setting: an admin sets the days on /settings, a value
 * out of 1–3,650 is refused under the field in the reader's language, and the change is on the
 * Activity page like every setting. A product save's variants are shown on its History one by one,
 * by their values' names, with prices as money, never as JSON. In English and Arabic, each shot
 * in its language's theme and width (`E2E_SHOTS=all`: every pair) and checked not to scroll sideways.
 */
const texts = {
  en: {
    days: 'Keep the activity for (days)',
    outOfRange: 'Enter a whole number of days from 1 to 3,650',
    save: 'Save',
    saved: 'Workspace settings saved',
    activity: 'Activity',
    small: 'Small',
    oat: 'Oat milk',
    title: 'Small, Oat milk',
    price: 'Price',
    before: /EGP\s12\.50/,
    after: /EGP\s15\.00/,
    json: '"price"',
  },
  ar: {
    days: 'مدة الاحتفاظ بالنشاط (بالأيام)',
    outOfRange: 'أدخل عددًا صحيحًا من الأيام بين 1 و3650',
    save: 'حفظ',
    saved: 'تم حفظ إعدادات مساحة العمل',
    activity: 'النشاط',
    small: 'صغير',
    oat: 'حليب الشوفان',
    title: 'صغير، حليب الشوفان',
    price: 'السعر',
    before: /١٢٫٥٠/,
    after: /١٥٫٠٠/,
    json: '"price"',
  },
} as const;

// The first paint of a signed-in page waits for its lazy chunks and texts.
const loaded = { timeout: 45_000 };

async function shoot(page: Page, language: 'en' | 'ar', name: string) {
  for (const [theme, size] of shotVariants(language)) {
    await page.evaluate((chosen) => {
      localStorage.setItem('theme', chosen);
      document.documentElement.classList.toggle('dark', chosen === 'dark');
    }, theme);
    await page.setViewportSize(shotViewports[size]);
    await page.screenshot({ path: `e2e/artifacts/${name}-${language}-${size}-${theme}.png`, fullPage: true });
    await expectNoHorizontalOverflow(page);
  }
  await page.setViewportSize(shotViewports.wide);
}

/** Posts as the signed-in admin what the test needs but does not test. */
async function post(page: Page, workspaceId: string, path: string, data: unknown, method = 'POST') {
  const response = await page.request.fetch(`/api/${path}?workspaceId=${workspaceId}`, {
    method,
    headers: { origin: e2eServer.url },
    data,
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).data;
}

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test(`the activity's retention is set on /settings, refused out of range, and on the Activity page, in ${language}`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await signIn(page);
    const days = language === 'en' ? '90' : '120';
    await page.goto(`/settings?lng=${language}`);
    const box = page.getByRole('textbox', { name: text.days });
    await expect(box).toBeVisible(loaded);
    for (const refused of ['0', '3651']) {
      await box.fill(refused);
      await page.getByRole('button', { name: text.save }).click();
      await expect(page.getByText(text.outOfRange)).toBeVisible();
      await expect(box).toHaveAttribute('aria-invalid', 'true');
    }
    await shoot(page, language, 'settings-retention-refused');
    await box.fill(days);
    await page.getByRole('button', { name: text.save }).click();
    await expect(page.getByText(text.saved)).toBeVisible();
    await expect(page.getByText(text.outOfRange)).toBeHidden();
    await page.reload();
    await expect(page.getByRole('textbox', { name: text.days })).toHaveValue(days, loaded);

    await page.goto(`/activity?lng=${language}&resource=settings`);
    await expect(page.getByRole('heading', { level: 1, name: text.activity })).toBeVisible(loaded);
    const change = page.getByTestId('audit-change').filter({ hasText: text.days }).first();
    await expect(change).toContainText(days);
    await shoot(page, language, 'activity-retention');
  });

  test(`a product's variant changes read by variant, prices as money, in ${language}`, async ({ page }) => {
    test.setTimeout(240_000);
    await signIn(page);
    const user = await (await page.request.get('/api/auth/user')).json();
    const workspaceId: string = user.data.adminWorkspaces[0].id;
    const unique = randomDigits(6);
    const bilingual = (en: string, ar: string) => [
      { locale: 'en', value: en },
      { locale: 'ar', value: ar },
    ];
    const size = await post(page, workspaceId, 'variation-types', {
      code: `SZ-${unique}`,
      name: bilingual(`Size ${unique}`, `المقاس ${unique}`),
    });
    const milk = await post(page, workspaceId, 'variation-types', {
      code: `MK-${unique}`,
      name: bilingual(`Milk ${unique}`, `الحليب ${unique}`),
    });
    // Each type's values coded by the type's own code: ids are time-ordered, so two types made
    // together share their ids' first characters.
    const values = async (typeCode: string, typeId: string, names: [string, string][]) =>
      (
        (await post(
          page,
          workspaceId,
          'variation-values/bulk',
          names.map(([en, ar], position) => ({
            code: `V-${typeCode}-${position}`,
            name: bilingual(en, ar),
            typeId,
            position,
          })),
        )) as { id: string }[]
      ).map((value) => value.id);
    const sizes = await values(`SZ-${unique}`, size.id, [
      ['Small', 'صغير'],
      ['Large', 'كبير'],
    ]);
    const milks = await values(`MK-${unique}`, milk.id, [
      ['Oat milk', 'حليب الشوفان'],
      ['Soy', 'صويا'],
    ]);
    const unit = await post(page, workspaceId, 'measurement-units', {
      code: `U-${unique}`,
      name: bilingual('Cup', 'كوب'),
      symbol: 'cup',
    });
    const product = await post(page, workspaceId, 'products', {
      code: `LAT-${unique}`,
      name: bilingual(`Latte ${unique}`, `لاتيه ${unique}`),
      measurementUnitId: unit.id,
      options: [
        { typeId: size.id, valueIds: sizes },
        { typeId: milk.id, valueIds: milks },
      ],
      variants: [{ key: `${sizes[0]}-${milks[0]}`, price: 1250 }],
    });
    await post(
      page,
      workspaceId,
      `products/${product.id}`,
      { variants: [{ key: `${sizes[0]}-${milks[0]}`, price: 1500 }] },
      'PATCH',
    );

    await page.goto(`/products/${product.id}?lng=${language}`);
    const history = page.getByTestId('audit-entries');
    await expect(history).toBeVisible(loaded);
    // The edit, newest first: one variant, by its values' names, its price before and after as money.
    const edited = history.getByTestId('audit-row').first().getByTestId('audit-variant');
    await expect(edited).toHaveCount(1);
    await expect(edited).toContainText(text.title);
    await expect(edited).toContainText(text.price);
    await expect(edited).toContainText(text.before);
    await expect(edited).toContainText(text.after);
    // The create lists its four variants, each by its values' names.
    const created = history.getByTestId('audit-row').nth(1).getByTestId('audit-variant');
    await expect(created).toHaveCount(4);
    await expect(created.first()).toContainText(text.small);
    await expect(history).not.toContainText(text.json);
    await history.scrollIntoViewIfNeeded();
    await shoot(page, language, 'history-variants');
  });
}
