import { type PlanLength, planLengths } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { applications, invoiceCounters, payments } from '../src/db/schema/index.ts';
import { applySubscriptionEvent } from '../src/features/subscriptions/subscription-lifecycle.ts';
import {
  approveSubscription,
  recordPayment,
  runSubscriptionEvent,
  SubscriptionCommandError,
} from '../src/features/subscriptions/subscriptions.ts';
import { insertApplication } from './helpers/applications.ts';
import {
  addLocations,
  approvedSubscription,
  invoicesOf,
  storedSubscription,
  useSubscriptionDatabase,
} from './helpers/subscriptions.ts';
import { addMember, createWorkspace } from './helpers/workspaces.ts';

/**
 * Invoices: the price of a period for every plan length and number of active locations, frozen
 * details, numbers per workspace from 1 without gaps (under concurrent issues and after a rolled
 * back one), and payments recorded by the operator.
 */
const { mailer, db, services } = useSubscriptionDatabase();
const at = new Date('2026-01-31T10:00:00.000Z');

/** 100.00 per location per month; 5 %, 10 % and 20 % off the longer plans. */
const discounts = { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2000 };

describe('the price on the invoice', () => {
  // Written out from the formula: 10,000 × max(1, locations) × months × (1 − discount).
  const expected: Record<PlanLength, Record<0 | 1 | 3, number>> = {
    monthly: { 0: 10_000, 1: 10_000, 3: 30_000 },
    quarterly: { 0: 28_500, 1: 28_500, 3: 85_500 },
    semiannually: { 0: 54_000, 1: 54_000, 3: 162_000 },
    annually: { 0: 96_000, 1: 96_000, 3: 288_000 },
  };
  // Noon in Cairo (the workspace's zone), the month's last day when it is shorter: 10:00 UTC in
  // winter, 09:00 UTC in Egypt's summer time (from 24 April 2026).
  const periodEnds: Record<PlanLength, string> = {
    monthly: '2026-02-28T10:00:00.000Z',
    quarterly: '2026-04-30T09:00:00.000Z',
    semiannually: '2026-07-31T09:00:00.000Z',
    annually: '2027-01-31T10:00:00.000Z',
  };

  it.each(([0, 1, 3] as const).flatMap((locations) => planLengths.map((plan) => [plan, locations] as const)))(
    '%s with %i active locations',
    async (plan, active) => {
      const workspace = await createWorkspace(db());
      // Inactive locations are never paid for.
      await addLocations(db(), workspace.id, active, 1);
      const application = await insertApplication(db(), {
        monthlyPricePerLocation: 10_000,
        discounts,
        currency: 'SAR',
      });
      const { invoice } = await approvedSubscription(services(), workspace.id, application.id, plan, at);
      expect(invoice).toMatchObject({
        number: 1,
        amount: expected[plan][active],
        currency: 'SAR',
        status: 'pending',
        details: {
          application: [
            { locale: 'en', value: application.nameEn },
            { locale: 'ar', value: application.nameAr },
          ],
          plan,
          periodStart: at.toISOString(),
          periodEnd: periodEnds[plan],
          locations: Math.max(1, active),
          monthlyPricePerLocation: 10_000,
          discountBasisPoints: discounts[plan],
        },
      });
    },
  );

  it('an issued invoice never changes when prices or locations do', async () => {
    const workspace = await createWorkspace(db());
    const application = await insertApplication(db(), { monthlyPricePerLocation: 10_000, discounts });
    const { invoice } = await approvedSubscription(services(), workspace.id, application.id, 'monthly', at);
    await db()
      .update(applications)
      .set({ monthlyPricePerLocation: 99_999, nameEn: 'Renamed' })
      .where(eq(applications.id, application.id));
    await addLocations(db(), workspace.id, 4);
    const [stored] = await invoicesOf(db(), workspace.id);
    expect(stored).toEqual(invoice);
  });
});

describe('invoice numbers', () => {
  it('count from 1 in each workspace, one after another', async () => {
    const [first, second] = [await createWorkspace(db()), await createWorkspace(db())];
    for (const workspace of [first!, first!, second!, first!]) {
      const application = await insertApplication(db());
      await approvedSubscription(services(), workspace.id, application.id, 'monthly', at);
    }
    expect((await invoicesOf(db(), first!.id)).map((invoice) => invoice.number)).toEqual([1, 2, 3]);
    expect((await invoicesOf(db(), second!.id)).map((invoice) => invoice.number)).toEqual([1]);
  });

  it('a rolled-back issue gives its number back: no gap', async () => {
    const workspace = await createWorkspace(db());
    const [kept, undone, next] = await Promise.all([1, 2, 3].map(() => insertApplication(db())));
    await approvedSubscription(services(), workspace.id, kept!.id, 'monthly', at);
    const request = { workspaceId: workspace.id, applicationId: undone!.id, plan: 'monthly' as const };
    await runSubscriptionEvent(services(), { ...request, event: 'request', actor: 'workspace' }, at);
    const undoneFailure = new Error('something after the issue failed');
    await expect(
      db().transaction(async (tx) => {
        const { invoice } = await applySubscriptionEvent(
          tx,
          { ...request, event: 'approve', actor: 'operator' },
          at,
        );
        expect(invoice?.number).toBe(2);
        throw undoneFailure;
      }),
    ).rejects.toBe(undoneFailure);
    expect((await storedSubscription(db(), workspace.id, undone!.id))?.status).toBe('pending');
    await approvedSubscription(services(), workspace.id, next!.id, 'monthly', at);
    expect((await invoicesOf(db(), workspace.id)).map((invoice) => invoice.number)).toEqual([1, 2]);
    const [counter] = await db()
      .select()
      .from(invoiceCounters)
      .where(eq(invoiceCounters.workspaceId, workspace.id));
    expect(counter?.lastNumber).toBe(2);
  });

  it('an approval that fails after its row is written sends no mail and issues nothing', async () => {
    const workspace = await createWorkspace(db());
    await addMember(db(), workspace.id, { isAdmin: true });
    // A discount out of range: the price refuses it after the subscription's row was updated.
    const broken = await insertApplication(db(), { discounts: { ...discounts, monthly: 20_000 } });
    const request = { workspaceId: workspace.id, applicationId: broken.id, plan: 'monthly' as const };
    await runSubscriptionEvent(services(), { ...request, event: 'request', actor: 'workspace' }, at);
    const sentBefore = mailer.sent.length;
    const { id } = (await storedSubscription(db(), workspace.id, broken.id))!;
    await expect(approveSubscription(services(), id, at)).rejects.toThrow(RangeError);
    expect(mailer.sent.length).toBe(sentBefore);
    expect((await storedSubscription(db(), workspace.id, broken.id))?.status).toBe('pending');
    expect(await invoicesOf(db(), workspace.id)).toEqual([]);
  });

  it('20 approvals at once in one workspace: numbers 1 to 20, none twice, none skipped', async () => {
    const workspace = await createWorkspace(db());
    const ids: string[] = [];
    for (let n = 0; n < 20; n++) {
      const application = await insertApplication(db());
      const requested = await runSubscriptionEvent(
        services(),
        {
          workspaceId: workspace.id,
          applicationId: application.id,
          plan: 'monthly',
          event: 'request',
          actor: 'workspace',
        },
        at,
      );
      ids.push(requested.subscription.id);
    }
    // Its time is measured in bench/invoice-numbering.ts.
    const results = await Promise.all(ids.map((id) => approveSubscription(services(), id, at)));
    expect(results.map((result) => result.invoice!.number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
    expect((await invoicesOf(db(), workspace.id)).map((invoice) => invoice.number)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
  });
});

describe('payments recorded by the operator', () => {
  it('failed marks the invoice; successful on the current period’s invoice marks it without renewing', async () => {
    const workspace = await createWorkspace(db());
    const application = await insertApplication(db());
    const { invoice, subscription } = await approvedSubscription(
      services(),
      workspace.id,
      application.id,
      'monthly',
      at,
    );
    const later = new Date(at.getTime() + 60_000);
    const failed = await recordPayment(services(), { invoiceId: invoice!.id, status: 'failed' }, later);
    expect(failed).toMatchObject({
      renewed: false,
      invoice: { status: 'failed', updatedAt: later.toISOString() },
    });
    const paid = await recordPayment(services(), { invoiceId: invoice!.id, status: 'successful' }, later);
    expect(paid).toMatchObject({
      renewed: false,
      invoice: { status: 'successful', amount: invoice!.amount },
    });
    const after = await storedSubscription(db(), workspace.id, application.id);
    expect(after).toMatchObject({ startDate: subscription.startDate, endDate: subscription.endDate });
    // Paid is final; an unknown invoice is named.
    await expect(
      recordPayment(services(), { invoiceId: invoice!.id, status: 'failed' }, later),
    ).rejects.toMatchObject({ reason: 'alreadyPaid' });
    await expect(
      recordPayment(
        services(),
        { invoiceId: '00000000-0000-4000-8000-000000000000', status: 'successful' },
        later,
      ),
    ).rejects.toBeInstanceOf(SubscriptionCommandError);
    await expect(
      recordPayment(services(), { invoiceId: invoice!.id, status: 'pending' as never }, later),
    ).rejects.toMatchObject({ reason: 'badInput' });
    const [stored] = await db().select().from(payments).where(eq(payments.id, invoice!.id));
    expect(stored?.status).toBe('successful');
  });
});
