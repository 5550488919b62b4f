import { newWorkspaceOwner } from '../../fixtures/platform.ts';
import { enrolTotp, totpCode } from '../../fixtures/second-factor.ts';
import { expect, test } from '../../fixtures/test.ts';

/**
 * A workspace that requires a second factor, in the browser: a session that signed in with the
 * password alone sees the second step instead of the workspace's pages, and the workspace once
 * it has used its authenticator app there (a step-up).
 */
test('a password-only session steps up before it sees a workspace that requires a second factor', async ({
  browser,
}) => {
  // The first browser signs in with the password (no factor yet); the second adds the factor and
  // turns the requirement on, its own session having used the factor to add it.
  const owner = await newWorkspaceOwner(browser, 'en');
  const { page } = owner;
  const headers = { origin: new URL(page.url()).origin };
  const other = await browser.newContext();
  const admin = await other.newPage();
  await admin.goto('/login?lng=en');
  await admin.getByLabel('Email', { exact: true }).fill(owner.email);
  await admin.getByLabel('Password', { exact: true }).fill('Owner-pass1!');
  await admin.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(admin).not.toHaveURL(/\/login/);
  const secret = await enrolTotp(admin, 'Owner-pass1!');
  await admin.goto('/settings');
  const toggle = admin.getByRole('switch', { name: 'Require a second factor' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await other.close();

  // The first browser's session used the password alone: the workspace asks for the step.
  await page.goto('/?lng=en');
  await expect(page.getByRole('heading', { name: 'A second factor is required' })).toBeVisible();
  await expect(page.getByLabel('Authentication code')).toBeFocused();
  await page.screenshot({ path: 'e2e/artifacts/second-factor-step-up-wide-en-light.png' });
  const refused = await page.request.get('/api/workspaces/settings', {
    headers,
    params: {
      workspaceId: (await (await page.request.get('/api/auth/user')).json()).data.adminWorkspaces[0].id,
    },
  });
  expect(refused.status()).toBe(403);
  await page.getByLabel('Authentication code').fill(await totpCode(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'A second factor is required' })).toHaveCount(0);
  await expect(page.getByRole('main')).toBeVisible();
  await owner.close();
});
