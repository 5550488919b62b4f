import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { findMailLink } from '../../fixtures/outbox.ts';
import { applicationCard, idOnLineWith, newWorkspaceOwner, operator } from '../../fixtures/platform.ts';
import { expect, test } from '../../fixtures/test.ts';

/*
 * The platform loop of a newcomer: a workspace made by the operator, its admin on the dashboard
 * (the demo application registered at the first start), a free trial or a subscription request,
 * the operator's decision from the command line while the server runs, and what the admin then
 * sees: the card, the mail, the subscriptions and the invoices. Each test has a workspace of its
 * own, so the demo workspace of the other tests never gets an installed application.
 */

const texts = {
  en: {
    notSubscribed: 'Not subscribed',
    subscribe: 'Subscribe',
    startTrial: 'Start free trial',
    waiting: 'Waiting for activation',
    subscribedUntil: /Subscribed until/,
    freeTrial: 'Free trial · 14 days left',
    rejected: 'Rejected',
    open: 'Open the app',
    quarterly: /Quarterly/,
    cancel: 'Cancel subscription',
    keepSubscription: 'Keep subscription',
    endSubscription: 'End subscription',
    cancelling: /Cancelled · ends on/,
    approvedMail: /was approved and is active until[\s\S]*?The invoice of this period is [^\n]+/,
    rejectedMail: /was not approved/,
  },
  ar: {
    notSubscribed: 'غير مشترك',
    subscribe: 'اشترك',
    startTrial: 'ابدأ التجربة المجانية',
    waiting: 'بانتظار التفعيل',
    subscribedUntil: /مشترك حتى/,
    freeTrial: /تجربة مجانية · بقي (14|١٤) يومًا/,
    rejected: 'مرفوض',
    open: 'افتح التطبيق',
    quarterly: /ربع سنوي/,
    cancel: 'ألغِ الاشتراك',
    keepTrial: 'أبقِ على التجربة',
    endTrial: 'أنهِ التجربة الآن — لا يمكن بدؤها من جديد',
    expiredFreeTrial: 'تجربة مجانية منتهية',
    approvedMail: /تمت الموافقة على اشتراك[\s\S]*?قيمة فاتورة هذه الفترة [^\n]+/,
    rejectedMail: /لم تتم الموافقة على طلب [^\n]+ للاشتراك في التطبيق التجريبي/,
  },
};

test.describe('applications, subscriptions and payments', () => {
  // A limit, not a wait: a new account, four pages and five operator commands take ~20 s.
  test.describe.configure({ timeout: 120_000 });

  test('en: subscribe on the dashboard, the operator approves, the card, mail, subscription and invoice follow, then cancel', async ({
    browser,
  }) => {
    const text = texts.en;
    const { page, email, workspace, close } = await newWorkspaceOwner(browser, 'en');

    await page.goto('/?lng=en');
    const card = applicationCard(page);
    await expect(card.getByRole('heading', { name: 'Demo app' })).toBeVisible();
    await expect(card).toContainText(text.notSubscribed);
    await expect(card.getByRole('button', { name: text.startTrial })).toBeVisible();
    await expectNoHorizontalOverflow(page);

    // Quarterly for a workspace without locations: 250.00 × 1 × 3 × 0.95 = 712.50.
    await card.getByRole('button', { name: text.subscribe }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: text.quarterly }).check();
    await expect(dialog).toContainText('EGP 712.50');
    await dialog.getByRole('button', { name: text.subscribe }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toContainText(text.waiting);
    await expect(card.getByRole('button', { name: text.startTrial })).toHaveCount(0);

    // The operator approves it from the command line while the server runs.
    const pending = operator('subscriptions', '--status', 'pending');
    const approved = operator('approve-subscription', idOnLineWith(pending, `"${workspace}"`));
    // (Money is written with a no-break space after the currency: \s.)
    expect(approved).toMatch(/Issued invoice .* \(no\. 1\): EGP\s712\.50 for quarterly/);

    await page.reload();
    await expect(card).toContainText(text.subscribedUntil);
    await expect(card.getByRole('link', { name: new RegExp(text.open) })).toHaveAttribute(
      'href',
      'http://localhost:3001/',
    );
    const mail = await findMailLink(email, text.approvedMail);
    expect(mail).toMatch(/EGP\s712\.50/);

    await page.goto('/subscriptions?lng=en');
    const subscription = page.getByRole('row', { name: /Demo app/ });
    await expect(subscription).toContainText('Quarterly');
    await expect(subscription).toContainText('Approved');

    await page.goto('/payments?lng=en');
    // Invoice no. 1, issued at the approval, and the next period's, not issued yet.
    const invoice = page.getByRole('row').filter({ hasText: 'Pending' });
    await expect(invoice).toContainText('EGP 712.50');
    await expect(invoice.getByRole('rowheader')).toHaveText('1');
    await expect(page.getByRole('row').filter({ hasText: 'Upcoming' })).toContainText('EGP 712.50');

    // The operator records its payment: the invoice reads as paid.
    const invoices = operator('invoices', '--status', 'pending');
    operator('record-payment', idOnLineWith(invoices, `"${workspace}"`), '--status', 'successful');
    await page.reload();
    await expect(page.getByRole('row').filter({ hasText: 'Successful' })).toContainText('EGP 712.50');
    await expectNoHorizontalOverflow(page);

    // Cancelled, it keeps working until its period's end and offers nothing more.
    await page.goto('/?lng=en');
    await card.getByRole('button', { name: text.cancel }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('It keeps working until');
    // The safe button names what it keeps, the other the action: no "Cancel" on both.
    await expect(confirm.getByRole('button', { name: text.keepSubscription })).toBeFocused();
    await confirm.getByRole('button', { name: text.endSubscription }).click();
    await expect(card).toContainText(text.cancelling);
    await expect(card.getByRole('button')).toHaveCount(0);
    await expect(card.getByRole('link', { name: new RegExp(text.open) })).toBeVisible();
    await close();
  });

  test('ar: a free trial ended early, then a request the operator rejects, in Arabic', async ({
    browser,
  }) => {
    const text = texts.ar;
    const { page, email, workspace, close } = await newWorkspaceOwner(browser, 'ar');

    await page.goto('/?lng=ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const card = applicationCard(page);
    await expect(card.getByRole('heading', { name: 'التطبيق التجريبي' })).toBeVisible();
    await expect(card).toContainText(text.notSubscribed);

    await card.getByRole('button', { name: text.startTrial }).click();
    await expect(card).toContainText(text.freeTrial);
    await expect(card.getByRole('link', { name: new RegExp(text.open) })).toBeVisible();
    // Ended early, the trial has expired, and is had once: the card no longer offers it.
    await card.getByRole('button', { name: text.cancel }).click();
    await expect(page.getByRole('alertdialog').getByRole('button', { name: text.keepTrial })).toBeFocused();
    await page.getByRole('alertdialog').getByRole('button', { name: text.endTrial }).click();
    await expect(card).toContainText(text.expiredFreeTrial);
    await expect(card.getByRole('link', { name: new RegExp(text.open) })).toHaveCount(0);
    await expect(card.getByRole('button', { name: text.startTrial })).toHaveCount(0);

    await card.getByRole('button', { name: text.subscribe }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: text.quarterly }).check();
    await dialog.getByRole('button', { name: text.subscribe }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toContainText(text.waiting);

    const pending = operator('subscriptions', '--status', 'pending');
    operator('reject-subscription', idOnLineWith(pending, `"${workspace}"`));
    await page.reload();
    await expect(card).toContainText(text.rejected);
    await expect(card.getByRole('button', { name: text.subscribe })).toBeVisible();
    // The admin saved Arabic: the operator's decision is mailed in Arabic.
    await findMailLink(email, text.rejectedMail);

    await page.goto('/subscriptions?lng=ar');
    const subscription = page.getByRole('row', { name: /التطبيق التجريبي/ });
    await expect(subscription).toContainText('مرفوض');
    await expect(subscription).toContainText('ربع سنوي');
    await page.goto('/payments?lng=ar');
    await expect(page.getByText('لا توجد فواتير بعد')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await close();
  });
});
