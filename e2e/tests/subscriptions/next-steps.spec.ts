import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { applicationCard, idOnLineWith, newWorkspaceOwner, operator } from '../../fixtures/platform.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * What happens next, in Chromium, en and ar, on the real server: the plan dialog says when the
 * invoice is issued; the waiting card who reviews it; once approved, /payments says what is due
 * and how to pay; a location's create and disable dialogs say how the next invoice moves (the
 * demo application: 250.00 per location per month); and a member is invited with a role and no
 * application. Each dialog is shot, the page not scrolling sideways (en light wide, ar dark
 * narrow; `E2E_SHOTS=all`: every theme and width in each language).
 */
const texts = {
  en: {
    subscribe: 'Subscribe',
    monthly: 'Monthly',
    onApproval:
      /Its first invoice, EGP\s500\.00, is issued when the platform's operator approves the request/,
    waiting:
      "The platform's operator reviews your request. You will get a mail once it is approved or rejected",
    dueTitle: 'Waiting for payment',
    due: /Invoice no\. 1: EGP\s500\.00, waiting for payment\./,
    howToPay: "To pay, contact the platform's operator quoting invoice no. 1",
    newLocation: 'New location',
    raised: /the invoice issued on .+ goes from EGP\s500\.00 to EGP\s750\.00\./,
    lowered: /goes from EGP\s500\.00 to EGP\s250\.00\./,
    disable: 'Disable',
    disableTitle: 'Disable Branch A?',
    keepActive: 'Keep Branch A active',
    inviteUser: 'Invite user',
    email: 'Email',
    role: 'Role',
    applicationsHint: 'With none, they work in this back office only.',
    sendInvite: 'Send invitation',
    invited: 'Invited',
  },
  ar: {
    subscribe: 'اشترك',
    monthly: 'شهري',
    onApproval: /تصدر فاتورته الأولى بقيمة .+ عند قبول مشغّل المنصة للطلب/,
    waiting: 'يراجع مشغّل المنصة طلبك، وستصلك رسالة بالبريد عند قبوله أو رفضه',
    dueTitle: 'بانتظار الدفع',
    due: /الفاتورة رقم (1|١): .+، بانتظار الدفع\./,
    howToPay: 'للدفع، تواصل مع مشغّل المنصة مع ذكر رقم الفاتورة',
    newLocation: 'إضافة فرع',
    raised: /الفاتورة التي تصدر في .+ تصبح .*(750|٧٥٠).* بدلًا من .*(500|٥٠٠)/,
    lowered: /تصبح .*(250|٢٥٠).* بدلًا من .*(500|٥٠٠)/,
    disable: 'تعطيل',
    disableTitle: 'تعطيل Branch A؟',
    keepActive: 'أبقِ Branch A مفعّلًا',
    inviteUser: 'دعوة مستخدم',
    email: 'البريد الإلكتروني',
    role: 'الدور',
    applicationsHint: 'وإن لم تختر أيًّا منها فسيعمل في لوحة الإدارة هذه فقط.',
    sendInvite: 'إرسال الدعوة',
    invited: 'مدعو',
  },
};

/** POSTs as the signed-in page, from the app's own origin. */
async function post(page: Page, url: string, data: unknown) {
  const response = await page.request.post(url, { data, headers: { origin: e2eServer.url } });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).data;
}

for (const language of ['en', 'ar'] as const) {
  test(`${language}: each status says what happens next; a location's dialog says the next invoice; a member without applications`, async ({
    browser,
  }) => {
    // A limit, not a wait: a new account, five pages and two operator commands, then each shot in
    // one pair or, with E2E_SHOTS=all, four (about 2.5 and 4 min on two shared cores).
    test.setTimeout(process.env.E2E_SHOTS === 'all' ? 480_000 : 240_000);
    const text = texts[language];
    const { page, workspace, close } = await newWorkspaceOwner(browser, language);
    const variants = shotVariants(language);
    const [theme, size] = variants[0]!;
    await page.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
    await page.setViewportSize(shotViewports[size]);
    /** Shot in each theme and width pair (the page's theme class switched in place: a dialog stays open). */
    const shot = async (name: string) => {
      for (const [shotTheme, shotSize] of variants) {
        await page.setViewportSize(shotViewports[shotSize]);
        await page.evaluate(
          (dark) => document.documentElement.classList.toggle('dark', dark),
          shotTheme === 'dark',
        );
        await expectNoHorizontalOverflow(page);
        await page.screenshot({
          path: `e2e/artifacts/next-steps-${name}-${shotSize}-${language}-${shotTheme}.png`,
        });
      }
      await page.setViewportSize(shotViewports[size]);
      await page.evaluate(
        (dark) => document.documentElement.classList.toggle('dark', dark),
        theme === 'dark',
      );
    };

    const user = await (await page.request.get('/api/auth/user')).json();
    const workspaceId: string = user.data.adminWorkspaces[0].id;
    await page.request.put(`/api/workspaces/get-started/dismissal?workspaceId=${workspaceId}`, {
      headers: { origin: e2eServer.url },
    });
    // Two active locations: the next invoice counts them.
    const brand = await post(page, `/api/brands?workspaceId=${workspaceId}`, {
      name: [
        { locale: 'en', value: 'House brand' },
        { locale: 'ar', value: 'علامة البيت' },
      ],
    });
    for (const name of ['Branch A', 'Branch B'])
      await post(page, `/api/locations?workspaceId=${workspaceId}`, {
        name: [
          { locale: 'en', value: name },
          { locale: 'ar', value: name },
        ],
        brandId: brand.id,
        phones: [{ label: 'Main', number: `+2010${randomDigits(8)}` }],
      });

    // The plan dialog says when the invoice is issued; the waiting card who reviews the request.
    await page.goto(`/?lng=${language}`);
    const card = applicationCard(page);
    await card.getByRole('button', { name: text.subscribe, exact: true }).click();
    const plans = page.getByRole('dialog');
    await plans.getByRole('radio', { name: text.monthly }).check();
    await expect(plans).toContainText(text.onApproval);
    await expectNoHorizontalOverflow(page);
    await shot('plan-dialog');
    await plans.getByRole('button', { name: text.subscribe, exact: true }).click();
    await expect(plans).toBeHidden();
    await expect(card).toContainText(text.waiting);
    await shot('waiting-card');

    // Approved: the first invoice waits for its payment, and /payments says how to pay it.
    operator(
      'approve-subscription',
      idOnLineWith(operator('subscriptions', '--status', 'pending'), `"${workspace}"`),
    );
    await page.goto(`/payments?lng=${language}`);
    const due = page.getByRole('region', { name: text.dueTitle });
    await expect(due).toContainText(text.due);
    await expect(due).toContainText(text.howToPay);
    await expectNoHorizontalOverflow(page);
    await shot('payments-due');

    // A new location raises the next invoice; disabling one lowers it: each dialog says so first.
    await page.goto(`/locations?lng=${language}`);
    await page.getByRole('button', { name: text.newLocation }).first().click();
    const form = page.getByRole('dialog');
    await expect(form).toContainText(text.raised);
    await shot('location-create');
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();
    const row = page.getByRole('row', { name: /Branch A/ });
    await row.getByRole('button', { name: new RegExp(`^${text.disable}`) }).click();
    const confirm = page.getByRole('alertdialog', { name: text.disableTitle });
    await expect(confirm).toContainText(text.lowered);
    await expect(confirm.getByRole('button', { name: text.keepActive })).toBeFocused();
    await expectNoHorizontalOverflow(page);
    await shot('location-disable');
    await confirm.getByRole('button', { name: text.disable, exact: true }).click();
    await expect(confirm).toBeHidden();

    // A member invited with a role and no application, though the workspace has one installed.
    await page.goto(`/users?lng=${language}`);
    await page.getByRole('button', { name: text.inviteUser }).first().click();
    const invite = page.getByRole('dialog');
    const staff = `staff.${language}.${randomDigits(7)}@shop.test`;
    await invite.getByLabel(text.email).fill(staff);
    await invite.getByLabel(text.role).selectOption({ index: 1 });
    await expect(invite).toContainText(text.applicationsHint);
    await shot('invite-without-applications');
    await invite.getByRole('button', { name: text.sendInvite }).click();
    await expect(invite).toBeHidden();
    await expect(page.getByRole('row', { name: new RegExp(staff.replace(/\./g, '\\.')) })).toContainText(
      text.invited,
    );
    await close();
  });
}
