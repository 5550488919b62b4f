import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type StripeStandIn,
  standInSecretKey,
  standInWebhookSecret,
  startStripeStandIn,
} from '../../../apps/server/test/helpers/stripe-stand-in.ts';
import { startDemoClient } from '../../../examples/demo-client/src/server.ts';
import { applicationCard, type E2eServer, newWorkspaceOwner } from '../../fixtures/platform.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { expect, expectAccessible, test } from '../../fixtures/test.ts';

/*
 * Paying by card through the hosted checkout, without the operator: a Dukkan server of its own with
 * PAYMENT_PROVIDER=stripe (the shared one takes bank transfers), its Stripe SDK pointed at the
 * local stand-in of Stripe's API, which hosts the checkout page and signs the webhook. A new
 * workspace subscribes from the dashboard, pays on the stand-in's page, comes back to /payments
 * with the invoice paid and the subscription active, and signs in to the demo client.
 */

const main = fileURLToPath(new URL('../../../apps/server/dist/main.js', import.meta.url));
const port = e2eServer.port + 50;
const server: E2eServer = {
  url: `http://localhost:${port}`,
  dataDir: join(tmpdir(), `dukkan-e2e-stripe-${port}`),
};
const demoUrl = 'http://localhost:3001';
let stripe: StripeStandIn & { setWebhookUrl(url: string): void };
let dukkan: ChildProcess;
let demo: Server;

/** Starts the built server and resolves once it says it listens (its log's first `listening` line). */
function startServer(env: Record<string, string>): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Server listening at/.test(output)) resolve(child);
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.on('exit', (code) =>
      reject(new Error(`The server stopped (${code}) before listening:\n${output}`)),
    );
  });
}

test.beforeAll(async () => {
  rmSync(server.dataDir, { recursive: true, force: true });
  stripe = await startStripeStandIn({ webhookUrl: `${server.url}/api/payments/webhooks/stripe` });
  dukkan = await startServer({
    PORT: String(port),
    DATA_DIR: server.dataDir,
    PUBLIC_URL: server.url,
    AUTH_RATE_LIMIT: '1000',
    LOG_LEVEL: 'info',
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: standInSecretKey,
    STRIPE_WEBHOOK_SECRET: standInWebhookSecret,
    STRIPE_API_URL: stripe.url,
  });
  demo = await startDemoClient({ dukkanUrl: server.url, clientId: 'dukkan-demo', port: 3001 });
});
test.afterAll(async () => {
  await new Promise((resolve) => (demo ? demo.close(resolve) : resolve(undefined)));
  if (dukkan && dukkan.exitCode === null) {
    const stopped = new Promise((resolve) => dukkan.once('exit', resolve));
    dukkan.kill('SIGTERM');
    await stopped;
  }
  await stripe?.close();
  rmSync(server.dataDir, { recursive: true, force: true });
});

test('en: a new workspace subscribes, pays on the hosted checkout and is active at once', async ({
  browser,
}) => {
  const owner = await newWorkspaceOwner(browser, 'en', server);
  const { page } = owner;
  try {
    await page.goto('/?lng=en');
    const card = applicationCard(page);
    await expect(card.getByRole('heading', { name: 'Demo app' })).toBeVisible();
    await card.getByRole('button', { name: 'Subscribe' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: /Monthly/ }).check();
    await dialog.getByRole('button', { name: 'Subscribe' }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toContainText('Waiting for activation');

    // The first invoice was issued with the request: Pay now on the invoices page.
    await page.goto('/payments?lng=en');
    const due = page.getByRole('region', { name: 'Waiting for payment' });
    await expect(due.getByText('Pay invoice no. 1 by card')).toBeVisible();
    await expectAccessible(page, 'payments with Pay now');
    await due.getByRole('button', { name: /^Pay EGP\s250\.00 now$/ }).click();

    // The stand-in's hosted page: its Pay button sends the signed webhook, then comes back.
    await expect(page).toHaveURL(new RegExp(`^${stripe.url}/pay/cs_test_`));
    await expect(page.getByText('Total: 250.00 EGP')).toBeVisible();
    await page.getByRole('button', { name: 'Pay 250.00 EGP' }).click();
    // Back on /payments: a status says the payment is being confirmed, and the parameter that
    // brought it leaves the address, so a reload does not say it again.
    const returned = page.getByRole('status').filter({ hasText: 'Payment received — being confirmed' });
    await expect(returned).toBeVisible();
    await expect(returned).toContainText('The invoice shows as Successful as soon as it does');
    await expect(page).toHaveURL(new RegExp(`^${server.url}/payments\\?workspaceId=[^&]+$`));
    await expect(page.getByRole('region', { name: 'Waiting for payment' })).toHaveCount(0);
    // Invoice no. 1 paid; the next period's shows as upcoming.
    await expect(page.getByRole('row', { name: /^1 .*Demo app/ })).toContainText('Successful');
    await expect(page.getByRole('row', { name: /^— .*Demo app/ })).toContainText('Upcoming');
    await expectAccessible(page, 'payments after paying');
    await page.screenshot({ path: 'e2e/artifacts/checkout-return-paid-wide-en.png', fullPage: true });
    await returned.getByRole('button', { name: 'Dismiss' }).click();
    await expect(returned).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('row', { name: /^1 .*Demo app/ })).toContainText('Successful');
    await expect(page.getByText('Payment received — being confirmed')).toHaveCount(0);

    // Active without the operator: the dashboard says so, and the demo client lets the owner in.
    await page.goto('/?lng=en');
    await expect(applicationCard(page)).toContainText(/Subscribed/);

    await page.goto(demoUrl);
    await page.getByRole('link', { name: 'Sign in with Dukkan' }).click();
    await expect(page.getByRole('heading', { name: 'You are about to login to Demo app' })).toBeVisible();
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(`${demoUrl}/`);
    await expect(page.getByText(owner.workspace)).toBeVisible();
    await expect(page.getByText(owner.email)).toBeVisible();
  } finally {
    await owner.close();
  }
});

test('ar: Pay now in Arabic from the card, back without paying, then paid; the card says subscribed', async ({
  browser,
}) => {
  const owner = await newWorkspaceOwner(browser, 'ar', server);
  const { page } = owner;
  try {
    await page.goto('/?lng=ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const card = applicationCard(page);
    await card.getByRole('button', { name: 'اشترك' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: /شهري/ }).check();
    await expect(dialog).toContainText('تصدر فاتورته الأولى');
    await dialog.getByRole('button', { name: 'اشترك' }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toContainText('بانتظار التفعيل');
    await expect(card).toContainText('ادفع فاتورته الأولى بالبطاقة ويبدأ الاشتراك فورًا.');
    await expect(card.getByText('ادفع الفاتورة رقم ١ بالبطاقة')).toBeVisible();
    await expectAccessible(page, 'dashboard with Pay now (ar)');
    await card.getByRole('button', { name: /^ادفع .* الآن$/ }).click();

    // Back without paying: nothing was charged, the invoice still waits with its Pay now.
    await expect(page).toHaveURL(new RegExp(`^${stripe.url}/pay/cs_test_`));
    await page.getByRole('link', { name: 'Back without paying' }).click();
    const cancelled = page.getByRole('status').filter({ hasText: 'أُلغي الدفع' });
    await expect(cancelled).toBeVisible();
    await expect(cancelled).toContainText('لم يُخصم أي مبلغ');
    await expect(page).toHaveURL(new RegExp(`^${server.url}/payments\\?workspaceId=[^&]+$`));
    const due = page.getByRole('region', { name: 'بانتظار الدفع' });
    await expect(due.getByRole('button', { name: /^ادفع .* الآن$/ })).toBeVisible();
    await expectAccessible(page, 'payments after a cancelled checkout (ar)');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: 'e2e/artifacts/checkout-return-cancelled-narrow-ar.png', fullPage: true });
    await cancelled.getByRole('button', { name: 'إخفاء' }).click();
    await expect(cancelled).toHaveCount(0);

    await due.getByRole('button', { name: /^ادفع .* الآن$/ }).click();
    await expect(page).toHaveURL(new RegExp(`^${stripe.url}/pay/cs_test_`));
    await page.getByRole('button', { name: 'Pay 250.00 EGP' }).click();
    const returned = page.getByRole('status').filter({ hasText: 'استُلمت الدفعة — جارٍ تأكيدها' });
    await expect(returned).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`^${server.url}/payments\\?workspaceId=[^&]+$`));
    await expect(page.getByRole('region', { name: 'بانتظار الدفع' })).toHaveCount(0);
    await page.reload();
    await expect(page.getByText('استُلمت الدفعة — جارٍ تأكيدها')).toHaveCount(0);

    await page.goto('/?lng=ar');
    await expect(applicationCard(page)).toContainText('مشترك حتى');
  } finally {
    await owner.close();
  }
});
