import { allPermissionTags } from '@dukkan/contract';
import * as argon2 from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { memberships, roles, sessions, users, workspaces } from '../src/db/schema/index.ts';
import { hashToken } from '../src/features/auth/tokens.ts';
import {
  api,
  appFetchHeaders,
  createUser,
  dataOf,
  errorOf,
  expectValidation,
  login,
  sessionCookieFrom,
  tableCounts,
} from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

// Counts argon2 verifications, to prove that an unknown email still pays for a hash.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...actual, verify: vi.fn(actual.verify) };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const invalidCredentials = {
  statusCode: 401,
  code: 'UNAUTHORIZED',
  name: 'UnauthorizedError',
  message: 'Invalid Credentials',
};

async function currentUser(cookie: string) {
  return api(t.app, { url: '/api/auth/user', cookie });
}

describe('GET /api/auth/user', () => {
  it('answers a browser without a session cookie with data null (signed out), not an error', async () => {
    for (const cookie of [undefined, 'other=1']) {
      const response = await api(t.app, { url: '/api/auth/user', cookie });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ data: null });
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('401 UnauthorizedError with a garbage or oversize session cookie', async () => {
    for (const cookie of ['dukkan_session=nope', `dukkan_session=${'a'.repeat(500)}`]) {
      const response = await api(t.app, { url: '/api/auth/user', cookie });
      expect(response.status).toBe(401);
      expect(errorOf(response)).toMatchObject({ code: 'UNAUTHORIZED', name: 'UnauthorizedError' });
    }
  });

  it("returns the spec's shape: profile, admin workspaces and active memberships with permission tags", async () => {
    const user = await createUser(t.db, { name: 'Sara Ali', phone: '+20 100 000 0000' });
    const [owned] = await t.db.insert(workspaces).values({ name: 'Alpha Store' }).returning();
    const [joined] = await t.db
      .insert(workspaces)
      .values({ name: 'Beta Store', logo: '/files/beta.png' })
      .returning();
    const [left] = await t.db.insert(workspaces).values({ name: 'Gamma Store' }).returning();
    await t.db.insert(memberships).values({ workspaceId: owned!.id, userId: user.id, isAdmin: true });
    const [cashier] = await t.db
      .insert(roles)
      .values({
        workspaceId: joined!.id,
        code: 'cashier',
        title: 'Cashier',
        permissions: ['viewProducts', 'addBrands'],
      })
      .returning();
    const [former] = await t.db
      .insert(roles)
      .values({ workspaceId: left!.id, code: 'former', title: 'Former', permissions: ['viewBrands'] })
      .returning();
    await t.db.insert(memberships).values([
      { workspaceId: joined!.id, userId: user.id, roleId: cashier!.id },
      { workspaceId: left!.id, userId: user.id, roleId: former!.id, status: 'inactive' },
    ]);

    const cookie = await login(t.app, user);
    const data = dataOf<Record<string, unknown>>(await currentUser(cookie));
    expect(data).toEqual({
      id: user.id,
      name: 'Sara Ali',
      email: user.email,
      phone: '+20 100 000 0000',
      profilePicture: null,
      language: 'en',
      hasSecondFactor: false,
      adminWorkspaces: [
        {
          id: owned!.id,
          name: 'Alpha Store',
          logo: null,
          baseCurrency: 'EGP',
          timeZone: 'Africa/Cairo',
          requireSecondFactor: false,
        },
      ],
      workspaces: [
        {
          workspaceId: joined!.id,
          workspace: {
            id: joined!.id,
            name: 'Beta Store',
            logo: '/files/beta.png',
            baseCurrency: 'EGP',
            timeZone: 'Africa/Cairo',
            requireSecondFactor: false,
          },
          role: {
            id: cashier!.id,
            code: 'cashier',
            title: 'Cashier',
            permissions: [{ tag: 'viewProducts' }, { tag: 'addBrands' }],
          },
        },
      ],
      sessionFactors: ['pwd'],
    });
    expect(JSON.stringify(data)).not.toMatch(/password/i);
  });

  it('works with duplicate slashes', async () => {
    const user = await createUser(t.db);
    const cookie = await login(t.app, user, { url: '//api//auth/login' });
    for (const url of ['//api//auth/user', '/api//auth//user', '//api/auth/user/']) {
      const response = await api(t.app, { url, cookie });
      expect(response.status, url).toBe(200);
      expect(dataOf<{ email: string }>(response).email).toBe(user.email);
    }
  });

  it('an expired session is refused', async () => {
    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    expect((await currentUser(cookie)).status).toBe(401);
  });
});

describe('POST /api/auth/login', () => {
  it('signs in: current user in data, a session cookie, only the token hash stored', async () => {
    const user = await createUser(t.db, { password: 'Correct#Horse9' });
    const response = await api(t.app, {
      url: '/api/auth/login',
      body: { email: user.email, password: 'Correct#Horse9' },
      headers: { 'user-agent': 'vitest-agent' },
    });
    expect(response.status).toBe(200);
    const data = dataOf<{ id: string; email: string; adminWorkspaces: unknown[]; workspaces: unknown[] }>(
      response,
    );
    expect(data).toMatchObject({ id: user.id, email: user.email, adminWorkspaces: [], workspaces: [] });

    const cookie = sessionCookieFrom(response);
    const token = cookie.split('=')[1]!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).toBe(hashToken(token));
    expect(stored[0]!.tokenHash).not.toContain(token);
    expect(stored[0]!.userAgent).toBe('vitest-agent');
    const [row] = await t.db
      .select({ lastLoginAt: users.lastLoginAt })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row!.lastLoginAt).toBeInstanceOf(Date);

    expect(dataOf<{ id: string }>(await currentUser(cookie)).id).toBe(user.id);
  });

  it('the email is matched trimmed and case-insensitively', async () => {
    const user = await createUser(t.db, { email: 'mixed.case@example.com' });
    await login(t.app, { email: '  Mixed.Case@EXAMPLE.com ', password: user.password });
  });

  it('sets an HttpOnly, SameSite=Lax cookie on path /, not Secure on an http public URL', async () => {
    const user = await createUser(t.db);
    const response = await api(t.app, {
      url: '/api/auth/login',
      body: { email: user.email, password: user.password },
    });
    const header = response.setCookies.find((cookie) => cookie.startsWith('dukkan_session='))!;
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Lax/);
    expect(header).toMatch(/; Path=\//);
    expect(header).not.toMatch(/; Secure/);
    const expires = /; Expires=([^;]+)/.exec(header)?.[1];
    const days = (new Date(expires!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(t.config.sessionTtlDays - 1);
    expect(days).toBeLessThanOrEqual(t.config.sessionTtlDays);
  });

  it('the cookie is Secure when PUBLIC_URL is https', async () => {
    const secure = await createTestApp({
      database: t.database,
      env: { PUBLIC_URL: 'https://shop.example.com' },
    });
    try {
      const user = await createUser(t.db);
      const response = await api(secure.app, {
        url: '/api/auth/login',
        body: { email: user.email, password: user.password },
        headers: { origin: 'https://shop.example.com' },
      });
      expect(response.status).toBe(200);
      // On https the name carries the __Host- prefix (security-headers.test.ts).
      const header = response.setCookies.find((cookie) => cookie.startsWith('__Host-dukkan_session='))!;
      expect(header).toMatch(/; Secure/);
      expect(header).toMatch(/; HttpOnly/);
      expect(header).toMatch(/; SameSite=Lax/);
      const logout = await api(secure.app, {
        url: '/api/auth/logout',
        cookie: sessionCookieFrom(response),
        headers: appFetchHeaders,
      });
      const cleared = logout.setCookies.find((cookie) => cookie.startsWith('__Host-dukkan_session='));
      expect(cleared).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });

  it('wrong password: 401 UnauthorizedError "Invalid Credentials", no session', async () => {
    const user = await createUser(t.db);
    const before = await tableCounts(t.db);
    const response = await api(t.app, {
      url: '/api/auth/login',
      body: { email: user.email, password: 'Wrong#Pass1' },
    });
    expect(response.status).toBe(401);
    expect(errorOf(response)).toEqual(invalidCredentials);
    expect(response.setCookies).toEqual([]);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  // Without measuring time: an unknown email runs one argon2 verification, at the same cost
  // parameters as a real account's hash, so both answers take about as long.
  it('an unknown email gets the same answer, and still runs a password hash of the same cost', async () => {
    const user = await createUser(t.db);
    const verify = vi.mocked(argon2.verify);
    /** `$argon2id$v=19$m=19456,t=2,p=1`: what a verification costs, without the salt and hash. */
    const costOf = (hash: unknown) => String(hash).split('$').slice(0, 4).join('$');

    verify.mockClear();
    const known = await api(t.app, {
      url: '/api/auth/login',
      body: { email: user.email, password: 'Wrong#Pass1' },
    });
    expect(verify).toHaveBeenCalledTimes(1);
    const knownCost = costOf(verify.mock.calls[0]![0]);
    expect(knownCost).toMatch(/^\$argon2id\$v=\d+\$m=\d+,t=\d+,p=\d+$/);

    verify.mockClear();
    const unknown = await api(t.app, {
      url: '/api/auth/login',
      body: { email: 'nobody-here@example.com', password: 'Wrong#Pass1' },
    });
    expect(unknown.status).toBe(known.status);
    // The same error but for the request's own id.
    expect(errorOf(unknown)).toEqual(errorOf(known));
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());
    expect(verify).toHaveBeenCalledTimes(1);
    expect(costOf(verify.mock.calls[0]![0])).toBe(knownCost);

    // A user without a password yet (invited, never set one) answers the same way too.
    const [invited] = await t.db
      .insert(users)
      .values({ email: 'invited@example.com', name: 'Invited' })
      .returning({ id: users.id });
    expect(invited).toBeDefined();
    verify.mockClear();
    const noPassword = await api(t.app, {
      url: '/api/auth/login',
      body: { email: 'invited@example.com', password: 'Wrong#Pass1' },
    });
    expect(errorOf(noPassword)).toEqual(errorOf(known));
    expect(verify).toHaveBeenCalledTimes(1);
    expect(costOf(verify.mock.calls[0]![0])).toBe(knownCost);
  });

  describe('validation (spec §5: email valid, max 255; password 8-255)', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['missing email', { password: 'Some#Pass1' }, 'email', 'EMAIL_IS_INVALID'],
      ['invalid email', { email: 'not-an-email', password: 'Some#Pass1' }, 'email', 'EMAIL_IS_INVALID'],
      ['empty email', { email: '', password: 'Some#Pass1' }, 'email', 'EMAIL_IS_INVALID'],
      [
        'email over 255',
        { email: `${'a'.repeat(250)}@example.com`, password: 'Some#Pass1' },
        'email',
        'EMAIL_TOO_LONG',
      ],
      ['missing password', { email: 'a@example.com' }, 'password', 'PASSWORD_IS_REQUIRED'],
      ['password under 8', { email: 'a@example.com', password: 'Short1!' }, 'password', 'PASSWORD_TOO_SHORT'],
      [
        'password over 255',
        { email: 'a@example.com', password: 'x'.repeat(256) },
        'password',
        'PASSWORD_TOO_LONG',
      ],
    ];
    it.each(cases)('%s → VALIDATION', async (_label, body, key, code) => {
      const before = await tableCounts(t.db);
      const response = await api(t.app, { url: '/api/auth/login', body });
      expectValidation(response, key, code);
      expect(await tableCounts(t.db)).toEqual(before);
    });

    it('the first bad field is the key, every bad field has its issue', async () => {
      const response = await api(t.app, {
        url: '/api/auth/login',
        body: { email: 'bad', password: 'short' },
      });
      const error = expectValidation(response, 'email', 'EMAIL_IS_INVALID');
      expect(error.issues).toEqual([
        { path: 'email', message: 'EMAIL_IS_INVALID' },
        { path: 'password', message: 'PASSWORD_TOO_SHORT' },
      ]);
    });
  });
});

describe('session rotation and logout', () => {
  it('login rotates the session: the pre-login cookie no longer works', async () => {
    const user = await createUser(t.db);
    const first = await login(t.app, user);
    const second = await login(t.app, user, { cookie: first });
    expect(second).not.toBe(first);
    expect((await currentUser(first)).status).toBe(401);
    expect((await currentUser(second)).status).toBe(200);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);
  });

  it("a login as someone else with another user's cookie ends that user's session", async () => {
    const alice = await createUser(t.db);
    const bob = await createUser(t.db);
    const aliceCookie = await login(t.app, alice);
    const bobCookie = await login(t.app, bob, { cookie: aliceCookie });
    expect((await currentUser(aliceCookie)).status).toBe(401);
    expect(dataOf<{ id: string }>(await currentUser(bobCookie)).id).toBe(bob.id);
  });

  it('other devices keep their sessions at login', async () => {
    const user = await createUser(t.db);
    const laptop = await login(t.app, user);
    const phone = await login(t.app, user);
    expect((await currentUser(laptop)).status).toBe(200);
    expect((await currentUser(phone)).status).toBe(200);
  });

  it('GET /api/auth/logout revokes the session and clears the cookie', async () => {
    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    const other = await login(t.app, user);
    const response = await api(t.app, { url: '/api/auth/logout', cookie, headers: appFetchHeaders });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ data: { success: true } });
    const cleared = response.setCookies.find((header) => header.startsWith('dukkan_session='));
    expect(cleared).toMatch(/^dukkan_session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    expect(cleared).toMatch(/; Path=\//);

    expect((await currentUser(cookie)).status).toBe(401);
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(cookie.split('=')[1]!)));
    expect(row).toBeUndefined();
    // Only this device is signed out.
    expect((await currentUser(other)).status).toBe(200);
  });

  it('logout without a session succeeds and sets no cookie; twice is harmless', async () => {
    const anonymous = await api(t.app, { url: '/api/auth/logout', headers: appFetchHeaders });
    expect(anonymous.status).toBe(200);
    expect(anonymous.setCookies).toEqual([]);

    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    expect((await api(t.app, { url: '//api//auth/logout', cookie, headers: appFetchHeaders })).status).toBe(
      200,
    );
    const again = await api(t.app, { url: '/api/auth/logout', cookie, headers: appFetchHeaders });
    expect(again.status).toBe(200);
    expect((await currentUser(cookie)).status).toBe(401);
  });
});

describe('bootstrap-shaped data', () => {
  it('an admin with a full role sees every tag', async () => {
    const user = await createUser(t.db);
    const [shop] = await t.db.insert(workspaces).values({ name: 'Tag Store' }).returning();
    const [role] = await t.db
      .insert(roles)
      .values({ workspaceId: shop!.id, code: 'all', title: 'All', permissions: [...allPermissionTags] })
      .returning();
    await t.db.insert(memberships).values({ workspaceId: shop!.id, userId: user.id, roleId: role!.id });
    const data = dataOf<{ workspaces: { role: { permissions: { tag: string }[] } }[] }>(
      await currentUser(await login(t.app, user)),
    );
    expect(data.workspaces[0]!.role.permissions.map((permission) => permission.tag)).toEqual([
      ...allPermissionTags,
    ]);
  });
});
