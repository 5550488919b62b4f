import { and, eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, oauthGrants, passwordTokens, subscriptions } from '../../src/db/schema/index.ts';
import { createToken } from '../../src/features/auth/tokens.ts';
import { runSubscriptionClock } from '../../src/features/subscriptions/subscription-clock.ts';
import { runSubscriptionEvent } from '../../src/features/subscriptions/subscriptions.ts';
import { api } from '../helpers/api.ts';
import { type ApplicationRow, insertApplication, insertSubscription } from '../helpers/applications.ts';
import {
  authorizationRequest,
  followToClient,
  type PortalFixture,
  portalFixture,
  type SignInTokens,
  signIn,
  signInState,
  signInThroughPortal,
  TestBrowser,
} from '../helpers/oauth.ts';
import { storedSubscription, subscriptionServices } from '../helpers/subscriptions.ts';
import { createTestApp, MemoryMailer, type TestApp } from '../helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember } from '../helpers/workspaces.ts';

/**
 * A sign-in ends with what allowed it. After a whole sign-in (portal, code, tokens), each event
 * that takes the application away from the member — the subscription ending, the membership
 * changing, the password changing — makes the next refresh answer invalid_grant and the access
 * token's introspection inactive, while a sign-in the event does not concern keeps working.
 * The subscription clock runs with the `now` each test chooses.
 */
let t: TestApp;
const mailer = new MemoryMailer();
const dayMs = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const services = () => subscriptionServices(t.db, mailer);
const clock = (at: Date) => runSubscriptionClock({ ...services(), graceDays: 5 }, at);

/**
 * The scene of each test: workspace 1 has application A in a free trial ending in 14 days and
 * application B; workspace 2 has A in a trial ending in 60 days. The admin is admin of both; the
 * member is a member of both, given A and B in workspace 1 and A in workspace 2.
 */
interface Scene {
  one: PortalFixture;
  application: ApplicationRow;
  /** Another application workspace 1 has installed, also given to the member there. */
  applicationB: ApplicationRow;
  two: { id: string; name: string };
  admin: TestMember;
  member: TestMember;
  memberBrowser: TestBrowser;
  /** The admin's (or the member's) sign-in to A in a workspace. */
  signInAs(who: 'admin' | 'member', workspace: 'one' | 'two'): Promise<SignInTokens>;
}

async function scene(): Promise<Scene> {
  const one = await portalFixture(t);
  const { db } = t;
  const application = one.application;
  const later = (days: number) => ({ startDate: new Date(), endDate: new Date(Date.now() + days * dayMs) });
  const applicationB = await insertApplication(db);
  await insertSubscription(db, one.workspace.id, applicationB.id, 'freeTrial', later(60));
  const two = await createWorkspace(db);
  await insertSubscription(db, two.id, application.id, 'freeTrial', later(60));
  const admin = one.member;
  const adminInTwo = await addMember(db, two.id, { user: admin.user, isAdmin: true });
  const member = await addMember(db, one.workspace.id);
  const memberInTwo = await addMember(db, two.id, { user: member.user });
  await db
    .update(memberships)
    .set({ applications: [application.clientId, applicationB.clientId] })
    .where(and(eq(memberships.workspaceId, one.workspace.id), eq(memberships.userId, member.user.id)));
  await db
    .update(memberships)
    .set({ applications: [application.clientId] })
    .where(and(eq(memberships.workspaceId, two.id), eq(memberships.userId, member.user.id)));
  // One browser per person and workspace: a browser's provider session holds one sign-in per
  // application (see 'the browser's session' below).
  const browserWith = (cookie: string) => {
    const browser = new TestBrowser(t.app, t.config.publicUrl);
    browser.setCookie(cookie);
    return browser;
  };
  const memberBrowser = browserWith(member.cookie);
  const browsers = {
    admin: { one: one.browser, two: browserWith(adminInTwo.cookie) },
    member: { one: memberBrowser, two: browserWith(memberInTwo.cookie) },
  };
  return {
    one,
    application,
    applicationB,
    two,
    admin,
    member,
    memberBrowser,
    signInAs: (who, workspace) =>
      signIn(one, {
        browser: browsers[who][workspace],
        workspaceId: workspace === 'one' ? one.workspace.id : two.id,
      }),
  };
}

const ended = { active: false, refresh: 'invalid_grant' };
const alive = { active: true, refresh: 'ok' };

/** Asserts how each sign-in stands (introspection, then a refresh). */
async function expectStates(s: Scene, expected: [SignInTokens, typeof ended | typeof alive][]) {
  const states = [];
  for (const [tokens] of expected) {
    const { active, refresh } = await signInState(s.one.config, tokens);
    states.push({ active, refresh });
  }
  expect(states).toEqual(expected.map(([, state]) => state));
}

/** The grants recorded for a user (the portal's record of their sign-ins). */
async function grantsOf(userId: string) {
  return t.db.select().from(oauthGrants).where(eq(oauthGrants.userId, userId));
}

const postEvent = (s: Scene, body: Record<string, unknown>) =>
  api(t.app, {
    url: `/api/subscriptions/events?workspaceId=${s.one.workspace.id}`,
    body: { applicationId: s.application.id, ...body },
    cookie: s.admin.cookie,
  });

/** The operator's `event` on workspace 1's subscription to A. */
const operatorEvent = (s: Scene, event: 'approve' | 'reject', at = new Date()) =>
  runSubscriptionEvent(
    services(),
    { workspaceId: s.one.workspace.id, applicationId: s.application.id, event, actor: 'operator' },
    at,
  );

/** The status of workspace 1's subscription to A. */
const statusOf = async (s: Scene) =>
  (await storedSubscription(t.db, s.one.workspace.id, s.application.id))?.status;

/** The admin's sign-ins to A in workspace 1 and in workspace 2. */
async function adminSignIns(s: Scene) {
  return { here: await s.signInAs('admin', 'one'), elsewhere: await s.signInAs('admin', 'two') };
}

/** The member's sign-ins to A in both workspaces, and the admin's in workspace 1. */
async function memberAndAdminSignIns(s: Scene) {
  return {
    memberHere: await s.signInAs('member', 'one'),
    memberElsewhere: await s.signInAs('member', 'two'),
    adminHere: await s.signInAs('admin', 'one'),
  };
}

/** The admin's change to the member in workspace 1 (on the Users page). */
const changeMember = (s: Scene, method: 'PATCH' | 'DELETE', body?: Record<string, unknown>) =>
  api(t.app, {
    method,
    url: `/api/workspaces/users/${s.member.user.id}?workspaceId=${s.one.workspace.id}`,
    body,
    cookie: s.admin.cookie,
  });

describe('the subscription', () => {
  it('the free trial expiring (the clock past its end) ends the sign-ins in that workspace only', async () => {
    const s = await scene();
    const here = await s.signInAs('admin', 'one');
    const memberHere = await s.signInAs('member', 'one');
    const elsewhere = await s.signInAs('admin', 'two');
    const trial = await storedSubscription(t.db, s.one.workspace.id, s.application.id);

    // Just before the end nothing happens.
    await clock(new Date(trial!.endDate!.getTime() - 60_000));
    await expectStates(s, [[here, alive]]);

    const run = await clock(new Date(trial!.endDate!.getTime() + 1000));
    expect(run.applied).toContainEqual({ subscriptionId: trial!.id, event: 'trialEnds' });
    expect(await statusOf(s)).toBe('expiredFreeTrial');
    await expectStates(s, [
      [here, ended],
      [memberHere, ended],
      [elsewhere, alive],
    ]);
  });

  it('the workspace cancelling its free trial ends them', async () => {
    const s = await scene();
    const { here, elsewhere } = await adminSignIns(s);
    const response = await postEvent(s, { event: 'cancel' });
    expect(response.status, response.text).toBe(200);
    expect((response.json as { data: { status: string } }).data.status).toBe('expiredFreeTrial');
    await expectStates(s, [
      [here, ended],
      [elsewhere, alive],
    ]);
  });

  it('a subscription requested during the trial ends them (pending is not installed); the operator’s rejection keeps them ended', async () => {
    const s = await scene();
    const { here, elsewhere } = await adminSignIns(s);
    const requested = await postEvent(s, { event: 'request', plan: 'monthly' });
    expect(requested.status, requested.text).toBe(200);
    await expectStates(s, [[here, ended]]);

    await operatorEvent(s, 'reject');
    expect(await statusOf(s)).toBe('rejected');
    await expect(s.signInAs('admin', 'one')).rejects.toThrow(/Login answered 403/);
    await expectStates(s, [[elsewhere, alive]]);
  });

  it('approved, then cancelled: the sign-in lasts to the period’s end, which ends it', async () => {
    const s = await scene();
    await postEvent(s, { event: 'request', plan: 'monthly' });
    const approvedAt = new Date();
    const approved = await operatorEvent(s, 'approve', approvedAt);
    expect(approved.subscription.status).toBe('approved');
    let { here, elsewhere } = await adminSignIns(s);

    expect((await postEvent(s, { event: 'cancel' })).status).toBe(200);
    // Cancelling keeps the period: still installed.
    const state = await signInState(s.one.config, here);
    expect(state).toMatchObject(alive);
    here = state.refreshed!;

    const run = await clock(new Date(approved.subscription.endDate!.getTime() + 1000));
    expect(run.applied).toContainEqual({ subscriptionId: approved.subscription.id, event: 'periodEnds' });
    expect(await statusOf(s)).toBe('expiredSubscription');
    await expectStates(s, [
      [here, ended],
      [elsewhere, alive],
    ]);
  });

  it('approved, unpaid: the sign-in lasts through the grace, whose end ends it', async () => {
    const s = await scene();
    await postEvent(s, { event: 'request', plan: 'monthly' });
    const approved = await operatorEvent(s, 'approve');
    let { here, elsewhere } = await adminSignIns(s);

    const periodEnd = approved.subscription.endDate!;
    await clock(new Date(periodEnd.getTime() + 1000));
    const inGrace = await storedSubscription(t.db, s.one.workspace.id, s.application.id);
    expect(inGrace).toMatchObject({ status: 'approved' });
    expect(inGrace?.graceEndsAt).not.toBeNull();
    const state = await signInState(s.one.config, here);
    expect(state).toMatchObject(alive);
    here = state.refreshed!;

    await clock(new Date(inGrace!.graceEndsAt!.getTime() + 1000));
    expect(await statusOf(s)).toBe('expiredSubscription');
    await expectStates(s, [
      [here, ended],
      [elsewhere, alive],
    ]);
  });
});

describe('the membership, changed by an admin', () => {
  it.each([
    ['disabled', { status: 'inactive' }],
    ['given another application instead of this one', 'applicationB'],
  ] as const)(
    'the member %s: their sign-in there ends; the admin’s, and theirs in another workspace, go on',
    async (_change, change) => {
      const s = await scene();
      const { memberHere, memberElsewhere, adminHere } = await memberAndAdminSignIns(s);
      const response = await changeMember(
        s,
        'PATCH',
        change === 'applicationB' ? { applications: [s.applicationB.clientId] } : change,
      );
      expect(response.status, response.text).toBe(200);
      await expectStates(s, [
        [memberHere, ended],
        [memberElsewhere, alive],
        [adminHere, alive],
      ]);
    },
  );

  it('a change that keeps the application (a new code) ends nothing', async () => {
    const s = await scene();
    const memberHere = await s.signInAs('member', 'one');
    const response = await changeMember(s, 'PATCH', { code: 'K-42' });
    expect(response.status, response.text).toBe(200);
    await expectStates(s, [[memberHere, alive]]);
  });

  it('the member removed: their sign-in there ends', async () => {
    const s = await scene();
    const { memberHere, memberElsewhere, adminHere } = await memberAndAdminSignIns(s);
    const response = await changeMember(s, 'DELETE');
    expect(response.status, response.text).toBe(200);
    await expectStates(s, [
      [memberHere, ended],
      [memberElsewhere, alive],
      [adminHere, alive],
    ]);
  });
});

describe('the password', () => {
  it('changed: every sign-in of the user ends, in every workspace; another user’s goes on', async () => {
    const s = await scene();
    const { memberHere, memberElsewhere, adminHere } = await memberAndAdminSignIns(s);
    expect(await grantsOf(s.member.user.id)).toHaveLength(2);
    const response = await api(t.app, {
      url: '/api/auth/change-password',
      body: { currentPassword: s.member.user.password, newPassword: 'Changed#Pass9' },
      cookie: s.member.cookie,
    });
    expect(response.status, response.text).toBe(200);
    expect(await grantsOf(s.member.user.id)).toEqual([]);
    await expectStates(s, [
      [memberHere, ended],
      [memberElsewhere, ended],
      [adminHere, alive],
    ]);
    // The session that changed it stays: the member signs in to the application again.
    await expectStates(s, [[await s.signInAs('member', 'one'), alive]]);
  });

  it('reset through the mailed link: the same', async () => {
    const s = await scene();
    const { memberHere, memberElsewhere, adminHere } = await memberAndAdminSignIns(s);
    const { token, tokenHash } = createToken();
    await t.db.insert(passwordTokens).values({
      tokenHash,
      userId: s.member.user.id,
      purpose: 'reset',
      expiresAt: new Date(Date.now() + 60 * 60 * 1000),
    });
    const response = await api(t.app, {
      url: '/api/auth/reset-password',
      body: { token, password: 'Reset#Pass9x' },
    });
    expect(response.status, response.text).toBe(200);
    await expectStates(s, [
      [memberHere, ended],
      [memberElsewhere, ended],
      [adminHere, alive],
    ]);
  });
});

describe('every refresh checks the member, even without a revocation', () => {
  /**
   * Changes a row behind the lifecycle's back (no revocation runs, the grant stays recorded):
   * the refresh and userinfo are refused by the check alone; once the row is put back, the same
   * refresh token works (the refused refresh spent nothing).
   */
  async function refusedWhile(
    change: (s: Scene) => Promise<unknown>,
    restore: (s: Scene) => Promise<unknown>,
  ) {
    const s = await scene();
    const tokens = await s.signInAs('member', 'one');
    await change(s);
    expect(await grantsOf(s.member.user.id)).toHaveLength(1);
    // Introspection reads the token alone: it is the refresh that refuses.
    expect(await signInState(s.one.config, tokens)).toEqual({ active: true, refresh: 'invalid_grant' });
    const userinfo = await client.fetchUserInfo(s.one.config, tokens.access_token, s.member.user.id).then(
      () => 'answered',
      (error: { cause?: { parameters?: { error?: string } }[] }) => error.cause?.[0]?.parameters?.error,
    );
    expect(userinfo).toBe('invalid_token');
    await restore(s);
    const again = await signInState(s.one.config, tokens);
    expect(again).toMatchObject(alive);
  }

  const subscriptionOf = (s: Scene) =>
    and(eq(subscriptions.workspaceId, s.one.workspace.id), eq(subscriptions.applicationId, s.application.id));
  const membershipOf = (s: Scene) =>
    and(eq(memberships.workspaceId, s.one.workspace.id), eq(memberships.userId, s.member.user.id));

  it('the subscription no longer active (an UPDATE of its status)', () =>
    refusedWhile(
      (s) => t.db.update(subscriptions).set({ status: 'expiredFreeTrial' }).where(subscriptionOf(s)),
      (s) => t.db.update(subscriptions).set({ status: 'freeTrial' }).where(subscriptionOf(s)),
    ));

  it('the membership disabled (an UPDATE of its status)', () =>
    refusedWhile(
      (s) => t.db.update(memberships).set({ status: 'inactive' }).where(membershipOf(s)),
      (s) => t.db.update(memberships).set({ status: 'active' }).where(membershipOf(s)),
    ));

  it('the application taken from the member’s list (an UPDATE)', () =>
    refusedWhile(
      (s) => t.db.update(memberships).set({ applications: [] }).where(membershipOf(s)),
      (s) =>
        t.db
          .update(memberships)
          .set({ applications: [s.application.clientId] })
          .where(membershipOf(s)),
    ));
});

describe('prompt=none: a silent sign-in from the same browser', () => {
  /** A silent authorization request in the browser: where the browser lands at the client. */
  async function silently(s: Scene, browser: TestBrowser) {
    const request = await authorizationRequest(s.one, { prompt: 'none' });
    const { url, visited } = await followToClient(browser, request.url.href);
    expect(url.origin + url.pathname).toBe(s.one.redirectUri);
    expect(url.searchParams.get('state')).toBe(request.state);
    // Never the portal page: a silent request shows nothing.
    expect(visited.filter((address) => address.includes('interaction='))).toEqual([]);
    return { request, url };
  }

  it('after a sign-in: a code, without the portal page, for the same workspace', async () => {
    const s = await scene();
    await s.signInAs('member', 'one');
    const { request, url } = await silently(s, s.memberBrowser);
    expect(url.searchParams.get('error')).toBeNull();
    const tokens = await client.authorizationCodeGrant(s.one.config, url, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    expect(tokens.claims()).toMatchObject({ sub: s.member.user.id, workspace_id: s.one.workspace.id });
  });

  it('without an earlier sign-in: login_required', async () => {
    const s = await scene();
    const { url } = await silently(s, s.memberBrowser);
    expect(url.searchParams.get('error')).toBe('login_required');
    expect(url.searchParams.get('code')).toBeNull();
  });

  it('after the member loses the application: consent_required, no code', async () => {
    const s = await scene();
    await s.signInAs('member', 'one');
    const taken = await changeMember(s, 'PATCH', { applications: [s.applicationB.clientId] });
    expect(taken.status, taken.text).toBe(200);
    const { url } = await silently(s, s.memberBrowser);
    expect(url.searchParams.get('error')).toBe('consent_required');
    expect(url.searchParams.get('code')).toBeNull();
  });

  it('the member disabled behind the lifecycle’s back (no revocation): still consent_required', async () => {
    const s = await scene();
    await s.signInAs('member', 'one');
    await t.db
      .update(memberships)
      .set({ status: 'inactive' })
      .where(and(eq(memberships.workspaceId, s.one.workspace.id), eq(memberships.userId, s.member.user.id)));
    expect(await grantsOf(s.member.user.id)).toHaveLength(1);
    const { url } = await silently(s, s.memberBrowser);
    expect(url.searchParams.get('error')).toBe('consent_required');
  });

  it('another Dukkan user now signed in in that browser: no code for the first one', async () => {
    const s = await scene();
    await s.signInAs('member', 'one');
    s.memberBrowser.setCookie(s.admin.cookie);
    const { url } = await silently(s, s.memberBrowser);
    expect(url.searchParams.get('error')).toBe('consent_required');
    expect(url.searchParams.get('code')).toBeNull();
  });
});

describe('the browser’s session', () => {
  /*
   * A sign-in's tokens live as long as their grant allows, not as long as the browser's session
   * with the provider (`expiresWithSession` is false): a second sign-in to the same application
   * from the same browser, in another workspace, leaves the first one's tokens working, with or
   * without offline_access.
   */
  it('a second sign-in to the same application in the same browser leaves the first working', async () => {
    const s = await scene();
    const signInTwice = async (extra: Record<string, string>) => {
      const tokens: SignInTokens[] = [];
      for (const workspaceId of [s.one.workspace.id, s.two.id]) {
        const request = await authorizationRequest(s.one, extra);
        const callback = await signInThroughPortal(s.one.browser, request.url, workspaceId);
        tokens.push(
          await client.authorizationCodeGrant(s.one.config, callback, {
            pkceCodeVerifier: request.verifier,
            expectedState: request.state,
            expectedNonce: request.nonce,
          }),
        );
      }
      return tokens;
    };
    const [first, second] = await signInTwice({});
    expect(first!.scope).toBe('openid profile email');
    await expectStates(s, [
      [first!, alive],
      [second!, alive],
    ]);
    const [offlineFirst, offlineSecond] = await signInTwice({
      scope: 'openid offline_access',
      prompt: 'consent',
    });
    expect(offlineFirst!.scope).toBe('openid offline_access');
    await expectStates(s, [
      [offlineFirst!, alive],
      [offlineSecond!, alive],
    ]);
  });
});
