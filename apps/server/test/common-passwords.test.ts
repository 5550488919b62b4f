import { validationCodes } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordTokens, users } from '../src/db/schema/index.ts';
import { createToken } from '../src/features/auth/tokens.ts';
import { api, captchaToken, createUser, expectValidation, login } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/** Each meets the spec's rule (§5): only the common-password check refuses them. */
const commonPasswords = ['Password1!', 'Qwerty123!', 'P@ssw0rd1!', 'Welcome1!', 'Iloveyou1!'];
const strong = 'Correct#Horse9';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function linkToken(userId: string, purpose: 'reset' | 'set'): Promise<string> {
  const { token, tokenHash } = createToken();
  await t.db
    .insert(passwordTokens)
    .values({ tokenHash, userId, purpose, expiresAt: new Date(Date.now() + 60 * 60 * 1000) });
  return token;
}

async function storedHash(userId: string) {
  const [row] = await t.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return row?.hash;
}

async function loginStatus(email: string, password: string) {
  return (await api(t.app, { url: '/api/auth/login', body: { email, password } })).status;
}

describe('every endpoint that sets a password refuses a common one', () => {
  it('POST /api/auth/reset-password: PASSWORD_TOO_COMMON, nothing stored, the token still works', async () => {
    const user = await createUser(t.db);
    const token = await linkToken(user.id, 'reset');
    const before = await storedHash(user.id);
    for (const password of commonPasswords) {
      const response = await api(t.app, { url: '/api/auth/reset-password', body: { token, password } });
      expectValidation(response, 'password', validationCodes.PASSWORD_TOO_COMMON);
    }
    expect(await storedHash(user.id)).toBe(before);
    const accepted = await api(t.app, { url: '/api/auth/reset-password', body: { token, password: strong } });
    expect(accepted.status, accepted.text).toBe(200);
    expect(await loginStatus(user.email, strong)).toBe(200);
  });

  it('POST /api/auth/set-profile: PASSWORD_TOO_COMMON, nothing stored, the token still works', async () => {
    const user = await createUser(t.db);
    await t.db.update(users).set({ passwordHash: null }).where(eq(users.id, user.id));
    const passwordResetToken = await linkToken(user.id, 'set');
    const body = async (password: string) => ({
      name: 'Rashidah Kamal',
      phone: '0501234567',
      password,
      passwordResetToken,
      reCaptchaToken: await captchaToken(t.app),
    });
    for (const password of [...commonPasswords, 'Rashidah#77']) {
      const response = await api(t.app, { url: '/api/auth/set-profile', body: await body(password) });
      expectValidation(response, 'password', validationCodes.PASSWORD_TOO_COMMON);
    }
    expect(await storedHash(user.id)).toBeNull();
    const accepted = await api(t.app, { url: '/api/auth/set-profile', body: await body(strong) });
    expect(accepted.status, accepted.text).toBe(200);
    expect(await loginStatus(user.email, strong)).toBe(200);
  });

  it('POST /api/auth/change-password: PASSWORD_TOO_COMMON at newPassword, the old password kept', async () => {
    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    for (const newPassword of commonPasswords) {
      const response = await api(t.app, {
        url: '/api/auth/change-password',
        body: { currentPassword: user.password, newPassword },
        cookie,
      });
      expectValidation(response, 'newPassword', validationCodes.PASSWORD_TOO_COMMON);
    }
    expect(await loginStatus(user.email, user.password)).toBe(200);
    const accepted = await api(t.app, {
      url: '/api/auth/change-password',
      body: { currentPassword: user.password, newPassword: strong },
      cookie,
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(await loginStatus(user.email, strong)).toBe(200);
  });
});
