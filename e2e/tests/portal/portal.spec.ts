import * as client from 'openid-client';
import { signIn } from '../../fixtures/auth.ts';
import { applicationCard, newWorkspaceOwner, type Owner } from '../../fixtures/platform.ts';
import { enrolTotp, totpCode } from '../../fixtures/second-factor.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { type Browser, expect, type Page, test } from '../../fixtures/test.ts';

/*
 * The sign-in portal in Chromium. The client application is openid-client, unmodified, in this
 * test's process; its redirect URI (the demo client's, http://localhost:3001/callback) is caught
 * by the browser, so the code goes to the test. A new workspace per test: installing the demo
 * application in one changes nothing for the others.
 */

const demoClientId = 'dukkan-demo';
const demoRedirectUri = 'http://localhost:3001/callback';
/** The `acr` of a multi-factor sign-in (OpenID PAPE), which a client asks for with `acr_values`. */
const multiFactorAcr = 'http://schemas.openid.net/pape/policies/2007/06/multi-factor';
const ownerPassword = 'Owner-pass1!';

const texts = {
  en: {
    app: 'Demo app',
    aboutToLogin: 'You are about to login to Demo app',
    login: 'Login',
    switchAccount: 'Switch Account',
    accessDenied: 'Access Denied',
    notAuthorized: 'You are not authorized to access Demo app',
    contactAdministrator: 'Please contact your administrator',
    startTrial: 'Start free trial',
    forgotPassword: 'Forgot password?',
    backToLogin: 'Back to login',
    stepUp: 'Demo app asks for a second factor. Confirm it is you to sign in.',
    code: 'Authentication code',
    verify: 'Verify',
  },
  ar: {
    app: 'التطبيق التجريبي',
    aboutToLogin: 'أنت على وشك تسجيل الدخول إلى التطبيق التجريبي',
    login: 'تسجيل الدخول',
    switchAccount: 'تبديل الحساب',
    accessDenied: 'تم رفض الوصول',
    notAuthorized: 'ليست لديك صلاحية للوصول إلى التطبيق التجريبي',
    contactAdministrator: 'يُرجى التواصل مع المسؤول',
    startTrial: 'ابدأ التجربة المجانية',
    forgotPassword: 'نسيت كلمة المرور؟',
    backToLogin: 'العودة إلى تسجيل الدخول',
    stepUp: 'يطلب التطبيق التجريبي عاملًا ثانيًا. أكّد أنك أنت لتسجيل الدخول.',
    code: 'رمز المصادقة',
    verify: 'تحقّق',
  },
};

function discover(): Promise<client.Configuration> {
  // http on localhost only: the test server has no TLS.
  return client.discovery(new URL(`${e2eServer.url}/oidc`), demoClientId, undefined, undefined, {
    execute: [client.allowInsecureRequests],
  });
}

async function authorizationRequest(config: client.Configuration, extra: Record<string, string> = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: demoRedirectUri,
    scope: 'openid profile email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, verifier, state, nonce };
}

/** The client's redirect URI, caught: resolves with the address the portal sent the browser to. */
function catchCallback(page: Page): Promise<URL> {
  return new Promise((resolve) => {
    void page.route(`${demoRedirectUri}**`, async (route) => {
      resolve(new URL(route.request().url()));
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'callback' });
    });
  });
}

/** Signs in on the login page the portal sent the browser to (keeping its return path and state). */
async function answerLogin(page: Page, email: string) {
  await page.getByLabel(/email|البريد/i).fill(email);
  await page.getByLabel(/^(password|كلمة المرور)/i).fill(ownerPassword);
  await page.getByRole('button', { name: /log ?in|sign ?in|تسجيل الدخول|دخول/i }).click();
}

async function startTrial(owner: Owner, language: 'en' | 'ar') {
  await owner.page.goto(`/?lng=${language}`);
  const card = applicationCard(owner.page);
  await card.getByRole('button', { name: texts[language].startTrial }).click();
  await expect(card.getByRole('button', { name: texts[language].startTrial })).toHaveCount(0);
}

async function signedOutPage(browser: Browser, language: 'en' | 'ar') {
  const context = await browser.newContext({ locale: language === 'ar' ? 'ar-EG' : 'en-US' });
  const page = await context.newPage();
  return { page, close: () => context.close() };
}

test.describe('the sign-in portal', () => {
  // A limit, not a wait: a new account and the whole flow take ~20 s.
  test.describe.configure({ timeout: 120_000 });

  for (const language of ['en', 'ar'] as const) {
    const text = texts[language];

    test(`${language}: openid-client signs a member in — login, the portal, code, userinfo, refresh, revoke`, async ({
      browser,
    }) => {
      const owner = await newWorkspaceOwner(browser, language);
      await startTrial(owner, language);
      const config = await discover();
      const request = await authorizationRequest(config, { ui_locales: language });

      // Signed out: the portal sends the visitor to /login and back, with every parameter.
      const visitor = await signedOutPage(browser, language);
      const callback = catchCallback(visitor.page);
      await visitor.page.goto(`${request.url.href}`.replace(e2eServer.url, ''));
      await expect(visitor.page).toHaveURL(/\/login\?from=(%2F|\/)authenticate/);
      await visitor.page.evaluate((lng) => localStorage.setItem('i18nextLng', lng), language);
      await answerLogin(visitor.page, owner.email);
      await expect(visitor.page).toHaveURL(/\/authenticate\?.*interaction=/);
      await expect(visitor.page.getByRole('heading', { name: text.aboutToLogin })).toBeVisible();
      await expect(visitor.page.getByText(owner.workspace)).toBeVisible();
      await visitor.page.getByRole('button', { name: text.login, exact: true }).click();

      const tokens = await client.authorizationCodeGrant(config, await callback, {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
      });
      const claims = tokens.claims()!;
      expect(claims.workspace_name).toBe(owner.workspace);
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      expect(userinfo).toMatchObject({ email: owner.email, workspace_name: owner.workspace });
      expect(userinfo.workspace_id).toBe(claims.workspace_id);

      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      await client.tokenRevocation(config, refreshed.refresh_token!);
      await expect(client.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      await visitor.close();
      await owner.close();
    });

    test(`${language}: a reload of /login and a detour through /forgot-password still return to the portal`, async ({
      browser,
    }) => {
      const owner = await newWorkspaceOwner(browser, language);
      await startTrial(owner, language);
      const config = await discover();
      const request = await authorizationRequest(config, { ui_locales: language });

      const visitor = await signedOutPage(browser, language);
      const { page } = visitor;
      const callback = catchCallback(page);
      await page.goto(request.url.href.replace(e2eServer.url, ''));
      const loginAddress = /\/login\?from=(%2F|\/)authenticate$/;
      await expect(page).toHaveURL(loginAddress);
      await page.evaluate((lng) => localStorage.setItem('i18nextLng', lng), language);

      // The OAuth query is not in the address: a reload, then a detour that comes back by a link
      // (a new history entry, with no navigation state) must still find it.
      await page.reload();
      await expect(page).toHaveURL(loginAddress);
      await page.getByRole('link', { name: text.forgotPassword }).click();
      await expect(page).toHaveURL(/\/forgot-password\?from=(%2F|\/)authenticate$/);
      await page.getByRole('link', { name: text.backToLogin }).click();
      await expect(page).toHaveURL(loginAddress);

      await answerLogin(page, owner.email);
      await expect(page).toHaveURL(/\/authenticate\?.*interaction=/);
      await expect(page.getByRole('heading', { name: text.aboutToLogin })).toBeVisible();
      // Used once: a later sign-in to the same path in this tab does not pick it up again.
      expect(await page.evaluate(() => sessionStorage.getItem('dukkan.loginReturn'))).toBeNull();
      await page.getByRole('button', { name: text.login, exact: true }).click();
      const returned = await callback;
      expect(returned.searchParams.get('state')).toBe(request.state);
      const tokens = await client.authorizationCodeGrant(config, returned, {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
      });
      expect(tokens.claims()?.workspace_name).toBe(owner.workspace);
      await visitor.close();
      await owner.close();
    });

    test(`${language}: Access Denied where the workspace has not installed the application; Switch Account; unknown client`, async ({
      browser,
    }) => {
      const owner = await newWorkspaceOwner(browser, language);
      const config = await discover();
      const request = await authorizationRequest(config);
      const { page } = owner;
      await page.evaluate((lng) => localStorage.setItem('i18nextLng', lng), language);

      await page.goto(request.url.href.replace(e2eServer.url, ''));
      await expect(page.getByRole('heading', { name: text.accessDenied })).toBeVisible();
      await expect(page.getByText(text.notAuthorized)).toBeVisible();
      // The workspace's admin may act: the application's card, not "contact your administrator".
      await expect(
        page.getByRole('article', { name: text.app }).getByRole('button', { name: text.startTrial }),
      ).toBeVisible();
      await expect(page.getByText(text.contactAdministrator)).toHaveCount(0);
      await expect(page.getByRole('button', { name: text.login, exact: true })).toHaveCount(0);

      // Installed, the same request shows the question; Switch Account signs out and comes back.
      await startTrial(owner, language);
      const again = await authorizationRequest(config);
      await page.goto(again.url.href.replace(e2eServer.url, ''));
      await expect(page.getByRole('heading', { name: text.aboutToLogin })).toBeVisible();
      await page.getByRole('button', { name: text.switchAccount }).click();
      await expect(page).toHaveURL(/\/login\?from=(%2F|\/)authenticate/);
      await answerLogin(page, owner.email);
      await expect(page).toHaveURL(/\/authenticate\?.*client_id=dukkan-demo/);
      await expect(page.getByRole('heading', { name: text.aboutToLogin })).toBeVisible();

      // An unknown client: the not-found page, nothing asked.
      await page.goto(
        '/authenticate?client_id=no-such-app&response_type=code&redirect_uri=https%3A%2F%2Fevil.example%2F',
      );
      await expect(page).toHaveURL(/\/404$/);
      await owner.close();
    });

    test(`${language}: an application asking for a second factor gets the second step first; acr and amr say so`, async ({
      browser,
    }) => {
      const owner = await newWorkspaceOwner(browser, language);
      await startTrial(owner, language);
      // The factor is added in another browser: this one's session stays password-only.
      const elsewhere = await browser.newContext();
      const other = await elsewhere.newPage();
      await signIn(other, { email: owner.email, password: ownerPassword });
      const secret = await enrolTotp(other, ownerPassword);
      await elsewhere.close();

      const config = await discover();
      const request = await authorizationRequest(config, { acr_values: multiFactorAcr });
      const { page } = owner;
      await page.evaluate((lng) => localStorage.setItem('i18nextLng', lng), language);
      const callback = catchCallback(page);
      await page.goto(request.url.href.replace(e2eServer.url, ''));
      await expect(page.getByRole('heading', { name: text.aboutToLogin })).toBeVisible();
      await expect(page.getByText(text.stepUp)).toBeVisible();
      // No Login to press before the second step: it would only be refused.
      await expect(page.getByRole('button', { name: text.login, exact: true })).toHaveCount(0);
      await page.screenshot({ path: `e2e/artifacts/portal-step-up-${language}.png` });
      // A step ahead: the enrolment's own code was accepted in this one.
      await page.getByLabel(text.code).fill(await totpCode(secret, 1));
      await page.getByRole('button', { name: text.verify, exact: true }).click();

      const tokens = await client.authorizationCodeGrant(config, await callback, {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
      });
      const claims = tokens.claims()!;
      expect(claims.acr).toBe(multiFactorAcr);
      expect(claims.amr).toEqual(expect.arrayContaining(['pwd', 'otp']));
      expect(claims.workspace_name).toBe(owner.workspace);
      await owner.close();
    });

    test(`${language}: a redirect URI that is not registered is never followed; its error shows in a toast`, async ({
      browser,
    }) => {
      const owner = await newWorkspaceOwner(browser, language);
      await startTrial(owner, language);
      const config = await discover();
      const { page } = owner;
      await page.evaluate((lng) => localStorage.setItem('i18nextLng', lng), language);
      let followed = false;
      await page.route('http://localhost:3001/**', async (route) => {
        followed = true;
        await route.abort();
      });
      const request = await authorizationRequest(config, { redirect_uri: 'http://localhost:3001/callback/' });
      await page.goto(request.url.href.replace(e2eServer.url, ''));
      await expect(page).toHaveURL(/\/authenticate\?error=/);
      const toast = page.getByRole('status').filter({ hasText: /redirect_uri/ });
      await expect(toast).toBeVisible();
      const box = await toast.boundingBox();
      const [width, height] = await page.evaluate(() => [
        document.documentElement.clientWidth,
        document.documentElement.clientHeight,
      ]);
      // Top-centre: near the top, its middle within 24 px of the page’s middle.
      expect(box!.y).toBeLessThan(height! / 4);
      expect(Math.abs(box!.x + box!.width / 2 - width! / 2)).toBeLessThan(24);
      expect(followed).toBe(false);
      await owner.close();
    });
  }
});
