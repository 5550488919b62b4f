import { signIn } from '../../fixtures/auth.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { findMailLink } from '../../fixtures/outbox.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

const acceptLink = /http:\/\/localhost:\d+\/accept-invite\?token=[\w-]+/;
const pathOf = (link: string) => link.replace(/^http:\/\/localhost:\d+/, '');

async function switchWorkspace(page: Page, name: string) {
  await page.getByRole('button', { name: /switch workspace/i }).click();
  await page.getByRole('menuitemradio', { name }).click();
  await expect(
    page.getByRole('button', { name: new RegExp(`^workspace ${name} switch workspace$`, 'i') }),
  ).toBeVisible();
}

test.describe('workspaces, roles and staff', () => {
  test('an invited staff member accepts, completes the profile, signs in and sees only what the role allows', async ({
    page,
    browser,
  }) => {
    const unique = Date.now().toString().slice(-7);
    const staff = { email: `staff.${unique}@shop.test`, password: 'Staff-pass1!', name: 'Omar Staff' };

    // The admin creates a role that may only view brands and customers.
    await signIn(page);
    await page.goto('/authority-roles');
    await page.getByRole('button', { name: 'New role' }).first().click();
    const editor = page.getByRole('dialog');
    await editor.getByLabel('Code').fill(`cashier-${unique}`);
    await editor.getByLabel('Title').fill('Cashier');
    await editor.getByRole('checkbox', { name: 'View Brands' }).check();
    await editor.getByRole('checkbox', { name: 'View Customers' }).check();
    await editor.getByRole('button', { name: 'Create role' }).click();
    await expect(editor).toBeHidden();
    await expect(page.getByRole('cell', { name: `cashier-${unique}` })).toBeVisible();

    // ...and invites the staff member with it.
    await page.goto('/users');
    await page.getByRole('button', { name: 'Invite user' }).first().click();
    const invite = page.getByRole('dialog');
    await invite.getByLabel('Email').fill(staff.email);
    await invite.getByLabel('Role').selectOption({ label: 'Cashier' });
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect(invite).toBeHidden();
    await expect(page.getByRole('row', { name: new RegExp(staff.email) })).toContainText('Invited');

    // The staff member opens the mailed link in their own browser.
    const link = await findMailLink(staff.email, acceptLink);
    const staffContext = await browser.newContext();
    const staffPage = await staffContext.newPage();
    await staffPage.goto(pathOf(link));
    await expect(staffPage.getByText('Demo Store').first()).toBeVisible();
    await staffPage.getByRole('button', { name: 'Accept Invitation' }).click();
    await expect(staffPage.getByText('Thanks for Accepting Invitation')).toBeVisible();
    await expect(staffPage.getByText('Please Complete Your Data')).toBeVisible();
    await staffPage.getByLabel('Full name').fill(staff.name);
    await staffPage.getByLabel('Phone number').fill('+201001234567');
    await staffPage.getByLabel('Password', { exact: true }).fill(staff.password);
    await staffPage.getByLabel('Confirm password').fill(staff.password);
    await staffPage.getByRole('button', { name: 'Update Profile' }).click();
    await expect(staffPage).toHaveURL(/\/login/, { timeout: 20_000 });

    // Signed in, on the first page the role opens (not the dashboard's refusal: decision 0018),
    // the navigation shows only what the role allows...
    await signIn(staffPage, { email: staff.email, password: staff.password });
    await expect(staffPage).toHaveURL(/\/brands$/);
    const navigation = staffPage.getByRole('navigation').first();
    // On Brands, its group of the menu is open.
    await expect(navigation.getByRole('button', { name: /data/i })).toHaveAttribute('aria-expanded', 'true');
    await expect(navigation.getByRole('link', { name: 'Brands' })).toBeVisible();
    await expect(navigation.getByRole('link', { name: 'Customers' })).toBeVisible();
    await expect(navigation.getByRole('link', { name: 'Products' })).toHaveCount(0);
    await expect(navigation.getByRole('link', { name: 'Users' })).toHaveCount(0);
    // At / without viewApplications (spec §4): the spec's refusal, and under it the pages the role opens.
    await staffPage.goto('/');
    await expect(staffPage.getByText('You are not authorized to access this page')).toBeVisible();
    const openable = staffPage.getByRole('navigation', { name: 'Pages you can open' });
    await expect(openable.getByRole('link', { name: 'Customers' })).toBeVisible();
    await expect(openable.getByRole('link', { name: 'Taxes' })).toHaveCount(0);
    await openable.getByRole('link', { name: 'Brands' }).click();
    await expect(staffPage).toHaveURL(/\/brands$/);
    // ...and a forbidden route is refused with the spec's text.
    await staffPage.goto('/users');
    await expect(staffPage.getByText('You are not authorized to access this page')).toBeVisible();
    await staffPage.goto('/taxes');
    await expect(staffPage.getByText('You are not authorized to access this page')).toBeVisible();
    // A catalogue screen the role may view opens read-only: no New button, no row actions.
    await staffPage.goto('/brands');
    await expect(staffPage.getByRole('heading', { name: 'Brands' })).toBeVisible();
    await expect(staffPage.getByRole('button', { name: 'New brand' })).toHaveCount(0);

    // The used invitation now reads as accepted, in English and in Arabic.
    await staffContext.clearCookies();
    await staffPage.goto(pathOf(link));
    await expect(staffPage.getByText('Invitation Already Accepted')).toBeVisible();
    await expect(staffPage.getByText('Invitation has Expired')).toBeVisible();
    await staffPage.goto(`${pathOf(link)}&lng=ar`);
    await expect(staffPage.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(staffPage.getByText('Invitation Already Accepted')).toHaveCount(0);
    await staffContext.close();
  });

  test('an invalid invitation says so, in English and in Arabic', async ({ page }) => {
    await page.goto('/accept-invite?token=not-a-real-token&lng=en');
    const invalid = page.getByText('This Invite Is Invalid');
    await expect(invalid).toBeVisible();
    // Shown in red: the computed colour (oklch with Tailwind 4) painted on a canvas and read back.
    const [red, green, blue] = await invalid.evaluate((element) => {
      const canvas = document.createElement('canvas');
      canvas.width = 1;
      canvas.height = 1;
      const context = canvas.getContext('2d')!;
      context.fillStyle = getComputedStyle(element).color;
      context.fillRect(0, 0, 1, 1);
      return Array.from(context.getImageData(0, 0, 1, 1).data);
    });
    expect(red).toBeGreaterThan((green ?? 0) + 60);
    expect(red).toBeGreaterThan((blue ?? 0) + 60);
    await page.screenshot({ path: 'e2e/artifacts/accept-invite-invalid-en.png' });
    await expectNoHorizontalOverflow(page);

    await page.goto('/accept-invite?token=not-a-real-token&lng=ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByText('This Invite Is Invalid')).toHaveCount(0);
    await expect(page.locator('main, h1').first()).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/accept-invite-invalid-ar.png' });
    await expectNoHorizontalOverflow(page);

    await page.goto('/accept-invite');
    await expect(page).not.toHaveURL(/accept-invite/);
  });

  test('switching workspace shows that workspace’s data, never the previous one’s', async ({ page }) => {
    // The operator's command line invited the demo admin to "Second Store" before the first start
    // (playwright.config.ts): an existing account joins with its password.
    await signIn(page);
    const link = await findMailLink(e2eServer.admin.email, acceptLink);
    await page.goto(pathOf(link));
    await page.getByRole('button', { name: 'Accept Invitation' }).click();
    await expect(page.getByText(/You have joined Second Store/)).toBeVisible();

    const unique = Date.now().toString().slice(-7);
    const createRole = async (code: string) => {
      await page.getByRole('button', { name: 'New role' }).first().click();
      const editor = page.getByRole('dialog');
      await editor.getByLabel('Code').fill(code);
      await editor.getByLabel('Title').fill(`Role ${code}`);
      await editor.getByRole('button', { name: 'Create role' }).click();
      await expect(page.getByRole('cell', { name: code, exact: true })).toBeVisible();
    };
    await page.goto('/authority-roles');
    await switchWorkspace(page, 'Demo Store');
    await createRole(`demo-${unique}`);

    await switchWorkspace(page, 'Second Store');
    await expect(page.getByRole('cell', { name: 'manager', exact: true })).toBeVisible();
    await expect(page.getByRole('cell', { name: `demo-${unique}`, exact: true })).toHaveCount(0);
    await createRole(`branch-${unique}`);

    await switchWorkspace(page, 'Demo Store');
    await expect(page.getByRole('cell', { name: `demo-${unique}`, exact: true })).toBeVisible();
    await expect(page.getByRole('cell', { name: `branch-${unique}`, exact: true })).toHaveCount(0);
  });
});
