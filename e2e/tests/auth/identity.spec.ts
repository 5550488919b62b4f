import { signIn, signOut } from '../../fixtures/auth.ts';
import { findMailLink } from '../../fixtures/outbox.ts';
import { newWorkspaceOwner } from '../../fixtures/platform.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { expect, test } from '../../fixtures/test.ts';

test.describe('identity', () => {
  test('request access shows the success card', async ({ page }) => {
    await page.goto('/request-for-access');
    const unique = Date.now().toString().slice(-8);
    await page.getByLabel(/full name/i).fill('Sara Ali');
    await page.getByLabel(/email/i).fill(`sara.${unique}@shop.test`);
    await page.getByLabel(/phone/i).fill(`+2010${unique}`);
    await page.getByLabel(/company name/i).fill('Sara Sweets');
    await page.getByLabel(/business category/i).selectOption('food');
    await page.getByLabel(/hear about us/i).selectOption('friend');
    await page.getByRole('button', { name: /request|send|submit/i }).click();
    await expect(page.getByText('Request sent successfully.')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('Check your email for updates.')).toBeVisible();
  });

  test('a wrong password shows Invalid Credentials', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel(/email/i).fill(e2eServer.admin.email);
    await page.getByLabel(/^password/i).fill('Wrong-password1!');
    await page.getByRole('button', { name: /log ?in|sign ?in/i }).click();
    await expect(page.getByText('Invalid Credentials')).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
  });

  test('login shows the shell, logout returns to login', async ({ page }) => {
    await signIn(page);
    await expect(page.getByRole('navigation').first()).toBeVisible();
    await expect(page.getByText('Demo Store').first()).toBeVisible();
    await signOut(page);
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login\?from=(%2F|\/)profile$/);
  });

  test('a deep link while signed out returns there after login, query string kept', async ({ page }) => {
    await page.goto('/brands?x=1');
    await expect(page).toHaveURL(/\/login\?from=(%2F|\/)brands$/);
    await page.getByLabel(/email/i).fill(e2eServer.admin.email);
    await page.getByLabel(/^password/i).fill(e2eServer.admin.password);
    await page.getByRole('button', { name: /log ?in|sign ?in/i }).click();
    await expect(page).toHaveURL(/\/brands\?x=1$/);
  });

  test('forgot password → mailed link → reset → login with the new password → changed on the profile', async ({
    browser,
  }) => {
    // A person of their own: the reset ends the demo admin's sessions, which the tests running
    // beside this one are signed in with.
    const owner = await newWorkspaceOwner(browser, 'en');
    const { page } = owner;
    await signOut(page);
    const newPassword = 'Changed-pass1!';
    await page.goto('/forgot-password');
    await page.getByLabel(/email/i).fill(owner.email);
    await page.getByRole('button', { name: /send|reset|submit/i }).click();
    await expect(page.getByText('Email sent successfully.')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('Check your email for the password reset link.')).toBeVisible();

    const link = await findMailLink(owner.email, /http:\/\/localhost:\d+\/reset-password\?token=[\w-]+/);
    await page.goto(link.replace(/^http:\/\/localhost:\d+/, ''));
    await page.getByLabel(/^new password|^password/i).fill(newPassword);
    await page.getByLabel(/confirm/i).fill(newPassword);
    await page.getByRole('button', { name: /reset|save|set|submit/i }).click();
    await expect(page).toHaveURL(/\/login/);

    await signIn(page, { email: owner.email, password: newPassword });

    // And changed again on the profile page, from the new one.
    const third = 'Third-pass1!';
    await page.goto('/profile');
    await page.getByLabel(/current password/i).fill(newPassword);
    await page.getByLabel(/^new password/i).fill(third);
    await page.getByLabel(/confirm/i).fill(third);
    await page.getByRole('button', { name: /change password/i }).click();
    await expect(page.getByText(/password (was )?changed/i)).toBeVisible();
    await signOut(page);
    await signIn(page, { email: owner.email, password: third });
    await owner.close();
  });
});
