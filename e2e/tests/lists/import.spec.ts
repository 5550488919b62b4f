import { signIn } from '../../fixtures/auth.ts';
import { importDialog } from '../../fixtures/import-dialog.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * The customers list's Import dialog: a file with one bad row is checked (the dry run names the
 * row, its column and the problem, and nothing changes), then the fixed file is imported and the
 * list shows the change. In en and ar; shot in both themes and widths into e2e/artifacts/.
 */
const texts = {
  en: {
    bad: 'No record of this workspace has the code NOPE',
    brand: 'Brand',
    header: 'Code,Name,Phone numbers,Source,Brand,Status',
  },
  ar: {
    bad: 'لا يوجد في مساحة العمل سجل رمزه NOPE',
    brand: 'العلامة التجارية',
    header: 'الرمز,الاسم,أرقام الهاتف,المصدر,العلامة التجارية,الحالة',
  },
};

const viewports = { wide: { width: 1280, height: 800 }, narrow: { width: 390, height: 844 } };

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((chosen) => {
    localStorage.setItem('theme', chosen);
    document.documentElement.classList.toggle('dark', chosen === 'dark');
  }, theme);
}

test('a file with a bad row is named by the check and changes nothing; fixed, it imports, in en and ar', async ({
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
    const dialog = importDialog(page, language);
    await dialog.open();
    await dialog.choose({ name: 'customers.csv', mimeType: 'text/csv', buffer: rows('After', 'NOPE') });
    await dialog.check();
    expect(await dialog.problems()).toEqual([{ row: 2, column: text.brand, problem: text.bad }]);
    const table = dialog.dialog.getByRole('table');
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

    await dialog.choose({ name: 'customers.csv', mimeType: 'text/csv', buffer: rows('After', '') });
    await dialog.check();
    expect(await dialog.problems()).toEqual([]);
    await dialog.commit({ added: 0, changed: 1 });
    await dialog.close();
    await expect(page.locator('main tbody tr').first()).toContainText('After');
  }
});
