import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { findMailLink } from '../../fixtures/outbox.ts';
import { newWorkspaceOwner, type Owner } from '../../fixtures/platform.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { type Browser, expect, type Page, test } from '../../fixtures/test.ts';

/**
 * `/settings` is the workspace's settings page: the switcher's menu item opens it; an admin
 * changes the base currency and the time zone there (the rates follow the new base) and sees
 * them saved; leaving with unsaved edits asks "Discard your changes?"; a member who is not an
 * admin sees the same settings, read only. Shot in both themes at 1280 and 390 px
 * (`E2E_SHOTS=all`; one pair per language by default).
 */
const texts = {
  en: {
    settingsItem: 'Workspace settings',
    title: 'Settings',
    cardTitle: 'Workspace settings',
    name: 'Workspace name',
    baseCurrency: /^Base currency/,
    timeZone: /^Time zone/,
    searchCurrency: 'Search Base currency',
    searchZone: 'Search Time zone',
    save: 'Save',
    saved: 'Workspace settings saved',
    dashboard: 'Dashboard',
    discardTitle: 'Discard your changes?',
    keepEditing: 'Keep editing',
    discard: 'Discard',
    readOnly: "Only the workspace's admins can change these settings.",
    rates: 'Rates against USD',
    twoHundredths: '0.02',
    accept: 'Accept Invitation',
    fullName: 'Full name',
    phone: 'Phone number',
    password: 'Password',
    confirm: 'Confirm password',
    update: 'Update Profile',
  },
  ar: {
    settingsItem: 'إعدادات مساحة العمل',
    title: 'الإعدادات',
    cardTitle: 'إعدادات مساحة العمل',
    name: 'اسم مساحة العمل',
    baseCurrency: /^العملة الأساسية/,
    timeZone: /^المنطقة الزمنية/,
    searchCurrency: 'البحث في العملة الأساسية',
    searchZone: 'البحث في المنطقة الزمنية',
    save: 'حفظ',
    saved: 'تم حفظ إعدادات مساحة العمل',
    dashboard: 'لوحة التحكم',
    discardTitle: 'هل تريد تجاهل تغييراتك؟',
    keepEditing: 'متابعة التعديل',
    discard: 'تجاهل',
    readOnly: 'لا يمكن تغيير هذه الإعدادات إلا لمسؤولي مساحة العمل.',
    rates: 'الأسعار مقابل USD',
    twoHundredths: '٠٫٠٢',
    accept: 'قبول الدعوة',
    fullName: 'الاسم الكامل',
    phone: 'رقم الهاتف',
    password: 'كلمة المرور',
    confirm: 'تأكيد كلمة المرور',
    update: 'تحديث الملف الشخصي',
  },
} as const;
type Language = keyof typeof texts;
type Texts = (typeof texts)[Language];

// A new workspace's owner accepts an invitation and signs in first, and so does its member: slow on a loaded machine.
test.describe.configure({ timeout: 300_000 });
// The first paint of a signed-in page waits for its lazy chunks and texts.
const loaded = { timeout: 45_000 };
const acceptLink = /http:\/\/localhost:\d+\/accept-invite\?token=[\w-]+/;

/** The owner's workspace id, read from their current user. */
async function workspaceIdOf(owner: Owner): Promise<string> {
  const me = await (await owner.page.request.get('/api/auth/user')).json();
  const id = (me.data.adminWorkspaces as { id: string; name: string }[]).find(
    (workspace) => workspace.name === owner.workspace,
  )?.id;
  if (!id) throw new Error(`No workspace ${owner.workspace}`);
  return id;
}

/** Posts as the owner, through the API, what the test needs but does not test (a rate, a role, an invitation). */
async function postAs(owner: Owner, workspaceId: string, path: string, data: unknown) {
  const response = await owner.page.request.post(`/api/${path}?workspaceId=${workspaceId}`, {
    headers: { origin: e2eServer.url },
    data,
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).data as { id: string };
}

/**
 * A member of the owner's workspace who is not an admin (a role that may only view brands):
 * invited through the API, accepting the mailed invitation in a browser of their own, signed in.
 */
async function newMember(
  browser: Browser,
  owner: Owner,
  workspaceId: string,
  language: Language,
  text: Texts,
) {
  const unique = randomDigits(7);
  const role = await postAs(owner, workspaceId, 'authority-roles', {
    code: `viewer-${unique}`,
    title: `Viewer ${unique}`,
    permissions: ['viewBrands'],
  });
  const email = `member.${language}.${unique}@shop.test`;
  const password = 'Member-pass1!';
  await postAs(owner, workspaceId, 'workspaces/users/invite', { email, roleId: role.id });
  const link = await findMailLink(email, acceptLink);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${link.replace(/^http:\/\/localhost:\d+/, '')}&lng=${language}`);
  await page.getByRole('button', { name: text.accept }).click();
  await page.getByLabel(text.fullName).fill('Omar Member');
  await page.getByLabel(text.phone).fill('+201001234567');
  await page.getByLabel(text.password, { exact: true }).fill(password);
  await page.getByLabel(text.confirm).fill(password);
  await page.getByRole('button', { name: text.update }).click();
  await expect(page).toHaveURL(/\/login/, { timeout: 20_000 });
  await page.getByLabel(text.password, { exact: true }).fill(password);
  await page.getByLabel(text.password, { exact: true }).press('Enter');
  await expect(page).not.toHaveURL(/\/login/, loaded);
  return { page, close: () => context.close() };
}

/** Picks a choice of a searchable select by typing part of its name. */
async function pick(page: Page, button: RegExp, search: string, typed: string, shot?: string) {
  await page.getByRole('button', { name: button }).click();
  const box = page.getByRole('combobox', { name: search });
  await expect(box).toBeFocused();
  // The list opens on the current choice.
  await expect(page.getByRole('option', { selected: true })).toBeInViewport();
  if (shot) await page.screenshot({ path: `e2e/artifacts/${shot}.png` });
  await box.fill(typed);
  await expect(page.getByRole('listbox').getByRole('option')).toHaveCount(1);
  await box.press('Enter');
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(page.getByRole('button', { name: button })).toBeFocused();
}

/** The settings page shot in the test's theme and width pairs, without a horizontal scroll. */
async function shoot(page: Page, language: Language, who: string) {
  const text = texts[language];
  for (const [theme, size] of shotVariants(language)) {
    await page.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
    await page.setViewportSize(shotViewports[size]);
    await page.reload();
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/);
    await expect(page.getByRole('button', { name: text.timeZone })).toBeVisible(loaded);
    await expectNoHorizontalOverflow(page);
    await page.screenshot({
      path: `e2e/artifacts/settings-${who}-${language}-${theme}-${size}.png`,
      fullPage: true,
    });
  }
  await page.setViewportSize(shotViewports.wide);
}

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test(`/settings: an admin saves a new base currency and time zone, a member reads them (${language})`, async ({
    browser,
  }) => {
    const owner = await newWorkspaceOwner(browser, language);
    const { page } = owner;
    const workspaceId = await workspaceIdOf(owner);
    // One rate, 1 USD = 50 EGP: with USD as the base it becomes 1 EGP = 0.02 USD.
    await postAs(owner, workspaceId, 'exchange-rates', { currency: 'USD', rate: 50 });
    let member: Awaited<ReturnType<typeof newMember>> | undefined;
    try {
      await page.setViewportSize(shotViewports.wide);
      await page.goto(`/exchange-rates?lng=${language}`);
      await expect(page.locator('html')).toHaveAttribute('lang', language);

      // The switcher's menu item opens /settings.
      await page.getByRole('button', { name: new RegExp(owner.workspace) }).click();
      await page.getByRole('menuitem', { name: text.settingsItem }).click();
      await expect(page).toHaveURL(/\/settings$/);
      await expect(page.getByRole('heading', { level: 1, name: text.title })).toBeVisible(loaded);
      await expect(page.getByRole('heading', { level: 2, name: text.cardTitle })).toBeVisible();
      await expect(page.getByRole('textbox', { name: text.name })).toHaveValue(owner.workspace, loaded);
      await expect(page.getByRole('button', { name: text.baseCurrency })).toContainText('EGP');
      await expect(page.getByRole('button', { name: text.timeZone })).toContainText('Cairo');
      await shoot(page, language, 'admin');

      // New base currency and time zone, picked by typing.
      await pick(page, text.baseCurrency, text.searchCurrency, 'usd');
      await pick(page, text.timeZone, text.searchZone, 'riyadh', `settings-time-zones-${language}`);
      await expect(page.getByRole('button', { name: text.timeZone })).toContainText('Riyadh');

      // Leaving with unsaved edits asks first; Keep editing stays with the values.
      await page.getByRole('link', { name: text.dashboard }).click();
      const discard = page.getByRole('alertdialog', { name: text.discardTitle });
      await expect(discard).toBeVisible();
      await expect(discard.getByRole('button', { name: text.keepEditing })).toBeFocused();
      await discard.getByRole('button', { name: text.keepEditing }).click();
      await expect(discard).toBeHidden();
      await expect(page).toHaveURL(/\/settings$/);
      await expect(page.getByRole('button', { name: text.baseCurrency })).toContainText('USD');

      await page.getByRole('button', { name: text.save }).click();
      await expect(page.getByText(text.saved)).toBeVisible();
      // Saved: leaving asks nothing now.
      await page.getByRole('link', { name: text.dashboard }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('alertdialog')).toHaveCount(0);

      // After a reload too: it was saved, not only shown; the rates are against the new base.
      await page.goto(`/settings?lng=${language}`);
      await expect(page.getByRole('button', { name: text.baseCurrency })).toContainText('USD', loaded);
      await expect(page.getByRole('button', { name: text.timeZone })).toContainText('Riyadh');
      await page.goto(`/exchange-rates?lng=${language}`);
      await expect(page.getByRole('main').getByText(text.rates)).toBeVisible(loaded);
      await expect(page.getByRole('row', { name: /EGP/ })).toContainText(text.twoHundredths);

      // A member who is not an admin: the same settings, read only, from the same menu item.
      member = await newMember(browser, owner, workspaceId, language, text);
      const reader = member.page;
      await reader.setViewportSize(shotViewports.wide);
      await reader.getByRole('button', { name: new RegExp(owner.workspace) }).click();
      await reader.getByRole('menuitem', { name: text.settingsItem }).click();
      await expect(reader).toHaveURL(/\/settings$/);
      const name = reader.getByRole('textbox', { name: text.name });
      await expect(name).toHaveValue(owner.workspace, loaded);
      await expect(name).toBeDisabled();
      await expect(reader.getByRole('button', { name: text.baseCurrency })).toContainText('USD');
      await expect(reader.getByRole('button', { name: text.baseCurrency })).toBeDisabled();
      await expect(reader.getByRole('button', { name: text.timeZone })).toContainText('Riyadh');
      await expect(reader.getByRole('button', { name: text.timeZone })).toBeDisabled();
      await expect(reader.getByText(text.readOnly)).toBeVisible();
      await expect(reader.getByRole('button', { name: text.save })).toHaveCount(0);
      await shoot(reader, language, 'member');
      // The API refuses a member's change the page does not offer.
      const refused = await reader.request.patch(`/api/workspaces/settings?workspaceId=${workspaceId}`, {
        headers: { origin: e2eServer.url },
        data: { timeZone: 'Asia/Tokyo' },
      });
      expect(refused.status()).toBe(403);
    } finally {
      await member?.close();
      await owner.close();
    }
  });
}
