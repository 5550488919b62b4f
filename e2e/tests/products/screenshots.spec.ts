import { signIn } from '../../fixtures/auth.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { catalogueApi } from '../../fixtures/products.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * Screenshots of the product page — a product with 3 × 4 variants with SKUs and a recipe of two
 * lines, seeded through the API — in en/ar × light/dark, wide (1280 × 800) and narrow (390 × 844),
 * kept in e2e/artifacts/ for a person to look at. At each: the page does not scroll sideways, and
 * Save and Cancel are wholly on screen without scrolling.
 */
const texts = {
  en: { save: 'Save', cancel: 'Cancel', grid: 'Variants', ingredient: 'Ingredient (Line 2)' },
  ar: { save: 'حفظ', cancel: 'إلغاء', grid: 'المتغيرات', ingredient: 'المكوّن (السطر 2)' },
};

async function seed(page: Page) {
  const unique = randomDigits(6);
  const api = await catalogueApi(page);
  const size = await api.createType(`SHOT-SIZE-${unique}`, { en: 'Size', ar: 'المقاس' }, [
    { en: 'Small', ar: 'صغير' },
    { en: 'Medium', ar: 'وسط' },
    { en: 'Large', ar: 'كبير' },
  ]);
  const colour = await api.createType(`SHOT-COLOUR-${unique}`, { en: 'Colour', ar: 'اللون' }, [
    { en: 'Red', ar: 'أحمر' },
    { en: 'Green', ar: 'أخضر' },
    { en: 'Blue', ar: 'أزرق' },
    { en: 'Black', ar: 'أسود' },
  ]);
  const milk = await api.createProduct({
    code: `MILK-${unique}`,
    name: { en: 'Whole milk', ar: 'حليب كامل الدسم' },
  });
  const syrup = await api.createProduct({
    code: `SYRUP-${unique}`,
    name: { en: 'Caramel syrup', ar: 'شراب الكراميل' },
  });
  return api.createProduct({
    code: `LATTE-${unique}`,
    name: { en: 'Iced caramel latte', ar: 'لاتيه كراميل مثلج' },
    types: [size, colour],
    sku: (index) => `LATTE-${unique}-${String(index + 1).padStart(2, '0')}`,
    recipe: [
      { ingredientProductId: milk.id, quantity: 0.25 },
      { ingredientProductId: syrup.id, quantity: 0.03, orderTypes: ['takeaway', 'delivery'] },
    ],
  });
}

/** A control lies wholly within the viewport, as the page first shows it. */
async function expectOnScreen(page: Page, name: string, control: ReturnType<Page['getByRole']>) {
  const width = page.viewportSize()?.width;
  await expect.soft(control, `${name} at ${width} px`).toBeVisible();
  await expect.soft(control, `${name} at ${width} px is wholly on screen`).toBeInViewport({ ratio: 1 });
}

test('the product page in en/ar, light/dark, wide and narrow', async ({ page }) => {
  // A limit, not a wait: eight pages rendered and shot in turn take ~25 s.
  test.setTimeout(150_000);
  await signIn(page);
  const product = await seed(page);
  for (const language of ['en', 'ar'] as const) {
    const text = texts[language];
    for (const [theme, size] of shotVariants(language)) {
      await page.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
      await page.setViewportSize(shotViewports[size]);
      await page.goto(`/products/${product.id}?lng=${language}`);
      await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      await expect(page.getByRole('grid', { name: text.grid })).toHaveAttribute('aria-rowcount', '13');
      await expect(page.getByRole('button', { name: text.ingredient })).toContainText('SYRUP-');
      await page.waitForLoadState('networkidle');
      await expectOnScreen(page, 'Save', page.getByRole('button', { name: text.save, exact: true }));
      await expectOnScreen(page, 'Cancel', page.getByRole('link', { name: text.cancel, exact: true }));
      await page.screenshot({
        path: `e2e/artifacts/product-page-${size}-${language}-${theme}.png`,
        fullPage: true,
      });
      await expectNoHorizontalOverflow(page);
    }
  }
});
