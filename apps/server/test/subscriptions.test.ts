import {
  paymentRecordSchema,
  type SubscriptionSituation,
  type SubscriptionState,
  situationOf,
  subscriptionRecordSchema,
  subscriptionSummarySchema,
  upcomingPaymentSchema,
  validationCodes,
  workspaceSubscriptionEvents,
  workspaceTransition,
} from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscriptions } from '../src/db/schema/index.ts';
import { applySubscriptionEvent } from '../src/features/subscriptions/subscription-lifecycle.ts';
import {
  approveSubscription,
  listSubscriptions,
  rejectSubscription,
  runSubscriptionEvent,
  SubscriptionCommandError,
} from '../src/features/subscriptions/subscriptions.ts';
import { api, createUser, dataOf, errorOf, expectValidation, named } from './helpers/api.ts';
import { insertApplication, insertSubscription } from './helpers/applications.ts';
import { firstLockWait } from './helpers/lock-wait.ts';
import {
  addLocations,
  approvedSubscription,
  storedSubscription,
  subscriptionServices,
} from './helpers/subscriptions.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import {
  addMember,
  createWorkspace,
  type TestMember,
  tagsExcept,
  workspaceSnapshot,
} from './helpers/workspaces.ts';

/**
 * The workspace's subscription events over HTTP (`POST subscriptions/events`), the contract's
 * lifecycle table applied to stored rows (every state × every workspace event), the invoices to
 * come, the engine's read-only lists in the contract's shape, and the operator's decisions.
 */
let t: TestApp;
const now = new Date('2026-03-10T08:00:00.000Z');
let workspace: { id: string };
let admin: TestMember;

beforeAll(async () => {
  t = await createTestApp({ now: () => now });
  workspace = await createWorkspace(t.db, 'Subscriber');
  admin = await addMember(t.db, workspace.id, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  t.mails.length = 0;
});

const services = () =>
  subscriptionServices(t.db, { send: async (mail) => void t.mails.push(mail), close() {} });

function postEvent(body: Record<string, unknown>, cookie = admin.cookie, workspaceId = workspace.id) {
  return api(t.app, { url: `/api/subscriptions/events?workspaceId=${workspaceId}`, body, cookie });
}

const dayMs = 24 * 60 * 60 * 1000;

describe('POST /api/subscriptions/events', () => {
  it('request: a pending subscription with the plan, no period yet; the admins are told', async () => {
    const application = await insertApplication(t.db);
    const response = await postEvent({ applicationId: application.id, event: 'request', plan: 'quarterly' });
    expect(response.status, response.text).toBe(200);
    const summary = dataOf<Record<string, unknown>>(response);
    expect(subscriptionSummarySchema.strict().safeParse(summary).error).toBeUndefined();
    expect(summary).toMatchObject({
      status: 'pending',
      plan: 'quarterly',
      nextPlan: null,
      startDate: null,
      endDate: null,
      cancelling: false,
      graceEndsAt: null,
    });
    const row = await storedSubscription(t.db, workspace.id, application.id);
    expect(row).toMatchObject({ id: summary.id, status: 'pending', plan: 'quarterly', trialUsed: false });
    expect(t.mails.map((mail) => [mail.to, mail.subject])).toEqual([
      [admin.user.email, `Subscription request received: App ${application.clientId}`],
      // The operator too, as for an access request (subscription-next-steps.test.ts says what).
      [t.config.operatorEmail, `Dukkan subscription request: Subscriber, App ${application.clientId}`],
    ]);
    expect(t.mails[0]!.text).toContain('quarterly plan');
  });

  it('each admin is mailed in their saved language, else the requesting member’s; the operator’s decision in theirs, else en', async () => {
    const shop = await createWorkspace(t.db, 'Languages shop');
    const admins = {
      requester: await addMember(t.db, shop.id, {
        isAdmin: true,
        user: await createUser(t.db, { language: 'ar' }),
      }),
      savedEn: await addMember(t.db, shop.id, {
        isAdmin: true,
        user: await createUser(t.db, { language: 'en' }),
      }),
      savedNone: await addMember(t.db, shop.id, {
        isAdmin: true,
        user: await createUser(t.db, { language: null }),
      }),
    };
    const application = await insertApplication(t.db);
    const response = await postEvent(
      { applicationId: application.id, event: 'request', plan: 'monthly' },
      admins.requester.cookie,
      shop.id,
    );
    expect(response.status, response.text).toBe(200);
    const subjectTo = (member: TestMember) => t.mails.find((mail) => mail.to === member.user.email)?.subject;
    const arabic = `تلقّينا طلب الاشتراك في ${application.nameAr}`;
    expect(subjectTo(admins.requester)).toBe(arabic);
    expect(subjectTo(admins.savedEn)).toBe(`Subscription request received: App ${application.clientId}`);
    expect(subjectTo(admins.savedNone)).toBe(arabic);

    t.mails.length = 0;
    const stored = await storedSubscription(t.db, shop.id, application.id);
    await approveSubscription(services(), stored!.id, now);
    expect(subjectTo(admins.requester)).toContain('مفعّل');
    expect(subjectTo(admins.savedNone)).toBe(`Your subscription to App ${application.clientId} is active`);
  });

  it('startTrial: a free trial from now for the application’s trial days, and the trial counts as used', async () => {
    const application = await insertApplication(t.db, { trialDays: 14 });
    const summary = dataOf<Record<string, unknown>>(
      await postEvent({ applicationId: application.id, event: 'startTrial' }),
    );
    expect(summary).toMatchObject({
      status: 'freeTrial',
      plan: null,
      startDate: now.toISOString(),
      endDate: new Date(now.getTime() + 14 * dayMs).toISOString(),
    });
    expect((await storedSubscription(t.db, workspace.id, application.id))?.trialUsed).toBe(true);
    // Starting a trial sends nothing: the admin did it.
    expect(t.mails).toEqual([]);
  });

  it('startTrial of an application without a trial: 409 NO_FREE_TRIAL, nothing written', async () => {
    const application = await insertApplication(t.db, { trialDays: 0 });
    const response = await postEvent({ applicationId: application.id, event: 'startTrial' });
    expect(response.status, response.text).toBe(409);
    expect(errorOf(response)).toMatchObject({
      code: 'VALIDATION',
      key: 'event',
      issues: [{ path: 'event', message: validationCodes.NO_FREE_TRIAL }],
    });
    expect(await storedSubscription(t.db, workspace.id, application.id)).toBeUndefined();
  });

  it('validation: a plan is required to request, renew and change plan; ids and fields are checked', async () => {
    const application = await insertApplication(t.db);
    for (const event of ['request', 'renew', 'changePlan']) {
      expectValidation(
        await postEvent({ applicationId: application.id, event }),
        'plan',
        validationCodes.PLAN_IS_REQUIRED,
      );
    }
    expectValidation(
      await postEvent({ applicationId: application.id, event: 'request', plan: 'weekly' }),
      'plan',
      validationCodes.PLAN_IS_REQUIRED,
    );
    expectValidation(
      await postEvent({ applicationId: 'not-an-id', event: 'request', plan: 'monthly' }),
      'applicationId',
      validationCodes.REFERENCE_NOT_FOUND,
    );
    expectValidation(await postEvent({ applicationId: application.id, event: 'approve' }), 'event');
    expect(
      (await postEvent({ applicationId: application.id, event: 'cancel', workspaceId: workspace.id })).status,
    ).toBe(400);
    expect(await storedSubscription(t.db, workspace.id, application.id)).toBeUndefined();
  });

  it.runIf(process.env.DATABASE_URL)(
    'two first events at once (PostgreSQL only): the second waits for the first row, then is refused by the table',
    async () => {
      const application = await insertApplication(t.db, { trialDays: 3 });
      const request = {
        workspaceId: workspace.id,
        applicationId: application.id,
        event: 'startTrial' as const,
        actor: 'workspace' as const,
      };
      // The first trial's row is inserted and held uncommitted while the second one starts.
      let inserted!: () => void;
      let release!: () => void;
      const insertedSignal = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const first = t.db.transaction(async (tx) => {
        await applySubscriptionEvent(tx, request, now);
        inserted();
        await gate;
      });
      await insertedSignal;
      const second = runSubscriptionEvent(services(), request, now);
      second.catch(() => {});
      // It waits on the first's row at the unique index (a transaction id lock), not on nothing.
      expect(await firstLockWait(t.db, second)).toBe('transactionid');
      release();
      await first;
      await expect(second).rejects.toMatchObject({
        name: 'SubscriptionEventRefused',
        reason: 'trialAlreadyUsed',
      });
      expect((await storedSubscription(t.db, workspace.id, application.id))?.status).toBe('freeTrial');
    },
  );

  it('an application that does not exist: 404 on applicationId', async () => {
    const response = await postEvent({
      applicationId: '00000000-0000-4000-8000-000000000000',
      event: 'request',
      plan: 'monthly',
    });
    expect(response.status).toBe(404);
    expect(errorOf(response)).toMatchObject({ code: 'NOT_FOUND', key: 'applicationId' });
  });

  it('signed out: 401; without addSubscriptions: 403 and nothing written; with exactly it: 200', async () => {
    const application = await insertApplication(t.db);
    const body = { applicationId: application.id, event: 'request', plan: 'monthly' };
    const anonymous = await api(t.app, {
      url: `/api/subscriptions/events?workspaceId=${workspace.id}`,
      body,
    });
    expect(anonymous.status).toBe(401);
    const everythingElse = await addMember(t.db, workspace.id, { tags: tagsExcept(['addSubscriptions']) });
    const refused = await postEvent(body, everythingElse.cookie);
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('FORBIDDEN');
    expect(await storedSubscription(t.db, workspace.id, application.id)).toBeUndefined();
    const subscriber = await addMember(t.db, workspace.id, { tags: ['addSubscriptions'] });
    expect((await postEvent(body, subscriber.cookie)).status).toBe(200);
  });

  it("another workspace's subscription to the same application is untouched; its workspaceId is refused", async () => {
    const application = await insertApplication(t.db);
    const other = await createWorkspace(t.db, 'Other subscriber');
    await insertSubscription(t.db, other.id, application.id, 'pending', { plan: 'annually' });
    const before = await workspaceSnapshot(t.db, other.id);
    // Here the workspace has no subscription: cancelling is refused; requesting makes its own.
    const cancel = await postEvent({ applicationId: application.id, event: 'cancel' });
    expect(cancel.status).toBe(409);
    expect(errorOf(cancel).issues?.[0]?.params).toEqual({ reason: 'notSubscribed' });
    const mine = dataOf<{ id: string }>(
      await postEvent({ applicationId: application.id, event: 'request', plan: 'monthly' }),
    );
    expect((await storedSubscription(t.db, other.id, application.id))?.id).not.toBe(mine.id);
    expect(
      (await postEvent({ applicationId: application.id, event: 'changePlan', plan: 'monthly' })).status,
    ).toBe(200);
    // The admin of this workspace is no member of the other.
    const elsewhere = await postEvent(
      { applicationId: application.id, event: 'cancel' },
      admin.cookie,
      other.id,
    );
    expect(elsewhere.status).toBe(403);
    expect(await workspaceSnapshot(t.db, other.id)).toEqual(before);
    expect((await storedSubscription(t.db, other.id, application.id))?.plan).toBe('annually');
  });
});

/** The stored situations the table knows, each seeded as a row (null: no row). */
const situations: { label: string; situation: SubscriptionSituation }[] = [
  { label: 'not subscribed', situation: situationOf(null) },
  { label: 'pending', situation: situationOf('pending') },
  { label: 'approved', situation: situationOf('approved') },
  { label: 'approved, cancelling', situation: situationOf('approved', { cancelling: true }) },
  { label: 'approved, in grace', situation: situationOf('approved', { inGrace: true }) },
  { label: 'rejected', situation: situationOf('rejected') },
  { label: 'freeTrial', situation: situationOf('freeTrial') },
  { label: 'expiredFreeTrial', situation: situationOf('expiredFreeTrial') },
  { label: 'expiredSubscription', situation: situationOf('expiredSubscription') },
];

/** A row in the situation, as the lifecycle would have left it, for a new application. */
async function seedSituation(workspaceId: string, situation: SubscriptionSituation) {
  const application = await insertApplication(t.db, { trialDays: 7 });
  const status = situation.status;
  if (status !== null) {
    const start = new Date(now.getTime() - 10 * dayMs);
    const periodic = status === 'approved' || status === 'freeTrial';
    await insertSubscription(t.db, workspaceId, application.id, status, {
      plan: status === 'freeTrial' || status === 'expiredFreeTrial' ? null : 'monthly',
      startDate: periodic ? start : null,
      endDate: periodic ? new Date(now.getTime() + (situation.inGrace ? -2 : 20) * dayMs) : null,
      cancelling: situation.cancelling,
      graceEndsAt: situation.inGrace ? new Date(now.getTime() + 3 * dayMs) : null,
      trialUsed: status === 'freeTrial' || status === 'expiredFreeTrial',
    });
  }
  return application;
}

const needsPlan = (event: string) => ['request', 'renew', 'changePlan'].includes(event);

describe('the lifecycle table over HTTP: every state × every workspace event', () => {
  it.each(situations)('$label', async ({ situation }) => {
    for (const event of workspaceSubscriptionEvents) {
      const application = await seedSituation(workspace.id, situation);
      const before = await storedSubscription(t.db, workspace.id, application.id);
      const response = await postEvent({
        applicationId: application.id,
        event,
        ...(needsPlan(event) ? { plan: 'annually' } : {}),
      });
      const verdict = workspaceTransition(situation, event);
      const after = await storedSubscription(t.db, workspace.id, application.id);
      if (!verdict.allowed) {
        expect(response.status, `${event} → ${response.text}`).toBe(409);
        expect(errorOf(response)).toMatchObject({
          code: 'VALIDATION',
          key: 'event',
          issues: [
            {
              path: 'event',
              message: validationCodes.SUBSCRIPTION_EVENT_REFUSED,
              params: { reason: verdict.reason },
            },
          ],
        });
        expect(after, `${event} refused but wrote`).toEqual(before);
        continue;
      }
      expect(response.status, `${event} → ${response.text}`).toBe(200);
      const summary = dataOf<{ status: SubscriptionState; cancelling: boolean; graceEndsAt: string | null }>(
        response,
      );
      expect(summary.status, event).toBe(verdict.to.status);
      expect(after?.status, event).toBe(verdict.to.status);
      expect(summary.cancelling, event).toBe(verdict.to.cancelling);
      expect(summary.graceEndsAt !== null, `${event}: in grace`).toBe(verdict.to.inGrace);
    }
  });

  it('a few verdicts written out (so the table is not only checked against itself)', async () => {
    const expectations: [SubscriptionSituation, string, number, string | undefined][] = [
      [situationOf(null), 'cancel', 409, 'notSubscribed'],
      [situationOf(null), 'renew', 409, 'notExpired'],
      [situationOf('pending'), 'request', 409, 'alreadyRequested'],
      [situationOf('approved'), 'request', 409, 'alreadySubscribed'],
      [situationOf('approved'), 'startTrial', 409, 'trialAlreadyUsed'],
      [situationOf('expiredFreeTrial'), 'startTrial', 409, 'trialAlreadyUsed'],
      [situationOf('approved', { cancelling: true }), 'cancel', 409, 'alreadyCancelling'],
      [situationOf('approved', { cancelling: true }), 'changePlan', 409, 'alreadyCancelling'],
      [situationOf('rejected'), 'changePlan', 409, 'notSubscribed'],
      [situationOf('expiredSubscription'), 'renew', 200, undefined],
      // Only a payment renews an approved subscription, in grace or not.
      [situationOf('approved'), 'renew', 409, 'notExpired'],
      [situationOf('approved', { inGrace: true }), 'renew', 409, 'notExpired'],
      [situationOf('expiredFreeTrial'), 'request', 200, undefined],
      [situationOf('freeTrial'), 'cancel', 200, undefined],
    ];
    for (const [situation, event, status, reason] of expectations) {
      const application = await seedSituation(workspace.id, situation);
      const response = await postEvent({
        applicationId: application.id,
        event,
        ...(needsPlan(event) ? { plan: 'monthly' } : {}),
      });
      expect(response.status, `${situation.status} ${event}`).toBe(status);
      if (reason) expect(errorOf(response).issues?.[0]?.params).toEqual({ reason });
    }
  });
});

describe('what each workspace event writes', () => {
  const post = (applicationId: string, event: string, plan?: string) =>
    postEvent({ applicationId, event, ...(plan ? { plan } : {}) });

  it('changePlan: a pending request takes the new plan; an approved subscription keeps it for the next period', async () => {
    const pending = await seedSituation(workspace.id, situationOf('pending'));
    expect(dataOf(await post(pending.id, 'changePlan', 'semiannually'))).toMatchObject({
      plan: 'semiannually',
      nextPlan: null,
    });
    const approved = await seedSituation(workspace.id, situationOf('approved'));
    const before = await storedSubscription(t.db, workspace.id, approved.id);
    expect(dataOf(await post(approved.id, 'changePlan', 'annually'))).toMatchObject({
      plan: 'monthly',
      nextPlan: 'annually',
      endDate: before!.endDate!.toISOString(),
    });
    // Back to the current plan: nothing waits any more.
    expect(dataOf(await post(approved.id, 'changePlan', 'monthly'))).toMatchObject({ nextPlan: null });
  });

  it('cancel: an approved subscription ends at its period’s end; a trial ends now; in grace it ends now', async () => {
    const approved = await seedSituation(workspace.id, situationOf('approved'));
    const before = await storedSubscription(t.db, workspace.id, approved.id);
    expect(dataOf(await post(approved.id, 'cancel'))).toMatchObject({
      status: 'approved',
      cancelling: true,
      endDate: before!.endDate!.toISOString(),
    });
    const trial = await seedSituation(workspace.id, situationOf('freeTrial'));
    expect(dataOf(await post(trial.id, 'cancel'))).toMatchObject({
      status: 'expiredFreeTrial',
      endDate: now.toISOString(),
    });
    const graced = await seedSituation(workspace.id, situationOf('approved', { inGrace: true }));
    expect(dataOf(await post(graced.id, 'cancel'))).toMatchObject({
      status: 'expiredSubscription',
      cancelling: false,
      graceEndsAt: null,
    });
  });

  it('renew: a lapsed subscription becomes a new request; an approved one is refused, unchanged (its payment renews it)', async () => {
    const lapsed = await seedSituation(workspace.id, situationOf('expiredSubscription'));
    expect(dataOf(await post(lapsed.id, 'renew', 'quarterly'))).toMatchObject({
      status: 'pending',
      plan: 'quarterly',
      startDate: null,
      endDate: null,
    });
    expect(t.mails.map((mail) => mail.subject)).toEqual([
      `Subscription request received: App ${lapsed.clientId}`,
      `Dukkan subscription request: Subscriber, App ${lapsed.clientId}`,
    ]);
    const approved = await seedSituation(workspace.id, situationOf('approved'));
    const before = await storedSubscription(t.db, workspace.id, approved.id);
    const refused = await post(approved.id, 'renew', 'annually');
    expect(refused.status).toBe(409);
    expect(errorOf(refused).issues?.[0]?.params).toEqual({ reason: 'notExpired' });
    expect(await storedSubscription(t.db, workspace.id, approved.id)).toEqual(before);
  });

  it('a request after a trial keeps the trial used: no second trial', async () => {
    const application = await insertApplication(t.db, { trialDays: 5 });
    await post(application.id, 'startTrial');
    await post(application.id, 'request', 'monthly');
    await rejectSubscription(
      services(),
      (await storedSubscription(t.db, workspace.id, application.id))!.id,
      now,
    );
    const again = await post(application.id, 'startTrial');
    expect(again.status).toBe(409);
    expect(errorOf(again).issues?.[0]?.params).toEqual({ reason: 'trialAlreadyUsed' });
    expect((await storedSubscription(t.db, workspace.id, application.id))?.trialUsed).toBe(true);
  });
});

describe('the operator: list, approve, reject', () => {
  it('approve: the period starts now for the plan’s calendar months, the first invoice is issued, the admins are mailed', async () => {
    const shop = await createWorkspace(t.db, 'Approved shop');
    const owner = await addMember(t.db, shop.id, { isAdmin: true });
    const arabicOwner = await addMember(t.db, shop.id, {
      isAdmin: true,
      user: await createUser(t.db, { language: 'ar' }),
    });
    const application = await insertApplication(t.db, { monthlyPricePerLocation: 25_000 });
    await addLocations(t.db, shop.id, 2);
    const at = new Date('2026-01-31T12:00:00.000Z');
    const { invoice, subscription } = await approvedSubscription(
      services(),
      shop.id,
      application.id,
      'monthly',
      at,
    );
    expect(subscription).toMatchObject({
      status: 'approved',
      startDate: at,
      endDate: new Date('2026-02-28T12:00:00.000Z'),
    });
    expect(invoice).toMatchObject({
      number: 1,
      amount: 50_000,
      currency: 'EGP',
      status: 'pending',
      issuedAt: at,
    });
    const approvedMail = t.mails.find((mail) => mail.subject.includes('is active'));
    expect(approvedMail?.to).toBe(owner.user.email);
    expect(approvedMail?.text).toContain('Sat, Feb 28, 2026');
    expect(approvedMail?.text).toMatch(/EGP\s500\.00/);
    const arabicMail = t.mails.find(
      (mail) => mail.to === arabicOwner.user.email && mail.subject.includes('مفعّل'),
    );
    expect(arabicMail?.subject).toBe(`اشتراكك في ${application.nameAr} مفعّل`);
    expect(arabicMail?.text).toContain('الخطة الشهرية');
    expect(arabicMail?.text).toContain('السبت، ٢٨ فبراير ٢٠٢٦');
    expect(arabicMail?.text).toMatch(/٥٠٠٫٠٠\s?ج\.م\./);
  });

  it('reject: the request is rejected and the admins are told; unknown ids and refused decisions throw typed errors', async () => {
    const application = await insertApplication(t.db);
    await postEvent({ applicationId: application.id, event: 'request', plan: 'monthly' });
    const row = (await storedSubscription(t.db, workspace.id, application.id))!;
    t.mails.length = 0;
    const rejected = await rejectSubscription(services(), row.id, now);
    expect(rejected.subscription.status).toBe('rejected');
    expect(t.mails.map((mail) => mail.subject)).toEqual([
      `Your subscription request for App ${application.clientId}`,
    ]);
    await expect(approveSubscription(services(), row.id, now)).rejects.toMatchObject({
      name: 'SubscriptionCommandError',
      reason: 'refused',
    });
    await expect(
      rejectSubscription(services(), '00000000-0000-4000-8000-000000000000', now),
    ).rejects.toBeInstanceOf(SubscriptionCommandError);
    await expect(approveSubscription(services(), 'nonsense', now)).rejects.toMatchObject({
      reason: 'notFound',
    });
  });

  it('listSubscriptions: every workspace, with its name and the application’s client id, filtered by status', async () => {
    const application = await insertApplication(t.db);
    const other = await createWorkspace(t.db, 'Listed elsewhere');
    await insertSubscription(t.db, other.id, application.id, 'pending', { plan: 'monthly' });
    const all = await listSubscriptions(t.db);
    const listed = all.find((row) => row.workspaceId === other.id);
    expect(listed).toMatchObject({
      workspaceName: 'Listed elsewhere',
      clientId: application.clientId,
      status: 'pending',
      plan: 'monthly',
    });
    const pending = await listSubscriptions(t.db, { status: 'pending' });
    expect(pending.every((row) => row.status === 'pending')).toBe(true);
    expect(pending.map((row) => row.id)).toContain(listed!.id);
    expect((await listSubscriptions(t.db, { status: 'rejected' })).map((row) => row.id)).not.toContain(
      listed!.id,
    );
  });
});

describe('GET /api/payments/upcoming', () => {
  it('the next period’s invoice of each renewing subscription, priced for the active locations and the next plan', async () => {
    const shop = await createWorkspace(t.db, 'Upcoming shop');
    const owner = await addMember(t.db, shop.id, { isAdmin: true });
    await addLocations(t.db, shop.id, 3, 2);
    const discounts = { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2000 };
    const [renewing, changing, cancelled, graced] = await Promise.all(
      [1, 2, 3, 4].map(() => insertApplication(t.db, { monthlyPricePerLocation: 10_000, discounts })),
    );
    const at = new Date('2026-03-01T00:00:00.000Z');
    for (const application of [renewing!, changing!, cancelled!, graced!])
      await approvedSubscription(services(), shop.id, application.id, 'monthly', at);
    const event = (applicationId: string, name: string, plan?: string) =>
      api(t.app, {
        url: `/api/subscriptions/events?workspaceId=${shop.id}`,
        body: { applicationId, event: name, ...(plan ? { plan } : {}) },
        cookie: owner.cookie,
      });
    await event(changing!.id, 'changePlan', 'annually');
    await event(cancelled!.id, 'cancel');
    await t.db
      .update(subscriptions)
      .set({ graceEndsAt: new Date('2026-04-06T00:00:00.000Z') })
      .where(eq(subscriptions.applicationId, graced!.id));
    // Another workspace's renewing subscription is not listed here.
    const other = await createWorkspace(t.db);
    await approvedSubscription(services(), other.id, renewing!.id, 'monthly', at);

    const response = await api(t.app, {
      url: `/api/payments/upcoming?workspaceId=${shop.id}`,
      cookie: owner.cookie,
    });
    const upcoming = dataOf<Record<string, unknown>[]>(response);
    for (const entry of upcoming)
      expect(upcomingPaymentSchema.strict().safeParse(entry).error).toBeUndefined();
    const mine = async (applicationId: string) =>
      (await storedSubscription(t.db, shop.id, applicationId))!.id;
    expect(upcoming.map((entry) => entry.subscriptionId).sort()).toEqual(
      [await mine(renewing!.id), await mine(changing!.id)].sort(),
    );
    const byId = Object.fromEntries(upcoming.map((entry) => [entry.subscriptionId, entry]));
    expect(byId[await mine(renewing!.id)]).toMatchObject({
      amount: 30_000, // 100.00 × 3 active locations × 1 month
      currency: 'EGP',
      dueAt: '2026-04-01T00:00:00.000Z',
      status: 'upcoming',
      details: {
        plan: 'monthly',
        locations: 3,
        periodStart: '2026-04-01T00:00:00.000Z',
        // 02:00 in Cairo on 1 April (UTC+2) → 02:00 on 1 May (UTC+3).
        periodEnd: '2026-04-30T23:00:00.000Z',
      },
    });
    expect(byId[await mine(changing!.id)]).toMatchObject({
      amount: 288_000, // 100.00 × 3 × 12 months × 0.8
      details: { plan: 'annually', discountBasisPoints: 2000, periodEnd: '2027-04-01T00:00:00.000Z' },
    });

    const viewer = await addMember(t.db, shop.id, { tags: ['viewPayments'] });
    expect(
      (await api(t.app, { url: `/api/payments/upcoming?workspaceId=${shop.id}`, cookie: viewer.cookie }))
        .status,
    ).toBe(200);
    // Location writers read it too: their dialogs say how a change moves the next invoice.
    const blind = await addMember(t.db, shop.id, {
      tags: tagsExcept(['viewPayments', 'addLocations', 'editLocations', 'deleteLocations']),
    });
    expect(
      (await api(t.app, { url: `/api/payments/upcoming?workspaceId=${shop.id}`, cookie: blind.cookie }))
        .status,
    ).toBe(403);
    expect(
      (await api(t.app, { url: `/api/payments/upcoming?workspaceId=${shop.id}&x=1`, cookie: owner.cookie }))
        .status,
    ).toBe(400);
  });
});

describe('the engine’s read-only lists in the contract’s shape', () => {
  it('GET subscriptions and payments: the application named in both languages, ISO timestamps, frozen invoice details', async () => {
    const shop = await createWorkspace(t.db, 'Listed shop');
    const owner = await addMember(t.db, shop.id, { isAdmin: true });
    const application = await insertApplication(t.db);
    const at = new Date('2026-02-01T09:30:00.000Z');
    const { subscription, invoice } = await approvedSubscription(
      services(),
      shop.id,
      application.id,
      'quarterly',
      at,
    );
    const listed = dataOf<Record<string, unknown>[]>(
      await api(t.app, { url: `/api/subscriptions?workspaceId=${shop.id}`, cookie: owner.cookie }),
    );
    expect(listed).toHaveLength(1);
    expect(subscriptionRecordSchema.strict().safeParse(listed[0]).error).toBeUndefined();
    expect(listed[0]).toMatchObject({
      id: subscription.id,
      applicationId: application.id,
      application: named(application.nameEn, application.nameAr),
      plan: 'quarterly',
      status: 'approved',
      startDate: '2026-02-01T09:30:00.000Z',
      // 11:30 in Cairo on 1 February (UTC+2) → 11:30 on 1 May (UTC+3).
      endDate: '2026-05-01T08:30:00.000Z',
    });
    const one = dataOf<Record<string, unknown>>(
      await api(t.app, { url: `/api/payments/${invoice!.id}?workspaceId=${shop.id}`, cookie: owner.cookie }),
    );
    expect(paymentRecordSchema.strict().safeParse(one).error).toBeUndefined();
    expect(one).toMatchObject({
      number: 1,
      subscriptionId: subscription.id,
      issuedAt: '2026-02-01T09:30:00.000Z',
      amount: 28_500,
      status: 'pending',
      details: {
        application: named(application.nameEn, application.nameAr),
        plan: 'quarterly',
        periodStart: '2026-02-01T09:30:00.000Z',
        periodEnd: '2026-05-01T08:30:00.000Z',
        locations: 1,
        monthlyPricePerLocation: 10_000,
        discountBasisPoints: 500,
      },
    });
    const filtered = dataOf<unknown[]>(
      await api(t.app, {
        url: `/api/payments?workspaceId=${shop.id}&status=successful`,
        cookie: owner.cookie,
      }),
    );
    expect(filtered).toEqual([]);
  });
});
