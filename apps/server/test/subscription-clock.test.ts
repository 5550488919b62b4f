import { formatMoney } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { payments, subscriptions } from '../src/db/schema/index.ts';
import {
  runSubscriptionClock,
  type SubscriptionClockServices,
} from '../src/features/subscriptions/subscription-clock.ts';
import { recordPayment, runSubscriptionEvent } from '../src/features/subscriptions/subscriptions.ts';
import { createUser } from './helpers/api.ts';
import { insertApplication } from './helpers/applications.ts';
import {
  addLocations,
  approvedSubscription,
  invoicesOf,
  storedSubscription,
  subscriptionServices,
  useSubscriptionDatabase,
} from './helpers/subscriptions.ts';
import { createTestApp, MemoryMailer } from './helpers/test-app.ts';
import { createTestDatabase } from './helpers/test-database.ts';
import { addMember, createWorkspace } from './helpers/workspaces.ts';

/**
 * The subscription clock, driven by calling it with a chosen `now` (no timer): trials, periods
 * and graces that end, the "ends in 3 days" warning once per period, mails in each admin's
 * language, and two clocks at once applying each event and sending each mail once.
 */
const { mailer, db, services } = useSubscriptionDatabase();
const dayMs = 24 * 60 * 60 * 1000;
const plus = (date: Date, days: number) => new Date(date.getTime() + days * dayMs);

beforeEach(() => {
  mailer.sent.length = 0;
});

const clock = (graceDays = 5): SubscriptionClockServices => ({ ...services(), graceDays });

/** A monthly subscription, requested and approved at `at`. */
const approvedMonthly = (workspaceId: string, applicationId: string, at: Date) =>
  approvedSubscription(services(), workspaceId, applicationId, 'monthly', at);

/** A workspace with an English and an Arabic admin, plus people who get no subscription mail. */
async function shop() {
  const workspace = await createWorkspace(db());
  const en = await addMember(db(), workspace.id, {
    isAdmin: true,
    user: await createUser(db(), { language: 'en' }),
  });
  const ar = await addMember(db(), workspace.id, {
    isAdmin: true,
    user: await createUser(db(), { language: 'ar' }),
  });
  await addMember(db(), workspace.id, { isAdmin: true, status: 'inactive' });
  await addMember(db(), workspace.id, { tags: ['viewSubscriptions', 'addSubscriptions'] });
  return { workspace, en: en.user.email, ar: ar.user.email };
}

/** Each mail as [recipient, subject], in the order sent. */
const sentMails = () => mailer.sent.map((mail) => [mail.to, mail.subject]);

describe('free trials', () => {
  it('warned 3 days ahead (once), then expired at their end, each admin mailed in their language', async () => {
    const { workspace, en, ar } = await shop();
    const application = await insertApplication(db(), { trialDays: 14 });
    const start = new Date('2026-05-01T09:00:00.000Z');
    const trial = await runSubscriptionEvent(
      services(),
      { workspaceId: workspace.id, applicationId: application.id, event: 'startTrial', actor: 'workspace' },
      start,
    );
    const end = trial.subscription.endDate!;
    expect(end).toEqual(plus(start, 14));

    expect(await runSubscriptionClock(clock(), plus(end, -3.5))).toMatchObject({ applied: [], warned: [] });
    expect(sentMails()).toEqual([]);

    const warned = await runSubscriptionClock(clock(), plus(end, -3));
    expect(warned.warned).toEqual([trial.subscription.id]);
    expect(sentMails().sort()).toEqual(
      [
        [ar, `تنتهي تجربتك المجانية لتطبيق ${application.nameAr} قريبًا`],
        [en, `Your free trial of ${application.nameEn} ends soon`],
      ].sort(),
    );
    const arabic = mailer.sent.find((mail) => mail.to === ar)!;
    expect(arabic.html).toContain('dir="rtl"');
    expect(arabic.text).toContain('يوم الجمعة، ١٥ مايو ٢٠٢٦');
    expect((await storedSubscription(db(), workspace.id, application.id))?.warnedForEnd).toEqual(end);

    // Once per end: a later run warns no more.
    mailer.sent.length = 0;
    expect(await runSubscriptionClock(clock(), plus(end, -1))).toMatchObject({ applied: [], warned: [] });
    expect(mailer.sent).toEqual([]);

    const expired = await runSubscriptionClock(clock(), end);
    expect(expired.applied).toEqual([{ subscriptionId: trial.subscription.id, event: 'trialEnds' }]);
    expect((await storedSubscription(db(), workspace.id, application.id))?.status).toBe('expiredFreeTrial');
    expect(new Set(sentMails().map(([, subject]) => subject))).toEqual(
      new Set([
        `Your free trial of ${application.nameEn} has ended`,
        `انتهت تجربتك المجانية لتطبيق ${application.nameAr}`,
      ]),
    );
    expect(mailer.sent.map((mail) => mail.to).sort()).toEqual([ar, en].sort());
    expect(await runSubscriptionClock(clock(), plus(end, 1))).toMatchObject({ applied: [], warned: [] });
  });
});

describe('periods', () => {
  it('a period’s end issues the next invoice and starts the grace; its payment renews the subscription', async () => {
    const { workspace } = await shop();
    await addLocations(db(), workspace.id, 2);
    const application = await insertApplication(db(), { monthlyPricePerLocation: 10_000 });
    const start = new Date('2026-01-31T10:00:00.000Z');
    const { subscription } = await approvedMonthly(workspace.id, application.id, start);
    await runSubscriptionEvent(
      services(),
      {
        workspaceId: workspace.id,
        applicationId: application.id,
        event: 'changePlan',
        plan: 'quarterly',
        actor: 'workspace',
      },
      start,
    );
    const end = subscription.endDate!;
    expect(end.toISOString()).toBe('2026-02-28T10:00:00.000Z');

    mailer.sent.length = 0;
    const ended = await runSubscriptionClock(clock(), end);
    expect(ended.applied).toEqual([{ subscriptionId: subscription.id, event: 'periodEnds' }]);
    expect(mailer.sent).toEqual([]);
    const graced = await storedSubscription(db(), workspace.id, application.id);
    expect(graced).toMatchObject({
      status: 'approved',
      graceEndsAt: plus(end, 5),
      endDate: end,
      plan: 'monthly',
    });
    const [, next] = await invoicesOf(db(), workspace.id);
    expect(next).toMatchObject({
      number: 2,
      issuedAt: end,
      status: 'pending',
      amount: 57_000, // 100.00 × 2 locations × 3 months × 0.95 (the next plan's)
      // Noon in Cairo three months on: 09:00 UTC in Egypt's summer time.
      details: { plan: 'quarterly', periodStart: end.toISOString(), periodEnd: '2026-05-28T09:00:00.000Z' },
    });
    // Nothing more is due while the grace lasts.
    expect(await runSubscriptionClock(clock(), plus(end, 4))).toMatchObject({ applied: [] });

    const paid = await recordPayment(services(), { invoiceId: next!.id, status: 'successful' }, plus(end, 2));
    expect(paid.renewed).toBe(true);
    expect(await storedSubscription(db(), workspace.id, application.id)).toMatchObject({
      status: 'approved',
      plan: 'quarterly',
      nextPlan: null,
      startDate: end,
      endDate: new Date('2026-05-28T09:00:00.000Z'),
      graceEndsAt: null,
    });
    expect(await runSubscriptionClock(clock(), plus(end, 6))).toMatchObject({ applied: [], warned: [] });
  });

  it('an unpaid grace ends the subscription (the grace lasts SUBSCRIPTION_GRACE_DAYS)', async () => {
    const { workspace, en, ar } = await shop();
    const application = await insertApplication(db());
    const start = new Date('2026-03-15T00:00:00.000Z');
    const { subscription } = await approvedMonthly(workspace.id, application.id, start);
    const end = subscription.endDate!;
    await runSubscriptionClock(clock(2), end);
    expect((await storedSubscription(db(), workspace.id, application.id))?.graceEndsAt).toEqual(plus(end, 2));
    mailer.sent.length = 0;
    expect(await runSubscriptionClock(clock(2), new Date(plus(end, 2).getTime() - 1))).toMatchObject({
      applied: [],
    });
    const lapsed = await runSubscriptionClock(clock(2), plus(end, 2));
    expect(lapsed.applied).toEqual([{ subscriptionId: subscription.id, event: 'graceEnds' }]);
    expect(await storedSubscription(db(), workspace.id, application.id)).toMatchObject({
      status: 'expiredSubscription',
      graceEndsAt: null,
    });
    expect(sentMails().sort()).toEqual(
      [
        [en, `Your subscription to ${application.nameEn} has expired`],
        [ar, `انتهى اشتراكك في ${application.nameAr}`],
      ].sort(),
    );
    // The unpaid invoice stays as issued.
    expect((await invoicesOf(db(), workspace.id)).map((invoice) => invoice.status)).toEqual([
      'pending',
      'pending',
    ]);
  });

  it('a cancelled subscription is warned, then ends at its period’s end with no new invoice', async () => {
    const { workspace, en } = await shop();
    const application = await insertApplication(db());
    const start = new Date('2026-04-01T12:00:00.000Z');
    const { subscription } = await approvedMonthly(workspace.id, application.id, start);
    await runSubscriptionEvent(
      services(),
      { workspaceId: workspace.id, applicationId: application.id, event: 'cancel', actor: 'workspace' },
      start,
    );
    const end = subscription.endDate!;
    mailer.sent.length = 0;
    await runSubscriptionClock(clock(), plus(end, -2));
    expect(mailer.sent.find((mail) => mail.to === en)?.subject).toBe(
      `Your subscription to ${application.nameEn} ends soon`,
    );
    mailer.sent.length = 0;
    const ended = await runSubscriptionClock(clock(), plus(end, 1));
    expect(ended.applied).toEqual([{ subscriptionId: subscription.id, event: 'periodEnds' }]);
    expect((await storedSubscription(db(), workspace.id, application.id))?.status).toBe(
      'expiredSubscription',
    );
    expect(await invoicesOf(db(), workspace.id)).toHaveLength(1);
    expect(mailer.sent.find((mail) => mail.to === en)?.subject).toBe(
      `Your subscription to ${application.nameEn} has expired`,
    );
  });

  it('a renewing subscription’s warning names the next invoice’s amount, in Arabic digits for an Arabic admin', async () => {
    const { workspace, ar, en } = await shop();
    await addLocations(db(), workspace.id, 3);
    const application = await insertApplication(db(), { monthlyPricePerLocation: 12_345 });
    const start = new Date('2026-06-10T08:00:00.000Z');
    const { subscription } = await approvedMonthly(workspace.id, application.id, start);
    mailer.sent.length = 0;
    const run = await runSubscriptionClock(clock(), plus(subscription.endDate!, -3));
    expect(run.warned).toEqual([subscription.id]);
    const amount = 12_345 * 3;
    const arabic = mailer.sent.find((mail) => mail.to === ar)!;
    expect(arabic.subject).toBe(`يتجدّد اشتراكك في ${application.nameAr} قريبًا`);
    expect(arabic.text).toContain(formatMoney(amount, 'EGP', 'ar'));
    expect(formatMoney(amount, 'EGP', 'ar')).toContain('٣٧٠٫٣٥');
    const english = mailer.sent.find((mail) => mail.to === en)!;
    expect(english.text).toMatch(/EGP\s370\.35/);
  });
});

describe('two clocks at once', () => {
  it('apply each due event once and send each mail once', async () => {
    const { workspace, en, ar } = await shop();
    const now = new Date('2026-09-01T00:00:00.000Z');
    const trials: string[] = [];
    const periods: string[] = [];
    const warnings: string[] = [];
    // Trials ended, periods ended within their grace (no grace ends yet), periods ending in 2 days.
    for (let n = 0; n < 6; n++) {
      const trialApp = await insertApplication(db(), { trialDays: 10 });
      const trial = await runSubscriptionEvent(
        services(),
        { workspaceId: workspace.id, applicationId: trialApp.id, event: 'startTrial', actor: 'workspace' },
        plus(now, -10 - n),
      );
      trials.push(trial.subscription.id);
      const periodApp = await insertApplication(db());
      const ending = await approvedMonthly(workspace.id, periodApp.id, plus(now, -31 - n / 10));
      periods.push(ending.subscription.id);
      const warnedApp = await insertApplication(db());
      const soon = await approvedMonthly(workspace.id, warnedApp.id, plus(now, -29 + n / 10));
      warnings.push(soon.subscription.id);
    }
    const invoicesBefore = (await invoicesOf(db(), workspace.id)).length;
    mailer.sent.length = 0;

    const runs = await Promise.all([runSubscriptionClock(clock(), now), runSubscriptionClock(clock(), now)]);

    expect(runs.flatMap((run) => run.failed)).toEqual([]);
    // The clock serves every workspace: the earlier tests' subscriptions are left out here.
    const mine = new Set([...trials, ...periods, ...warnings]);
    const applied = runs.flatMap((run) => run.applied).filter((entry) => mine.has(entry.subscriptionId));
    expect(
      applied
        .filter((entry) => entry.event === 'trialEnds')
        .map((entry) => entry.subscriptionId)
        .sort(),
    ).toEqual([...trials].sort());
    expect(
      applied
        .filter((entry) => entry.event === 'periodEnds')
        .map((entry) => entry.subscriptionId)
        .sort(),
    ).toEqual([...periods].sort());
    expect(
      runs
        .flatMap((run) => run.warned)
        .filter((id) => mine.has(id))
        .sort(),
    ).toEqual([...warnings].sort());
    // One new invoice per ended period, never two.
    const invoices = await invoicesOf(db(), workspace.id);
    expect(invoices.length - invoicesBefore).toBe(periods.length);
    expect(new Set(invoices.map((invoice) => invoice.subscriptionId)).size).toBe(18 - trials.length);
    for (const id of periods) {
      const issued = await db().select().from(payments).where(eq(payments.subscriptionId, id));
      expect(issued, id).toHaveLength(2);
    }
    // 6 expired trials and 6 warnings, to 2 admins each: 24 mails, no two alike.
    const mails = mailer.sent
      .filter((mail) => mail.to === en || mail.to === ar)
      .map((mail) => `${mail.to} ${mail.subject}`);
    expect(mails).toHaveLength(24);
    expect(new Set(mails).size).toBe(24);
    const rows = await db().select().from(subscriptions).where(eq(subscriptions.workspaceId, workspace.id));
    expect(rows.filter((row) => row.status === 'expiredFreeTrial')).toHaveLength(6);
  });
});

describe('the clock in the server', () => {
  it('SUBSCRIPTION_GRACE_DAYS and SUBSCRIPTION_CLOCK_SECONDS: 5 days and every 60 s by default, 0 stops the clock', () => {
    expect(loadConfig({}).subscriptions).toEqual({
      graceDays: 5,
      clockIntervalMs: 60_000,
      reviewHours: null,
    });
    expect(
      loadConfig({ SUBSCRIPTION_GRACE_DAYS: '0', SUBSCRIPTION_CLOCK_SECONDS: '0' }).subscriptions,
    ).toEqual({ graceDays: 0, clockIntervalMs: 0, reviewHours: null });
    expect(loadConfig({ SUBSCRIPTION_REVIEW_HOURS: '48' }).subscriptions.reviewHours).toBe(48);
    expect(() => loadConfig({ SUBSCRIPTION_REVIEW_HOURS: '1.5' })).toThrow(/SUBSCRIPTION_REVIEW_HOURS/);
    expect(() => loadConfig({ SUBSCRIPTION_GRACE_DAYS: '-1' })).toThrow(/SUBSCRIPTION_GRACE_DAYS/);
    expect(() => loadConfig({ SUBSCRIPTION_CLOCK_SECONDS: 'often' })).toThrow(/SUBSCRIPTION_CLOCK_SECONDS/);
  });

  it('runs on its interval with the app’s clock and stops when the app closes', async () => {
    // The app's database is made first; then only intervals are faked, so the app's are the fakes.
    const appDatabase = await createTestDatabase();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const now = new Date('2026-10-01T00:00:00.000Z');
      const t = await createTestApp({
        env: { SUBSCRIPTION_CLOCK_SECONDS: '60' },
        now: () => now,
        database: appDatabase,
      });
      try {
        const workspace = await createWorkspace(t.db);
        await addMember(t.db, workspace.id, { isAdmin: true });
        const application = await insertApplication(t.db, { trialDays: 7 });
        await runSubscriptionEvent(
          subscriptionServices(t.db, new MemoryMailer()),
          {
            workspaceId: workspace.id,
            applicationId: application.id,
            event: 'startTrial',
            actor: 'workspace',
          },
          plus(now, -8),
        );
        const status = async () => (await storedSubscription(t.db, workspace.id, application.id))?.status;
        vi.advanceTimersByTime(59_999);
        expect(await status()).toBe('freeTrial');
        vi.advanceTimersByTime(1);
        await vi.waitFor(async () => expect(await status()).toBe('expiredFreeTrial'));
        await vi.waitFor(() =>
          expect(t.mails.map((mail) => mail.subject)).toEqual([
            `Your free trial of ${application.nameEn} has ended`,
          ]),
        );
      } finally {
        await t.close();
      }
      // Its interval (and the uploads' clean-up) are cleared.
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
      await appDatabase.close();
    }
  });
});
