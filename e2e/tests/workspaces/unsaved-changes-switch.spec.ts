import { signIn } from '../../fixtures/auth.ts';
import { findMailLink } from '../../fixtures/outbox.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { shotViewports } from '../../fixtures/shots.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * The workspace switch asks before a page's unsaved changes are lost (issue 29), like every other
 * way of leaving it (tests/shell/unsaved-changes.spec.ts). The demo admin needs a second workspace:
 * the operator invited them to "Second Store" before the first start (playwright.config.ts); this
 * file runs after staff.spec.ts, which accepts it, and accepts it itself when run alone.
 */
const texts = {
  en: {
    switchWorkspace: /switch workspace/i,
    selected: (name: string) => new RegExp(`^workspace ${name} switch workspace$`, 'i'),
    discardTitle: 'Discard your changes?',
    keepEditing: 'Keep editing',
    discard: 'Discard',
    code: 'Code',
    openMenu: 'Open menu',
  },
  ar: {
    switchWorkspace: /تبديل مساحة العمل/,
    selected: (name: string) => new RegExp(`^مساحة العمل ${name} تبديل مساحة العمل$`),
    discardTitle: 'هل تريد تجاهل تغييراتك؟',
    keepEditing: 'متابعة التعديل',
    discard: 'تجاهل',
    code: 'الرمز',
    openMenu: 'فتح القائمة',
  },
};

async function joinSecondStore(page: Page) {
  const user = await (await page.request.get('/api/auth/user')).json();
  const names = [
    ...user.data.adminWorkspaces,
    ...user.data.workspaces.map((m: { workspace: unknown }) => m.workspace),
  ].map((workspace: { name: string }) => workspace.name);
  if (names.includes('Second Store')) return;
  const link = await findMailLink(
    e2eServer.admin.email,
    /http:\/\/localhost:\d+\/accept-invite\?token=[\w-]+/,
  );
  await page.goto(link.replace(/^http:\/\/localhost:\d+/, ''));
  await page.getByRole('button', { name: 'Accept Invitation' }).click();
  await expect(page.getByText(/You have joined Second Store/)).toBeVisible();
}

for (const [language, size] of [
  ['en', shotViewports.wide],
  ['ar', shotViewports.narrow],
] as const) {
  const text = texts[language];
  test.describe(`the workspace switch (${language}, ${size.width} px)`, () => {
    test.use({ viewport: size });

    test(`asks before a page's unsaved changes are left (${language})`, async ({ page }) => {
      await signIn(page);
      await joinSecondStore(page);
      await page.goto(`/products/add?lng=${language}`);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      const code = page.getByLabel(text.code, { exact: true });
      await expect(code).toBeVisible();
      // On a phone the selector is in the drawer, which stays open after a switch (no navigation).
      const narrow = size.width < 1024;
      const drawer = page.locator('#navigation-drawer');
      const switchTo = async (name: string) => {
        if (narrow && !(await drawer.getByRole('navigation').isVisible()))
          await page.getByRole('button', { name: text.openMenu }).click();
        await page.getByRole('button', { name: text.switchWorkspace }).and(page.locator(':visible')).click();
        await page.getByRole('menuitemradio', { name }).click();
      };
      const expectSelected = async (name: string) => {
        await expect(
          page.getByRole('button', { name: text.selected(name) }).and(page.locator(':visible')),
        ).toBeVisible();
        if (narrow) {
          await page.keyboard.press('Escape');
          await expect(drawer.getByRole('navigation')).toBeHidden();
        }
      };

      // Clean: switches at once.
      await switchTo('Second Store');
      await expectSelected('Second Store');
      await switchTo('Demo Store');
      await expectSelected('Demo Store');

      await code.fill('SWITCH-1');
      await switchTo('Second Store');
      const dialog = page.getByRole('alertdialog', { name: text.discardTitle });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: text.keepEditing })).toBeFocused();
      await dialog.getByRole('button', { name: text.keepEditing }).click();
      await expect(dialog).toBeHidden();
      await expectSelected('Demo Store');
      await expect(code).toHaveValue('SWITCH-1');

      await switchTo('Second Store');
      await dialog.getByRole('button', { name: text.discard }).click();
      await expectSelected('Second Store');
      // The page started afresh in the other workspace: what was discarded is gone.
      await expect(page).toHaveURL(/\/products\/add/);
      await expect(page.getByLabel(text.code, { exact: true })).toHaveValue('');
      await switchTo('Demo Store');
      await expectSelected('Demo Store');
    });
  });
}
