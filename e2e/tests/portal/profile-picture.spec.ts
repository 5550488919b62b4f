import type { Server } from 'node:http';
import { startDemoClient } from '../../../examples/demo-client/src/server.ts';
import { applicationCard, newWorkspaceOwner } from '../../fixtures/platform.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { expect, test } from '../../fixtures/test.ts';

/*
 * A person sets a profile picture on /profile: the user menu shows it at once, and the sign-in
 * portal of an application shows it beside the application's logo in place of the initials.
 */

const demoUrl = 'http://localhost:3001';
let demo: Server;

const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const pictureAddress = /^\/files\/[0-9a-f-]+\/[0-9a-f-]+\.png$/;

test.beforeAll(async () => {
  demo = await startDemoClient({ dukkanUrl: e2eServer.url, clientId: 'dukkan-demo', port: 3001 });
});
test.afterAll(async () => {
  await new Promise((resolve) => demo.close(resolve));
});

test('a profile picture set on /profile shows in the user menu and on the portal', async ({ browser }) => {
  const owner = await newWorkspaceOwner(browser, 'en');
  const { page } = owner;

  await page.goto('/profile?lng=en');
  await page
    .getByLabel('Profile picture', { exact: true })
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng });
  await expect(page.getByText('Profile picture updated')).toBeVisible();
  const shown = page.getByRole('img', { name: 'Image 1' });
  await expect(shown).toHaveAttribute('src', pictureAddress);
  const picture = (await shown.getAttribute('src')) as string;
  await expect(page.getByRole('button', { name: /account menu/i }).locator('img')).toHaveAttribute(
    'src',
    picture,
  );

  await page.goto('/?lng=en');
  const card = applicationCard(page);
  await card.getByRole('button', { name: 'Start free trial' }).click();
  await expect(card).toContainText('Free trial');

  await page.goto(demoUrl);
  await page.getByRole('link', { name: 'Sign in with Dukkan' }).click();
  await expect(page.getByRole('heading', { name: 'You are about to login to Demo app' })).toBeVisible();
  await expect(page.locator(`img[src="${picture}"]`)).toBeVisible();
  await owner.close();
});
