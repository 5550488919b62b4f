import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import {
  chooseRateLimitStore,
  describeRateLimitStore,
  slowdownDelayMs,
} from '../src/platform/rate-limit/rate-limiter.ts';
import {
  type ApiResponse,
  api,
  appFetchHeaders,
  captchaToken,
  createUser,
  errorOf,
  login,
  tableCounts,
} from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

const perAddress = 6;
const perAccount = 2;
const windowSeconds = 60;
const changePasswordAttempts = 3;
/** The shipped slowdown of an account's login failures from every address. */
const accountSlowdown = loadConfig({}).rateLimits.accountSlowdown;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    configure: (config) => {
      config.rateLimits = {
        perAddress: { points: perAddress, durationSeconds: windowSeconds },
        perAccount: { points: perAccount, durationSeconds: windowSeconds },
        accountSlowdown,
        changePassword: { points: changePasswordAttempts, durationSeconds: windowSeconds },
      };
    },
  });
});
beforeEach(() => {
  t.sleeps.length = 0;
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
    const logout = await api(t.app, {
      url: '/api/auth/logout',
      cookie,
      remoteAddress: address,
      headers: appFetchHeaders,
    });
    expect(logout.status).toBe(200);
  });

  it('per account and address: that address is refused for that account only', async () => {
    const victim = await createUser(t.db);
    const bystander = await createUser(t.db);
    const address = newAddress();
    for (let attempt = 0; attempt < perAccount; attempt++) {
      expect((await attemptLogin(victim.email, 'Wrong#Pass1', address)).status).toBe(401);
    }
    expectRateLimited(await attemptLogin(victim.email, victim.password, address));
    // The same account spelled differently is the same account.
    expectRateLimited(await attemptLogin(` ${victim.email.toUpperCase()}`, victim.password, address));
    // The same address may still sign in to another account; the victim signs in elsewhere.
    expect((await attemptLogin(bystander.email, bystander.password, address)).status).toBe(200);
    expect((await attemptLogin(victim.email, victim.password, newAddress())).status).toBe(200);
  });

  it("a successful login clears the account's failures at that address", async () => {
    const user = await createUser(t.db);
    const address = newAddress();
    const sequence = [
      [user.password, 200],
      ['Wrong#Pass1', 401],
      [user.password, 200],
      ['Wrong#Pass1', 401],
      ['Wrong#Pass1', 401],
    ] as const;
    for (const [password, status] of sequence) {
      expect((await attemptLogin(user.email, password, address)).status).toBe(status);
    }
    expectRateLimited(await attemptLogin(user.email, user.password, address));
  });

  it('per account alone, failures slow sign-in down and never refuse it: 100 wrong passwords from other addresses, then the right one from a new address signs in', async () => {
    const victim = await createUser(t.db);
    const failures = 100;
    for (let attempt = 0; attempt < failures; attempt++) {
      expect((await attemptLogin(victim.email, 'Wrong#Pass1', newAddress())).status).toBe(401);
    }
    // Each attempt waited before its check; the delay grew with the failures before it, to the cap.
    expect(t.sleeps).toEqual(
      Array.from({ length: failures }, (_, before) => slowdownDelayMs(before, accountSlowdown)).filter(
        (delay) => delay > 0,
      ),
    );
    expect(t.sleeps.slice(0, 4)).toEqual([250, 500, 1000, 2000]);

    t.sleeps.length = 0;
    const signIn = await attemptLogin(victim.email, victim.password, newAddress());
    expect(signIn.status, signIn.text).toBe(200);
    // The right password waited as long as a wrong one would (the delay comes before the check).
    expect(t.sleeps).toHaveLength(1);
    expect(t.sleeps[0]).toBeGreaterThan(0);
    expect(t.sleeps[0]).toBeLessThanOrEqual(3000);

    // Other accounts are not slowed, and forgot-password has limits of its own.
    t.sleeps.length = 0;
    const bystander = await createUser(t.db);
    expect((await attemptLogin(bystander.email, bystander.password, newAddress())).status).toBe(200);
    expect(t.sleeps).toEqual([]);
    const forgot = await api(t.app, {
      url: '/api/auth/forgot-password',
      body: { email: victim.email, reCaptchaToken: await captchaToken(t.app) },
      remoteAddress: newAddress(),
    });
    expect(forgot.status, forgot.text).toBe(200);
  });

  it('the slowdown: nothing for the first failures, then doubling to a cap of a few seconds', () => {
    const delays = Array.from({ length: 200 }, (_, failures) => slowdownDelayMs(failures, accountSlowdown));
    expect(delays.slice(0, accountSlowdown.freeFailures).every((delay) => delay === 0)).toBe(true);
    expect(Math.max(...delays)).toBe(accountSlowdown.maxDelayMs);
    expect(accountSlowdown.maxDelayMs).toBeLessThanOrEqual(3000);
    expect(delays).toEqual([...delays].sort((a, b) => a - b));
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

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  const proxy = '10.9.9.9';
  /** Wrong passwords sent through the proxy for the client `client`, each with a new forged first hop. */
  async function throughProxy(app: TestApp, client: string, forged: string, remoteAddress = proxy) {
    return api(app.app, {
      url: '/api/auth/login',
      body: { email: `proxied-${forged}@shop.example`, password: 'Wrong#Pass1' },
      // The client sent its own X-Forwarded-For; the proxy appended the address it saw.
      headers: { 'x-forwarded-for': `${forged}, ${client}` },
      remoteAddress,
    });
  }

  it.each([
    ['1', 'one proxy, by hop count'],
    [`${proxy}, 127.0.0.1`, "the proxy's address"],
    ['10.9.0.0/16', "the proxy's range"],
  ])('TRUST_PROXY=%s (%s): a forged first hop does not change the client address', async (trustProxy) => {
    const proxied = await createTestApp({
      env: { TRUST_PROXY: trustProxy },
      configure: (config) => {
        config.rateLimits.perAddress = { points: perAddress, durationSeconds: windowSeconds };
      },
    });
    try {
      const client = '203.0.113.5';
      for (let attempt = 0; attempt < perAddress; attempt++) {
        expect((await throughProxy(proxied, client, `192.0.2.${attempt}`)).status).toBe(401);
      }
      expectRateLimited(await throughProxy(proxied, client, '192.0.2.200'));
      // Another client behind the same proxy has an address of its own.
      expect((await throughProxy(proxied, '203.0.113.6', '192.0.2.201')).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it('with the proxy listed, a client reaching the server directly cannot choose its address', async () => {
    const proxied = await createTestApp({
      env: { TRUST_PROXY: proxy },
      configure: (config) => {
        config.rateLimits.perAddress = { points: perAddress, durationSeconds: windowSeconds };
      },
    });
    try {
      const direct = '198.51.100.7';
      for (let attempt = 0; attempt < perAddress; attempt++) {
        expect((await throughProxy(proxied, `203.0.113.${attempt}`, '192.0.2.1', direct)).status).toBe(401);
      }
      expectRateLimited(await throughProxy(proxied, '203.0.113.99', '192.0.2.1', direct));
    } finally {
      await proxied.close();
    }
  });
});

describe('change-password', () => {
  async function changePassword(cookie: string, currentPassword: string, newPassword = 'Fresh#Pass2025') {
    return api(t.app, {
      url: '/api/auth/change-password',
      body: { currentPassword, newPassword },
      cookie,
    });
  }

  it('the last wrong current password the limit allows ends the session: 401 and the cookie cleared', async () => {
    const user = await createUser(t.db);
    const cookie = await login(t.app, user, { remoteAddress: newAddress() });
    const otherDevice = await login(t.app, user, { remoteAddress: newAddress() });
    for (let attempt = 1; attempt < changePasswordAttempts; attempt++) {
      const wrong = await changePassword(cookie, 'Wrong#Pass1');
      expect(errorOf(wrong)).toMatchObject({ statusCode: 400, code: 'VALIDATION' });
    }
    const last = await changePassword(cookie, 'Wrong#Pass1');
    expect(last.status, last.text).toBe(401);
    expect(errorOf(last)).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
    expect(last.setCookies.some((header) => /=;|Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(header))).toBe(
      true,
    );
    expect((await api(t.app, { url: '/api/auth/user', cookie })).status).toBe(401);
    // The right password now cannot be tried with that session.
    expect((await changePassword(cookie, user.password)).status).toBe(401);

    // The count is the account's: another session's wrong guess ends that session at once.
    const another = await changePassword(otherDevice, 'Wrong#Pass1');
    expect(errorOf(another).code).toBe('UNAUTHORIZED');
    expect((await api(t.app, { url: '/api/auth/user', cookie: otherDevice })).status).toBe(401);
    // The password itself is unchanged and signing in again works.
    expect((await attemptLogin(user.email, user.password, newAddress())).status).toBe(200);
  });

  it('a successful change clears the count', async () => {
    const user = await createUser(t.db);
    let cookie = await login(t.app, user, { remoteAddress: newAddress() });
    for (let attempt = 1; attempt < changePasswordAttempts; attempt++) {
      expect((await changePassword(cookie, 'Wrong#Pass1')).status).toBe(400);
    }
    expect((await changePassword(cookie, user.password, 'Fresh#Pass2025')).status).toBe(200);
    cookie = await login(
      t.app,
      { email: user.email, password: 'Fresh#Pass2025' },
      { remoteAddress: newAddress() },
    );
    for (let attempt = 1; attempt < changePasswordAttempts; attempt++) {
      expect((await changePassword(cookie, 'Wrong#Pass1')).status).toBe(400);
    }
  });
});

describe('where the limits count', () => {
  it('Redis when configured, else the PostgreSQL pool, else this process; the start says which', async () => {
    // Neither is connected: only which store is chosen matters here.
    const redis = new Redis({ lazyConnect: true });
    const pool = new pg.Pool();
    try {
      expect(chooseRateLimitStore(redis, pool).kind).toBe('redis');
      expect(chooseRateLimitStore(undefined, pool).kind).toBe('postgres');
      expect(chooseRateLimitStore(undefined, undefined).kind).toBe('memory');
      expect(describeRateLimitStore({ kind: 'memory' })).toBe(
        'rate limits are counted in this process (the embedded database serves one process)',
      );
    } finally {
      redis.disconnect();
      await pool.end();
    }
  });
});

// Several instances on one PostgreSQL database and no Redis: the counts are kept in the database
// (table rate_limits), so a limit holds across the instances instead of once per process.
describe.runIf(process.env.DATABASE_URL)('two instances on one database (PostgreSQL only)', () => {
  it('share the login limit exactly: of 2 × the limit attempts sent at once, half to each, the limit is accepted and the rest refused; the start says where the limits count', async () => {
    // The other instance: its own connection pool on the same database, as another process has.
    const pool = await openDatabase({ kind: 'postgres', url: t.database.url!, poolSize: 4 });
    let logged = '';
    const other = await createTestApp({
      database: { ...t.database, db: pool.db },
      configure: (config) => {
        config.rateLimits.perAddress = { points: perAddress, durationSeconds: windowSeconds };
      },
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logged += chunk.toString();
          done();
        },
      }),
    });
    try {
      const address = newAddress();
      const attempts = Array.from({ length: 2 * perAddress }, (_, attempt) =>
        api(attempt % 2 === 0 ? t.app : other.app, {
          url: '/api/auth/login',
          body: { email: `shared${attempt}@shop.example`, password: 'Wrong#Pass1' },
          remoteAddress: address,
        }),
      );
      const statuses = (await Promise.all(attempts)).map((response) => response.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength(perAddress);
      expect(statuses.filter((status) => status === 429)).toHaveLength(perAddress);
      // Either instance now refuses that address.
      expectRateLimited(await attemptLogin('shared@shop.example', 'Wrong#Pass1', address));
      expectRateLimited(
        await api(other.app, {
          url: '/api/auth/login',
          body: { email: 'shared@shop.example', password: 'Wrong#Pass1' },
          remoteAddress: address,
        }),
      );
      expect(logged).toContain('rate limits are counted in PostgreSQL (table rate_limits)');
    } finally {
      await other.close();
      await pool.close();
    }
  });
});
