import type {
  CurrentUser,
  FactorEnrolled,
  SessionSummary,
  TotpEnrolment,
  WorkspaceUserRecord,
} from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  passwordTokens,
  recoveryCodes,
  signInEvents,
  userFactors,
  workspaces,
} from '../src/db/schema/index.ts';
import { createToken } from '../src/features/auth/tokens.ts';
import {
  type ApiResponse,
  api,
  createUser,
  dataOf,
  errorOf,
  expectValidation,
  login,
  sessionCookieFrom,
  type TestUser,
} from './helpers/api.ts';
import { runCliOn } from './helpers/cli.ts';
import { SoftAuthenticator } from './helpers/soft-authenticator.ts';
import { createTestApp, MemoryMailer, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace } from './helpers/workspaces.ts';

/*
 * Second factors over HTTP: enrolment, the second step of a sign-in, step-up, recovery codes,
 * passkeys (a software authenticator), the workspace's requirement, the person's sessions and
 * the operator's reset. Tests named "ASVS 6.x.y" hold that requirement of ASVS 5.0's V6 (level 2).
 */

let t: TestApp;
/** The server's clock: moved on by the tests so that TOTP codes change step. */
let clock = new Date('2026-11-29T10:00:00Z');
const tick = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};
beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
});
afterAll(async () => {
  await t?.close();
});

const codeAt = (secret: string) => generate({ secret, epoch: Math.floor(clock.getTime() / 1000) });
const signInCookieFrom = (response: ApiResponse) =>
  response.setCookies.find((cookie) => cookie.startsWith('dukkan_sign_in='))?.split(';')[0];

/** Enrols an authenticator app for the signed-in `cookie`: its seed, the new session and the recovery codes. */
async function enrolTotp(user: TestUser, cookie: string) {
  const started = await api(t.app, {
    url: '/api/auth/second-factors/totp/start',
    body: { password: user.password },
    cookie,
  });
  const { secret, uri } = dataOf<TotpEnrolment>(started);
  expect(uri).toMatch(/^otpauth:\/\/totp\/Dukkan:/);
  const confirmed = await api(t.app, {
    url: '/api/auth/second-factors/totp',
    body: { name: 'Phone', code: await codeAt(secret) },
    cookie,
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  const enrolled = dataOf<FactorEnrolled>(confirmed);
  return { secret, session: sessionCookieFrom(confirmed), enrolled };
}

/** Password, then the second step's cookie: what `POST auth/login` answers a person with a factor. */
async function passwordStep(user: TestUser) {
  const response = await api(t.app, {
    url: '/api/auth/login',
    body: { email: user.email, password: user.password },
  });
  expect(response.status, response.text).toBe(200);
  return { response, step: signInCookieFrom(response)! };
}

const currentUser = async (cookie: string) =>
  dataOf<CurrentUser>(await api(t.app, { url: '/api/auth/user', cookie }));

describe('an authenticator app (TOTP)', () => {
  it('enrols from the profile with the password again, and brings ten recovery codes and a mail', async () => {
    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    expect(await currentUser(cookie)).toMatchObject({ hasSecondFactor: false, sessionFactors: ['pwd'] });

    expect((await api(t.app, { url: '/api/auth/second-factors/totp/start', body: {} })).status).toBe(401);
    expectValidation(
      await api(t.app, { url: '/api/auth/second-factors/totp/start', body: {}, cookie }),
      'password',
      'PASSWORD_IS_REQUIRED',
    );
    expectValidation(
      await api(t.app, {
        url: '/api/auth/second-factors/totp/start',
        body: { password: 'not it at all' },
        cookie,
      }),
      'password',
      'CURRENT_PASSWORD_IS_INCORRECT',
    );

    const mailsBefore = t.mails.length;
    const { session, enrolled, secret } = await enrolTotp(user, cookie);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolled.factor).toMatchObject({ kind: 'totp', name: 'Phone' });
    expect(enrolled.recoveryCodes).toHaveLength(10);
    expect(new Set(enrolled.recoveryCodes).size).toBe(10);
    expect(t.mails.slice(mailsBefore)).toEqual([
      expect.objectContaining({
        to: user.email,
        subject: 'A second factor was added to your Dukkan account',
      }),
    ]);
    // The enrolling session proved the code: it is stepped up, under a new token.
    expect(session).not.toBe(cookie);
    expect((await api(t.app, { url: '/api/auth/user', cookie })).status).toBe(401);
    expect(await currentUser(session)).toMatchObject({
      hasSecondFactor: true,
      sessionFactors: ['pwd', 'otp'],
    });
  });

  it('a wrong code does not confirm an enrolment', async () => {
    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    await api(t.app, {
      url: '/api/auth/second-factors/totp/start',
      body: { password: user.password },
      cookie,
    });
    expectValidation(
      await api(t.app, {
        url: '/api/auth/second-factors/totp',
        body: { name: 'Phone', code: '000000' },
        cookie,
      }),
      'code',
      'ONE_TIME_CODE_IS_INVALID',
    );
    expectValidation(
      await api(t.app, {
        url: '/api/auth/second-factors/totp',
        body: { name: 'Phone', code: '12ab' },
        cookie,
      }),
      'code',
      'ONE_TIME_CODE_IS_INVALID',
    );
    expect(await t.db.select().from(userFactors).where(eq(userFactors.userId, user.id))).toEqual([]);
  });

  it('a right password then asks for the second step, and opens no session before it', async () => {
    const user = await createUser(t.db);
    const { secret } = await enrolTotp(user, await login(t.app, user));
    tick(30);
    const { response, step } = await passwordStep(user);
    expect(dataOf(response)).toEqual({ secondFactor: { methods: ['totp', 'recovery'] } });
    expect(response.setCookies.some((cookie) => cookie.startsWith('dukkan_session='))).toBe(false);
    expect(step).toBeDefined();
    // The sign-in cookie is no session.
    expect((await api(t.app, { url: '/api/auth/user', cookie: step })).json).toEqual({ data: null });

    const finished = await api(t.app, {
      url: '/api/auth/second-factor/totp',
      body: { code: await codeAt(secret) },
      cookie: step,
    });
    expect(finished.status, finished.text).toBe(200);
    expect(dataOf<CurrentUser>(finished)).toMatchObject({ id: user.id, sessionFactors: ['pwd', 'otp'] });
    expect(await currentUser(sessionCookieFrom(finished))).toMatchObject({ sessionFactors: ['pwd', 'otp'] });
    // The step is used up.
    expect(
      (
        await api(t.app, {
          url: '/api/auth/second-factor/totp',
          body: { code: await codeAt(secret) },
          cookie: step,
        })
      ).status,
    ).toBe(400);
  });

  it('ASVS 6.5.1: a code accepted once is refused again in its time step', async () => {
    const user = await createUser(t.db);
    const { secret } = await enrolTotp(user, await login(t.app, user));
    tick(30);
    const code = await codeAt(secret);
    const first = await passwordStep(user);
    expect(
      (await api(t.app, { url: '/api/auth/second-factor/totp', body: { code }, cookie: first.step })).status,
    ).toBe(200);
    const second = await passwordStep(user);
    expectValidation(
      await api(t.app, { url: '/api/auth/second-factor/totp', body: { code }, cookie: second.step }),
      'code',
      'ONE_TIME_CODE_IS_INVALID',
    );
    // The confirming code of an enrolment is used up too.
    const other = await createUser(t.db);
    const enrolment = await enrolTotp(other, await login(t.app, other));
    const third = await passwordStep(other);
    expectValidation(
      await api(t.app, {
        url: '/api/auth/second-factor/totp',
        body: { code: await codeAt(enrolment.secret) },
        cookie: third.step,
      }),
      'code',
      'ONE_TIME_CODE_IS_INVALID',
    );
    const failures = await t.db
      .select()
      .from(signInEvents)
      .where(and(eq(signInEvents.userId, other.id), eq(signInEvents.kind, 'second-factor')));
    expect(failures.map((event) => event.success)).toEqual([false]);
  });

  it('ASVS 6.5.5: a code of a time step long past is refused', async () => {
    const user = await createUser(t.db);
    const { secret } = await enrolTotp(user, await login(t.app, user));
    tick(30);
    const code = await codeAt(secret);
    tick(90);
    const { step } = await passwordStep(user);
    expectValidation(
      await api(t.app, { url: '/api/auth/second-factor/totp', body: { code }, cookie: step }),
      'code',
      'ONE_TIME_CODE_IS_INVALID',
    );
  });

  it('a code typed in Arabic-Indic digits with spaces is read', async () => {
    const user = await createUser(t.db);
    const { secret } = await enrolTotp(user, await login(t.app, user));
    tick(30);
    const code = await codeAt(secret);
    const arabic = [...code].map((digit) => String.fromCharCode(0x0660 + Number(digit))).join('');
    const { step } = await passwordStep(user);
    const response = await api(t.app, {
      url: '/api/auth/second-factor/totp',
      body: { code: `${arabic.slice(0, 3)} ${arabic.slice(3)}` },
      cookie: step,
    });
    expect(response.status, response.text).toBe(200);
  });

  it('ASVS 6.4.3: a password reset does not bypass the factor', async () => {
    const user = await createUser(t.db);
    await enrolTotp(user, await login(t.app, user));
    const { token, tokenHash } = createToken();
    await t.db.insert(passwordTokens).values({
      tokenHash,
      userId: user.id,
      purpose: 'reset',
      expiresAt: new Date(clock.getTime() + 600_000),
    });
    const newPassword = 'Another#Door42';
    expect(
      (await api(t.app, { url: '/api/auth/reset-password', body: { token, password: newPassword } })).status,
    ).toBe(200);
    const { response } = await passwordStep({ ...user, password: newPassword });
    expect(dataOf(response)).toMatchObject({ secondFactor: { methods: ['totp', 'recovery'] } });
  });

  it('ASVS 6.3.1: wrong second steps are limited per account', async () => {
    const limited = await createTestApp({
      now: () => clock,
      configure: (config) => {
        config.rateLimits.perAccount = { points: 3, durationSeconds: 900 };
      },
    });
    try {
      const user = await createUser(limited.db);
      const cookie = await login(limited.app, user);
      const started = await api(limited.app, {
        url: '/api/auth/second-factors/totp/start',
        body: { password: user.password },
        cookie,
      });
      const { secret } = dataOf<TotpEnrolment>(started);
      await api(limited.app, {
        url: '/api/auth/second-factors/totp',
        body: { name: 'Phone', code: await codeAt(secret) },
        cookie,
      });
      tick(30);
      const login2 = await api(limited.app, {
        url: '/api/auth/login',
        body: { email: user.email, password: user.password },
      });
      const step = signInCookieFrom(login2)!;
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        statuses.push(
          (
            await api(limited.app, {
              url: '/api/auth/second-factor/totp',
              body: { code: '000000' },
              cookie: step,
            })
          ).status,
        );
      }
      expect(statuses).toEqual([400, 400, 400]);
      // Over the limit even the right code is refused until the window passes.
      const refused = await api(limited.app, {
        url: '/api/auth/second-factor/totp',
        body: { code: await codeAt(secret) },
        cookie: step,
      });
      expect(refused.status).toBe(429);
      expect(errorOf(refused).code).toBe('RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});

describe('recovery codes', () => {
  it('ASVS 6.5.1: a recovery code signs in once and is refused twice', async () => {
    const user = await createUser(t.db);
    const { enrolled } = await enrolTotp(user, await login(t.app, user));
    const code = enrolled.recoveryCodes![0]!;
    expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}-[a-z2-7]{5}$/);
    const first = await passwordStep(user);
    const used = await api(t.app, {
      url: '/api/auth/second-factor/recovery',
      body: { code: code.toUpperCase() },
      cookie: first.step,
    });
    expect(used.status, used.text).toBe(200);
    expect(dataOf<CurrentUser>(used).sessionFactors).toEqual(['pwd', 'otp']);
    for (let again = 0; again < 2; again += 1) {
      const { step } = await passwordStep(user);
      expectValidation(
        await api(t.app, { url: '/api/auth/second-factor/recovery', body: { code }, cookie: step }),
        'code',
        'RECOVERY_CODE_IS_INVALID',
      );
    }
    const left = dataOf<{ recoveryCodesLeft: number }>(
      await api(t.app, { url: '/api/auth/second-factors', cookie: sessionCookieFrom(used) }),
    );
    expect(left.recoveryCodesLeft).toBe(9);
  });

  it('ASVS 6.5.2: they are stored as password hashes, never in clear', async () => {
    const user = await createUser(t.db);
    const { enrolled } = await enrolTotp(user, await login(t.app, user));
    const stored = await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const row of stored) {
      expect(row.codeHash).toMatch(/^\$argon2id\$/);
      for (const code of enrolled.recoveryCodes!) expect(row.codeHash).not.toContain(code.replace(/-/g, ''));
    }
  });

  it('are made anew with the password, the old ones then refused', async () => {
    const user = await createUser(t.db);
    const { enrolled, session } = await enrolTotp(user, await login(t.app, user));
    const made = await api(t.app, {
      url: '/api/auth/recovery-codes',
      body: { password: user.password },
      cookie: session,
    });
    const fresh = dataOf<{ recoveryCodes: string[] }>(made).recoveryCodes;
    expect(fresh).toHaveLength(10);
    const { step } = await passwordStep(user);
    expectValidation(
      await api(t.app, {
        url: '/api/auth/second-factor/recovery',
        body: { code: enrolled.recoveryCodes![0] },
        cookie: step,
      }),
      'code',
      'RECOVERY_CODE_IS_INVALID',
    );
  });
});

describe('passkeys', () => {
  const origin = () => new URL(t.config.publicUrl).origin;

  async function enrolPasskey(user: TestUser, cookie: string, authenticator: SoftAuthenticator) {
    const options = dataOf<{ challenge: string; rp: { id: string } }>(
      await api(t.app, {
        url: '/api/auth/second-factors/passkey/options',
        body: { password: user.password },
        cookie,
      }),
    );
    expect(options.rp.id).toBe(new URL(t.config.publicUrl).hostname);
    const registered = await api(t.app, {
      url: '/api/auth/second-factors/passkey',
      body: { name: 'Laptop', response: authenticator.register(options) },
      cookie,
    });
    expect(registered.status, registered.text).toBe(200);
    return { registered, session: sessionCookieFrom(registered) };
  }

  async function passkeyStep(step: string, authenticator: SoftAuthenticator, answerOrigin?: string) {
    const options = dataOf<{ challenge: string; rpId: string }>(
      await api(t.app, { url: '/api/auth/second-factor/passkey/options', body: {}, cookie: step }),
    );
    return api(t.app, {
      url: '/api/auth/second-factor/passkey',
      body: { response: authenticator.authenticate(options, answerOrigin) },
      cookie: step,
    });
  }

  it('registers, then signs in as a hardware key (amr hwk)', async () => {
    const user = await createUser(t.db);
    const authenticator = new SoftAuthenticator(origin());
    const { registered, session } = await enrolPasskey(user, await login(t.app, user), authenticator);
    expect(dataOf<FactorEnrolled>(registered).factor).toMatchObject({ kind: 'passkey', name: 'Laptop' });
    expect(await currentUser(session)).toMatchObject({ sessionFactors: ['pwd', 'hwk'] });

    const { response, step } = await passwordStep(user);
    expect(dataOf(response)).toEqual({ secondFactor: { methods: ['passkey', 'recovery'] } });
    const signedIn = await passkeyStep(step, authenticator);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(dataOf<CurrentUser>(signedIn).sessionFactors).toEqual(['pwd', 'hwk']);
  });

  it('refuses an answer made for another origin, and a cloned key', async () => {
    const user = await createUser(t.db);
    const authenticator = new SoftAuthenticator(origin());
    await enrolPasskey(user, await login(t.app, user), authenticator);
    const elsewhere = await passkeyStep(
      (await passwordStep(user)).step,
      authenticator,
      'https://phish.example',
    );
    expectValidation(elsewhere, 'response', 'PASSKEY_IS_INVALID');

    expect((await passkeyStep((await passwordStep(user)).step, authenticator)).status).toBe(200);
    authenticator.rewind();
    expectValidation(
      await passkeyStep((await passwordStep(user)).step, authenticator),
      'response',
      'PASSKEY_IS_INVALID',
    );
  });

  it('refuses a registration for another origin, storing nothing', async () => {
    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    const options = dataOf<{ challenge: string; rp: { id: string } }>(
      await api(t.app, {
        url: '/api/auth/second-factors/passkey/options',
        body: { password: user.password },
        cookie,
      }),
    );
    const authenticator = new SoftAuthenticator('https://phish.example');
    expectValidation(
      await api(t.app, {
        url: '/api/auth/second-factors/passkey',
        body: { name: 'Laptop', response: authenticator.register(options) },
        cookie,
      }),
      'response',
      'PASSKEY_IS_INVALID',
    );
    expect(await t.db.select().from(userFactors).where(eq(userFactors.userId, user.id))).toEqual([]);
  });
});

describe('removing a factor', () => {
  it('asks for the password again, refuses another person’s factor, and mails the person', async () => {
    const user = await createUser(t.db);
    const { session, enrolled } = await enrolTotp(user, await login(t.app, user));
    const other = await createUser(t.db);
    const theirs = await enrolTotp(other, await login(t.app, other));

    const remove = (id: string, body: unknown, cookie = session) =>
      api(t.app, { method: 'DELETE', url: `/api/auth/second-factors/${id}`, body, cookie });
    expect(
      (await remove(enrolled.factor.id, { password: user.password }, 'dukkan_session=nope')).status,
    ).toBe(401);
    expect((await remove(theirs.enrolled.factor.id, { password: user.password })).status).toBe(404);
    expectValidation(
      await remove(enrolled.factor.id, { password: 'wrong one' }),
      'password',
      'CURRENT_PASSWORD_IS_INCORRECT',
    );
    expectValidation(await remove('not-an-id', { password: user.password }), 'id');

    const mailsBefore = t.mails.length;
    expect((await remove(enrolled.factor.id, { password: user.password })).status).toBe(200);
    expect(t.mails.slice(mailsBefore)).toEqual([
      expect.objectContaining({
        to: user.email,
        subject: 'A second factor was removed from your Dukkan account',
      }),
    ]);
    // The last factor gone, the recovery codes go with it and the password alone signs in.
    expect(await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
    await login(t.app, user);
    // The other person's factor is untouched.
    expect(await t.db.select().from(userFactors).where(eq(userFactors.userId, other.id))).toHaveLength(1);
  });
});

describe('a workspace that requires a second factor', () => {
  it('is turned on by an admin only from a session that used one', async () => {
    const workspace = await createWorkspace(t.db);
    const admin = await addMember(t.db, workspace.id, { isAdmin: true });
    const settings = (cookie: string) =>
      api(t.app, {
        method: 'PATCH',
        url: `/api/workspaces/settings?workspaceId=${workspace.id}`,
        body: { requireSecondFactor: true },
        cookie,
      });
    const refused = await settings(admin.cookie);
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('SECOND_FACTOR_REQUIRED');
    const { session } = await enrolTotp(admin.user, admin.cookie);
    const turnedOn = await settings(session);
    expect(turnedOn.status, turnedOn.text).toBe(200);
    expect(dataOf(turnedOn)).toMatchObject({ requireSecondFactor: true });
  });

  it('ASVS 6.3.3: refuses a password-only session on the workspace API, not elsewhere', async () => {
    const workspace = await createWorkspace(t.db);
    const other = await createWorkspace(t.db);
    const member = await addMember(t.db, workspace.id, { tags: ['viewBrands'] });
    await addMember(t.db, other.id, { user: member.user, tags: ['viewBrands'] });
    await t.db.update(workspaces).set({ requireSecondFactor: true }).where(eq(workspaces.id, workspace.id));
    const brands = (workspaceId: string, cookie: string) =>
      api(t.app, { url: `/api/brands?workspaceId=${workspaceId}`, cookie });

    const refused = await brands(workspace.id, member.cookie);
    expect(refused.status).toBe(403);
    expect(errorOf(refused)).toMatchObject({
      code: 'SECOND_FACTOR_REQUIRED',
      name: 'SecondFactorRequiredError',
    });
    expect((await brands(other.id, member.cookie)).status).toBe(200);
    // The current user says so, for the web to send the member to enrol or step up.
    const me = await currentUser(member.cookie);
    expect(
      me.workspaces.find((entry) => entry.workspaceId === workspace.id)?.workspace.requireSecondFactor,
    ).toBe(true);

    // A stranger to the workspace still learns only that they may not.
    const stranger = await addMember(t.db, other.id, { tags: ['viewBrands'] });
    expect(errorOf(await brands(workspace.id, stranger.cookie)).code).toBe('FORBIDDEN');

    // Enrolling steps the session up; a later sign-in steps up with the code.
    const { session, secret } = await enrolTotp(member.user, member.cookie);
    expect((await brands(workspace.id, session)).status).toBe(200);
    const passwordOnly = await login(t.app, { email: member.user.email, password: 'x' }).catch(() => null);
    expect(passwordOnly).toBeNull();
    tick(30);
    const step = await api(t.app, {
      url: '/api/auth/second-factor/totp',
      body: { code: await codeAt(secret) },
      cookie: member.cookie,
    });
    // The old password-only cookie was rotated out by the enrolment: no step-up for it.
    expect(step.status).toBe(401);
  });

  it('steps a password-only session up with a code, under a new token', async () => {
    const workspace = await createWorkspace(t.db);
    const member = await addMember(t.db, workspace.id, { tags: ['viewBrands'] });
    const { secret } = await enrolTotp(member.user, await login(t.app, member.user));
    await t.db.update(workspaces).set({ requireSecondFactor: true }).where(eq(workspaces.id, workspace.id));
    // A session made before the factor (a password alone).
    const passwordOnly = member.cookie;
    expect(
      (await api(t.app, { url: `/api/brands?workspaceId=${workspace.id}`, cookie: passwordOnly })).status,
    ).toBe(403);
    tick(30);
    const stepped = await api(t.app, {
      url: '/api/auth/second-factor/totp',
      body: { code: await codeAt(secret) },
      cookie: passwordOnly,
    });
    expect(stepped.status, stepped.text).toBe(200);
    const session = sessionCookieFrom(stepped);
    expect(session).not.toBe(passwordOnly);
    expect(
      (await api(t.app, { url: `/api/brands?workspaceId=${workspace.id}`, cookie: session })).status,
    ).toBe(200);
    expect((await api(t.app, { url: '/api/auth/user', cookie: passwordOnly })).status).toBe(401);
  });
});

describe('the members’ list', () => {
  it('shows who has a second factor, and nothing of an invited person’s account', async () => {
    const workspace = await createWorkspace(t.db);
    const admin = await addMember(t.db, workspace.id, { isAdmin: true });
    const withFactor = await addMember(t.db, workspace.id, { tags: ['viewBrands'] });
    await enrolTotp(withFactor.user, withFactor.cookie);
    const without = await addMember(t.db, workspace.id, { tags: ['viewBrands'] });
    // An account with a factor of its own, invited here: the workspace does not learn of it yet.
    const invited = await addMember(t.db, workspace.id, { status: 'invited', tags: ['viewBrands'] });
    await enrolTotp(invited.user, await login(t.app, invited.user));

    const list = await api(t.app, {
      url: `/api/workspaces/users?workspaceId=${workspace.id}`,
      cookie: admin.cookie,
    });
    expect(list.status, list.text).toBe(200);
    const shown = new Map(
      dataOf<WorkspaceUserRecord[]>(list).map((member) => [member.id, member.secondFactor]),
    );
    expect(Object.fromEntries(shown)).toEqual({
      [admin.user.id]: false,
      [withFactor.user.id]: true,
      [without.user.id]: false,
      [invited.user.id]: null,
    });
  });
});

describe('the person’s sessions', () => {
  it('lists them with the current one marked, and signs out one or all others', async () => {
    const user = await createUser(t.db);
    const laptop = await login(t.app, user, { headers: { 'user-agent': 'Laptop browser' } });
    const phone = await login(t.app, user, { headers: { 'user-agent': 'Phone browser' } });
    const tablet = await login(t.app, user, { headers: { 'user-agent': 'Tablet browser' } });
    const list = dataOf<SessionSummary[]>(await api(t.app, { url: '/api/auth/sessions', cookie: laptop }));
    expect(list).toHaveLength(3);
    expect(list.filter((session) => session.current).map((session) => session.userAgent)).toEqual([
      'Laptop browser',
    ]);
    expect(list.every((session) => session.factors.join() === 'pwd' && session.address)).toBe(true);
    expect(JSON.stringify(list)).not.toMatch(/token/i);

    const phoneId = list.find((session) => session.userAgent === 'Phone browser')!.id;
    const someoneElse = await login(t.app, await createUser(t.db));
    expect(
      (await api(t.app, { method: 'DELETE', url: `/api/auth/sessions/${phoneId}`, cookie: someoneElse }))
        .status,
    ).toBe(404);
    expect((await api(t.app, { url: '/api/auth/user', cookie: phone })).status).toBe(200);
    expect(
      (await api(t.app, { method: 'DELETE', url: `/api/auth/sessions/${phoneId}`, cookie: laptop })).status,
    ).toBe(200);
    expect((await api(t.app, { url: '/api/auth/user', cookie: phone })).status).toBe(401);
    expect(
      (await api(t.app, { method: 'DELETE', url: '/api/auth/sessions/nope', cookie: laptop })).status,
    ).toBe(400);
    expect((await api(t.app, { method: 'DELETE', url: `/api/auth/sessions/${phoneId}` })).status).toBe(401);

    const others = await api(t.app, { url: '/api/auth/sessions/sign-out-others', body: {}, cookie: laptop });
    expect(dataOf(others)).toEqual({ signedOut: 1 });
    expect((await api(t.app, { url: '/api/auth/user', cookie: tablet })).status).toBe(401);
    expect((await api(t.app, { url: '/api/auth/user', cookie: laptop })).status).toBe(200);
  });
});

describe('the operator’s reset of a lost factor', () => {
  it('removes the factors and codes, records it and mails the person', async () => {
    const user = await createUser(t.db, { language: 'ar' });
    await enrolTotp(user, await login(t.app, user));
    const mailer = new MemoryMailer();
    const run = await runCliOn(t, ['reset-second-factors', user.email], {
      mailer,
      env: { NODE_ENV: 'test', DATA_DIR: t.config.dataDir, PUBLIC_URL: t.config.publicUrl },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Removed 1 second factor');
    expect(mailer.sent).toEqual([
      expect.objectContaining({ to: user.email, subject: 'أُزيلت عوامل التحقق الثانية من حسابك في دكّان' }),
    ]);
    expect(await t.db.select().from(userFactors).where(eq(userFactors.userId, user.id))).toEqual([]);
    const events = await t.db
      .select({ kind: signInEvents.kind })
      .from(signInEvents)
      .where(and(eq(signInEvents.userId, user.id), eq(signInEvents.kind, 'factors-reset')));
    expect(events).toHaveLength(1);
    // The password alone signs in again.
    await login(t.app, user);

    const unknown = await runCliOn(t, ['reset-second-factors', 'nobody@example.com'], { mailer });
    expect(unknown.code).toBe(2);
    expect((await runCliOn(t, ['reset-second-factors', 'not an email'], { mailer })).code).toBe(2);
  });
});
