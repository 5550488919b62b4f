import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.ts';
import { providerPageLanguage, webFontFaces } from '../../src/features/oauth/pages.ts';
import {
  authorizationRequest,
  type PortalFixture,
  portalFixture,
  signInThroughPortal,
} from '../helpers/oauth.ts';
import { useTempDirsAndChildren } from '../helpers/temp-dirs.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp();
});
afterAll(async () => {
  await testApp.close();
});

describe("the language of the authorization server's pages", () => {
  it.each([
    [{ saved: 'ar', uiLocales: 'en', cookie: 'en', acceptLanguage: 'en' }, 'ar'],
    [{ saved: 'en', uiLocales: 'ar', cookie: 'ar', acceptLanguage: 'ar' }, 'en'],
    [{ saved: null, uiLocales: 'fr ar-EG en', cookie: 'en', acceptLanguage: 'en' }, 'ar'],
    [{ saved: null, uiLocales: 'fr', cookie: 'ar', acceptLanguage: 'en' }, 'ar'],
    [{ saved: null, cookie: 'de', acceptLanguage: 'fr, en;q=0.5, ar;q=0.9' }, 'ar'],
    [{ saved: null, acceptLanguage: 'ar;q=0, en-GB' }, 'en'],
    [{ saved: null, acceptLanguage: 'fr' }, 'en'],
    [{}, 'en'],
  ] as const)('%j → %s', (sources, expected) => {
    expect(providerPageLanguage(sources)).toBe(expected);
  });
});

describe("the web app's typeface on the provider's pages", () => {
  const { tempDir } = useTempDirsAndChildren('dukkan-fonts-');

  it("takes the built app's regular and semibold faces, as its build wrote them", () => {
    const dist = tempDir();
    mkdirSync(join(dist, 'assets'));
    const face = (weight: number, file: string) =>
      `@font-face{font-family:IBM Plex Sans Arabic;font-style:normal;font-weight:${weight};src:url(/assets/${file}) format("woff2");unicode-range:U+0600-06FF}`;
    writeFileSync(
      join(dist, 'assets', 'index-abc.css'),
      `${face(400, 'r.woff2')}${face(600, 's.woff2')}${face(700, 'b.woff2')}body{margin:0}`,
    );
    const faces = webFontFaces(dist);
    expect(faces).toContain('/assets/r.woff2');
    expect(faces).toContain('/assets/s.woff2');
    expect(faces).not.toContain('/assets/b.woff2');
    expect(faces).not.toContain('margin');
    expect(webFontFaces(undefined)).toBe('');
    expect(webFontFaces(join(dist, 'missing'))).toBe('');
  });
});

describe('the sign-out confirmation speaks one language', () => {
  /** A member signed in to the application, with `language` saved on their account. */
  async function signedIn(
    language: 'en' | 'ar' | null = null,
  ): Promise<{ fixture: PortalFixture; idToken: string }> {
    const fixture = await portalFixture(testApp);
    await testApp.db.update(users).set({ language }).where(eq(users.id, fixture.member.user.id));
    const request = await authorizationRequest(fixture);
    const callback = await signInThroughPortal(fixture.browser, request.url, fixture.workspace.id);
    const tokens = await client.authorizationCodeGrant(fixture.config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    return { fixture, idToken: tokens.id_token! };
  }

  async function signOutPage(
    { fixture, idToken }: { fixture: PortalFixture; idToken: string },
    { uiLocales, acceptLanguage }: { uiLocales?: string; acceptLanguage: string },
  ) {
    const url = client.buildEndSessionUrl(fixture.config, {
      id_token_hint: idToken,
      post_logout_redirect_uri: fixture.application.homeUrl,
      ...(uiLocales ? { ui_locales: uiLocales } : {}),
    });
    const page = await fixture.browser.get(url.href, 'navigate', { 'accept-language': acceptLanguage });
    expect(page.status).toBe(200);
    return page;
  }

  function expectArabic(page: { text: string; headers: Record<string, unknown> }, fixture: PortalFixture) {
    expect(page.text).toContain('<html lang="ar" dir="rtl">');
    expect(page.headers['content-language']).toBe('ar');
    expect(page.text).toContain(`تسجيل الخروج من ${fixture.application.nameAr}؟`);
    expect(page.text).not.toContain('Sign out of');
    expect(page.text).not.toContain('Stay signed in');
  }

  function expectEnglish(page: { text: string; headers: Record<string, unknown> }, fixture: PortalFixture) {
    expect(page.text).toContain('<html lang="en" dir="ltr">');
    expect(page.headers['content-language']).toBe('en');
    expect(page.text).toContain(`Sign out of ${fixture.application.nameEn}?`);
    expect(page.text).not.toContain('تسجيل الخروج');
  }

  it("the signed-in person's saved language comes first", async () => {
    const arabic = await signedIn('ar');
    expectArabic(await signOutPage(arabic, { uiLocales: 'en', acceptLanguage: 'en' }), arabic.fixture);
    const english = await signedIn('en');
    english.fixture.browser.setCookie('dukkan_language=ar');
    expectEnglish(await signOutPage(english, { uiLocales: 'ar', acceptLanguage: 'ar' }), english.fixture);
  });

  it("without one, the application's ui_locales, then the language cookie, then Accept-Language", async () => {
    const first = await signedIn();
    expectArabic(await signOutPage(first, { uiLocales: 'ar', acceptLanguage: 'en' }), first.fixture);

    const second = await signedIn();
    second.fixture.browser.setCookie('dukkan_language=ar');
    expectArabic(await signOutPage(second, { acceptLanguage: 'en-US,en' }), second.fixture);

    const third = await signedIn();
    expectArabic(await signOutPage(third, { acceptLanguage: 'ar-EG,ar;q=0.9' }), third.fixture);

    const fourth = await signedIn();
    expectEnglish(await signOutPage(fourth, { acceptLanguage: 'fr-FR' }), fourth.fixture);
  });

  it("wears Dukkan's look: its mark and palette, light and dark, and no script", async () => {
    const session = await signedIn();
    const page = await signOutPage(session, { acceptLanguage: 'en' });
    expect(page.text).toContain('<title>Sign out · Dukkan</title>');
    expect(page.text).toContain('--primary:#0f766e');
    expect(page.text).toContain('@media (prefers-color-scheme:dark)');
    expect(page.text).toContain('"IBM Plex Sans Arabic"');
    expect(page.text).not.toContain('<script');
  });
});
