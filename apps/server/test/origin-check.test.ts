import { appClientHeader } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema/index.ts';
import {
  type ApiRequest,
  api,
  appFetchHeaders,
  captchaToken,
  createUser,
  errorOf,
  login,
  resetLinkPattern,
  tableCounts,
} from './helpers/api.ts';
import { type TestApp, useTestApp } from './helpers/test-app.ts';

let t: TestApp;
useTestApp((app) => {
  t = app;
});
beforeEach(() => {
  t.mails.length = 0;
});

const evil = { origin: 'https://evil.example' };

function expectRefused(response: Awaited<ReturnType<typeof api>>) {
  expect(response.status, response.text).toBe(403);
  expect(errorOf(response)).toMatchObject({ statusCode: 403, code: 'FORBIDDEN', name: 'ForbiddenError' });
  expect(response.setCookies).toEqual([]);
}

async function userStatus(cookie: string) {
  return (await api(t.app, { url: '/api/auth/user', cookie })).status;
}

describe('cross-origin state-changing requests are refused (CSRF)', () => {
  it('POST /api/auth/login from another origin: 403, no session', async () => {
    const user = await createUser(t.db);
    const before = await tableCounts(t.db);
    for (const url of ['/api/auth/login', '//api//auth/login', '/%61pi/auth/login', '/api/auth/%6cogin']) {
      expectRefused(
        await api(t.app, { url, body: { email: user.email, password: user.password }, headers: evil }),
      );
    }
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('POST /api/auth/request-for-access from another origin: 403, nothing written, no mail, captcha unspent', async () => {
    const token = await captchaToken(t.app);
    const body = {
      name: 'Evil',
      email: 'evil@evil.example',
      phone: '+1 555 000 1234',
      companyName: 'Evil Inc',
      businessCategory: 'other',
      howDidYouHearAboutUs: 'other',
      reCaptchaToken: token,
    };
    const before = await tableCounts(t.db);
    expectRefused(await api(t.app, { url: '/api/auth/request-for-access', body, headers: evil }));
    expect(await tableCounts(t.db)).toEqual(before);
    expect(t.mails).toEqual([]);
    // The same request from the app itself goes through with the same token.
    const same = await api(t.app, {
      url: '/api/auth/request-for-access',
      body,
      headers: { origin: t.config.publicUrl },
    });
    expect(same.status, same.text).toBe(200);
  });

  it('POST /api/auth/forgot-password from another origin: 403, no token, no mail', async () => {
    const user = await createUser(t.db);
    const before = await tableCounts(t.db);
    expectRefused(
      await api(t.app, {
        url: '/api/auth/forgot-password',
        body: { email: user.email, reCaptchaToken: await captchaToken(t.app) },
        headers: evil,
      }),
    );
    expect(await tableCounts(t.db)).toEqual(before);
    expect(t.mails).toEqual([]);
  });

  it('POST /api/auth/reset-password from another origin: 403, the token stays valid', async () => {
    const user = await createUser(t.db);
    const forgot = await api(t.app, {
      url: '/api/auth/forgot-password',
      body: { email: user.email, reCaptchaToken: await captchaToken(t.app) },
    });
    expect(forgot.status).toBe(200);
    const token = resetLinkPattern.exec(t.mails[0]!.text)![1]!;
    expectRefused(
      await api(t.app, {
        url: '/api/auth/reset-password',
        body: { token, password: 'Evil#Pass123' },
        headers: evil,
      }),
    );
    expect(
      (await api(t.app, { url: '/api/auth/reset-password', body: { token, password: 'Good#Pass123' } }))
        .status,
    ).toBe(200);
  });

  it('POST /api/auth/change-password and PATCH /api/auth/profile with a valid cookie from another origin: 403', async () => {
    const user = await createUser(t.db, { name: 'Victim' });
    const cookie = await login(t.app, user);
    const [before] = await t.db.select().from(users).where(eq(users.id, user.id));
    expectRefused(
      await api(t.app, {
        url: '/api/auth/change-password',
        body: { currentPassword: user.password, newPassword: 'Evil#Pass123' },
        cookie,
        headers: evil,
      }),
    );
    expectRefused(
      await api(t.app, {
        method: 'PATCH',
        url: '/api/auth/profile',
        body: { name: 'Pwned' },
        cookie,
        headers: evil,
      }),
    );
    const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(after).toEqual(before);
    expect(await userStatus(cookie)).toBe(200);
  });

  it('Origin "null", a malformed Origin and Sec-Fetch-Site cross-site without Origin are refused too', async () => {
    const user = await createUser(t.db);
    const body = { email: user.email, password: user.password };
    const refused: Record<string, string>[] = [
      { origin: 'null' },
      { origin: 'not a url' },
      { origin: 'http://localhost:3000.evil.example' },
      { origin: 'https://localhost:3000' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of refused) {
      expectRefused(await api(t.app, { url: '/api/auth/login', body, headers }));
    }
  });
});

describe('same-origin requests are accepted', () => {
  it('Origin equal to PUBLIC_URL, Origin equal to the Host, or no Origin (non-browser clients)', async () => {
    const user = await createUser(t.db);
    const body = { email: user.email, password: user.password };
    const variants: Partial<ApiRequest>[] = [
      { headers: { origin: 'http://localhost:3000' } },
      { headers: { origin: 'http://shop.example:8080', host: 'shop.example:8080' } },
      { headers: { 'sec-fetch-site': 'same-origin' } },
      { headers: { 'sec-fetch-site': 'none' } },
      {},
    ];
    for (const variant of variants) {
      const response = await api(t.app, { url: '/api/auth/login', body, ...variant });
      expect(response.status, JSON.stringify(variant)).toBe(200);
    }
  });

  it('reads are not origin-checked: a cross-site GET /api/auth/user still answers', async () => {
    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    const response = await api(t.app, {
      url: '/api/auth/user',
      cookie,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(response.status).toBe(200);
  });
});

describe('GET /api/auth/logout changes state, so it is origin-checked like a POST', () => {
  it('refused with Sec-Fetch-Site: cross-site or a foreign Origin; the session survives', async () => {
    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    const attempts: [string, Record<string, string>][] = [
      ['/api/auth/logout', { 'sec-fetch-site': 'cross-site' }],
      ['//api//auth/logout', { 'sec-fetch-site': 'cross-site' }],
      ['/%61pi/auth/logout', { 'sec-fetch-site': 'cross-site' }],
      ['/api/auth/logout', evil],
      ['/api/auth/logout', { ...evil, ...appFetchHeaders }],
    ];
    for (const [url, headers] of attempts) {
      expectRefused(await api(t.app, { url, cookie, headers }));
    }
    // Logout has no HEAD twin: a HEAD request cannot sign anyone out, from any origin.
    const head = await api(t.app, { method: 'HEAD', url: '/api/auth/logout', cookie });
    expect(head.status).toBe(404);
    expect(await userStatus(cookie)).toBe(200);

    const sameOrigin = await api(t.app, { url: '/api/auth/logout', cookie, headers: appFetchHeaders });
    expect(sameOrigin.status).toBe(200);
    expect(await userStatus(cookie)).toBe(401);
  });
});

describe('GET /api/auth/logout ends a session only for the app’s own fetch', () => {
  const client = { [appClientHeader.name]: appClientHeader.value };
  const notTheApp: [string, Record<string, string>][] = [
    // A stored image URL pointing at logout, rendered in a list of the app itself.
    ['an image of the app’s own page', { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'image' }],
    [
      'a link followed or a frame of the app',
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'document' },
    ],
    ['an iframe', { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'iframe' }],
    ['a script or style', { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'script' }],
    ['same-origin without a destination', { 'sec-fetch-site': 'same-origin' }],
    [
      'a fetch from a sibling site (another port)',
      { 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'empty' },
    ],
    ['an image on a sibling site', { 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'image' }],
    ['a fetch from another site', { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'empty' }],
    ['an address typed or bookmarked', { 'sec-fetch-site': 'none', 'sec-fetch-dest': 'document' }],
    [
      'the app’s header on a sibling site’s request',
      { ...client, 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'empty' },
    ],
    [
      'the app’s header on an image',
      { ...client, 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'image' },
    ],
    ['no Fetch Metadata and no app header (an older browser’s image)', {}],
    ['the app’s header with another value', { [appClientHeader.name]: 'other' }],
  ];

  it.each(notTheApp)(
    '%s: 403 in the error shape, no cookie change, the session survives',
    async (_label, headers) => {
      const user = await createUser(t.db);
      const cookie = await login(t.app, user);
      for (const url of ['/api/auth/logout', '//api//auth/logout', '/%61pi/auth/logout']) {
        const response = await api(t.app, { url, cookie, headers });
        expectRefused(response);
      }
      expect(await userStatus(cookie)).toBe(200);
    },
  );

  it.each([
    ['Fetch Metadata of a same-origin fetch', appFetchHeaders],
    ['the app’s header, from a browser without Fetch Metadata', client],
    ['both', { ...appFetchHeaders, ...client }],
  ])('%s: signs out', async (_label, headers) => {
    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    const response = await api(t.app, { url: '/api/auth/logout', cookie, headers });
    expect(response.status, response.text).toBe(200);
    expect(response.setCookies.some((header) => header.startsWith('dukkan_session=;'))).toBe(true);
    expect(await userStatus(cookie)).toBe(401);
  });
});
