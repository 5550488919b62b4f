import { signIn } from '../../fixtures/auth.ts';
import { importDialog } from '../../fixtures/import-dialog.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * The customers list's Import dialog: a file whose name column is headed in the file's own words
 * is previewed, and that column is mapped to the name by its select; the file with one bad row is
 * checked (the dry run names the row, its column and the problem, and nothing changes), then the
 * fixed file is imported with the same mapping and the list shows the change. The workspace
 * remembers the correction: the next file with that header, in a new page, has it pre-selected.
 * In en and ar; shot in both themes and widths into e2e/artifacts/.
 */
const texts = {
  en: {
    import: 'Import',
    check: 'Check the file',
    file: /^File/,
    bad: 'No record of this workspace has the code NOPE',
    brand: 'Brand',
    done: 'Imported: 0 added, 1 changed.',
    header: 'Code,Customer,Phone numbers,Source,Brand,Status',
    errors: 'The rows and columns to fix',
    preview: 'The file’s first rows, under the field each column fills',
    columnFor: 'Field filled by the column Customer',
    name: 'Name',
    customer: 'Customer',
    codeHeader: 'Code',
  },
  ar: {
    import: 'استيراد',
    check: 'فحص الملف',
    file: /^الملف/,
    bad: 'لا يوجد في مساحة العمل سجل رمزه NOPE',
    brand: 'العلامة التجارية',
    done: 'تم الاستيراد: أُضيف 0 وعُدّل 1.',
    header: 'الرمز,العميل,أرقام الهاتف,المصدر,العلامة التجارية,الحالة',
    errors: 'الصفوف والأعمدة التي تحتاج إلى تصحيح',
    preview: 'الصفوف الأولى من الملف، تحت الحقل الذي يملؤه كل عمود',
    columnFor: 'الحقل الذي يملؤه العمود العميل',
    name: 'الاسم',
    customer: 'العميل',
    codeHeader: 'الرمز',
  },
};

const viewports = { wide: { width: 1280, height: 800 }, narrow: { width: 390, height: 844 } };

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((chosen) => {
    localStorage.setItem('theme', chosen);
    document.documentElement.classList.toggle('dark', chosen === 'dark');
  }, theme);
}

test('a file with a bad row is named by the check and changes nothing; fixed, it imports; the correction is remembered, in en and ar', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page);
  const user = await (await page.request.get('/api/auth/user')).json();
  const workspaceId: string = user.data.adminWorkspaces[0].id;
  for (const language of ['en', 'ar'] as const) {
    const text = texts[language];
    const code = `IMP${randomDigits(6)}`;
    const created = await page.request.post(`/api/customers?workspaceId=${workspaceId}`, {
      headers: { origin: e2eServer.url },
      data: { code, name: 'Before', phones: [`+2010${randomDigits(8)}`], source: 'walkIn' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const rows = (name: string, brand: string) =>
      Buffer.from(`\uFEFF${text.header}\r\n${code},${name},,,${brand},\r\n`, 'utf8');

    await page.setViewportSize(viewports.wide);
    await page.goto(`/customers?lng=${language}&search=${code}`);
    await expect(page.locator('main tbody tr')).toHaveCount(1, { timeout: 60_000 });
    await page.getByRole('button', { name: text.import, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByLabel(text.file)
      .setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: rows('After', 'NOPE') });
    // The preview: the file's row under its headers, the unknown header not imported until chosen.
    const preview = dialog.getByRole('table', { name: text.preview });
    await expect(preview.getByRole('row').nth(1)).toContainText('After');
    const nameColumn = preview.getByRole('combobox', { name: text.columnFor });
    await expect(nameColumn).toHaveValue('');
    await nameColumn.selectOption({ label: text.name });
    await expect(nameColumn).toHaveValue('name');
    await dialog.getByRole('button', { name: text.check }).click();
    const table = dialog.getByRole('table', { name: text.errors });
    await expect(table.getByRole('row').nth(1)).toContainText(text.bad);
    await expect(table.getByRole('row').nth(1)).toContainText(text.brand);
    for (const theme of ['light', 'dark'] as const) {
      for (const size of ['wide', 'narrow'] as const) {
        await setTheme(page, theme);
        await page.setViewportSize(viewports[size]);
        await expect(table).toBeVisible();
        await page.screenshot({ path: `e2e/artifacts/import-check-${language}-${size}-${theme}.png` });
      }
    }
    await page.setViewportSize(viewports.wide);
    // The check changed nothing.
    await expect(page.locator('main tbody tr').first()).toContainText('Before');

    await dialog
      .getByLabel(text.file)
      .setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: rows('After', '') });
    // The same headers: the column's choice stays.
    await expect(preview.getByRole('row').nth(1)).toContainText('After');
    await expect(nameColumn).toHaveValue('name');
    await dialog.getByRole('button', { name: text.check }).click();
    await expect(dialog.getByRole('table', { name: text.errors })).toHaveCount(0);
    await dialog.getByRole('button', { name: text.import, exact: true }).click();
    await expect(dialog.getByText(text.done)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.locator('main tbody tr').first()).toContainText('After');

    // Another day, another file with the same header: the column is pre-selected as corrected.
    await page.goto(`/customers?lng=${language}&search=${code}`);
    await expect(page.locator('main tbody tr')).toHaveCount(1, { timeout: 60_000 });
    const again = importDialog(page, language);
    await again.open();
    await again.choose({ name: 'customers-2.csv', mimeType: 'text/csv', buffer: rows('Again', '') });
    const remembered = again.column(text.customer);
    await expect(remembered).toHaveValue('name');
    await expect(remembered).toHaveAccessibleDescription(again.rememberedNote);
    // A header the member never corrected is still matched by its name.
    await expect(again.column(text.codeHeader)).toHaveValue('code');
    await expect(again.column(text.codeHeader)).not.toHaveAccessibleDescription(again.rememberedNote);
    await again.close();
  }
});
