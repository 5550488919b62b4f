import { newWorkspaceOwner } from '../../fixtures/platform.ts';
import { totpCode } from '../../fixtures/second-factor.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * Second factors in the browser (issue: a second factor at sign-in), in English and Arabic: a
 * member enrols an authenticator app (its codes computed here from the secret the page shows) and
 * signs in with it, registers a passkey with Chromium's virtual authenticator and signs in with
 * it, and uses a recovery code once — the second time it is refused.
 */

const password = 'Owner-pass1!';

const words = {
  en: {
    addApp: 'Add authenticator app',
    addPasskey: 'Add passkey',
    password: 'Current password',
    continue: 'Continue',
    code: 'Authentication code',
    confirm: 'Confirm',
    createPasskey: 'Create passkey',
    saved: 'I have saved them',
    email: 'Email',
    signInPassword: 'Password',
    login: 'Login',
    verify: 'Verify',
    passkeyButton: 'Sign in with a passkey',
    useRecovery: 'Use a recovery code',
    recoveryCode: 'Recovery code',
    recoveryRefused: 'This recovery code is not valid or has been used',
  },
  ar: {
    addApp: 'إضافة تطبيق مصادقة',
    addPasskey: 'إضافة مفتاح مرور',
    password: 'كلمة المرور الحالية',
    continue: 'متابعة',
    code: 'رمز المصادقة',
    confirm: 'تأكيد',
    createPasskey: 'إنشاء مفتاح المرور',
    saved: 'حفظتها',
    email: 'البريد الإلكتروني',
    signInPassword: 'كلمة المرور',
    login: 'تسجيل الدخول',
    verify: 'تحقّق',
    passkeyButton: 'الدخول بمفتاح مرور',
    useRecovery: 'استخدام رمز استرداد',
    recoveryCode: 'رمز الاسترداد',
    recoveryRefused: 'رمز الاسترداد هذا غير صحيح أو سبق استخدامه',
  },
} as const;

type Words = (typeof words)[keyof typeof words];

/** This browser forgets its session (signing out through the menu is the shell's tests'). */
async function leave(page: Page) {
  await page.context().clearCookies();
}

/** The password step: email and password, then the second step shows. */
async function passwordStep(page: Page, w: Words, email: string, language: string) {
  await page.goto(`/login?lng=${language}`);
  await page.getByLabel(w.email, { exact: true }).fill(email);
  await page.getByLabel(w.signInPassword, { exact: true }).fill(password);
  await page.getByRole('button', { name: w.login, exact: true }).click();
}

/** The recovery codes shown once after the first factor: read, then put away. */
async function keepRecoveryCodes(page: Page, w: Words): Promise<string[]> {
  const list = page.getByTestId('recovery-codes');
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const codes = await list.getByRole('listitem').allTextContents();
  await page.getByRole('button', { name: w.saved }).click();
  return codes;
}

for (const language of ['en', 'ar'] as const) {
  const w = words[language];

  test(`a member enrols an authenticator app, signs in with it, and uses a recovery code once (${language})`, async ({
    browser,
  }) => {
    const owner = await newWorkspaceOwner(browser, language);
    const { page } = owner;
    await page.goto(`/profile?lng=${language}`);
    await page.getByRole('button', { name: w.addApp }).click();
    await page.getByRole('dialog').getByLabel(w.password).fill(password);
    await page.getByRole('button', { name: w.continue }).click();
    await expect(page.getByTestId('totp-qr')).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]+$/);
    await page
      .getByRole('dialog')
      .getByLabel(w.code)
      .fill(await totpCode(secret));
    await page.getByRole('dialog').getByRole('button', { name: w.confirm, exact: true }).click();
    const recovery = await keepRecoveryCodes(page, w);
    await expect(page.getByTestId('second-factor')).toHaveCount(1);

    // The password alone no longer signs in: the code does (the next step's, as the enrolment's is spent).
    await leave(page);
    await passwordStep(page, w, owner.email, language);
    const code = page.getByLabel(w.code);
    await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await code.fill(await totpCode(secret, 1));
    await page.getByRole('button', { name: w.verify }).click();
    await expect(page).not.toHaveURL(/\/login/);

    // A recovery code signs in once; the second time it is refused.
    for (const attempt of ['first', 'again'] as const) {
      await leave(page);
      await passwordStep(page, w, owner.email, language);
      await page.getByRole('button', { name: w.useRecovery }).click();
      await page.getByLabel(w.recoveryCode).fill(recovery[0] ?? '');
      await page.getByRole('button', { name: w.verify }).click();
      if (attempt === 'first') await expect(page).not.toHaveURL(/\/login/);
      else await expect(page.getByText(w.recoveryRefused)).toBeVisible();
    }
    await owner.close();
  });

  test(`a member registers a passkey and signs in with it (${language})`, async ({ browser }) => {
    const owner = await newWorkspaceOwner(browser, language);
    const { page } = owner;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await page.goto(`/profile?lng=${language}`);
    await page.getByRole('button', { name: w.addPasskey }).click();
    await page.getByRole('dialog').getByLabel(w.password).fill(password);
    await page.getByRole('button', { name: w.createPasskey }).click();
    await keepRecoveryCodes(page, w);
    await expect(page.getByTestId('second-factor')).toHaveCount(1);

    await leave(page);
    await passwordStep(page, w, owner.email, language);
    await page.getByRole('button', { name: w.passkeyButton }).click();
    await expect(page).not.toHaveURL(/\/login/);
    await owner.close();
  });
}
