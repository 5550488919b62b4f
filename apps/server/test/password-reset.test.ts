import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { passwordTokens, sessions, users } from '../src/db/schema/index.ts';
import { createToken, hashToken } from '../src/features/auth/tokens.ts';
import {
  altchaToken,
  api,
  captchaToken,
  createUser,
  errorOf,
  expectValidation,
  fetchChallenge,
  login,
  resetLinkPattern,
  solveAltcha,
  type TestUser,
  tableCounts,
} from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/** The app's clock: tests move it to expire reset tokens. */
const clock = { current: new Date() };
const hour = 60 * 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => clock.current });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  clock.current = new Date();
  t.mails.length = 0;
});

async function forgot(body: Record<string, unknown>) {
  return api(t.app, { url: '/api/auth/forgot-password', body });
}

/** Asks for a reset and returns the token from the mailed link. */
async function requestReset(user: TestUser, language?: 'en' | 'ar'): Promise<string> {
  const response = await forgot({ email: user.email, reCaptchaToken: await captchaToken(t.app), language });
  expect(response.status, response.text).toBe(200);
  const mail = t.mails.findLast((sent) => sent.to === user.email);
  const token = resetLinkPattern.exec(mail?.text ?? '')?.[1];
  expect(token, 'a reset link in the mail').toBeDefined();
  return token!;
}

async function reset(token: string, password: string) {
  return api(t.app, { url: '/api/auth/reset-password', body: { token, password } });
}

async function loginStatus(email: string, password: string) {
  return (await api(t.app, { url: '/api/auth/login', body: { email, password } })).status;
}

describe('POST /api/auth/forgot-password', () => {
  it('stores a hashed, one-hour token and mails the reset link', async () => {
    const user = await createUser(t.db, { name: 'Mona' });
    const response = await forgot({ email: user.email, reCaptchaToken: await captchaToken(t.app) });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ data: { success: true } });

    expect(t.mails).toHaveLength(1);
    const mail = t.mails[0]!;
    expect(mail.to).toBe(user.email);
    expect(mail.subject).toBe('Reset your Dukkan password');
    expect(mail.text).toContain('Hello Mona');
    const token = resetLinkPattern.exec(mail.text)![1]!;
    const link = `${t.config.publicUrl}/reset-password?token=${token}`;
    expect(mail.link).toBe(link);
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain('dir="ltr"');

    const rows = await t.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(hashToken(token));
    expect(rows[0]!.purpose).toBe('reset');
    expect(rows[0]!.expiresAt.getTime()).toBe(clock.current.getTime() + hour);
  });

  it('mails in Arabic when the page asks for ar (no saved language), or when the user chose Arabic', async () => {
    const user = await createUser(t.db, { name: 'منى', language: null });
    await requestReset(user, 'ar');
    const chosen = t.mails.at(-1)!;
    expect(chosen.subject).toBe('إعادة تعيين كلمة مرور دكّان');
    expect(chosen.text).toContain('مرحبًا منى');
    expect(chosen.html).toContain('dir="rtl"');
    expect(chosen.html).toContain('إعادة تعيين كلمة المرور');
    expect(chosen.text).toMatch(resetLinkPattern);

    const arabicUser = await createUser(t.db, { language: 'ar' });
    await requestReset(arabicUser);
    expect(t.mails.at(-1)!.subject).toBe('إعادة تعيين كلمة مرور دكّان');
  });

  it.each([
    { saved: 'ar', page: 'en', mailed: 'ar' },
    { saved: 'en', page: 'ar', mailed: 'en' },
    { saved: null, page: 'ar', mailed: 'ar' },
    { saved: null, page: undefined, mailed: 'en' },
  ] as const)(
    'the saved language ($saved) comes before the page’s ($page): $mailed',
    async ({ saved, page, mailed }) => {
      await requestReset(await createUser(t.db, { language: saved }), page);
      expect(t.mails.at(-1)!.subject).toBe(
        mailed === 'ar' ? 'إعادة تعيين كلمة مرور دكّان' : 'Reset your Dukkan password',
      );
    },
  );

  it('an unknown email → 404 NotFoundError, no token, no mail', async () => {
    const before = await tableCounts(t.db);
    const response = await forgot({
      email: 'nobody@shop.example',
      reCaptchaToken: await captchaToken(t.app),
    });
    expect(response.status).toBe(404);
    expect(errorOf(response)).toMatchObject({ statusCode: 404, code: 'NOT_FOUND', name: 'NotFoundError' });
    const after = await tableCounts(t.db);
    expect(after.password_tokens).toBe(before.password_tokens);
    expect(t.mails).toEqual([]);
  });

  it('validation: email invalid, missing, too long; language unknown', async () => {
    for (const [body, key, code] of [
      [{}, 'email', 'EMAIL_IS_INVALID'],
      [{ email: 'nobody' }, 'email', 'EMAIL_IS_INVALID'],
      [{ email: `${'x'.repeat(250)}@shop.example` }, 'email', 'EMAIL_TOO_LONG'],
      [{ email: 'a@shop.example', language: 'de' }, 'language', 'LANGUAGE_IS_INVALID'],
    ] as const) {
      const before = await tableCounts(t.db);
      expectValidation(await forgot({ ...body, reCaptchaToken: 'x' }), key, code);
      expect(await tableCounts(t.db)).toEqual(before);
    }
    expect(t.mails).toEqual([]);
  });

  it('captcha missing, wrong and replayed → CAPTCHA, no token, no mail', async () => {
    const user = await createUser(t.db);
    const before = await tableCounts(t.db);
    const missing = await forgot({ email: user.email });
    expect(errorOf(missing)).toMatchObject({ statusCode: 400, code: 'CAPTCHA', key: 'reCaptchaToken' });

    const challenge = await fetchChallenge(t.app);
    const { number, token } = await solveAltcha(challenge);
    const wrong = await forgot({ email: user.email, reCaptchaToken: altchaToken(challenge, number + 7) });
    expect(errorOf(wrong).code).toBe('CAPTCHA');
    expect((await tableCounts(t.db)).password_tokens).toBe(before.password_tokens);
    expect(t.mails).toEqual([]);

    expect((await forgot({ email: user.email, reCaptchaToken: token })).status).toBe(200);
    const replayed = await forgot({ email: user.email, reCaptchaToken: token });
    expect(replayed.status).toBe(400);
    expect(errorOf(replayed).code).toBe('CAPTCHA');
    expect(t.mails).toHaveLength(1);
  });

  it('a solved captcha re-encoded is still the one solution: refused after its first use', async () => {
    const user = await createUser(t.db);
    const challenge = await fetchChallenge(t.app);
    const { number, token } = await solveAltcha(challenge);
    const { algorithm, salt, signature } = challenge;
    const fields = { algorithm, challenge: challenge.challenge, number, salt, signature };
    const base64 = (json: string) => Buffer.from(json).toString('base64');
    // A JSON text whose base64 ends in padding, so that dropping the padding changes the spelling.
    let padded = JSON.stringify(fields);
    while (padded.length % 3 === 0) padded += ' ';
    const reencoded = {
      'base64 broken by whitespace': token.replace(/(.{16})/g, '$1\n '),
      'JSON whitespace': base64(JSON.stringify(fields, null, 2)),
      'key order': base64(
        JSON.stringify({ signature, salt, number, challenge: challenge.challenge, algorithm }),
      ),
      'an extra field': base64(JSON.stringify({ ...fields, took: 12, replay: true })),
      'base64 without padding': base64(padded).replace(/=+$/, ''),
      'the number as text': base64(JSON.stringify({ ...fields, number: String(number) })),
      'the algorithm in lower case': base64(
        JSON.stringify({ ...fields, algorithm: algorithm.toLowerCase() }),
      ),
    };
    expect(base64(padded)).toMatch(/=$/);

    expect((await forgot({ email: user.email, reCaptchaToken: token })).status).toBe(200);
    for (const [spelling, variant] of Object.entries(reencoded)) {
      expect(variant, spelling).not.toBe(token);
      const replayed = await forgot({ email: user.email, reCaptchaToken: variant });
      expect(replayed.status, `${spelling}: ${replayed.text}`).toBe(400);
      expect(errorOf(replayed).code).toBe('CAPTCHA');
    }
    expect(t.mails).toHaveLength(1);
  });

  it('each re-encoding of a fresh solution is accepted once (the variants are valid solutions)', async () => {
    const user = await createUser(t.db);
    const challenge = await fetchChallenge(t.app);
    const { number } = await solveAltcha(challenge);
    const { algorithm, salt, signature } = challenge;
    const spelled = Buffer.from(
      JSON.stringify({
        signature,
        salt,
        extra: 'x',
        number: String(number),
        challenge: challenge.challenge,
        algorithm,
      }),
    )
      .toString('base64')
      .replace(/=+$/, '');
    expect((await forgot({ email: user.email, reCaptchaToken: spelled })).status).toBe(200);
    expect(
      errorOf(await forgot({ email: user.email, reCaptchaToken: altchaToken(challenge, number) })).code,
    ).toBe('CAPTCHA');
  });
});

describe('POST /api/auth/reset-password', () => {
  it('sets the new password, revokes every session and every other token', async () => {
    const user = await createUser(t.db);
    const laptop = await login(t.app, user);
    const phone = await login(t.app, user);
    const older = await requestReset(user);
    const token = await requestReset(user);

    const response = await reset(token, 'Brand#New2025');
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({ data: { success: true } });

    for (const cookie of [laptop, phone]) {
      expect((await api(t.app, { url: '/api/auth/user', cookie })).status).toBe(401);
    }
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await t.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id))).toEqual([]);
    expectValidation(await reset(older, 'Other#Pass2025'), 'token', 'TOKEN_IS_INVALID');

    expect(await loginStatus(user.email, user.password)).toBe(401);
    expect(await loginStatus(user.email, 'Brand#New2025')).toBe(200);
  });

  it('a token is single-use: the second use fails with VALIDATION on token', async () => {
    const user = await createUser(t.db);
    const token = await requestReset(user);
    expect((await reset(token, 'First#Pass2025')).status).toBe(200);
    const second = await reset(token, 'Second#Pass2025');
    expectValidation(second, 'token', 'TOKEN_IS_INVALID');
    expect(await loginStatus(user.email, 'First#Pass2025')).toBe(200);
    expect(await loginStatus(user.email, 'Second#Pass2025')).toBe(401);
  });

  it('two concurrent uses of one token: exactly one succeeds', async () => {
    const user = await createUser(t.db);
    const token = await requestReset(user);
    const results = await Promise.all([reset(token, 'Racer#One2025'), reset(token, 'Racer#Two2025')]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 400]);
    const winner = results[0]!.status === 200 ? 'Racer#One2025' : 'Racer#Two2025';
    expect(await loginStatus(user.email, winner)).toBe(200);
  });

  it('a token expires after one hour', async () => {
    const user = await createUser(t.db);
    const early = await requestReset(user);
    const late = await requestReset(user);

    clock.current = new Date(clock.current.getTime() + hour + 60_000);
    const expired = await reset(late, 'Too#Late2025');
    expectValidation(expired, 'token', 'TOKEN_IS_INVALID');
    expect(await loginStatus(user.email, user.password)).toBe(200);

    // Just inside the hour it still works.
    clock.current = new Date(clock.current.getTime() - 2 * 60_000);
    expect((await reset(early, 'In#Time2025')).status).toBe(200);
    expect(await loginStatus(user.email, 'In#Time2025')).toBe(200);
  });

  it('an expired token written to the database is refused, a set-password token is accepted', async () => {
    const user = await createUser(t.db);
    const expired = createToken();
    await t.db.insert(passwordTokens).values({
      tokenHash: expired.tokenHash,
      userId: user.id,
      purpose: 'reset',
      expiresAt: new Date(Date.now() - 1000),
    });
    expectValidation(await reset(expired.token, 'Never#Set2025'), 'token', 'TOKEN_IS_INVALID');

    const setToken = createToken();
    await t.db.insert(passwordTokens).values({
      tokenHash: setToken.tokenHash,
      userId: user.id,
      purpose: 'set',
      expiresAt: new Date(Date.now() + hour),
    });
    expect((await reset(setToken.token, 'First#Set2025')).status).toBe(200);
    expect(await loginStatus(user.email, 'First#Set2025')).toBe(200);
  });

  describe('validation (spec §5 password rules), nothing changed', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['password missing', {}, 'password', 'PASSWORD_TOO_WEAK'],
      ['password of 7', { password: 'Ab#1efg' }, 'password', 'PASSWORD_TOO_WEAK'],
      ['no upper case', { password: 'lower#case1' }, 'password', 'PASSWORD_TOO_WEAK'],
      ['no lower case', { password: 'UPPER#CASE1' }, 'password', 'PASSWORD_TOO_WEAK'],
      ['no digit', { password: 'NoDigits#Here' }, 'password', 'PASSWORD_TOO_WEAK'],
      ['no special', { password: 'NoSpecial123' }, 'password', 'PASSWORD_TOO_WEAK'],
      ['special outside !@#$%^&*', { password: 'Other(Special)1' }, 'password', 'PASSWORD_TOO_WEAK'],
      ['password over 255', { password: `Aa1!${'x'.repeat(252)}` }, 'password', 'PASSWORD_TOO_LONG'],
      ['token missing', { password: 'Good#Pass2025', token: undefined }, 'token', 'TOKEN_IS_REQUIRED'],
      ['token empty', { password: 'Good#Pass2025', token: '' }, 'token', 'TOKEN_IS_REQUIRED'],
      ['token of 201', { password: 'Good#Pass2025', token: 't'.repeat(201) }, 'token', 'TOKEN_IS_INVALID'],
      ['token unknown', { password: 'Good#Pass2025', token: 'unknown-token' }, 'token', 'TOKEN_IS_INVALID'],
    ];
    let user: TestUser;
    let token: string;
    beforeAll(async () => {
      user = await createUser(t.db);
      token = await requestReset(user);
    });
    it.each(cases)('%s → VALIDATION', async (_label, body, key, code) => {
      const [before] = await t.db
        .select({ hash: users.passwordHash })
        .from(users)
        .where(eq(users.id, user.id));
      const counts = await tableCounts(t.db);
      const response = await api(t.app, { url: '/api/auth/reset-password', body: { token, ...body } });
      expectValidation(response, key, code);
      const [after] = await t.db
        .select({ hash: users.passwordHash })
        .from(users)
        .where(eq(users.id, user.id));
      expect(after!.hash).toBe(before!.hash);
      expect(await tableCounts(t.db)).toEqual(counts);
    });

    it('the token survived every refused attempt', async () => {
      expect((await reset(token, 'Finally#Set2025')).status).toBe(200);
    });
  });
});

describe('a password change ends every outstanding reset link', () => {
  it('change-password: a link mailed before the change no longer works after it', async () => {
    const user = await createUser(t.db);
    const link = await requestReset(user);
    const cookie = await login(t.app, user);
    const change = await api(t.app, {
      url: '/api/auth/change-password',
      body: { currentPassword: user.password, newPassword: 'Changed#Pass2025' },
      cookie,
    });
    expect(change.status, change.text).toBe(200);
    expect(await t.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id))).toEqual([]);

    expectValidation(await reset(link, 'Attacker#Pass2025'), 'token', 'TOKEN_IS_INVALID');
    expect(await loginStatus(user.email, 'Changed#Pass2025')).toBe(200);
    expect(await loginStatus(user.email, 'Attacker#Pass2025')).toBe(401);
  });

  it('reset-password: the other links of the account end with the one used', async () => {
    const user = await createUser(t.db);
    const older = await requestReset(user);
    const used = await requestReset(user);
    expect((await reset(used, 'Reset#Pass2025')).status).toBe(200);
    expectValidation(await reset(older, 'Attacker#Pass2025'), 'token', 'TOKEN_IS_INVALID');
    expect(await loginStatus(user.email, 'Reset#Pass2025')).toBe(200);
  });
});
