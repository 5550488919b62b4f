import type { AddressInfo } from 'node:net';
import { type CheckoutStarted, type PaymentInstructions, validationCodes } from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { asAuditActor } from '../src/db/audit-log.ts';
import { auditLog, locations, paymentEvents, payments } from '../src/db/schema/index.ts';
import { rejectSubscription } from '../src/features/subscriptions/subscriptions.ts';
import { declaredRoutes } from '../src/http/access.ts';
import { api, dataOf, errorOf } from './helpers/api.ts';
import { insertApplication } from './helpers/applications.ts';
import {
  type StandInSession,
  type StripeStandIn,
  standInSecretKey,
  standInWebhookSecret,
  startStripeStandIn,
} from './helpers/stripe-stand-in.ts';
import {
  addLocations,
  invoicesOf,
  storedSubscription,
  subscriptionServices,
} from './helpers/subscriptions.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, tagsExcept } from './helpers/workspaces.ts';

/**
 * Paying a pending invoice through Stripe's hosted checkout (PAYMENT_PROVIDER=stripe, decision
 * 0044), against a local stand-in of Stripe's API that the SDK is pointed at: "Pay now" creates a
 * Checkout Session for the workspace's invoice; the stand-in's page sends the signed webhook, which
 * marks the invoice paid and activates the requested subscription without the operator. Every
 * refused webhook (signature, invoice, workspace, amount, currency, replay) changes nothing.
 */
let t: TestApp;
let stripe: StripeStandIn & { setWebhookUrl(url: string): void };
let workspace: { id: string };
let admin: TestMember;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await createTestApp({
    env: {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: standInSecretKey,
      STRIPE_WEBHOOK_SECRET: standInWebhookSecret,
      STRIPE_API_URL: stripe.url,
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  stripe.setWebhookUrl(
    `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/payments/webhooks/stripe`,
  );
  workspace = await createWorkspace(t.db, 'Paying store');
  admin = await addMember(t.db, workspace.id, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});
beforeEach(() => {
  t.mails.length = 0;
});

const bothNames = (en: string, ar: string) => [
  { locale: 'en', value: en },
  { locale: 'ar', value: ar },
];

/** A subscription requested from the dashboard: with a hosted checkout its first invoice is issued at once. */
async function requested(
  workspaceId = workspace.id,
  cookie = admin.cookie,
  fields: Parameters<typeof insertApplication>[1] = {},
) {
  const application = await insertApplication(t.db, fields);
  const response = await api(t.app, {
    url: `/api/subscriptions/events?workspaceId=${workspaceId}`,
    body: { applicationId: application.id, event: 'request', plan: 'monthly' },
    cookie,
  });
  expect(response.status, response.text).toBe(200);
  const invoice = (await invoicesOf(t.db, workspaceId)).find(
    (row) => row.details.application[0]?.value === application.nameEn,
  )!;
  // The admins' mail says to pay it (the operator's notice is subscriptions.test.ts's).
  const toAdmins = t.mails.filter((mail) => mail.to !== t.config.operatorEmail);
  expect(toAdmins.map((mail) => mail.text).join('\n')).toContain(
    'is waiting: pay it by card from the invoices page and the subscription starts at once.',
  );
  // The request's own mails (to the admins and the operator) are subscriptions.test.ts's.
  t.mails.length = 0;
  return { application, invoice };
}

const startCheckout = (invoiceId: string, cookie?: string, workspaceId = workspace.id) =>
  api(t.app, {
    url: `/api/payments/${invoiceId}/checkout?workspaceId=${workspaceId}`,
    method: 'POST',
    cookie,
  });

/** Starts a checkout for the invoice and answers the stand-in's session. */
async function sessionOf(
  invoiceId: string,
  cookie = admin.cookie,
  workspaceId = workspace.id,
): Promise<StandInSession> {
  const response = await startCheckout(invoiceId, cookie, workspaceId);
  expect(response.status, response.text).toBe(200);
  const { url } = dataOf<CheckoutStarted>(response);
  const session = [...stripe.sessions.values()].find((candidate) => candidate.url === url);
  expect(session, url).toBeDefined();
  return session!;
}

/** Posts a webhook through the app (in process), as the stand-in signed it. */
const deliver = (payload: string, signature?: string) =>
  api(t.app, {
    url: '/api/payments/webhooks/stripe',
    method: 'POST',
    body: payload,
    headers: signature === undefined ? {} : { 'stripe-signature': signature },
  });

const paid = (session: StandInSession) => ({
  object: { status: 'complete' as const, payment_status: 'paid' as const },
  session,
});

/** What a refused webhook must leave as it was. */
async function snapshot(invoiceId: string, applicationId: string) {
  const [invoice] = await t.db.select().from(payments).where(eq(payments.id, invoiceId));
  return {
    invoice,
    subscription: await storedSubscription(t.db, workspace.id, applicationId),
    events: await t.db.select().from(paymentEvents).where(eq(paymentEvents.invoiceId, invoiceId)),
    audit: (await t.db.select().from(auditLog).where(eq(auditLog.workspaceId, workspace.id))).length,
  };
}

describe('Pay now: POST /api/payments/:invoiceId/checkout', () => {
  it('creates a Checkout Session for the pending invoice: its amount, currency, ids and return addresses', async () => {
    const { invoice } = await requested();
    expect(invoice).toMatchObject({ status: 'pending', amount: 10_000, currency: 'EGP' });
    const before = stripe.requests.length;
    const session = await sessionOf(invoice.id);
    expect(stripe.requests.slice(before)).toEqual([
      { method: 'POST', path: '/v1/checkout/sessions', authorized: true },
    ]);
    expect(session).toMatchObject({
      amount_total: 10_000,
      currency: 'egp',
      client_reference_id: invoice.id,
      metadata: { invoiceId: invoice.id, workspaceId: workspace.id },
      status: 'open',
    });
    expect(session.success_url).toBe(
      `${t.config.publicUrl}/payments?workspaceId=${workspace.id}&checkout=paid`,
    );
    expect(session.cancel_url).toBe(
      `${t.config.publicUrl}/payments?workspaceId=${workspace.id}&checkout=cancelled`,
    );
    // A checkout in progress leaves the invoice pending.
    expect((await snapshot(invoice.id, invoice.subscriptionId)).invoice?.status).toBe('pending');
  });

  it('signed out: 401; without the edit permission of payments: 403; another workspace’s invoice: 404', async () => {
    const { invoice } = await requested();
    expect((await startCheckout(invoice.id)).status).toBe(401);
    const viewer = await addMember(t.db, workspace.id, { tags: tagsExcept(['editPayments']) });
    const forbidden = await startCheckout(invoice.id, viewer.cookie);
    expect(forbidden.status).toBe(403);
    expect(errorOf(forbidden).code).toBe('FORBIDDEN');

    const other = await createWorkspace(t.db);
    const stranger = await addMember(t.db, other.id, { isAdmin: true });
    const foreign = await startCheckout(invoice.id, stranger.cookie, other.id);
    expect(foreign.status).toBe(404);
    expect(errorOf(foreign).code).toBe('NOT_FOUND');
    expect((await startCheckout('not-an-id', admin.cookie)).status).toBe(404);
  });

  it('an invoice no longer pending is refused with a translated error, and no session is created', async () => {
    const { invoice } = await requested();
    await t.db.update(payments).set({ status: 'failed' }).where(eq(payments.id, invoice.id));
    const before = stripe.requests.length;
    const refused = await startCheckout(invoice.id, admin.cookie);
    expect(refused.status).toBe(409);
    expect(errorOf(refused).issues).toEqual([
      { path: 'invoiceId', message: validationCodes.INVOICE_NOT_PENDING },
    ]);
    expect(stripe.requests.length).toBe(before);
  });

  it('the instructions name the provider, for the web to offer Pay now', async () => {
    const response = await api(t.app, {
      url: `/api/payments/instructions?workspaceId=${workspace.id}`,
      cookie: admin.cookie,
    });
    expect(dataOf<PaymentInstructions>(response).provider).toBe('stripe');
  });
});

describe('the signed webhook: POST /api/payments/webhooks/stripe', () => {
  it('paid on the hosted page: the invoice is paid, the subscription activated at once, the admins mailed, the provider the actor', async () => {
    const { invoice, application } = await requested();
    expect((await storedSubscription(t.db, workspace.id, application.id))?.status).toBe('pending');
    const session = await sessionOf(invoice.id);

    // The payer on the stand-in's page: its Pay button sends the signed event, then goes back.
    const page = await fetch(session.url);
    expect(await page.text()).toContain('Pay 100.00 EGP');
    const submitted = await fetch(session.url, { method: 'POST', redirect: 'manual' });
    expect(submitted.status, await submitted.text()).toBe(303);
    expect(submitted.headers.get('location')).toBe(session.success_url);

    const after = await snapshot(invoice.id, application.id);
    expect(after.invoice?.status).toBe('successful');
    expect(after.subscription).toMatchObject({ status: 'approved', plan: 'monthly', graceEndsAt: null });
    expect(after.subscription?.startDate).not.toBeNull();
    expect(after.subscription!.endDate!.getTime()).toBeGreaterThan(after.subscription!.startDate!.getTime());
    expect(after.events).toHaveLength(1);
    expect(after.events[0]).toMatchObject({ provider: 'stripe', type: 'checkout.session.completed' });

    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, workspace.id), eq(auditLog.actorKind, 'provider')));
    const ofThis = rows.filter(
      (row) => row.recordId === invoice.id || row.recordId === invoice.subscriptionId,
    );
    expect(ofThis.map((row) => [row.resource, row.action]).sort()).toEqual([
      ['invoices', 'update'],
      ['subscriptions', 'activate'],
    ]);
    expect(ofThis.every((row) => row.actorUserId === null && row.requestId !== null)).toBe(true);

    expect(t.mails.map((mail) => mail.subject)).toEqual([
      `Your subscription to ${application.nameEn} is active`,
    ]);
    expect(t.mails[0]?.text).toContain('The payment of');
  });

  it('a replay of an applied event changes nothing more: no second audit row, no second mail', async () => {
    const { invoice, application } = await requested();
    const session = await sessionOf(invoice.id);
    const event = stripe.signed('checkout.session.completed', session, paid(session));
    const first = await deliver(event.payload, event.signature);
    expect(first.status, first.text).toBe(200);
    const applied = await snapshot(invoice.id, application.id);
    expect(applied.invoice?.status).toBe('successful');
    const mails = t.mails.length;
    expect(mails).toBe(1);

    const replay = await deliver(event.payload, event.signature);
    expect(replay.status).toBe(200);
    expect(replay.json).toEqual({ received: true, replay: true });
    expect(await snapshot(invoice.id, application.id)).toEqual(applied);
    expect(t.mails.length).toBe(mails);

    // A new event for the paid invoice (a failure told after the payment) changes nothing either.
    const late = await deliver(
      ...(Object.values(stripe.signed('checkout.session.async_payment_failed', session)).slice(1) as [
        string,
        string,
      ]),
    );
    expect(late.status).toBe(200);
    expect(await snapshot(invoice.id, application.id)).toEqual(applied);
  });

  it('a wrong, missing or reused signature is refused (401) and changes nothing', async () => {
    const { invoice, application } = await requested();
    const session = await sessionOf(invoice.id);
    const before = await snapshot(invoice.id, application.id);

    const forged = stripe.signed('checkout.session.completed', session, {
      ...paid(session),
      secret: 'whsec_wrong0000000000',
    });
    const wrong = await deliver(forged.payload, forged.signature);
    expect(wrong.status).toBe(401);
    expect(errorOf(wrong).code).toBe('UNAUTHORIZED');

    const unsigned = stripe.signed('checkout.session.completed', session, paid(session));
    expect((await deliver(unsigned.payload)).status).toBe(401);

    // A true signature over another body: the body was changed after signing.
    const other = stripe.signed('checkout.session.completed', session, { object: { amount_total: 1 } });
    expect((await deliver(unsigned.payload, other.signature)).status).toBe(401);

    expect(await snapshot(invoice.id, application.id)).toEqual(before);
    expect(t.mails).toEqual([]);
  });

  it('an unknown invoice, another workspace’s, or a wrong amount or currency: refused (400), nothing changed', async () => {
    const { invoice, application } = await requested();
    const session = await sessionOf(invoice.id);
    const before = await snapshot(invoice.id, application.id);
    const other = await createWorkspace(t.db);
    const cases: [string, Partial<StandInSession>][] = [
      ['notFound', { metadata: { invoiceId: crypto.randomUUID(), workspaceId: workspace.id } }],
      [
        'notFound',
        { metadata: { invoiceId: 'INV-1', workspaceId: workspace.id }, client_reference_id: null },
      ],
      ['notFound', { metadata: { invoiceId: invoice.id, workspaceId: other.id } }],
      ['mismatch', { amount_total: 9_999 }],
      ['mismatch', { currency: 'usd' }],
    ];
    for (const [reason, change] of cases) {
      const event = stripe.signed('checkout.session.completed', session, {
        object: { ...paid(session).object, ...change },
      });
      const refused = await deliver(event.payload, event.signature);
      expect(refused.status, JSON.stringify(change)).toBe(400);
      expect(refused.json).toEqual({ received: false, reason });
    }
    expect(await snapshot(invoice.id, application.id)).toEqual(before);
    expect(t.mails).toEqual([]);
  });

  it("a rejected request's unpaid invoice is no longer due: failed, and Pay now refuses it", async () => {
    const { invoice, application } = await requested();
    const row = (await storedSubscription(t.db, workspace.id, application.id))!;
    // As the operator's command line rejects it.
    await asAuditActor('operator', () =>
      rejectSubscription(
        subscriptionServices(t.db, { send: async (mail) => void t.mails.push(mail), close() {} }),
        row.id,
        new Date(),
      ),
    );
    const after = await snapshot(invoice.id, application.id);
    expect(after.subscription?.status).toBe('rejected');
    expect(after.invoice?.status).toBe('failed');
    const [audited] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.recordId, invoice.id), eq(auditLog.resource, 'invoices')));
    expect(audited).toMatchObject({ actorKind: 'operator', changes: { status: ['pending', 'failed'] } });
    const refused = await startCheckout(invoice.id, admin.cookie);
    expect(refused.status).toBe(409);
    expect(errorOf(refused).issues).toEqual([
      { path: 'invoiceId', message: validationCodes.INVOICE_NOT_PENDING },
    ]);
  });

  it('an abandoned checkout that expires leaves the invoice pending, and Pay now starts another', async () => {
    const { invoice, application } = await requested();
    const session = await sessionOf(invoice.id);
    const before = await snapshot(invoice.id, application.id);
    const event = stripe.signed('checkout.session.expired', session, { object: { status: 'expired' } });
    expect((await deliver(event.payload, event.signature)).status).toBe(200);
    expect(await snapshot(invoice.id, application.id)).toEqual(before);
    expect(before.invoice?.status).toBe('pending');
    const again = await sessionOf(invoice.id);
    expect(again.url).not.toBe(session.url);
  });

  it('an asynchronous payment that fails marks the invoice failed, as the provider; the subscription still waits', async () => {
    const { invoice, application } = await requested();
    const session = await sessionOf(invoice.id);
    const event = stripe.signed('checkout.session.async_payment_failed', session);
    expect((await deliver(event.payload, event.signature)).status).toBe(200);
    const after = await snapshot(invoice.id, application.id);
    expect(after.invoice?.status).toBe('failed');
    expect(after.subscription?.status).toBe('pending');
    const [row] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.recordId, invoice.id), eq(auditLog.actorKind, 'provider')));
    expect(row?.changes).toEqual({ status: ['pending', 'failed'] });
  });

  it('a completed checkout still waiting for an asynchronous payment leaves the invoice pending', async () => {
    const { invoice, application } = await requested();
    const session = await sessionOf(invoice.id);
    const before = await snapshot(invoice.id, application.id);
    const event = stripe.signed('checkout.session.completed', session, { object: { status: 'complete' } });
    expect((await deliver(event.payload, event.signature)).status).toBe(200);
    expect(await snapshot(invoice.id, application.id)).toEqual(before);
  });

  it('is public to the provider, outside the origin check; Pay now needs a session', () => {
    const routes = declaredRoutes(t.app).map((route) => [`${route.method} ${route.url}`, route.access.kind]);
    expect(routes).toContainEqual(['POST /api/payments/webhooks/stripe', 'public']);
    expect(routes).toContainEqual(['POST /api/payments/:invoiceId/checkout', 'permission']);
  });
});

describe("a pending request's first invoice follows its plan and locations", () => {
  const changePlan = (
    applicationId: string,
    plan: string,
    workspaceId = workspace.id,
    cookie = admin.cookie,
  ) =>
    api(t.app, {
      url: `/api/subscriptions/events?workspaceId=${workspaceId}`,
      body: { applicationId, event: 'changePlan', plan },
      cookie,
    });
  const invoiceRow = async (id: string) => (await t.db.select().from(payments).where(eq(payments.id, id)))[0];

  it('a change of plan voids the unpaid invoice and issues the next number for the new plan; Pay now charges that one', async () => {
    const { invoice, application } = await requested();
    expect(invoice).toMatchObject({ status: 'pending', amount: 10_000 });
    expect(invoice.details.plan).toBe('monthly');
    const changed = await changePlan(application.id, 'quarterly');
    expect(changed.status, changed.text).toBe(200);

    const mine = (await invoicesOf(t.db, workspace.id)).filter(
      (row) => row.subscriptionId === invoice.subscriptionId,
    );
    expect(mine.map((row) => [row.number, row.status, row.details.plan, row.amount])).toEqual([
      [invoice.number, 'failed', 'monthly', 10_000],
      // Three months of 100.00 less the quarterly 5 %.
      [invoice.number + 1, 'pending', 'quarterly', 28_500],
    ]);
    const [voided] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.recordId, invoice.id), eq(auditLog.resource, 'invoices')));
    expect(voided?.changes).toEqual({ status: ['pending', 'failed'] });
    expect(await storedSubscription(t.db, workspace.id, application.id)).toMatchObject({
      status: 'pending',
      plan: 'quarterly',
    });

    const refused = await startCheckout(invoice.id, admin.cookie);
    expect(refused.status).toBe(409);
    expect(errorOf(refused).issues).toEqual([
      { path: 'invoiceId', message: validationCodes.INVOICE_NOT_PENDING },
    ]);
    const session = await sessionOf(mine[1]!.id);
    expect(session).toMatchObject({ amount_total: 28_500, metadata: { invoiceId: mine[1]!.id } });

    // Changing back issues another: the request is always priced as it stands.
    expect((await changePlan(application.id, 'monthly')).status).toBe(200);
    expect((await invoiceRow(mine[1]!.id))?.status).toBe('failed');
    // The same plan again changes nothing.
    const count = (await invoicesOf(t.db, workspace.id)).length;
    expect((await changePlan(application.id, 'monthly')).status).toBe(200);
    expect((await invoicesOf(t.db, workspace.id)).length).toBe(count);
  });

  it("a checkout opened for the old invoice settles only the old one: recorded, nothing activated; the new invoice's amount is its own", async () => {
    const { invoice, application } = await requested();
    const old = await sessionOf(invoice.id);
    expect((await changePlan(application.id, 'annually')).status).toBe(200);
    const current = (await invoicesOf(t.db, workspace.id)).find(
      (row) => row.subscriptionId === invoice.subscriptionId && row.status === 'pending',
    )!;
    expect(current.amount).toBe(96_000);

    // The old session's amount, sent for the new invoice: refused as a mismatch, nothing changed.
    const forged = stripe.signed('checkout.session.completed', old, {
      object: { ...paid(old).object, metadata: { invoiceId: current.id, workspaceId: workspace.id } },
    });
    const refused = await deliver(forged.payload, forged.signature);
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ received: false, reason: 'mismatch' });
    expect((await invoiceRow(current.id))?.status).toBe('pending');

    // The payer finishes the old page: the money is recorded on the old invoice, the request still
    // waits for its current one (the operator refunds the old payment).
    const submitted = await fetch(old.url, { method: 'POST', redirect: 'manual' });
    expect(submitted.status, await submitted.text()).toBe(303);
    expect((await invoiceRow(invoice.id))?.status).toBe('successful');
    expect((await invoiceRow(current.id))?.status).toBe('pending');
    expect(await storedSubscription(t.db, workspace.id, application.id)).toMatchObject({
      status: 'pending',
      plan: 'annually',
      startDate: null,
    });
    expect(t.mails).toEqual([]);

    // Paying the current invoice activates the request on its plan.
    const now = await sessionOf(current.id);
    expect((await fetch(now.url, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    expect(await storedSubscription(t.db, workspace.id, application.id)).toMatchObject({
      status: 'approved',
      plan: 'annually',
    });
  });

  it('a location created or deleted while the request waits: its invoice follows at once, the next number for today’s locations', async () => {
    const store = await createWorkspace(t.db, 'Growing store');
    const owner = await addMember(t.db, store.id, { isAdmin: true });
    await addLocations(t.db, store.id, 1);
    const { invoice } = await requested(store.id, owner.cookie);
    expect(invoice).toMatchObject({ amount: 10_000, details: expect.objectContaining({ locations: 1 }) });

    const brand = await api(t.app, {
      url: `/api/brands?workspaceId=${store.id}`,
      body: { name: bothNames('Second brand', 'العلامة الثانية') },
      cookie: owner.cookie,
    });
    expect(brand.status, brand.text).toBe(201);
    const created = await api(t.app, {
      url: `/api/locations?workspaceId=${store.id}`,
      body: {
        name: bothNames('Second branch', 'الفرع الثاني'),
        brandId: dataOf<{ id: string }>(brand).id,
        phones: [{ label: 'Main', number: '+201000000002' }],
      },
      cookie: owner.cookie,
    });
    expect(created.status, created.text).toBe(201);
    const summary = (rows: Awaited<ReturnType<typeof invoicesOf>>) =>
      rows.map((row) => [row.number, row.status, row.details.locations, row.amount]);
    expect(summary(await invoicesOf(t.db, store.id))).toEqual([
      [invoice.number, 'failed', 1, 10_000],
      [invoice.number + 1, 'pending', 2, 20_000],
    ]);
    const [, current] = await invoicesOf(t.db, store.id);
    expect(await sessionOf(current!.id, owner.cookie, store.id)).toMatchObject({
      amount_total: 20_000,
      metadata: { invoiceId: current!.id },
    });

    const deleted = await api(t.app, {
      url: `/api/locations/${dataOf<{ id: string }>(created).id}?workspaceId=${store.id}`,
      method: 'DELETE',
      cookie: owner.cookie,
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(summary(await invoicesOf(t.db, store.id)).slice(1)).toEqual([
      [invoice.number + 1, 'failed', 2, 20_000],
      [invoice.number + 2, 'pending', 1, 10_000],
    ]);
    // A change of name changes no count: no new invoice.
    const count = (await invoicesOf(t.db, store.id)).length;
    const [kept] = await t.db.select().from(locations).where(eq(locations.workspaceId, store.id));
    const renamed = await api(t.app, {
      url: `/api/locations/${kept!.id}?workspaceId=${store.id}`,
      method: 'PATCH',
      body: { name: bothNames('First branch', 'الفرع الأول') },
      cookie: owner.cookie,
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await invoicesOf(t.db, store.id)).length).toBe(count);
  });

  it('a count changed behind the hooks (a location enabled in the database): Pay now reissues before charging', async () => {
    const store = await createWorkspace(t.db, 'Quiet store');
    const owner = await addMember(t.db, store.id, { isAdmin: true });
    await addLocations(t.db, store.id, 1, 1);
    const { invoice } = await requested(store.id, owner.cookie);
    expect(invoice.details.locations).toBe(1);
    await t.db.update(locations).set({ status: 'active' }).where(eq(locations.workspaceId, store.id));

    const session = await sessionOf(invoice.id, owner.cookie, store.id);
    const [voided, current] = await invoicesOf(t.db, store.id);
    expect(voided).toMatchObject({ id: invoice.id, status: 'failed' });
    expect(current).toMatchObject({ number: invoice.number + 1, status: 'pending', amount: 20_000 });
    expect(session).toMatchObject({ amount_total: 20_000, metadata: { invoiceId: current!.id } });
    // Nothing changed since: Pay now charges the same invoice again, no new number.
    const again = await sessionOf(current!.id, owner.cookie, store.id);
    expect(again.metadata.invoiceId).toBe(current!.id);
    expect((await invoicesOf(t.db, store.id)).length).toBe(2);
  });
});

describe("amounts in Stripe's unit of each currency", () => {
  it('a three-decimal amount not ending in 0 is refused with a translated error before anything is sent', async () => {
    const { invoice } = await requested(workspace.id, admin.cookie, {
      currency: 'KWD',
      monthlyPricePerLocation: 5_125,
    });
    expect(invoice).toMatchObject({ amount: 5_125, currency: 'KWD', status: 'pending' });
    const before = stripe.requests.length;
    const refused = await startCheckout(invoice.id, admin.cookie);
    expect(refused.status).toBe(422);
    expect(errorOf(refused).issues).toEqual([
      {
        path: 'invoiceId',
        message: validationCodes.CHECKOUT_AMOUNT_UNSUPPORTED,
        params: { currency: 'KWD', step: 0.01 },
      },
    ]);
    expect(stripe.requests.length).toBe(before);
    expect((await t.db.select().from(payments).where(eq(payments.id, invoice.id)))[0]?.status).toBe(
      'pending',
    );
  });

  it('KWD 5.120 is sent as 5120 thousandths; HUF 1,500 as 150000, and its payment read back settles the invoice', async () => {
    const kwd = await requested(workspace.id, admin.cookie, {
      currency: 'KWD',
      monthlyPricePerLocation: 5_120,
    });
    expect(await sessionOf(kwd.invoice.id)).toMatchObject({ amount_total: 5_120, currency: 'kwd' });

    const huf = await requested(workspace.id, admin.cookie, {
      currency: 'HUF',
      monthlyPricePerLocation: 1_500,
    });
    expect(huf.invoice).toMatchObject({ amount: 1_500, currency: 'HUF' });
    const session = await sessionOf(huf.invoice.id);
    expect(session).toMatchObject({ amount_total: 150_000, currency: 'huf' });
    const event = stripe.signed('checkout.session.completed', session, paid(session));
    const settled = await deliver(event.payload, event.signature);
    expect(settled.status, settled.text).toBe(200);
    expect((await storedSubscription(t.db, workspace.id, huf.application.id))?.status).toBe('approved');
  });
});

describe('the configuration', () => {
  it('stripe needs its secret key and the webhook’s signing secret; the API address is optional', () => {
    const base = { PAYMENT_PROVIDER: 'stripe' };
    expect(() => loadConfig(base)).toThrow(
      new ConfigError('Invalid configuration: STRIPE_SECRET_KEY must be set when PAYMENT_PROVIDER is stripe'),
    );
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: standInSecretKey })).toThrow(
      /STRIPE_WEBHOOK_SECRET must be set/,
    );
    expect(() =>
      loadConfig({ ...base, STRIPE_SECRET_KEY: 'pk_test_1', STRIPE_WEBHOOK_SECRET: standInWebhookSecret }),
    ).toThrow(/STRIPE_SECRET_KEY must be a Stripe secret key .*\(got "\[hidden\]"\)/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'paypal' })).toThrow(
      /PAYMENT_PROVIDER must be bank-transfer or stripe/,
    );
    const config = loadConfig({
      ...base,
      STRIPE_SECRET_KEY: standInSecretKey,
      STRIPE_WEBHOOK_SECRET: standInWebhookSecret,
      STRIPE_API_URL: 'http://127.0.0.1:12111',
    });
    expect(config.payments).toEqual({
      provider: 'stripe',
      secretKey: standInSecretKey,
      webhookSecret: standInWebhookSecret,
      api: { host: '127.0.0.1', port: 12111, protocol: 'http' },
    });
    expect(loadConfig({}).payments).toEqual({ provider: 'bank-transfer' });
  });
});
