import {
  expectCellsClearOfActions,
  expectNoHorizontalOverflow,
  expectRowActionsVisible,
} from '../../fixtures/layout.ts';
import { applicationCard, idOnLineWith, newWorkspaceOwner, operator } from '../../fixtures/platform.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { expect, type Locator, type Page, test } from '../../fixtures/test.ts';

/**
 * Screenshots of the dashboard (a subscribed card), its plan dialog and the confirmations that end
 * a subscription or a free trial in en/ar × light/dark, wide
 * (1280 × 800) and narrow (390 × 844), and of /subscriptions and /payments in en light and ar dark
 * at both widths, kept in e2e/artifacts/. At each:
 * the page does not scroll sideways, the card's actions and the dialog's confirm button are wholly
 * on screen, and the lists show their row.
 */
const texts = {
  en: {
    changePlan: 'Change plan',
    confirm: 'Change plan',
    subscribed: /Subscribed until/,
    approved: 'Approved',
    cancel: 'Cancel subscription',
    keepSubscription: 'Keep subscription',
    endSubscription: 'End subscription',
    keepTrial: 'Keep trial',
    endTrial: 'End trial now — it cannot be restarted',
  },
  ar: {
    changePlan: 'غيّر الخطة',
    confirm: 'غيّر الخطة',
    subscribed: /مشترك حتى/,
    approved: 'مقبول',
    cancel: 'ألغِ الاشتراك',
    keepSubscription: 'أبقِ على الاشتراك',
    endSubscription: 'أنهِ الاشتراك',
    keepTrial: 'أبقِ على التجربة',
    endTrial: 'أنهِ التجربة الآن — لا يمكن بدؤها من جديد',
  },
};

/** The confirmation that ends it: both buttons, named, wholly on screen; shot; kept (nothing ends). */
async function shootEndConfirmation(
  page: Page,
  name: string,
  keep: string,
  end: string,
  shot: () => Promise<unknown>,
) {
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByRole('button', { name: keep })).toBeFocused();
  await expectNoHorizontalOverflow(page);
  await expectOnScreen(page, `${name}: ${keep}`, confirm.getByRole('button', { name: keep }));
  await expectOnScreen(page, `${name}: ${end}`, confirm.getByRole('button', { name: end }));
  await shot();
  await confirm.getByRole('button', { name: keep }).click();
  await expect(confirm).toBeHidden();
}

async function expectOnScreen(page: Page, what: string, control: Locator) {
  const width = page.viewportSize()?.width;
  await expect.soft(control, `${what} at ${width} px`).toBeVisible();
  await expect.soft(control, `${what} at ${width} px is wholly on screen`).toBeInViewport({ ratio: 1 });
}

test('dashboard, plan dialog, subscriptions and payments in en/ar, light/dark, wide and narrow', async ({
  browser,
}) => {
  // A limit, not a wait: a new account, then 24 pages rendered and shot in turn (~1.5 min).
  test.setTimeout(240_000);
  const { page, workspace, close } = await newWorkspaceOwner(browser, 'en');
  // An approved subscription with its invoice: the states worth looking at.
  const user = await (await page.request.get('/api/auth/user')).json();
  const workspaceId: string = user.data.adminWorkspaces[0].id;
  const applications = await (await page.request.get(`/api/applications?workspaceId=${workspaceId}`)).json();
  const requested = await page.request.post(`/api/subscriptions/events?workspaceId=${workspaceId}`, {
    data: { applicationId: applications.data[0].id, event: 'request', plan: 'annually' },
    headers: { origin: e2eServer.url },
  });
  expect(requested.ok(), await requested.text()).toBe(true);
  operator(
    'approve-subscription',
    idOnLineWith(operator('subscriptions', '--status', 'pending'), `"${workspace}"`),
  );
  // The new workspace's Get started list would stand above the card: this sweep is about the card
  // (the list has its own, get-started.spec.ts), so it is hidden as a member would hide it.
  const hidden = await page.request.put(`/api/workspaces/get-started/dismissal?workspaceId=${workspaceId}`, {
    headers: { origin: e2eServer.url },
  });
  expect(hidden.ok(), await hidden.text()).toBe(true);

  for (const language of ['en', 'ar'] as const) {
    const text = texts[language];
    for (const [theme, size] of shotVariants(language)) {
      await page.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
      await page.setViewportSize(shotViewports[size]);
      const shot = (name: string) =>
        page.screenshot({ path: `e2e/artifacts/${name}-${size}-${language}-${theme}.png`, fullPage: true });

      await page.goto(`/?lng=${language}`);
      await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      const card = applicationCard(page);
      await expect(card).toContainText(text.subscribed);
      await expectNoHorizontalOverflow(page);
      for (const button of await card.getByRole('button').all()) {
        await expectOnScreen(page, `dashboard: ${await button.textContent()}`, button);
      }
      await shot('dashboard');

      await card.getByRole('button', { name: text.changePlan }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('radio')).toHaveCount(4);
      await expectNoHorizontalOverflow(page);
      await expectOnScreen(page, 'plan dialog: confirm', dialog.getByRole('button', { name: text.confirm }));
      await shot('plan-dialog');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();

      await card.getByRole('button', { name: text.cancel }).click();
      await shootEndConfirmation(page, 'cancel dialog', text.keepSubscription, text.endSubscription, () =>
        shot('cancel-dialog'),
      );

      // The lists are the generic list's, shot in every combination elsewhere: two themes here.
      if ((language === 'en') !== (theme === 'light')) continue;
      await page.goto(`/subscriptions?lng=${language}`);
      await expect(page.getByRole('row').filter({ hasText: text.approved })).toHaveCount(1);
      await expectNoHorizontalOverflow(page);
      await expectRowActionsVisible(page, { actions: false });
      await shot('subscriptions');

      await page.goto(`/payments?lng=${language}`);
      await expect(page.getByRole('rowheader').filter({ hasText: /^(1|١)$/ })).toHaveCount(1);
      await expectNoHorizontalOverflow(page);
      // An issued invoice's View, Print and Download (decision 0045), each fully shown.
      await expectRowActionsVisible(page, { actions: true });
      // Every column shown, none under the pinned actions: the status above all.
      await expectCellsClearOfActions(page);
      const status = page.locator('td[data-column=status]').first();
      const actionsCell = page.locator('td[data-column=actions]').first();
      const [statusBox, actionsBox] = [await status.boundingBox(), await actionsCell.boundingBox()];
      expect.soft(statusBox, 'the invoice has a status shown').not.toBeNull();
      if (statusBox && actionsBox)
        expect
          .soft(
            statusBox.x + statusBox.width <= actionsBox.x + 0.5 ||
              actionsBox.x + actionsBox.width <= statusBox.x + 0.5 ||
              statusBox.y + statusBox.height <= actionsBox.y + 0.5 ||
              actionsBox.y + actionsBox.height <= statusBox.y + 0.5,
            `/payments at ${page.viewportSize()?.width} px in ${language}: the status (${Math.round(statusBox.x)}+${Math.round(statusBox.width)}) and the actions (${Math.round(actionsBox.x)}+${Math.round(actionsBox.width)}) overlap`,
          )
          .toBe(true);
      await shot('payments');
    }
  }
  await close();
});

test('the confirmation that ends a free trial in en/ar, wide and narrow', async ({ browser }) => {
  const { page, close } = await newWorkspaceOwner(browser, 'en');
  const user = await (await page.request.get('/api/auth/user')).json();
  const workspaceId: string = user.data.adminWorkspaces[0].id;
  const applications = await (await page.request.get(`/api/applications?workspaceId=${workspaceId}`)).json();
  const started = await page.request.post(`/api/subscriptions/events?workspaceId=${workspaceId}`, {
    data: { applicationId: applications.data[0].id, event: 'startTrial' },
    headers: { origin: e2eServer.url },
  });
  expect(started.ok(), await started.text()).toBe(true);
  for (const language of ['en', 'ar'] as const) {
    const text = texts[language];
    for (const [theme, size] of shotVariants(language)) {
      await page.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
      await page.setViewportSize(shotViewports[size]);
      await page.goto(`/?lng=${language}`);
      await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
      await applicationCard(page).getByRole('button', { name: text.cancel }).click();
      await shootEndConfirmation(page, 'trial end dialog', text.keepTrial, text.endTrial, () =>
        page.screenshot({
          path: `e2e/artifacts/trial-end-dialog-${size}-${language}-${theme}.png`,
          fullPage: true,
        }),
      );
    }
  }
  await close();
});
