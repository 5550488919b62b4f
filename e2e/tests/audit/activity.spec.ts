import { signIn } from '../../fixtures/auth.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { shotViewports } from '../../fixtures/shots.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * The audit log as its readers see it: a brand's code changed in its editor is listed on the
 * Activity page and in the editor's History tab as "Code: before → after", in English and Arabic;
 * the profile lists the admin's own sign-in. Shot at 1280 and 390 px in each language (English
 * light, Arabic dark), each shot checked not to scroll sideways.
 */
const texts = {
  en: {
    edit: /^Edit: /,
    code: 'Code',
    save: 'Save',
    history: 'History',
    details: 'Details',
    activity: 'Activity',
    signedIn: 'Signed in',
    signIns: 'Recent sign-ins',
  },
  ar: {
    edit: /^تعديل: /,
    code: 'الرمز',
    save: 'حفظ',
    history: 'السجل',
    details: 'التفاصيل',
    activity: 'النشاط',
    signedIn: 'تسجيل دخول',
    signIns: 'آخر عمليات تسجيل الدخول',
  },
} as const;

const themes = { en: 'light', ar: 'dark' } as const;
// The first paint of a signed-in page waits for its lazy chunks and texts.
const loaded = { timeout: 45_000 };

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((chosen) => {
    localStorage.setItem('theme', chosen);
    document.documentElement.classList.toggle('dark', chosen === 'dark');
  }, theme);
}

/** Shoots the page at both widths in the language's theme, checking it never scrolls sideways. */
async function shoot(page: Page, language: 'en' | 'ar', name: string) {
  await setTheme(page, themes[language]);
  for (const size of ['wide', 'narrow'] as const) {
    await page.setViewportSize(shotViewports[size]);
    await page.screenshot({
      path: `e2e/artifacts/${name}-${language}-${size}-${themes[language]}.png`,
      fullPage: true,
    });
    await expectNoHorizontalOverflow(page);
  }
  await page.setViewportSize(shotViewports.wide);
}

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test(`a change is listed with before → after on the Activity page and in History, in ${language}`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await signIn(page);
    const user = await (await page.request.get('/api/auth/user')).json();
    const workspaceId: string = user.data.adminWorkspaces[0].id;
    const unique = randomDigits(6);
    const [before, after] = [`AUD-${unique}`, `AUD-${unique}-2`];
    const created = await page.request.post(`/api/brands?workspaceId=${workspaceId}`, {
      headers: { origin: e2eServer.url },
      data: {
        code: before,
        name: [
          { locale: 'en', value: `Audited ${unique}` },
          { locale: 'ar', value: `مراجعة ${unique}` },
        ],
        currencies: ['EGP'],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const brandId: string = (await created.json()).data.id;

    // The change, made in the brand's editor.
    await page.goto(`/brands?search=${before}&lng=${language}`);
    const row = page.getByRole('row', { name: new RegExp(before) });
    await expect(row).toBeVisible(loaded);
    await row.getByRole('button', { name: text.edit }).click();
    const dialog = page.getByRole('dialog');
    const code = dialog.getByLabel(text.code, { exact: true });
    await code.fill(after);
    await dialog.getByRole('button', { name: text.save }).click();
    await expect(dialog).toBeHidden();

    // Its History: the record's own rows, newest first.
    await page.goto(`/brands?search=${after}&lng=${language}`);
    await page
      .getByRole('row', { name: new RegExp(after) })
      .getByRole('button', { name: text.edit })
      .click();
    await dialog.getByRole('tab', { name: text.history }).click();
    const change = dialog.getByTestId('audit-change').filter({ hasText: after }).first();
    await expect(change).toBeVisible();
    await expect(change).toContainText(text.code);
    await expect(change).toContainText(before);
    await expect(dialog.getByTestId('audit-row')).toHaveCount(2);
    await shoot(page, language, 'history');
    await dialog.getByRole('tab', { name: text.details }).click();
    await expect(dialog.getByLabel(text.code, { exact: true })).toHaveValue(after);
    await page.keyboard.press('Escape');

    // The workspace's Activity page, filtered to the brand (the other tests write to this
    // workspace meanwhile): the change, newest first, above the create.
    await page.goto(`/activity?resource=brands&recordId=${brandId}&lng=${language}`);
    await expect(page.getByRole('heading', { level: 1, name: text.activity })).toBeVisible(loaded);
    await expect(page.getByTestId('audit-group')).toHaveCount(2);
    const latest = page.getByTestId('audit-group').first();
    await expect(latest.getByTestId('audit-change').filter({ hasText: after })).toContainText(before);
    await shoot(page, language, 'activity');

    // The admin's own sign-in, on the profile.
    await page.goto(`/profile?lng=${language}`);
    await expect(page.getByRole('heading', { name: text.signIns })).toBeVisible(loaded);
    // Not necessarily the newest: a test beside this one may have just failed a sign-in as the admin.
    await expect(page.getByTestId('sign-in').filter({ hasText: text.signedIn }).first()).toBeVisible();
    await shoot(page, language, 'profile-sign-ins');
  });
}
