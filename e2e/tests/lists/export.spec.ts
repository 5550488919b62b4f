import { readFile } from 'node:fs/promises';
import { signIn } from '../../fixtures/auth.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * A filtered list exports what it shows, every page of it: the customers list searched and
 * filtered by a source, exported as CSV from the Export menu, gives a file (UTF-8 with a
 * byte-order mark) of exactly the matching customers in the list's order, headed in the
 * reader's language.
 */
const texts = {
  en: {
    source: 'Source',
    online: 'Online',
    export: 'Export',
    csv: 'CSV (.csv)',
    header: ['Code', 'Name', 'Phone numbers', 'Source', 'Brand', 'Status'],
  },
  ar: {
    source: 'المصدر',
    online: 'عبر الإنترنت',
    export: 'تصدير',
    csv: 'ملف CSV',
    header: ['الرمز', 'الاسم', 'أرقام الهاتف', 'المصدر', 'العلامة التجارية', 'الحالة'],
  },
};

const viewports = {
  wide: { width: 1280, height: 800 },
  narrow: { width: 390, height: 844 },
};

/** 25 customers whose codes start with `prefix`, every other one come online: 13 online, more than a page of 10. */
async function seedCustomers(page: Page, prefix: string) {
  const user = await (await page.request.get('/api/auth/user')).json();
  const workspaceId: string = user.data.adminWorkspaces[0].id;
  const response = await page.request.post(`/api/customers/bulk?workspaceId=${workspaceId}`, {
    headers: { origin: e2eServer.url },
    data: Array.from({ length: 25 }, (_, index) => ({
      code: `${prefix}-${String(index).padStart(2, '0')}`,
      name: index % 2 === 0 ? `Nour ${index}` : `نور ${index}`,
      phones: [`+2010${randomDigits(8)}`],
      source: index % 2 === 0 ? 'online' : 'walkIn',
    })),
  });
  expect(response.status(), await response.text()).toBe(201);
  return Array.from({ length: 25 }, (_, index) => `${prefix}-${String(index).padStart(2, '0')}`).filter(
    (_, index) => index % 2 === 0,
  );
}

/** RFC 4180 lines without quoted line breaks, as the seeded customers make them. */
function csvRows(text: string): string[][] {
  return text
    .split('\r\n')
    .filter(Boolean)
    .map((line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map((match) => match[1]!));
}

test('a searched and filtered customers list exports every matching customer as CSV, in en and ar', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page);
  const prefix = `EXP${randomDigits(6)}`;
  const online = await seedCustomers(page, prefix);
  for (const language of ['en', 'ar'] as const) {
    const text = texts[language];
    await page.setViewportSize(viewports.wide);
    // The list filtered to the customers who came online (the Source filter shows the choice),
    // opened from its address: a change of filter on the page dims the table while the next page
    // loads, and the page's automatic accessibility check would measure the dimmed text.
    await page.goto(`/customers?lng=${language}&search=${prefix}&pageSize=10&source=online`);
    await expect(page.locator('main tbody tr')).toHaveCount(10, { timeout: 60_000 });
    await expect(page.locator('main tbody tr').first()).toContainText(online[0]!);
    await page.getByRole('button', { name: text.source, exact: false }).first().click();
    await expect(page.getByRole('checkbox', { name: text.online })).toBeChecked();
    await page.keyboard.press('Escape');

    // The menu is reached and used from the keyboard.
    const exportButton = page.getByRole('button', { name: text.export });
    await exportButton.focus();
    await page.keyboard.press('Enter');
    const csvItem = page.getByRole('menuitem', { name: text.csv });
    await expect(csvItem).toBeFocused();
    for (const [size, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `e2e/artifacts/lists-export-menu-${language}-${size}.png` });
    }
    await page.setViewportSize(viewports.wide);

    const downloading = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await readFile((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = csvRows(bytes.toString('utf8').slice(1));
    expect(header).toEqual(text.header);
    // Every page of the filtered list (13 rows, the list shows 10), in its order.
    expect(rows.map((row) => row[0])).toEqual(online);
    expect(new Set(rows.map((row) => row[3]))).toEqual(new Set(['online']));
    // A phone starts with +: written after a quote, so a spreadsheet does not run it.
    expect(rows[0]?.[2]).toMatch(/^'\+2010\d{8}$/);
    await expect(exportButton).toBeEnabled();
  }
});
