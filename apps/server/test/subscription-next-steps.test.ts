import {
  type DashboardApplication,
  type DashboardMeta,
  type DuePayment,
  duePaymentSchema,
  nextInvoiceChange,
  type PlanLength,
  planLengths,
  type UpcomingPayment,
  type UpcomingPaymentsMeta,
} from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscriptions } from '../src/db/schema/index.ts';
import { invoiceDraft } from '../src/features/subscriptions/invoices.ts';
import { runSubscriptionClock } from '../src/features/subscriptions/subscription-clock.ts';
import type { ApplicationRow } from '../src/features/subscriptions/subscription-periods.ts';
import { recordPayment } from '../src/features/subscriptions/subscriptions.ts';
import { api, createUser, dataOf, errorOf } from './helpers/api.ts';
import { insertApplication } from './helpers/applications.ts';
import {
  addLocations,
  approvedSubscription,
  invoicesOf,
  subscriptionServices,
} from './helpers/subscriptions.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, tagsExcept } from './helpers/workspaces.ts';

/**
 * What each subscription status says happens next, from the server's side: the operator told of a
 * request, the invoices waiting for payment with the day they are due by, the operator's review
 * delay and grace on the dashboard, and the next invoice a change of locations moves — the notice
 * the location dialogs show is the amount the invoice is then issued with.
 */
let t: TestApp;
const now = new Date('2026-03-10T08:00:00.000Z');
const operatorEmail = 'operator@platform.example';

beforeAll(async () => {
  t = await createTestApp({
    now: () => now,
    env: { OPERATOR_EMAIL: operatorEmail, SUBSCRIPTION_REVIEW_HOURS: '48', SUBSCRIPTION_GRACE_DAYS: '7' },
  });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  t.mails.length = 0;
});

const services = () =>
  subscriptionServices(t.db, { send: async (mail) => void t.mails.push(mail), close() {} });

const get = (url: string, cookie?: string) => api(t.app, { url, cookie });

function postEvent(workspaceId: string, cookie: string, body: Record<string, unknown>) {
  return api(t.app, { url: `/api/subscriptions/events?workspaceId=${workspaceId}`, body, cookie });
}

describe('a subscription request tells the operator', () => {
  it('in English whatever the requester’s language: the workspace, the application, the plan, the first invoice and the commands', async () => {
    const shop = await createWorkspace(t.db, 'Corner Bakery');
    const admin = await addMember(t.db, shop.id, {
      isAdmin: true,
      user: await createUser(t.db, { language: 'ar' }),
    });
    await addLocations(t.db, shop.id, 3);
    const application = await insertApplication(t.db, { monthlyPricePerLocation: 47_500 });
    const response = await postEvent(shop.id, admin.cookie, {
      applicationId: application.id,
      event: 'request',
      plan: 'quarterly',
    });
    expect(response.status, response.text).toBe(200);
    const subscriptionId = dataOf<{ id: string }>(response).id;
    // The admin in their language, as before; the operator in English.
    expect(t.mails.map((mail) => mail.to)).toEqual([admin.user.email, operatorEmail]);
    const notice = t.mails[1]!;
    expect(notice.subject).toBe(`Dukkan subscription request: Corner Bakery, App ${application.clientId}`);
    for (const line of [
      `Workspace: Corner Bakery (${shop.id})`,
      `Application: App ${application.clientId} (${application.clientId})`,
      'Plan: quarterly',
      'Active locations: 3',
      // 475.00 × 3 locations × 3 months × 0.95: the invoices' own pricing.
      "First invoice at today's prices: EGP 4,061.25",
      `npm run dukkan -- approve-subscription ${subscriptionId}`,
      `npm run dukkan -- reject-subscription ${subscriptionId}`,
    ])
      expect(notice.text.replace(/\u00a0/g, ' ')).toContain(line);
  });

  it('in Arabic when the operator’s address is an account that chose Arabic, whatever the requester’s language', async () => {
    const arabicOperator = 'operator-ar@platform.example';
    const local = await createTestApp({ now: () => now, env: { OPERATOR_EMAIL: arabicOperator } });
    try {
      await createUser(local.db, { email: arabicOperator, language: 'ar' });
      const shop = await createWorkspace(local.db, 'مخبز الزاوية');
      const admin = await addMember(local.db, shop.id, {
        isAdmin: true,
        user: await createUser(local.db, { language: 'en' }),
      });
      await addLocations(local.db, shop.id, 3);
      const application = await insertApplication(local.db, { monthlyPricePerLocation: 47_500 });
      const response = await api(local.app, {
        url: `/api/subscriptions/events?workspaceId=${shop.id}`,
        body: { applicationId: application.id, event: 'request', plan: 'quarterly' },
        cookie: admin.cookie,
      });
      expect(response.status, response.text).toBe(200);
      const subscriptionId = dataOf<{ id: string }>(response).id;
      expect(local.mails.map((mail) => mail.to)).toEqual([admin.user.email, arabicOperator]);
      // The admin keeps their English; the operator reads Arabic, right to left.
      expect(local.mails[0]!.subject).toContain('Subscription request received');
      const notice = local.mails[1]!;
      expect(notice.subject).toBe(`طلب اشتراك في دكّان: مخبز الزاوية، تطبيق ${application.clientId}`);
      expect(notice.html).toContain('dir="rtl"');
      const text = notice.text.replace(/[\u00a0\u200f\u061c]/g, ' ');
      for (const line of [
        `مساحة العمل: مخبز الزاوية (${shop.id})`,
        `التطبيق: تطبيق ${application.clientId} (${application.clientId})`,
        'الخطة: الربع سنوية',
        'الفروع النشطة: ٣',
        // The same invoice as in English, 4,061.25, in Arabic-Indic digits.
        'الفاتورة الأولى بأسعار اليوم:  ٤٬٠٦١٫٢٥ ج.م.',
        `npm run dukkan -- approve-subscription ${subscriptionId}`,
        `npm run dukkan -- reject-subscription ${subscriptionId}`,
      ])
        expect(text).toContain(line);
    } finally {
      await local.close();
    }
  });

  it('for a lapsed subscription renewed (a new request), not for the workspace’s other events', async () => {
    const shop = await createWorkspace(t.db);
    const admin = await addMember(t.db, shop.id, { isAdmin: true });
    const application = await insertApplication(t.db);
    await postEvent(shop.id, admin.cookie, { applicationId: application.id, event: 'startTrial' });
    expect(t.mails.map((mail) => mail.to)).not.toContain(operatorEmail);
    await t.db
      .update(subscriptions)
      .set({ status: 'expiredSubscription', plan: 'monthly' })
      .where(eq(subscriptions.applicationId, application.id));
    t.mails.length = 0;
    const renewed = await postEvent(shop.id, admin.cookie, {
      applicationId: application.id,
      event: 'renew',
      plan: 'monthly',
    });
    expect(renewed.status, renewed.text).toBe(200);
    expect(t.mails.filter((mail) => mail.to === operatorEmail)).toHaveLength(1);
  });

  it('not when the request is refused (nothing is mailed)', async () => {
    const shop = await createWorkspace(t.db);
    const admin = await addMember(t.db, shop.id, { isAdmin: true });
    const application = await insertApplication(t.db);
    const body = { applicationId: application.id, event: 'request', plan: 'monthly' };
    await postEvent(shop.id, admin.cookie, body);
    t.mails.length = 0;
    expect((await postEvent(shop.id, admin.cookie, body)).status).toBe(409);
    expect(t.mails).toEqual([]);
  });
});

/** A workspace with an admin, 2 active locations and two approved monthly subscriptions (1 and 15 February). */
async function billedShop() {
  const shop = await createWorkspace(t.db);
  const admin = await addMember(t.db, shop.id, { isAdmin: true });
  await addLocations(t.db, shop.id, 2, 1);
  const graced = await insertApplication(t.db, { monthlyPricePerLocation: 10_000 });
  const current = await insertApplication(t.db, { monthlyPricePerLocation: 20_000 });
  const start = new Date('2026-02-01T10:00:00.000Z');
  await approvedSubscription(services(), shop.id, graced.id, 'monthly', start);
  await approvedSubscription(
    services(),
    shop.id,
    current.id,
    'monthly',
    new Date('2026-02-15T10:00:00.000Z'),
  );
  // `graced` lapses into its grace: its next period's invoice is issued, due by the grace's end.
  await t.db
    .update(subscriptions)
    .set({ endDate: new Date('2026-03-01T10:00:00.000Z') })
    .where(eq(subscriptions.applicationId, graced.id));
  await runSubscriptionClock({ ...services(), graceDays: 7 }, new Date('2026-03-01T10:00:00.000Z'));
  return { shop, admin, graced, current };
}

describe('GET /api/payments/due', () => {
  it('the invoices waiting for payment, newest first; the one a subscription in grace waits for is due by the grace’s end', async () => {
    const { shop, admin, graced } = await billedShop();
    const response = await get(`/api/payments/due?workspaceId=${shop.id}`, admin.cookie);
    expect(response.status, response.text).toBe(200);
    const due = dataOf<DuePayment[]>(response);
    for (const entry of due) expect(duePaymentSchema.strict().safeParse(entry).error).toBeUndefined();
    const invoices = await invoicesOf(t.db, shop.id);
    expect(due.map((entry) => entry.number)).toEqual([3, 2, 1]);
    const [next, ...first] = due;
    expect(next).toMatchObject({
      invoiceId: invoices[2]!.id,
      amount: 20_000, // 100.00 × 2 active locations
      currency: 'EGP',
      // 7 calendar days after the period's end, in the workspace's time zone.
      dueBy: '2026-03-08T10:00:00.000Z',
      // The month it pays for; once paid, the invoice after it is issued then.
      periodEnd: '2026-04-01T10:00:00.000Z',
    });
    expect(next!.periodEnd).toBe(invoices[2]!.details.periodEnd);
    expect(next!.application).toEqual([
      { locale: 'en', value: `App ${graced.clientId}` },
      { locale: 'ar', value: `تطبيق ${graced.clientId}` },
    ]);
    // The first periods' invoices: nothing ends if they wait.
    expect(first.map((entry) => entry.dueBy)).toEqual([null, null]);
  });

  it('a paid invoice is no longer due', async () => {
    const { shop, admin } = await billedShop();
    const [first] = await invoicesOf(t.db, shop.id);
    await recordPayment({ db: t.db }, { invoiceId: first!.id, status: 'successful' }, now);
    const due = dataOf<DuePayment[]>(await get(`/api/payments/due?workspaceId=${shop.id}`, admin.cookie));
    expect(due.map((entry) => entry.invoiceId)).not.toContain(first!.id);
    expect(due).toHaveLength(2);
  });

  it('signed out: 401; without viewPayments: 403; a bad query: 400; another workspace’s id: 403 and nothing of it', async () => {
    const { shop } = await billedShop();
    const url = `/api/payments/due?workspaceId=${shop.id}`;
    expect((await get(url)).status).toBe(401);
    const blind = await addMember(t.db, shop.id, { tags: tagsExcept(['viewPayments']) });
    const refused = await get(url, blind.cookie);
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('FORBIDDEN');
    const viewer = await addMember(t.db, shop.id, { tags: ['viewPayments'] });
    expect(dataOf<DuePayment[]>(await get(url, viewer.cookie))).toHaveLength(3);
    const bad = await get(`${url}&x=1`, viewer.cookie);
    expect(bad.status).toBe(400);
    expect(errorOf(bad).code).toBe('VALIDATION');
    // An admin of another workspace names this one: refused, nothing of it answered.
    const other = await createWorkspace(t.db);
    const stranger = await addMember(t.db, other.id, { isAdmin: true });
    const foreign = await get(url, stranger.cookie);
    expect(foreign.status).toBe(403);
    expect(foreign.text).not.toContain('"invoiceId"');
    // Their own workspace owes nothing.
    expect(
      dataOf<DuePayment[]>(await get(`/api/payments/due?workspaceId=${other.id}`, stranger.cookie)),
    ).toEqual([]);
  });
});

describe('GET /api/applications: what the cards say next', () => {
  it('the operator’s review delay and grace in meta; each subscription’s invoice waiting for payment', async () => {
    const { shop, admin, graced, current } = await billedShop();
    const answer = await get(`/api/applications?workspaceId=${shop.id}`, admin.cookie);
    expect(answer.status, answer.text).toBe(200);
    const body = JSON.parse(answer.text) as { data: DashboardApplication[]; meta: DashboardMeta };
    expect(body.meta).toEqual({ activeLocations: 2, reviewHours: 48, graceDays: 7 });
    const card = (id: string) => body.data.find((application) => application.id === id)!;
    expect(card(graced.id).duePayment).toMatchObject({
      number: 3,
      dueBy: '2026-03-08T10:00:00.000Z',
      periodEnd: '2026-04-01T10:00:00.000Z',
    });
    expect(card(current.id).duePayment).toMatchObject({ number: 2, dueBy: null });
    const untouched = body.data.filter((application) => application.subscription === null);
    expect(untouched.every((application) => application.duePayment === null)).toBe(true);
  });

  it('without a configured delay the meta says none', async () => {
    const bare = await createTestApp({ now: () => now });
    try {
      const shop = await createWorkspace(bare.db);
      const admin = await addMember(bare.db, shop.id, { isAdmin: true });
      const body = JSON.parse(
        (await api(bare.app, { url: `/api/applications?workspaceId=${shop.id}`, cookie: admin.cookie })).text,
      ) as { meta: DashboardMeta };
      expect(body.meta).toEqual({ activeLocations: 0, reviewHours: null, graceDays: 5 });
    } finally {
      await bare.close();
    }
  });
});

describe('the next invoice a change of locations moves', () => {
  const basisArbitrary = fc.record({
    monthlyPricePerLocation: fc.integer({ min: 0, max: 10_000_000 }),
    discountBasisPoints: fc.integer({ min: 0, max: 10_000 }),
    plan: fc.constantFrom(...planLengths),
  });

  it('the notice equals the amount the invoice code issues before and after the change (property)', () => {
    const periodStart = new Date('2026-04-01T00:00:00.000Z');
    fc.assert(
      fc.property(
        basisArbitrary,
        fc.integer({ min: 0, max: 5_000 }),
        fc.constantFrom(1, -1),
        ({ monthlyPricePerLocation, discountBasisPoints, plan }, activeLocations, change) => {
          fc.pre(activeLocations + change >= 0);
          const application = {
            nameEn: 'App',
            nameAr: 'تطبيق',
            currency: 'EGP',
            monthlyPricePerLocation,
            discounts: Object.fromEntries(planLengths.map((length) => [length, discountBasisPoints])),
          } as unknown as ApplicationRow;
          const period = { application, plan: plan as PlanLength, periodStart, periodEnd: periodStart };
          const notice = nextInvoiceChange(
            { monthlyPricePerLocation, discountBasisPoints, plan },
            activeLocations,
            change,
          );
          expect(notice.before).toBe(invoiceDraft(period, activeLocations).amount);
          expect(notice.after).toBe(invoiceDraft(period, activeLocations + change).amount);
        },
      ),
      { numRuns: 500, seed: 38 },
    );
  });

  it('over HTTP: the notice computed from GET payments/upcoming is the invoice the period’s end then issues', async () => {
    const shop = await createWorkspace(t.db);
    const admin = await addMember(t.db, shop.id, { isAdmin: true });
    await addLocations(t.db, shop.id, 2);
    const application = await insertApplication(t.db, {
      monthlyPricePerLocation: 47_500,
      discounts: { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2000 },
    });
    const start = new Date('2026-02-01T10:00:00.000Z');
    await approvedSubscription(services(), shop.id, application.id, 'quarterly', start);

    // A member who may add locations but not read invoices reads what the notice is computed from.
    const locationKeeper = await addMember(t.db, shop.id, { tags: ['viewLocations', 'addLocations'] });
    const upcoming = await get(`/api/payments/upcoming?workspaceId=${shop.id}`, locationKeeper.cookie);
    expect(upcoming.status, upcoming.text).toBe(200);
    const { data, meta } = JSON.parse(upcoming.text) as {
      data: UpcomingPayment[];
      meta: UpcomingPaymentsMeta;
    };
    expect(meta).toEqual({ activeLocations: 2, graceDays: 7 });
    const [next] = data;
    const notice = nextInvoiceChange(
      {
        monthlyPricePerLocation: next!.details.monthlyPricePerLocation,
        discountBasisPoints: next!.details.discountBasisPoints,
        plan: next!.details.plan,
      },
      meta.activeLocations,
      1,
    );
    // The figures: EGP 2,707.50 for 2 locations becomes EGP 4,061.25 with a third.
    expect(notice).toEqual({ before: next!.amount, after: 406_125 });
    expect(next!.amount).toBe(270_750);

    // The location is created; at the period's end the invoice is issued with the notice's amount.
    const brand = await api(t.app, {
      url: `/api/brands?workspaceId=${shop.id}`,
      body: {
        name: [
          { locale: 'en', value: 'Third brand' },
          { locale: 'ar', value: 'العلامة الثالثة' },
        ],
      },
      cookie: admin.cookie,
    });
    expect(brand.status, brand.text).toBe(201);
    const created = await api(t.app, {
      url: `/api/locations?workspaceId=${shop.id}`,
      body: {
        name: [
          { locale: 'en', value: 'Third branch' },
          { locale: 'ar', value: 'الفرع الثالث' },
        ],
        brandId: dataOf<{ id: string }>(brand).id,
        phones: [{ label: 'Main', number: '+201000000003' }],
      },
      cookie: admin.cookie,
    });
    expect(created.status, created.text).toBe(201);
    await runSubscriptionClock({ ...services(), graceDays: 7 }, new Date(next!.dueAt));
    const issued = (await invoicesOf(t.db, shop.id)).at(-1)!;
    expect(issued.details.periodStart).toBe(next!.dueAt);
    expect(issued.amount).toBe(notice.after);
  });

  it('in its grace, the notice is of the invoice after the one due: paid, the next period’s end issues it with the notice’s amount', async () => {
    // `graced` is in its grace since 1 March (its invoice for March due by the 8th), `current`
    // renews on 15 March; 2 active locations.
    const { shop, admin, graced } = await billedShop();
    const subscription = (
      await t.db.select().from(subscriptions).where(eq(subscriptions.applicationId, graced.id))
    )[0]!;
    expect(subscription.graceEndsAt).not.toBeNull();
    const upcoming = await get(`/api/payments/upcoming?workspaceId=${shop.id}`, admin.cookie);
    const { data, meta } = JSON.parse(upcoming.text) as {
      data: UpcomingPayment[];
      meta: UpcomingPaymentsMeta;
    };
    expect(data.map((entry) => entry.dueAt)).toEqual([
      '2026-03-15T10:00:00.000Z',
      '2026-04-01T10:00:00.000Z',
    ]);
    const next = data.find((entry) => entry.subscriptionId === subscription.id)!;
    // The invoice after March's: April, on the same plan, for today's 2 locations.
    expect(next).toMatchObject({
      amount: 20_000,
      details: expect.objectContaining({
        plan: 'monthly',
        locations: 2,
        periodStart: '2026-04-01T10:00:00.000Z',
      }),
    });
    const notice = nextInvoiceChange(
      {
        monthlyPricePerLocation: next.details.monthlyPricePerLocation,
        discountBasisPoints: next.details.discountBasisPoints,
        plan: next.details.plan,
      },
      meta.activeLocations,
      1,
    );
    expect(notice).toEqual({ before: 20_000, after: 30_000 });

    // A third location, then March's invoice paid within the grace: April's is issued with the notice's amount.
    await addLocations(t.db, shop.id, 1);
    const due = (await invoicesOf(t.db, shop.id)).find(
      (invoice) =>
        invoice.subscriptionId === subscription.id &&
        invoice.details.periodStart === '2026-03-01T10:00:00.000Z',
    )!;
    expect(due.status).toBe('pending');
    // The notice names it: this invoice comes only once that one is paid.
    expect(next.afterInvoice).toBe(due.number);
    await recordPayment(
      services(),
      { invoiceId: due.id, status: 'successful' },
      new Date('2026-03-05T10:00:00.000Z'),
    );
    await runSubscriptionClock({ ...services(), graceDays: 7 }, new Date(next.dueAt));
    const issued = (await invoicesOf(t.db, shop.id))
      .filter((invoice) => invoice.subscriptionId === subscription.id)
      .at(-1)!;
    expect(issued.details.periodStart).toBe(next.dueAt);
    expect(issued.amount).toBe(notice.after);
  });

  it('a grace that ended unpaid, or a subscription ending, has no next invoice to change', async () => {
    const { shop, admin, graced, current } = await billedShop();
    await runSubscriptionClock({ ...services(), graceDays: 7 }, new Date('2026-03-09T10:00:00.000Z'));
    expect(
      (await t.db.select().from(subscriptions).where(eq(subscriptions.applicationId, graced.id)))[0]?.status,
    ).toBe('expiredSubscription');
    expect(
      (await postEvent(shop.id, admin.cookie, { applicationId: current.id, event: 'cancel' })).status,
    ).toBe(200);
    const upcoming = await get(`/api/payments/upcoming?workspaceId=${shop.id}`, admin.cookie);
    expect(dataOf<UpcomingPayment[]>(upcoming)).toEqual([]);
  });

  it('GET payments/upcoming: 401 signed out; 403 without viewPayments nor a location write; the other workspace’s id 403', async () => {
    const shop = await createWorkspace(t.db);
    const url = `/api/payments/upcoming?workspaceId=${shop.id}`;
    expect((await get(url)).status).toBe(401);
    const neither = await addMember(t.db, shop.id, {
      tags: tagsExcept(['viewPayments', 'addLocations', 'editLocations', 'deleteLocations']),
    });
    expect((await get(url, neither.cookie)).status).toBe(403);
    for (const tag of ['editLocations', 'deleteLocations'] as const) {
      const member: TestMember = await addMember(t.db, shop.id, { tags: [tag] });
      expect((await get(url, member.cookie)).status, tag).toBe(200);
    }
    const other = await createWorkspace(t.db);
    const stranger = await addMember(t.db, other.id, { isAdmin: true });
    expect((await get(url, stranger.cookie)).status).toBe(403);
  });
});
