import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiResponse,
  api,
  captchaToken,
  createUser,
  errorOf,
  login,
  tableCounts,
} from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

const perAddress = 3;
const perAccount = 2;
const windowSeconds = 60;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    configure: (config) => {
      config.rateLimits = {
        perAddress: { points: perAddress, durationSeconds: windowSeconds },
        perAccount: { points: perAccount, durationSeconds: windowSeconds },
      };
    },
  });
});
afterAll(async () => {
  await t?.close();
});

let addressCounter = 0;
/** A client address no other test uses. */
const newAddress = () => `10.0.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

function expectRateLimited(response: ApiResponse) {
  expect(response.status, response.text).toBe(429);
  const error = errorOf(response);
  expect(error).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', name: 'RateLimitedError' });
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(error.retryAfter).toBe(retryAfter);
}

async function attemptLogin(email: string, password: string, remoteAddress: string) {
  return api(t.app, { url: '/api/auth/login', body: { email, password }, remoteAddress });
}

describe('login', () => {
  it('per address: over the limit → 429 with Retry-After, even with the right password', async () => {
    const user = await createUser(t.db);
    const address = newAddress();
    for (let attempt = 0; attempt < perAddress; attempt++) {
      expect((await attemptLogin(`nobody${attempt}@shop.example`, 'Wrong#Pass1', address)).status).toBe(401);
    }
    const before = await tableCounts(t.db);
    expectRateLimited(await attemptLogin(user.email, user.password, address));
    expect(await tableCounts(t.db)).toEqual(before);
    // Another address is not affected.
    expect((await attemptLogin(user.email, user.password, newAddress())).status).toBe(200);
  });

  it('X-Forwarded-For does not reset the address count when the proxy is not trusted', async () => {
    expect(t.config.trustProxy).toBe(false);
    const address = newAddress();
    for (let attempt = 0; attempt < perAddress; attempt++) {
      const response = await api(t.app, {
        url: '/api/auth/login',
        body: { email: `spoof${attempt}@shop.example`, password: 'Wrong#Pass1' },
        headers: { 'x-forwarded-for': `192.0.2.${attempt}` },
        remoteAddress: address,
      });
      expect(response.status).toBe(401);
    }
    expectRateLimited(
      await api(t.app, {
        url: '/api/auth/login',
        body: { email: 'spoof9@shop.example', password: 'Wrong#Pass1' },
        headers: { 'x-forwarded-for': '192.0.2.99' },
        remoteAddress: address,
      }),
    );
  });

  it('a limited address can still use the rest of the API', async () => {
    const user = await createUser(t.db);
    const address = newAddress();
    const cookie = await login(t.app, user, { remoteAddress: address });
    for (let attempt = 0; attempt < perAddress; attempt++)
      await attemptLogin('x@shop.example', 'Wrong#Pass1', address);
    expectRateLimited(await attemptLogin(user.email, user.password, address));

    const health = await api(t.app, { url: '/api/health', remoteAddress: address });
    expect(health.status).toBe(200);
    const me = await api(t.app, { url: '/api/auth/user', cookie, remoteAddress: address });
    expect(me.status).toBe(200);
    const challenge = await api(t.app, { url: '/api/captcha/challenge', remoteAddress: address });
    expect(challenge.status).toBe(200);
    const forgot = await api(t.app, {
      url: '/api/auth/forgot-password',
      body: { email: user.email, reCaptchaToken: await captchaToken(t.app) },
      remoteAddress: address,
    });
    expect(forgot.status).toBe(200);
    const logout = await api(t.app, { url: '/api/auth/logout', cookie, remoteAddress: address });
    expect(logout.status).toBe(200);
  });

  it('per account: failures from many addresses lock that account only', async () => {
    const victim = await createUser(t.db);
    const bystander = await createUser(t.db);
    for (let attempt = 0; attempt < perAccount; attempt++) {
      expect((await attemptLogin(victim.email, 'Wrong#Pass1', newAddress())).status).toBe(401);
    }
    expectRateLimited(await attemptLogin(victim.email, victim.password, newAddress()));
    // The same account spelled differently is the same account.
    expectRateLimited(await attemptLogin(` ${victim.email.toUpperCase()}`, victim.password, newAddress()));
    expect((await attemptLogin(bystander.email, bystander.password, newAddress())).status).toBe(200);
  });

  it("a successful login clears the account's failures", async () => {
    const user = await createUser(t.db);
    const sequence = [
      [user.password, 200],
      ['Wrong#Pass1', 401],
      [user.password, 200],
      ['Wrong#Pass1', 401],
      ['Wrong#Pass1', 401],
    ] as const;
    for (const [password, status] of sequence) {
      expect((await attemptLogin(user.email, password, newAddress())).status).toBe(status);
    }
    expectRateLimited(await attemptLogin(user.email, user.password, newAddress()));
  });
});

describe('forgot-password', () => {
  it('per address: every attempt counts, over the limit → 429', async () => {
    const user = await createUser(t.db);
    const address = newAddress();
    for (let attempt = 0; attempt < perAddress; attempt++) {
      const response = await api(t.app, {
        url: '/api/auth/forgot-password',
        body: { email: `probe${attempt}@shop.example` },
        remoteAddress: address,
      });
      expect(errorOf(response).code).toBe('CAPTCHA');
    }
    const limited = await api(t.app, {
      url: '/api/auth/forgot-password',
      body: { email: user.email, reCaptchaToken: await captchaToken(t.app) },
      remoteAddress: address,
    });
    expectRateLimited(limited);
    expect(t.mails.filter((mail) => mail.to === user.email)).toEqual([]);
  });

  it('per account: the same email from many addresses → 429', async () => {
    const user = await createUser(t.db);
    for (let attempt = 0; attempt < perAccount; attempt++) {
      const response = await api(t.app, {
        url: '/api/auth/forgot-password',
        body: { email: user.email, reCaptchaToken: await captchaToken(t.app) },
        remoteAddress: newAddress(),
      });
      expect(response.status).toBe(200);
    }
    const limited = await api(t.app, {
      url: '/api/auth/forgot-password',
      body: { email: user.email, reCaptchaToken: await captchaToken(t.app) },
      remoteAddress: newAddress(),
    });
    expectRateLimited(limited);
    expect(t.mails.filter((mail) => mail.to === user.email)).toHaveLength(perAccount);
  });
});

describe('request-for-access', () => {
  const body = (email: string, phone: string) => ({
    name: 'Sara',
    email,
    phone,
    companyName: 'Sara Foods',
    businessCategory: 'food',
    howDidYouHearAboutUs: 'google',
  });

  it('per address → 429, nothing written', async () => {
    const address = newAddress();
    for (let attempt = 0; attempt < perAddress; attempt++) {
      await api(t.app, { url: '/api/auth/request-for-access', body: {}, remoteAddress: address });
    }
    const before = await tableCounts(t.db);
    const limited = await api(t.app, {
      url: '/api/auth/request-for-access',
      body: { ...body('limited@shop.example', '0100000001'), reCaptchaToken: await captchaToken(t.app) },
      remoteAddress: address,
    });
    expectRateLimited(limited);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('per account (email) → 429', async () => {
    for (let attempt = 0; attempt < perAccount; attempt++) {
      const response = await api(t.app, {
        url: '/api/auth/request-for-access',
        body: body('same@shop.example', `010000010${attempt}`),
        remoteAddress: newAddress(),
      });
      expect(errorOf(response).code).toBe('CAPTCHA');
    }
    const limited = await api(t.app, {
      url: '/api/auth/request-for-access',
      body: { ...body('same@shop.example', '0100000199'), reCaptchaToken: await captchaToken(t.app) },
      remoteAddress: newAddress(),
    });
    expectRateLimited(limited);
  });
});
