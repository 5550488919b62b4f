import { createChallenge } from 'altcha-lib';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { appMeta } from '../src/db/schema/index.ts';
import {
  altchaToken,
  api,
  captchaToken,
  createUser,
  dataOf,
  errorOf,
  fetchChallenge,
  login,
  solveAltcha,
  tableCounts,
} from './helpers/api.ts';
import { createTestApp, type TestApp, useTestApp } from './helpers/test-app.ts';

let t: TestApp;
useTestApp((app) => {
  t = app;
});

describe('GET /api/health', () => {
  it('answers ok after checking the database', async () => {
    const response = await api(t.app, { url: '/api/health' });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ data: { status: 'ok', checks: { database: 'ok', storage: 'ok' } } });
  });

  it('accepts duplicate slashes and a trailing slash, as the web client sends them', async () => {
    for (const url of ['//api//health', '/api//health', '//api/health/', '/api/health/']) {
      const response = await api(t.app, { url });
      expect(response.status, url).toBe(200);
      expect(dataOf(response)).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok' } });
    }
  });
});

describe('unknown paths', () => {
  it('an unknown /api path answers NOT_FOUND in the contract shape', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['GET', '//api//auth/nope'],
      ['POST', '/api/auth/nope'],
      ['DELETE', '/api/auth/login'],
      ['GET', '/api'],
    ] as const) {
      const response = await api(t.app, { method, url, body: method === 'POST' ? {} : undefined });
      expect(response.status, `${method} ${url}`).toBe(404);
      const error = errorOf(response);
      expect(error).toMatchObject({ statusCode: 404, code: 'NOT_FOUND', name: 'NotFoundError' });
    }
  });
});

describe('captcha routes (ALTCHA)', () => {
  it('GET /api/captcha/config names the provider', async () => {
    const response = await api(t.app, { url: '/api/captcha/config' });
    expect(response.json).toEqual({ data: { provider: 'altcha' } });
  });

  it('GET /api/captcha/challenge returns a fresh, uncached challenge of the configured difficulty', async () => {
    const response = await api(t.app, { url: '/api/captcha/challenge' });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const challenge = dataOf<{
      algorithm: string;
      challenge: string;
      maxnumber: number;
      salt: string;
      signature: string;
    }>(response);
    expect(challenge.algorithm).toBe('SHA-256');
    expect(challenge.maxnumber).toBe(t.config.captcha.difficulty);
    expect(challenge.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.salt).toContain('expires=');
    const other = dataOf<{ challenge: string }>(await api(t.app, { url: '/api/captcha/challenge' }));
    expect(other.challenge).not.toBe(challenge.challenge);
  });

  it('a solved challenge is accepted by a captcha-protected endpoint', async () => {
    const user = await createUser(t.db);
    const response = await api(t.app, {
      url: '/api/auth/forgot-password',
      body: { email: user.email, reCaptchaToken: await captchaToken(t.app) },
    });
    expect(response.status, response.text).toBe(200);
  });

  it('refuses a challenge signed with another key, and an expired one', async () => {
    const user = await createUser(t.db);
    const foreign = await createChallenge({ hmacKey: 'not-the-server-key', maxNumber: 1000 });
    const foreignToken = (await solveAltcha(foreign)).token;

    const [key] = await t.db.select().from(appMeta).where(eq(appMeta.key, 'captcha_hmac_key'));
    expect(key?.value).toBeTruthy();
    const expired = await createChallenge({
      hmacKey: key!.value,
      maxNumber: 1000,
      expires: new Date(Date.now() - 1000),
    });
    const expiredToken = (await solveAltcha(expired)).token;

    for (const token of [
      foreignToken,
      expiredToken,
      'not base64 json',
      altchaToken(await fetchChallenge(t.app), -1),
    ]) {
      const response = await api(t.app, {
        url: '/api/auth/forgot-password',
        body: { email: user.email, reCaptchaToken: token },
      });
      expect(response.status).toBe(400);
      expect(errorOf(response)).toMatchObject({ code: 'CAPTCHA', key: 'reCaptchaToken' });
    }
  });
});

describe('reCAPTCHA configured', () => {
  it('config names reCAPTCHA with its site key, and there is no challenge to fetch', async () => {
    const recaptcha = await createTestApp({
      database: t.database,
      configure: (config) => {
        config.captcha.recaptcha = { siteKey: 'site-key-1', secretKey: 'secret-key-1' };
      },
    });
    try {
      const config = await api(recaptcha.app, { url: '/api/captcha/config' });
      expect(config.json).toEqual({ data: { provider: 'recaptcha', siteKey: 'site-key-1' } });
      expect(config.text).not.toContain('secret-key-1');
      const challenge = await api(recaptcha.app, { url: '/api/captcha/challenge' });
      expect(challenge.status).toBe(404);
      expect(errorOf(challenge).code).toBe('NOT_FOUND');
    } finally {
      await recaptcha.close();
    }
  });
});

describe('row counts helper', () => {
  it('counts every identity table', async () => {
    const counts = await tableCounts(t.db);
    expect(counts.users).toBeGreaterThan(0);
    expect(Object.values(counts).every((count) => Number.isInteger(count))).toBe(true);
  });
});

describe('failures never leak internals', () => {
  it('a failing query answers INTERNAL without SQL, and health reports the database', async () => {
    // Last in this file: it breaks the database on purpose.
    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    // The sessions table disappears: every query on it fails inside the driver.
    await t.db.execute(sql`drop table "sessions" cascade`);
    const response = await api(t.app, { url: '/api/auth/user', cookie });
    expect(response.status).toBe(500);
    expect(errorOf(response)).toEqual({
      statusCode: 500,
      code: 'INTERNAL',
      name: 'InternalError',
      message: 'Something went wrong',
    });
    expect(response.text).not.toMatch(/sessions|token_hash|relation/i);

    await t.database.disconnect();
    const health = await api(t.app, { url: '/api/health' });
    expect(health.status).toBe(503);
    expect(health.json).toEqual({
      data: { status: 'unavailable', checks: { database: 'unavailable', storage: 'ok' } },
    });
  });
});
