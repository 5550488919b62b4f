import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { newWorkspaceOwner } from '../../fixtures/platform.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { expect, test } from '../../fixtures/test.ts';

const texts = {
  en: {
    settings: 'Workspace settings',
    name: 'Workspace name',
    baseCurrency: 'Base currency',
    save: 'Save',
    ratesEgp: 'Rates against EGP',
    rates: 'Rates against USD',
    newRate: 'New exchange rate',
    currency: 'Currency',
    rate: 'Rate',
    create: 'Create',
    refused: "This is the workspace's base currency; its rate is always 1",
    fifty: '50',
    twoHundredths: '0.02',
    discard: 'Discard',
  },
  ar: {
    settings: 'إعدادات مساحة العمل',
    name: 'اسم مساحة العمل',
    baseCurrency: 'العملة الأساسية',
    save: 'حفظ',
    ratesEgp: 'الأسعار مقابل EGP',
    rates: 'الأسعار مقابل USD',
    newRate: 'إضافة سعر صرف',
    currency: 'العملة',
    rate: 'السعر',
    create: 'إنشاء',
    refused: 'هذه هي العملة الأساسية لمساحة العمل، وسعرها دائمًا 1',
    fifty: '٥٠',
    twoHundredths: '٠٫٠٢',
    discard: 'تجاهل',
  },
} as const;

// A new workspace's owner accepts an invitation and signs in first: slow on a loaded machine.
test.describe.configure({ timeout: 300_000 });
// The first paint of a signed-in page waits for its lazy chunks and texts.
const loaded = { timeout: 45_000 };

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test(`workspace settings: an admin renames the workspace and makes USD its base; the selector and exchange rates follow (${language})`, async ({
    browser,
  }) => {
    const owner = await newWorkspaceOwner(browser, language);
    const { page } = owner;
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`/exchange-rates?lng=${language}`);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      // A new workspace's rates are against EGP.
      await expect(page.getByRole('main').getByText(text.ratesEgp)).toBeVisible(loaded);
      // One rate: 1 USD = 50 EGP. With USD as the base it becomes 1 EGP = 0.02 USD.
      await page.getByRole('button', { name: text.newRate }).first().click();
      const firstRate = page.getByRole('dialog', { name: text.newRate });
      await firstRate.getByLabel(text.currency).selectOption('USD');
      await firstRate.getByLabel(text.rate, { exact: true }).fill('50');
      await firstRate.getByRole('button', { name: text.create }).click();
      await expect(firstRate).toBeHidden();
      await expect(page.getByRole('row', { name: /USD/ })).toContainText(text.fifty);

      const selector = page.getByRole('button', { name: new RegExp(owner.workspace) });
      await selector.click();
      await page.getByRole('menuitem', { name: text.settings }).click();
      const dialog = page.getByRole('dialog', { name: text.settings });
      await expect(dialog).toBeVisible();
      const renamed = `Renamed ${language} ${randomDigits(6)}`;
      await dialog.getByLabel(text.name).fill(renamed);
      await dialog.getByLabel(text.baseCurrency).selectOption('USD');
      await expectNoHorizontalOverflow(page);
      await page.screenshot({ path: `e2e/artifacts/workspace-settings-dialog-${language}-wide.png` });
      await dialog.getByRole('button', { name: text.save }).click();
      await expect(dialog).toBeHidden();
      // The focus is back on the selector that opened the menu.
      await expect(page.getByRole('button', { name: new RegExp(renamed) })).toBeFocused();

      // The selector shows the new name at once, and the rates are against USD.
      await expect(page.getByRole('button', { name: new RegExp(renamed) })).toContainText(renamed);
      await expect(page.getByRole('main').getByText(text.rates)).toBeVisible();
      // After a reload too: it was saved, not only shown.
      await page.reload();
      await expect(page.getByRole('button', { name: new RegExp(renamed) })).toContainText(renamed, loaded);
      await expect(page.getByRole('main').getByText(text.rates)).toBeVisible(loaded);
      await expect(page.getByRole('row', { name: /EGP/ })).toContainText(text.twoHundredths);
      await expect(page.getByRole('row', { name: /USD/ })).toHaveCount(0);

      // A rate for the base currency itself is refused under the currency field.
      await page.getByRole('button', { name: text.newRate }).first().click();
      const editor = page.getByRole('dialog', { name: text.newRate });
      await editor.getByLabel(text.currency).selectOption('USD');
      await editor.getByLabel(text.rate, { exact: true }).fill('1');
      await editor.getByRole('button', { name: text.create }).click();
      await expect(editor.getByText(text.refused)).toBeVisible();
      await page.screenshot({ path: `e2e/artifacts/exchange-rate-base-refused-${language}.png` });
      await page.keyboard.press('Escape');
      await page.getByRole('alertdialog').getByRole('button', { name: text.discard }).click();
      await expect(editor).toBeHidden();
    } finally {
      await owner.close();
    }
  });
}
