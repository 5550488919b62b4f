import { type InviteStatus, validationCodes } from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memberMayUseApplication } from '../src/db/installed-applications.ts';
import { invites, memberships, passwordTokens, sessions, users } from '../src/db/schema/index.ts';
import { hashToken } from '../src/features/auth/tokens.ts';
import {
  api,
  captchaToken,
  createUser,
  dataOf,
  errorOf,
  expectValidation,
  login,
  strongPassword,
  tableCounts,
} from './helpers/api.ts';
import { type ApplicationRow, insertApplication, insertSubscription } from './helpers/applications.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import {
  addInvitedMember,
  addMember,
  createRole,
  createWorkspace,
  type TestMember,
  unique,
} from './helpers/workspaces.ts';

/** The invitation flow: mail → invite-status → accept-invite → set-profile → login (spec §2, §4). */
const clock = { current: new Date() };
const hour = 60 * 60 * 1000;
const day = 24 * hour;

let t: TestApp;
let shop: { id: string; name: string };
let admin: TestMember;
let cashierRole: { id: string };

beforeAll(async () => {
  t = await createTestApp({ now: () => clock.current });
  shop = await createWorkspace(t.db, 'Nile Bakery');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
  cashierRole = await createRole(t.db, shop.id, ['viewProducts', 'viewBrands'], { title: 'Cashier' });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  clock.current = new Date();
  t.mails.length = 0;
});

const inviteLinkPattern = /\/accept-invite\?token=([A-Za-z0-9_-]{20,})/;

/** Invites through the API and returns the token read from the mailed link. */
async function inviteByMail(email: string): Promise<string> {
  const response = await api(t.app, {
    url: `/api/workspaces/users/invite?workspaceId=${shop.id}`,
    body: { email, roleId: cashierRole.id },
    cookie: admin.cookie,
  });
  expect(response.status, response.text).toBe(201);
  const mail = t.mails.findLast((sent) => sent.to === email);
  return inviteLinkPattern.exec(mail?.text ?? '')![1]!;
}

const inviteStatus = (token: string) =>
  api(t.app, { url: `/api/auth/invite-status?token=${encodeURIComponent(token)}` });
const accept = (token: unknown) =>
  api(t.app, { url: '/api/workspaces/users/accept-invite', body: { token } });
async function setProfile(body: Record<string, unknown>) {
  return api(t.app, {
    url: '/api/auth/set-profile',
    body: {
      name: 'Nour Ali',
      phone: '+20 100 555 123',
      password: strongPassword,
      reCaptchaToken: await captchaToken(t.app),
      ...body,
    },
  });
}

describe('a new person: invite → status → accept → complete the profile → sign in', () => {
  it('walks the whole flow', async () => {
    const email = `${unique('nour')}@example.com`;
    const token = await inviteByMail(email);

    // The invited address comes with it, for the login page that follows.
    expect(dataOf<InviteStatus>(await inviteStatus(token))).toEqual({
      status: 'pending',
      user: { email, passwordResetToken: null },
      workspace: { name: 'Nile Bakery' },
    });

    const accepted = dataOf<{ passwordResetToken: string; workspace: { name: string } }>(await accept(token));
    expect(accepted).toEqual({ passwordResetToken: expect.any(String), workspace: { name: 'Nile Bakery' } });
    const [person] = await t.db.select().from(users).where(eq(users.email, email));
    const [membership] = await t.db.select().from(memberships).where(eq(memberships.userId, person!.id));
    expect(membership!.status).toBe('active');
    const [setToken] = await t.db.select().from(passwordTokens).where(eq(passwordTokens.userId, person!.id));
    expect(setToken).toMatchObject({ purpose: 'set', tokenHash: hashToken(accepted.passwordResetToken) });

    // Cannot sign in yet: there is no password.
    expect(
      (await api(t.app, { url: '/api/auth/login', body: { email, password: strongPassword } })).status,
    ).toBe(401);
    const completed = await setProfile({ passwordResetToken: accepted.passwordResetToken });
    expect(completed.json).toEqual({ data: { success: true } });
    const [updated] = await t.db.select().from(users).where(eq(users.id, person!.id));
    expect(updated).toMatchObject({ name: 'Nour Ali', phone: '+20100555123' });

    const cookie = await login(t.app, { email, password: strongPassword });
    const me = dataOf<{ workspaces: { workspaceId: string; role: { title: string } }[] }>(
      await api(t.app, { url: '/api/auth/user', cookie }),
    );
    expect(me.workspaces).toEqual([
      expect.objectContaining({ workspaceId: shop.id, role: expect.objectContaining({ title: 'Cashier' }) }),
    ]);
    // The invitation is now "accepted" and hands out no token any more.
    expect(dataOf<InviteStatus>(await inviteStatus(token))).toEqual({
      status: 'accepted',
      user: { email, passwordResetToken: null },
      workspace: { name: 'Nile Bakery' },
    });
  });

  it('accepting is single-use: a second accept is 400 TOKEN_IS_INVALID', async () => {
    const token = await inviteByMail(`${unique('once')}@example.com`);
    expect((await accept(token)).status).toBe(200);
    expectValidation(await accept(token), 'token', validationCodes.TOKEN_IS_INVALID);
  });

  it('an accepted invite of someone who never completed the profile gives a fresh single-use token', async () => {
    const email = `${unique('late')}@example.com`;
    const token = await inviteByMail(email);
    const first = dataOf<{ passwordResetToken: string }>(await accept(token)).passwordResetToken;
    const status = dataOf<InviteStatus>(await inviteStatus(token));
    expect(status.status).toBe('accepted');
    const fresh = status.user.passwordResetToken!;
    expect(fresh).toEqual(expect.any(String));
    // Asking again does not take away the token the page holds; using either ends both.
    expect(fresh).not.toBe(first);
    expect((await setProfile({ passwordResetToken: first })).status).toBe(200);
    for (const used of [fresh, first]) {
      expectValidation(
        await setProfile({ passwordResetToken: used }),
        'passwordResetToken',
        validationCodes.TOKEN_IS_INVALID,
      );
    }
    await login(t.app, { email, password: strongPassword });
  });

  it('the profile token expires after an hour', async () => {
    const token = await inviteByMail(`${unique('slow')}@example.com`);
    const { passwordResetToken } = dataOf<{ passwordResetToken: string }>(await accept(token));
    clock.current = new Date(Date.now() + hour + 1000);
    expectValidation(
      await setProfile({ passwordResetToken }),
      'passwordResetToken',
      validationCodes.TOKEN_IS_INVALID,
    );
  });
});

describe('a person who already has an account', () => {
  it('joins without a new password: no token, password unchanged, the workspace appears', async () => {
    const person = await createUser(t.db, { name: 'Old Friend' });
    const cookie = await login(t.app, person);
    const token = await inviteByMail(person.email);
    expect(dataOf<InviteStatus>(await inviteStatus(token)).user.passwordResetToken).toBeNull();
    const accepted = await accept(token);
    expect(accepted.json).toEqual({ data: { workspace: { name: 'Nile Bakery' } } });
    expect(dataOf<InviteStatus>(await inviteStatus(token))).toMatchObject({
      status: 'accepted',
      user: { passwordResetToken: null },
    });
    // The session they had sees the new workspace at once.
    const me = dataOf<{ workspaces: { workspaceId: string }[] }>(
      await api(t.app, { url: '/api/auth/user', cookie }),
    );
    expect(me.workspaces.map((entry) => entry.workspaceId)).toContain(shop.id);
    await login(t.app, person);
  });
});

describe('expiry, unknown and removed invitations', () => {
  it('after 7 days the invite is "expired" and cannot be accepted; a resend revives it', async () => {
    const email = `${unique('expired')}@example.com`;
    const token = await inviteByMail(email);
    clock.current = new Date(Date.now() + 7 * day + 1000);
    expect(dataOf<InviteStatus>(await inviteStatus(token))).toMatchObject({
      status: 'expired',
      user: { passwordResetToken: null },
    });
    expectValidation(await accept(token), 'token', validationCodes.TOKEN_IS_INVALID);

    const [person] = await t.db.select().from(users).where(eq(users.email, email));
    const resend = await api(t.app, {
      url: `/api/workspaces/users/resend-invite?workspaceId=${shop.id}`,
      body: { userId: person!.id },
      cookie: admin.cookie,
    });
    expect(resend.status).toBe(200);
    const renewed = inviteLinkPattern.exec(t.mails.at(-1)!.text)![1]!;
    expect((await accept(renewed)).status).toBe(200);
  });

  it('an accepted invite whose link has expired hands out no token (forgot-password remains)', async () => {
    const token = await inviteByMail(`${unique('stale')}@example.com`);
    await accept(token);
    clock.current = new Date(Date.now() + 8 * day);
    expect(dataOf<InviteStatus>(await inviteStatus(token))).toMatchObject({
      status: 'accepted',
      user: { passwordResetToken: null },
    });
  });

  it('unknown token: invite-status 404, accept 400 TOKEN_IS_INVALID; missing token: 400', async () => {
    const unknown = 'a'.repeat(43);
    const status = await inviteStatus(unknown);
    expect(status.status).toBe(404);
    expect(errorOf(status)).toMatchObject({ code: 'NOT_FOUND', name: 'NotFoundError' });
    expectValidation(await accept(unknown), 'token', validationCodes.TOKEN_IS_INVALID);
    expectValidation(
      await api(t.app, { url: '/api/auth/invite-status' }),
      'token',
      validationCodes.TOKEN_IS_REQUIRED,
    );
    expectValidation(
      await api(t.app, { url: '/api/workspaces/users/accept-invite', body: {} }),
      'token',
      validationCodes.TOKEN_IS_REQUIRED,
    );
    expectValidation(await accept('x'.repeat(201)), 'token', validationCodes.TOKEN_IS_INVALID);
  });

  it('removing the invited member withdraws the link', async () => {
    const pending = await addInvitedMember(t.db, shop.id);
    await api(t.app, {
      method: 'DELETE',
      url: `/api/workspaces/users/${pending.userId}?workspaceId=${shop.id}`,
      cookie: admin.cookie,
    });
    expect((await inviteStatus(pending.token)).status).toBe(404);
    expectValidation(await accept(pending.token), 'token', validationCodes.TOKEN_IS_INVALID);
  });

  it('a refused accept changes nothing', async () => {
    const pending = await addInvitedMember(t.db, shop.id, { expiresAt: new Date(Date.now() - 1000) });
    const before = await tableCounts(t.db);
    expectValidation(await accept(pending.token), 'token', validationCodes.TOKEN_IS_INVALID);
    expect(await tableCounts(t.db)).toEqual(before);
    const [row] = await t.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.workspaceId, shop.id), eq(memberships.userId, pending.userId)));
    expect(row!.status).toBe('invited');
    const [invite] = await t.db.select().from(invites).where(eq(invites.userId, pending.userId));
    expect(invite!.acceptedAt).toBeNull();
  });

  it('an invited admin becomes an admin by accepting', async () => {
    const pending = await addInvitedMember(t.db, shop.id, { isAdmin: true });
    expect((await accept(pending.token)).status).toBe(200);
    const { passwordResetToken } = dataOf<InviteStatus>(await inviteStatus(pending.token)).user;
    await setProfile({ passwordResetToken });
    const cookie = await login(t.app, { email: pending.email, password: strongPassword });
    const me = dataOf<{ adminWorkspaces: { id: string }[] }>(
      await api(t.app, { url: '/api/auth/user', cookie }),
    );
    expect(me.adminWorkspaces.map((workspace) => workspace.id)).toEqual([shop.id]);
  });
});

describe('applications of an invited person', () => {
  let bakery: { id: string };
  let owner: TestMember;
  let role: { id: string };
  let pos: ApplicationRow;
  let kds: ApplicationRow;
  beforeAll(async () => {
    bakery = await createWorkspace(t.db, 'Apps bakery');
    owner = await addMember(t.db, bakery.id, { isAdmin: true });
    role = await createRole(t.db, bakery.id);
    pos = await insertApplication(t.db);
    kds = await insertApplication(t.db);
    await insertSubscription(t.db, bakery.id, pos.id, 'approved', { plan: 'monthly' });
    await insertSubscription(t.db, bakery.id, kds.id, 'freeTrial');
  });
  const inviteToBakery = (body: Record<string, unknown>) =>
    api(t.app, { url: `/api/workspaces/users/invite?workspaceId=${bakery.id}`, body, cookie: owner.cookie });
  const mayUse = async (userId: string) => [
    await memberMayUseApplication(t.db, bakery.id, userId, pos.clientId),
    await memberMayUseApplication(t.db, bakery.id, userId, kds.clientId),
  ];

  it('may use the applications they were given once they accept, not before', async () => {
    const email = `${unique('apps')}@example.com`;
    const response = await inviteToBakery({ email, roleId: role.id, applications: [pos.clientId] });
    expect(response.status, response.text).toBe(201);
    const userId = dataOf<{ id: string }>(response).id;
    expect(await mayUse(userId)).toEqual([false, false]);
    const token = inviteLinkPattern.exec(t.mails.findLast((mail) => mail.to === email)!.text)![1]!;
    expect((await accept(token)).status).toBe(200);
    expect(await mayUse(userId)).toEqual([true, false]);
  });

  it('a pending admin invited again with no applications may use every installed one after accepting; a member none', async () => {
    const pending = await addInvitedMember(t.db, bakery.id, { isAdmin: true });
    const response = await inviteToBakery({ email: pending.email, roleId: role.id, applications: [] });
    expect(dataOf<{ isAdmin: boolean; applications: string[] }>(response)).toMatchObject({
      isAdmin: true,
      applications: [],
    });
    // A pending member too may be left without any (decision 0035): they then use none.
    const member = await addInvitedMember(t.db, bakery.id, { roleId: role.id });
    const bare = await inviteToBakery({ email: member.email, roleId: role.id, applications: [] });
    expect(dataOf<{ applications: string[] }>(bare).applications).toEqual([]);
    const token = inviteLinkPattern.exec(t.mails.findLast((mail) => mail.to === pending.email)!.text)![1]!;
    expect((await accept(token)).status).toBe(200);
    expect(await mayUse(pending.userId)).toEqual([true, true]);
    const memberToken = inviteLinkPattern.exec(
      t.mails.findLast((mail) => mail.to === member.email)!.text,
    )![1]!;
    expect((await accept(memberToken)).status).toBe(200);
    expect(await mayUse(member.userId)).toEqual([false, false]);
  });

  it('a non-admin inviter gives only the applications they hold: the portal lets the invitee into those alone', async () => {
    const manager = await addMember(t.db, bakery.id, {
      tags: ['viewUsers', 'addUsers'],
      applications: [pos.clientId],
    });
    const person = await createUser(t.db);
    const portal = (clientId: string, cookie: string) =>
      api(t.app, { url: `/api/oauth/installed-application/${clientId}?workspaceId=${bakery.id}`, cookie });
    const inviteAs = (applications: string[]) =>
      api(t.app, {
        url: `/api/workspaces/users/invite?workspaceId=${bakery.id}`,
        body: { email: person.email, roleId: role.id, applications },
        cookie: manager.cookie,
      });

    // The inviter is not let into kds, so cannot give it: no membership, no mail.
    expect((await portal(kds.clientId, manager.cookie)).status).toBe(404);
    const refused = await inviteAs([kds.clientId]);
    expect(refused.status, refused.text).toBe(403);
    expect(errorOf(refused).issues).toEqual([
      { path: 'applications.0', message: validationCodes.APPLICATION_NOT_HELD },
    ]);
    expect(await t.db.select().from(memberships).where(eq(memberships.userId, person.id))).toEqual([]);
    expect(t.mails).toEqual([]);

    expect((await inviteAs([pos.clientId])).status).toBe(201);
    const token = inviteLinkPattern.exec(t.mails.findLast((mail) => mail.to === person.email)!.text)![1]!;
    expect((await accept(token)).status).toBe(200);
    const cookie = await login(t.app, person);
    expect((await portal(pos.clientId, cookie)).status).toBe(200);
    expect((await portal(kds.clientId, cookie)).status).toBe(404);
  });
});

describe('POST /api/auth/set-profile', () => {
  async function freshSetToken(): Promise<{ token: string; email: string }> {
    const email = `${unique('p')}@example.com`;
    const invitation = await inviteByMail(email);
    return {
      token: dataOf<{ passwordResetToken: string }>(await accept(invitation)).passwordResetToken,
      email,
    };
  }

  it.each([
    ['name missing', { name: undefined }, 'name', validationCodes.NAME_IS_REQUIRED],
    ['name of 61', { name: 'n'.repeat(61) }, 'name', validationCodes.NAME_TOO_LONG],
    ['phone too short', { phone: '012345678' }, 'phone', validationCodes.PHONE_TOO_SHORT],
    ['phone with letters', { phone: '01234abcde' }, 'phone', validationCodes.PHONE_IS_INVALID],
    ['weak password', { password: 'abcdefgh' }, 'password', validationCodes.PASSWORD_TOO_WEAK],
    [
      'token missing',
      { passwordResetToken: undefined },
      'passwordResetToken',
      validationCodes.TOKEN_IS_REQUIRED,
    ],
  ])('400 VALIDATION: %s, and the token still works', async (_label, override, key, code) => {
    const { token } = await freshSetToken();
    expectValidation(await setProfile({ passwordResetToken: token, ...override }), key, code);
    expect((await setProfile({ passwordResetToken: token })).status).toBe(200);
  });

  it('a missing or replayed captcha: 400 CAPTCHA, and the token still works', async () => {
    const { token } = await freshSetToken();
    const withoutCaptcha = await setProfile({ passwordResetToken: token, reCaptchaToken: undefined });
    expect(errorOf(withoutCaptcha)).toMatchObject({ code: 'CAPTCHA', key: 'reCaptchaToken' });
    const solved = await captchaToken(t.app);
    expect((await setProfile({ passwordResetToken: token, reCaptchaToken: solved })).status).toBe(200);
    const { token: other } = await freshSetToken();
    expect(errorOf(await setProfile({ passwordResetToken: other, reCaptchaToken: solved })).code).toBe(
      'CAPTCHA',
    );
  });

  it('a reset token from forgot-password is not a profile token', async () => {
    const person = await createUser(t.db);
    const tokenHash = hashToken('r'.repeat(43));
    await t.db
      .insert(passwordTokens)
      .values({ tokenHash, userId: person.id, purpose: 'reset', expiresAt: new Date(Date.now() + hour) });
    expectValidation(
      await setProfile({ passwordResetToken: 'r'.repeat(43) }),
      'passwordResetToken',
      validationCodes.TOKEN_IS_INVALID,
    );
  });

  it('signs out every session of the account', async () => {
    const { token, email } = await freshSetToken();
    const [person] = await t.db.select().from(users).where(eq(users.email, email));
    await t.db.insert(sessions).values({
      tokenHash: hashToken(unique('s')),
      userId: person!.id,
      expiresAt: new Date(Date.now() + day),
    });
    await setProfile({ passwordResetToken: token });
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, person!.id))).toEqual([]);
  });
});
