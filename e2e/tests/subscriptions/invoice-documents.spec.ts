import { readFile } from 'node:fs/promises';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { idOnLineWith, newWorkspaceOwner, operator } from '../../fixtures/platform.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { shotViewports } from '../../fixtures/shots.ts';
import { expect, expectAccessible, type Page, test } from '../../fixtures/test.ts';

/**
 * An issued invoice's document on the real server, in Chromium: opened from its row on /payments,
 * in English then Arabic (its number, the workspace's name and the amount), printed without the
 * shell, and downloaded as the server's file. Shot light and dark, 1280 and 390 wide, in each
 * language, axe-checked in each theme.
 */
async function shoot(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    for (const size of ['wide', 'narrow'] as const) {
      await page.setViewportSize(shotViewports[size]);
      await page.evaluate(
        (dark) => document.documentElement.classList.toggle('dark', dark),
        theme === 'dark',
      );
      await expectNoHorizontalOverflow(page);
      // Light is checked on every change of address; dark here, where contrast may differ.
      if (size === 'narrow' && theme === 'dark') await expectAccessible(page, `${name} ${theme}`);
      await page.screenshot({ path: `e2e/artifacts/${name}-${size}-${theme}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.setViewportSize(shotViewports.wide);
}

test('an invoice’s document in English and Arabic: viewed, printed and downloaded', async ({ browser }) => {
  const { page, workspace, close } = await newWorkspaceOwner(browser, 'en');
  try {
    const user = await (await page.request.get('/api/auth/user')).json();
    const workspaceId: string = user.data.adminWorkspaces[0].id;
    const applications = await (
      await page.request.get(`/api/applications?workspaceId=${workspaceId}`)
    ).json();
    const requested = await page.request.post(`/api/subscriptions/events?workspaceId=${workspaceId}`, {
      data: { applicationId: applications.data[0].id, event: 'request', plan: 'monthly' },
      headers: { origin: e2eServer.url },
    });
    expect(requested.ok(), await requested.text()).toBe(true);
    // Approved: its first invoice (no. 1, one location at the demo application's 250.00) is issued.
    operator(
      'approve-subscription',
      idOnLineWith(operator('subscriptions', '--status', 'pending'), `"${workspace}"`),
    );

    await page.setViewportSize(shotViewports.wide);
    await page.goto('/payments?lng=en');
    const view = page.getByRole('button', { name: 'View invoice: 1' });
    await expect(view).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/invoice-actions-wide-light.png', fullPage: true });
    // From the keyboard.
    await view.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/payments\/[0-9a-f-]{36}\/document$/);

    const article = page.getByRole('article');
    await expect(article).toHaveAttribute('lang', 'en');
    await expect(article.getByRole('heading', { name: 'Invoice no. 1' })).toBeVisible();
    await expect(article).toContainText(workspace);
    await expect(page.getByTestId('invoice-total')).toContainText(/250\.00/);
    await expect(article).toContainText('Waiting for payment');
    await shoot(page, 'invoice-document-en');

    // Printed: the document alone, without the menu or the page's bar.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('navigation')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print invoice' })).toBeHidden();
    await expect(article).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/invoice-document-en-print.png', fullPage: true });
    await page.emulateMedia({ media: 'screen' });

    // Downloaded: the server's file, self-contained, saying the same.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download invoice' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('invoice-1-en.html');
    const file = await readFile((await download.path())!, 'utf8');
    expect(file).toContain('<html lang="en" dir="ltr">');
    expect(file).toContain('Invoice no. 1');
    expect(file).toContain(workspace);

    await page.getByRole('link', { name: 'View in Arabic' }).click();
    await expect(article).toHaveAttribute('lang', 'ar');
    await expect(article).toHaveAttribute('dir', 'rtl');
    await expect(article.getByRole('heading', { name: 'الفاتورة رقم ١' })).toBeVisible();
    await expect(article).toContainText(workspace);
    await expect(page.getByTestId('invoice-total')).toContainText(/٢٥٠٫٠٠/);
    await expect(article).toContainText('بانتظار الدفع');
    await shoot(page, 'invoice-document-ar');

    // An Arabic reader gets it in Arabic, the page right to left.
    await page.goto(`${new URL(page.url()).pathname}?lng=ar`);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(article).toHaveAttribute('lang', 'ar');
    await expect(page.getByRole('link', { name: 'عرض بالإنجليزية' })).toBeVisible();
    await page.screenshot({
      path: 'e2e/artifacts/invoice-document-ar-reader-wide-light.png',
      fullPage: true,
    });
  } finally {
    await close();
  }
});
