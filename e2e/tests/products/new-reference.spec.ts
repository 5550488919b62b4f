import { signIn } from '../../fixtures/auth.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { expect, expectAccessible, type Page, test } from '../../fixtures/test.ts';

/**
 * "New …" under the product page's reference fields (issue 29): a unit made from the keyboard
 * over the page, chosen on save, the page's values kept and the focus back on the field; a
 * variation type made with its values, one per line, added with every value chosen; a category
 * whose parent is made in a second editor over the first, then the first cancelled — the parent
 * is kept and the question says so. English at 1280 px, Arabic on a 390-px phone; and the two
 * dialogs shot in both languages, light and dark, wide and narrow.
 */
const texts = {
  en: {
    nameEn: 'Name (English)',
    nameAr: 'Name (Arabic)',
    code: 'Code',
    unit: 'Unit of measurement',
    category: 'Category',
    newUnit: 'New measurement unit',
    newCategory: 'New category',
    newType: 'New variation type',
    symbol: 'Symbol',
    description: 'Description (English)',
    parent: 'Parent category',
    values: 'Values',
    create: 'Create',
    cancel: 'Cancel',
    discardTitle: 'Discard your changes?',
    discard: 'Discard',
    kept: (name: string) => `Kept all the same, as it was saved when you created it: category “${name}”.`,
    valuesOf: (type: string) => `Values of ${type}`,
    willBeCreated: (count: number) => `Variants that will be created: ${count}`,
    lines: 'Small | صغير\nMedium | وسط\nLarge | كبير',
  },
  ar: {
    nameEn: 'الاسم (بالإنجليزية)',
    nameAr: 'الاسم (بالعربية)',
    code: 'الرمز',
    unit: 'وحدة القياس',
    category: 'الفئة',
    newUnit: 'إضافة وحدة قياس',
    newCategory: 'إضافة فئة',
    newType: 'إضافة نوع متغير',
    symbol: 'الرمز المختصر',
    description: 'الوصف (بالعربية)',
    parent: 'الفئة الأم',
    values: 'القيم',
    create: 'إنشاء',
    cancel: 'إلغاء',
    discardTitle: 'هل تريد تجاهل تغييراتك؟',
    discard: 'تجاهل',
    kept: (name: string) => `سيبقى ما أنشأته أثناء ذلك لأنه حُفظ عند إنشائه: فئة «${name}».`,
    valuesOf: (type: string) => `قيم ${type}`,
    willBeCreated: (count: number) => `عدد المتغيرات التي ستُنشأ: ${count}`,
    lines: 'صغير | Small\nوسط | Medium\nكبير | Large',
  },
};
type Language = keyof typeof texts;

const sizes = { en: shotViewports.wide, ar: shotViewports.narrow };

async function openAddProduct(page: Page, language: Language) {
  await page.goto(`/products/add?lng=${language}`);
  await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
}

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test.describe(`New … on the product page (${language}, ${sizes[language].width} px)`, () => {
    test.use({ viewport: sizes[language] });

    test(`a unit from the keyboard, a type with its values, a category's parent kept when its editor is cancelled (${language})`, async ({
      page,
    }) => {
      test.slow();
      const unique = randomDigits(6);
      await signIn(page);
      await openAddProduct(page, language);
      const productName = page.getByLabel(text.nameAr);
      await productName.fill(`قميص ${unique}`);

      // A unit, from the keyboard: the editor opens over the page with the focus in it; Enter saves.
      const newUnit = page.getByRole('button', { name: text.newUnit });
      await newUnit.focus();
      await page.keyboard.press('Enter');
      const unitDialog = page.getByRole('dialog', { name: text.newUnit });
      await expect(unitDialog).toBeVisible();
      await expect(unitDialog.getByLabel(text.code, { exact: true })).toBeFocused();
      await expectAccessible(page, 'a new unit over the product page');
      await page.keyboard.press('Tab');
      await page.keyboard.type(`Roll ${unique}`);
      await unitDialog.getByLabel(text.symbol).fill('roll');
      await page.keyboard.press('Enter');
      await expect(unitDialog).toBeHidden();
      const unit = page.getByLabel(text.unit);
      await expect(unit.locator('option:checked')).toHaveText(`Roll ${unique}`);
      await expect(unit).toBeFocused();
      await expect(productName).toHaveValue(`قميص ${unique}`);

      // A variation type with its values, one per line: added with every value chosen.
      const typeName = `${language === 'ar' ? 'المقاس' : 'Size'} ${unique}`;
      await page.getByRole('button', { name: text.newType }).click();
      const typeDialog = page.getByRole('dialog', { name: text.newType });
      await typeDialog.getByLabel(language === 'ar' ? text.nameAr : text.nameEn).fill(typeName);
      await typeDialog.getByRole('textbox', { name: text.values }).fill(text.lines);
      await expectAccessible(page, 'a new variation type with its values');
      await typeDialog.getByRole('button', { name: text.create, exact: true }).click();
      await expect(typeDialog).toBeHidden();
      const values = page.getByRole('group', { name: text.valuesOf(typeName) });
      await expect(values.getByRole('checkbox', { checked: true })).toHaveCount(3);
      await expect(page.getByText(text.willBeCreated(3))).toBeVisible();

      // A category whose parent is made in a second editor over the first; the first cancelled.
      await page.getByRole('button', { name: text.newCategory, exact: true }).click();
      const outer = page.getByRole('dialog', { name: text.newCategory });
      await outer.getByLabel(text.nameEn).fill(`Shirts ${unique}`);
      await outer.getByRole('button', { name: text.newCategory, exact: true }).click();
      // The second editor hides the first from assistive technology: one dialog is found.
      const inner = page.getByRole('dialog', { name: text.newCategory });
      await expect(inner.getByLabel(text.parent)).toHaveValue('');
      await inner.getByLabel(text.nameEn).fill(`Clothes ${unique}`);
      await inner.getByLabel(text.description).fill('Clothes');
      await expectAccessible(page, 'a new category over a new category over the product page');
      await inner.getByRole('button', { name: text.create, exact: true }).click();
      const parent = page.getByRole('dialog', { name: text.newCategory }).getByLabel(text.parent);
      await expect(parent.locator('option:checked')).toHaveText(`Clothes ${unique}`);
      await expect(parent).toBeFocused();
      await expect(page.getByRole('dialog').getByLabel(text.nameEn)).toHaveValue(`Shirts ${unique}`);
      await page.getByRole('dialog').getByRole('button', { name: text.cancel, exact: true }).click();
      const question = page.getByRole('alertdialog', { name: text.discardTitle });
      await expect(question).toContainText(text.kept(`Clothes ${unique}`));
      await question.getByRole('button', { name: text.discard }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      // The parent is there to choose; the cancelled category is not.
      const category = page.getByLabel(text.category, { exact: true });
      await expect(category.locator('option', { hasText: `Clothes ${unique}` })).toHaveCount(1);
      await expect(category.locator('option', { hasText: `Shirts ${unique}` })).toHaveCount(0);
      await expect(productName).toHaveValue(`قميص ${unique}`);
      await expectNoHorizontalOverflow(page);
    });
  });
}

test('the new-reference and type-with-values dialogs in en/ar, light/dark, wide and narrow', async ({
  page,
}) => {
  test.slow();
  await signIn(page);
  for (const language of ['en', 'ar'] as const) {
    const text = texts[language];
    for (const [theme, size] of shotVariants(language)) {
      await page.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
      await page.setViewportSize(shotViewports[size]);
      await openAddProduct(page, language);
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);

      await expect(page.getByRole('button', { name: text.newUnit })).toBeVisible();
      await page.screenshot({ path: `e2e/artifacts/new-reference-page-${size}-${language}-${theme}.png` });
      await page.getByRole('button', { name: text.newUnit }).click();
      const unitDialog = page.getByRole('dialog', { name: text.newUnit });
      await expect(unitDialog.getByLabel(text.symbol)).toBeVisible();
      await expect(unitDialog.getByRole('button', { name: text.create, exact: true })).toBeInViewport({
        ratio: 1,
      });
      await page.screenshot({ path: `e2e/artifacts/new-reference-${size}-${language}-${theme}.png` });
      await page.keyboard.press('Escape');
      await expect(unitDialog).toBeHidden();

      await page.getByRole('button', { name: text.newType }).click();
      const typeDialog = page.getByRole('dialog', { name: text.newType });
      await typeDialog.getByLabel(text.nameEn).fill('Size');
      await typeDialog.getByLabel(text.nameAr).fill('المقاس');
      const box = typeDialog.getByRole('textbox', { name: text.values });
      await box.fill(`${text.lines}\n${text.lines.split('\n')[0]}`);
      await typeDialog.getByRole('button', { name: text.create, exact: true }).click();
      // A repeated line is said under the box, by its number.
      await expect(box).toHaveAttribute('aria-invalid', 'true');
      await expect(typeDialog.getByText(language === 'ar' ? /^السطر 4: / : /^Line 4: /)).toBeVisible();
      await expectAccessible(page, `type with values, ${language} ${theme} ${size}`);
      await page.screenshot({ path: `e2e/artifacts/type-with-values-${size}-${language}-${theme}.png` });
      await typeDialog.getByRole('button', { name: text.cancel, exact: true }).click();
      await page
        .getByRole('alertdialog', { name: text.discardTitle })
        .getByRole('button', { name: text.discard })
        .click();
      await expect(typeDialog).toBeHidden();
    }
  }
});
