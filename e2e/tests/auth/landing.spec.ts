import { signIn } from '../../fixtures/auth.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { findMailLink } from '../../fixtures/outbox.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * Where signing in lands (spec §4, decision 0018): a clerk whose role may not open the dashboard
 * (no viewApplications) lands on the first page of their menu, Products, not on a refusal; the
 * invitation's "Your profile is ready" toast does not follow them in; the login page after the
 * invitation has their email filled in; typing `/` still shows the spec's refusal; and a `from`
 * that resolves off the site (`/.//evil.test`) lands on a page of the site, not a blank one.
 */
const texts = {
  en: {
    accept: 'Accept Invitation',
    name: 'Full name',
    phone: 'Phone number',
    password: 'Password',
    confirm: 'Confirm password',
    update: 'Update Profile',
    ready: 'Your profile is ready. You can now sign in.',
    email: 'Email',
    products: 'Products',
    refused: 'You are not authorized to access this page',
  },
  ar: {
    accept: 'قبول الدعوة',
    name: 'الاسم الكامل',
    phone: 'رقم الهاتف',
    password: 'كلمة المرور',
    confirm: 'تأكيد كلمة المرور',
    update: 'تحديث الملف الشخصي',
    ready: 'ملفك الشخصي جاهز. يمكنك الآن تسجيل الدخول.',
    email: 'البريد الإلكتروني',
    products: 'المنتجات',
    refused: 'ليست لديك صلاحية للوصول إلى هذه الصفحة',
  },
};

const acceptLink = /http:\/\/localhost:\d+\/accept-invite\?token=[\w-]+/;
const pathOf = (link: string) => link.replace(/^http:\/\/localhost:\d+/, '');

/** The demo admin makes a role that may view and add products (no dashboard) and invites a clerk with it. */
async function inviteClerk(page: Page, unique: string): Promise<string> {
  await signIn(page);
  const me = await (await page.request.get('/api/auth/user')).json();
  const workspaceId = (me.data.adminWorkspaces as { id: string; name: string }[]).find(
    (workspace) => workspace.name === 'Demo Store',
  )?.id;
  const post = async (path: string, data: unknown) => {
    const response = await page.request.post(`/api/${path}?workspaceId=${workspaceId}`, {
      headers: { origin: e2eServer.url },
      data,
    });
    expect(response.ok(), await response.text()).toBe(true);
    return (await response.json()).data;
  };
  const role = await post('authority-roles', {
    code: `clerk-${unique}`,
    title: `Clerk ${unique}`,
    permissions: ['viewProducts', 'addProducts'],
  });
  const email = `clerk.${unique}@shop.test`;
  await post('workspaces/users/invite', { email, roleId: role.id });
  return email;
}

test.slow();

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test(`a clerk without the dashboard lands on Products after the invitation, email filled in, no toast left (${language})`, async ({
    page,
    browser,
  }) => {
    const unique = randomDigits(7);
    const email = await inviteClerk(page, unique);
    const password = 'Clerk-pass1!';

    const link = await findMailLink(email, acceptLink);
    const context = await browser.newContext();
    const clerk = await context.newPage();
    await clerk.goto(`${pathOf(link)}&lng=${language}`);
    await expect(clerk.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
    await clerk.getByRole('button', { name: text.accept }).click();
    await clerk.getByLabel(text.name).fill('Omar Clerk');
    await clerk.getByLabel(text.phone).fill('+201001234567');
    await clerk.getByLabel(text.password, { exact: true }).fill(password);
    await clerk.getByLabel(text.confirm).fill(password);
    await clerk.getByRole('button', { name: text.update }).click();

    // The login page has the invited address filled in (not in its URL), and the toast of the
    // page before. The pointer rests on the toast, which holds it open (react-hot-toast pauses
    // while hovered): without the dismissal on sign-in it would still be there on Products.
    await expect(clerk).toHaveURL(/\/login$/, { timeout: 20_000 });
    const email_ = clerk.getByLabel(text.email);
    await expect(email_).toHaveValue(email);
    expect(clerk.url()).not.toContain(encodeURIComponent(email));
    const toast = clerk.getByText(text.ready);
    await expect(toast).toBeVisible();
    await toast.hover();
    await clerk.screenshot({ path: `/tmp/shots-starter/login-prefilled-${language}.png` });
    await clerk.getByLabel(text.password, { exact: true }).fill(password);
    await clerk.getByLabel(text.password, { exact: true }).press('Enter');

    // Products, the first page of the clerk's menu, rather than the dashboard's refusal.
    await expect(clerk).toHaveURL(/\/products$/);
    await expect(clerk.getByRole('heading', { level: 1, name: text.products })).toBeVisible();
    await expect(clerk.getByText(text.refused)).toHaveCount(0);
    await expect(clerk.getByText(text.ready)).toHaveCount(0);
    await clerk.screenshot({ path: `/tmp/shots-starter/landed-products-${language}.png` });
    await expectNoHorizontalOverflow(clerk);

    // Typing / still shows the spec's refusal (§4), with the pages the clerk may open.
    await clerk.goto('/');
    await expect(clerk.getByText(text.refused)).toBeVisible();

    // A from that resolves off the site: signed in already, the login page goes on to Products.
    for (const from of ['/.//evil.test', '/./%5Cevil.test', '/brands/..//evil.test']) {
      await clerk.goto(`/login?from=${from}`);
      await expect(clerk).toHaveURL(/\/products$/);
      await expect(clerk.getByRole('heading', { level: 1, name: text.products })).toBeVisible();
    }
    await context.close();
  });
}
