import type { Server } from 'node:http';
import { startDemoClient } from '../../../examples/demo-client/src/server.ts';
import { applicationCard, newWorkspaceOwner } from '../../fixtures/platform.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { expect, test } from '../../fixtures/test.ts';

/*
 * The newcomer's walk of the README: the demo client (examples/demo-client, as `npm run
 * demo-client` starts it, on :3001) signs in through Dukkan, shows the user and the workspace,
 * refreshes, and is signed out when the workspace's subscription ends; Dukkan then refuses it.
 */

const demoUrl = 'http://localhost:3001';
let demo: Server;

test.beforeAll(async () => {
  demo = await startDemoClient({ dukkanUrl: e2eServer.url, clientId: 'dukkan-demo', port: 3001 });
});
test.afterAll(async () => {
  await new Promise((resolve) => demo.close(resolve));
});

test('the demo client signs in through Dukkan, refreshes, and is signed out when the trial ends', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = await newWorkspaceOwner(browser, 'en');
  const { page } = owner;
  await page.goto('/?lng=en');
  const card = applicationCard(page);
  await card.getByRole('button', { name: 'Start free trial' }).click();
  await expect(card).toContainText('Free trial');

  await page.goto(demoUrl);
  await page.getByRole('link', { name: 'Sign in with Dukkan' }).click();
  await expect(page.getByRole('heading', { name: 'You are about to login to Demo app' })).toBeVisible();
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(`${demoUrl}/`);
  await expect(page.getByText(owner.workspace)).toBeVisible();
  await expect(page.getByText(owner.email)).toBeVisible();

  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByText(owner.workspace)).toBeVisible();

  // The owner ends the trial on the dashboard: the demo client's next look at Dukkan signs it out.
  await page.goto(`${e2eServer.url}/?lng=en`);
  await applicationCard(page).getByRole('button', { name: 'Cancel subscription' }).click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: 'End trial now — it cannot be restarted' })
    .click();
  await expect(applicationCard(page)).toContainText('Expired free trial');

  await page.goto(demoUrl);
  await expect(page.getByText(/You were signed out/)).toBeVisible();
  await page.getByRole('link', { name: 'Sign in with Dukkan' }).click();
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText('You are not authorized to access Demo app')).toBeVisible();
  await owner.close();
});
