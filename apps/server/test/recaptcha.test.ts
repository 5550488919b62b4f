import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.ts';
import { createRecaptchaVerifier, type FetchLike } from '../src/platform/captcha/captcha.ts';
import { api, createUser, errorOf, tableCounts } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

const keys = { siteKey: 'site-key', secretKey: 'secret-key' };

interface SiteverifyCall {
  url: string;
  method: string;
  body: Record<string, string>;
}

/** A stand-in for Google's siteverify endpoint: answers with `answer(token)` and records each call. */
function stubFetch(answer: (token: string) => unknown) {
  const calls: SiteverifyCall[] = [];
  const fetchImpl: FetchLike = async (url, init) => {
    const body = Object.fromEntries(init.body.entries());
    calls.push({ url, method: init.method, body });
    const result = answer(body.response ?? '');
    if (result instanceof Error) throw result;
    return { json: async () => result };
  };
  return { fetchImpl, calls };
}

async function captchaError(promise: Promise<void>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('CAPTCHA');
  expect((error as AppError).toBody()).toMatchObject({ statusCode: 400, key: 'reCaptchaToken' });
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('reCAPTCHA verifier', () => {
  it('accepts a token Google accepts, sending the secret, the token and the client address', async () => {
    const { fetchImpl, calls } = stubFetch(() => ({ success: true }));
    const verifier = createRecaptchaVerifier(t.db, keys, fetchImpl);
    await verifier.verify('token-ok', '203.0.113.7');
    expect(calls).toEqual([
      {
        url: 'https://www.google.com/recaptcha/api/siteverify',
        method: 'POST',
        body: { secret: 'secret-key', response: 'token-ok', remoteip: '203.0.113.7' },
      },
    ]);
    expect(verifier.publicConfig).toEqual({ provider: 'recaptcha', siteKey: 'site-key' });
  });

  it('refuses a token Google refuses, a malformed answer and a network failure', async () => {
    for (const answer of [
      { success: false, 'error-codes': ['invalid-input-response'] },
      { success: 'true' },
      {},
      null,
      new Error('network down'),
    ]) {
      const verifier = createRecaptchaVerifier(t.db, keys, stubFetch(() => answer).fetchImpl);
      await captchaError(verifier.verify(`token-${JSON.stringify(answer)}`));
    }
  });

  it('refuses a replayed token even when Google would accept it again', async () => {
    const { fetchImpl } = stubFetch(() => ({ success: true }));
    const verifier = createRecaptchaVerifier(t.db, keys, fetchImpl);
    await verifier.verify('token-once');
    await captchaError(verifier.verify('token-once'));
    // Another instance on the same database knows it too.
    await captchaError(createRecaptchaVerifier(t.db, keys, fetchImpl).verify('token-once'));
  });

  it('refuses a missing token without calling Google', async () => {
    const { fetchImpl, calls } = stubFetch(() => ({ success: true }));
    const verifier = createRecaptchaVerifier(t.db, keys, fetchImpl);
    await captchaError(verifier.verify(undefined));
    await captchaError(verifier.verify(''));
    expect(calls).toEqual([]);
  });

  it('has no challenge to hand out', async () => {
    const verifier = createRecaptchaVerifier(t.db, keys, stubFetch(() => ({ success: true })).fetchImpl);
    expect(() => verifier.createChallenge()).toThrow(AppError);
  });
});

describe('reCAPTCHA through the API', () => {
  it('forgot-password passes with an accepted token, fails on a refused or replayed one', async () => {
    const { fetchImpl, calls } = stubFetch((token) => ({ success: token.startsWith('good') }));
    const app = await createTestApp({
      database: t.database,
      captcha: createRecaptchaVerifier(t.db, keys, fetchImpl),
    });
    try {
      const user = await createUser(t.db);
      const ok = await api(app.app, {
        url: '/api/auth/forgot-password',
        body: { email: user.email, reCaptchaToken: 'good-1' },
        remoteAddress: '198.51.100.9',
      });
      expect(ok.status, ok.text).toBe(200);
      expect(calls[0]!.body.remoteip).toBe('198.51.100.9');
      expect(app.mails).toHaveLength(1);

      const before = await tableCounts(t.db);
      for (const reCaptchaToken of ['bad-1', 'good-1']) {
        const refused = await api(app.app, {
          url: '/api/auth/forgot-password',
          body: { email: user.email, reCaptchaToken },
        });
        expect(refused.status).toBe(400);
        expect(errorOf(refused)).toMatchObject({ code: 'CAPTCHA', key: 'reCaptchaToken' });
      }
      expect((await tableCounts(t.db)).password_tokens).toBe(before.password_tokens);
      expect(app.mails).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
