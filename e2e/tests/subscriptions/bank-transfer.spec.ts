import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { applicationCard, idOnLineWith, newWorkspaceOwner, operator } from '../../fixtures/platform.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { shotViewports } from '../../fixtures/shots.ts';
import { expect, test } from '../../fixtures/test.ts';

/**
 * Bank transfer on the real server, in Chromium and Arabic: the operator sets the instructions
 * from the command line, and the workspace's pending invoice on /payments (and its card on the
 * dashboard) shows them in Arabic, with the invoice's number as the reference and its amount, the
 * account left-to-right. Shot wide (light) and narrow (dark), the page not scrolling sideways.
 * The instructions are cleared at the end: the other specs see none.
 */
const account = 'EG38 0019 0005 0000 0000 2631 8000 2';

test('ar: a pending invoice shows the operator’s bank-transfer instructions', async ({ browser }) => {
  // A limit, not a wait: a new account, three operator commands and four pages (~1 min).
  const { page, workspace, close } = await newWorkspaceOwner(browser, 'ar');
  try {
    operator(
      'set-bank-transfer',
      '--holder-en',
      'Dukkan Platform LLC',
      '--holder-ar',
      'شركة منصة دكان',
      '--bank-en',
      'National Bank of Egypt',
      '--bank-ar',
      'البنك الأهلي المصري',
      '--account',
      account,
      '--notes-ar',
      'تصل التحويلات خلال يومي عمل.',
    );
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
    // Approved: its first invoice (no. 1, one location at the demo application's 250.00) waits.
    operator(
      'approve-subscription',
      idOnLineWith(operator('subscriptions', '--status', 'pending'), `"${workspace}"`),
    );

    await page.goto('/payments?lng=ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const due = page.getByRole('region', { name: 'بانتظار الدفع' });
    const box = due.getByText('ادفع الفاتورة رقم ١ بتحويل بنكي').locator('..');
    await expect(box).toBeVisible();
    await expect(box).toContainText('صاحب الحساب');
    await expect(box).toContainText('شركة منصة دكان');
    await expect(box).toContainText('البنك الأهلي المصري');
    await expect(box).toContainText('تصل التحويلات خلال يومي عمل.');
    await expect(box).toContainText(/المبلغ.*(٢٥٠|250)/);
    const iban = box.getByText(account, { exact: true });
    await expect(iban).toHaveAttribute('dir', 'ltr');
    const reference = box.locator('dd bdi[dir="ltr"]').filter({ hasText: /^1$/ });
    await expect(reference).toHaveCount(1);
    await expect(due).not.toContainText('تواصل مع مشغّل المنصة');

    for (const [theme, size] of [
      ['light', 'wide'],
      ['dark', 'narrow'],
    ] as const) {
      await page.setViewportSize(shotViewports[size]);
      await page.evaluate(
        (dark) => document.documentElement.classList.toggle('dark', dark),
        theme === 'dark',
      );
      await expect(iban).toBeInViewport();
      await expectNoHorizontalOverflow(page);
      await page.screenshot({ path: `e2e/artifacts/bank-transfer-${size}-ar-${theme}.png`, fullPage: true });
    }

    // The dashboard's card of the subscription says the same.
    await page.setViewportSize(shotViewports.wide);
    await page.goto('/?lng=ar');
    const card = applicationCard(page);
    await expect(card).toContainText('ادفع الفاتورة رقم ١ بتحويل بنكي');
    await expect(card.getByText(account, { exact: true })).toHaveAttribute('dir', 'ltr');
  } finally {
    operator('clear-bank-transfer');
    await close();
  }
});
