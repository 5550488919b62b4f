import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../src/db/schema/index.ts';
import { hashToken } from '../src/features/auth/tokens.ts';
import { api, createUser, dataOf, errorOf, expectValidation, login, tableCounts } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function changePassword(cookie: string | undefined, body: Record<string, unknown>) {
  return api(t.app, { url: '/api/auth/change-password', body, cookie });
}

async function userStatus(cookie: string) {
  return (await api(t.app, { url: '/api/auth/user', cookie })).status;
}

async function loginStatus(email: string, password: string) {
  return (await api(t.app, { url: '/api/auth/login', body: { email, password } })).status;
}

describe('POST /api/auth/change-password', () => {
  it("changes the password, keeps the caller's session and revokes the others", async () => {
    const user = await createUser(t.db);
    const caller = await login(t.app, user);
    const otherDevice = await login(t.app, user);
    const thirdDevice = await login(t.app, user);

    const response = await changePassword(caller, {
      currentPassword: user.password,
      newPassword: 'Changed#Pass9',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({ data: { success: true } });

    expect(await userStatus(caller)).toBe(200);
    expect(await userStatus(otherDevice)).toBe(401);
    expect(await userStatus(thirdDevice)).toBe(401);
    const remaining = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(remaining.map((session) => session.tokenHash)).toEqual([hashToken(caller.split('=')[1]!)]);

    expect(await loginStatus(user.email, user.password)).toBe(401);
    expect(await loginStatus(user.email, 'Changed#Pass9')).toBe(200);
  });

  it("does not touch another user's sessions", async () => {
    const alice = await createUser(t.db);
    const bob = await createUser(t.db);
    const aliceCookie = await login(t.app, alice);
    const bobCookie = await login(t.app, bob);
    expect(
      (await changePassword(aliceCookie, { currentPassword: alice.password, newPassword: 'Alice#New123' }))
        .status,
    ).toBe(200);
    expect(await userStatus(bobCookie)).toBe(200);
  });

  it('a wrong current password → VALIDATION on currentPassword, nothing changes', async () => {
    const user = await createUser(t.db);
    const caller = await login(t.app, user);
    const otherDevice = await login(t.app, user);
    const [before] = await t.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    const response = await changePassword(caller, {
      currentPassword: 'Wrong#Pass1',
      newPassword: 'Changed#Pass9',
    });
    expectValidation(response, 'currentPassword', 'CURRENT_PASSWORD_IS_INCORRECT');
    const [after] = await t.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    expect(after!.hash).toBe(before!.hash);
    expect(await userStatus(otherDevice)).toBe(200);
    expect(await loginStatus(user.email, user.password)).toBe(200);
  });

  it('without a session → 401, nothing changes', async () => {
    const user = await createUser(t.db);
    const response = await changePassword(undefined, {
      currentPassword: user.password,
      newPassword: 'Changed#Pass9',
    });
    expect(response.status).toBe(401);
    expect(errorOf(response)).toMatchObject({ code: 'UNAUTHORIZED', name: 'UnauthorizedError' });
    expect(await loginStatus(user.email, user.password)).toBe(200);
  });

  describe('validation, nothing changes', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['current missing', { newPassword: 'Changed#Pass9' }, 'currentPassword', 'PASSWORD_IS_REQUIRED'],
      [
        'current empty',
        { currentPassword: '', newPassword: 'Changed#Pass9' },
        'currentPassword',
        'PASSWORD_IS_REQUIRED',
      ],
      [
        'current over 255',
        { currentPassword: 'x'.repeat(256), newPassword: 'Changed#Pass9' },
        'currentPassword',
        'PASSWORD_TOO_LONG',
      ],
      ['new missing', { currentPassword: 'x' }, 'newPassword', 'PASSWORD_TOO_WEAK'],
      ['new of 7', { currentPassword: 'x', newPassword: 'Ab#1efg' }, 'newPassword', 'PASSWORD_TOO_WEAK'],
      [
        'new without upper',
        { currentPassword: 'x', newPassword: 'changed#pass9' },
        'newPassword',
        'PASSWORD_TOO_WEAK',
      ],
      [
        'new without special',
        { currentPassword: 'x', newPassword: 'ChangedPass9' },
        'newPassword',
        'PASSWORD_TOO_WEAK',
      ],
      [
        'new over 255',
        { currentPassword: 'x', newPassword: `Aa1!${'x'.repeat(252)}` },
        'newPassword',
        'PASSWORD_TOO_LONG',
      ],
    ];
    let cookie: string;
    let userId: string;
    beforeAll(async () => {
      const user = await createUser(t.db);
      userId = user.id;
      cookie = await login(t.app, user);
    });
    it.each(cases)('%s → VALIDATION', async (_label, body, key, code) => {
      const [before] = await t.db
        .select({ hash: users.passwordHash })
        .from(users)
        .where(eq(users.id, userId));
      const counts = await tableCounts(t.db);
      expectValidation(await changePassword(cookie, body), key, code);
      const [after] = await t.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
      expect(after!.hash).toBe(before!.hash);
      expect(await tableCounts(t.db)).toEqual(counts);
    });
  });
});

describe('PATCH /api/auth/profile', () => {
  async function patchProfile(cookie: string | undefined, body: unknown) {
    return api(t.app, { method: 'PATCH', url: '/api/auth/profile', body, cookie });
  }

  it('updates name, phone (stored normalized) and language and returns the current user', async () => {
    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    const response = await patchProfile(cookie, {
      name: '  Layla  ',
      phone: '+٩٦٦ 50-123-4567',
      language: 'ar',
    });
    expect(response.status, response.text).toBe(200);
    expect(dataOf(response)).toMatchObject({
      id: user.id,
      name: 'Layla',
      phone: '+966501234567',
      language: 'ar',
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ name: 'Layla', phone: '+966501234567', language: 'ar' });

    // Phone omitted: kept. Phone empty: cleared.
    expect(dataOf(await patchProfile(cookie, { name: 'Layla A' }))).toMatchObject({
      phone: '+966501234567',
    });
    expect(dataOf(await patchProfile(cookie, { name: 'Layla A', phone: '' }))).toMatchObject({ phone: null });
  });

  it('the language alone (the user menu’s switch) saves just the language', async () => {
    const user = await createUser(t.db, { name: 'Salma', phone: '+20 100 123 4567', language: null });
    const cookie = await login(t.app, user);
    const response = await patchProfile(cookie, { language: 'ar' });
    expect(response.status, response.text).toBe(200);
    expect(dataOf(response)).toMatchObject({ name: 'Salma', phone: '+20 100 123 4567', language: 'ar' });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ name: 'Salma', phone: '+20 100 123 4567', language: 'ar' });
    // Alone but wrong, or with an unknown field: refused, nothing saved.
    expect((await patchProfile(cookie, { language: 'fr' })).status).toBe(400);
    expect((await patchProfile(cookie, {})).status).toBe(400);
    const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.language).toBe('ar');
  });

  it('ignores fields the profile does not own (email, id, password hash)', async () => {
    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    const response = await patchProfile(cookie, {
      name: 'Safe Name',
      email: 'hijack@shop.example',
      id: '00000000-0000-4000-8000-000000000000',
      passwordHash: 'x',
      profilePicture: 'https://evil.example/x.png',
    });
    expect(response.status).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ id: user.id, email: user.email, name: 'Safe Name', profilePicture: null });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await loginStatus(user.email, user.password)).toBe(200);
  });

  it('without a session → 401', async () => {
    const response = await patchProfile(undefined, { name: 'Nobody' });
    expect(response.status).toBe(401);
  });

  describe('validation, nothing changes', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['name missing', {}, 'name', 'NAME_IS_REQUIRED'],
      ['name blank', { name: '  ' }, 'name', 'NAME_IS_REQUIRED'],
      ['name of 61', { name: 'n'.repeat(61) }, 'name', 'NAME_TOO_LONG'],
      ['phone with letters', { name: 'Ok', phone: 'call me maybe' }, 'phone', 'PHONE_IS_INVALID'],
      ['phone of 9', { name: 'Ok', phone: '123456789' }, 'phone', 'PHONE_TOO_SHORT'],
      ['phone of 16', { name: 'Ok', phone: '1234567890123456' }, 'phone', 'PHONE_TOO_LONG'],
      ['phone a number', { name: 'Ok', phone: 1234567890 }, 'phone', 'PHONE_IS_INVALID'],
      ['language unknown', { name: 'Ok', language: 'fr' }, 'language', 'LANGUAGE_IS_INVALID'],
    ];
    let cookie: string;
    let userId: string;
    beforeAll(async () => {
      const user = await createUser(t.db, { name: 'Original', phone: '0123456789' });
      userId = user.id;
      cookie = await login(t.app, user);
    });
    it.each(cases)('%s → VALIDATION', async (_label, body, key, code) => {
      expectValidation(await patchProfile(cookie, body), key, code);
      const [row] = await t.db.select().from(users).where(eq(users.id, userId));
      expect(row).toMatchObject({ name: 'Original', phone: '0123456789', language: 'en' });
    });
  });
});
