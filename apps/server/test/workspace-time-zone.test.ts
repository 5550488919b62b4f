import { validationCodes } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brands, workspaces } from '../src/db/schema/index.ts';
import { runSubscriptionEvent } from '../src/features/subscriptions/subscriptions.ts';
import { api, dataOf, errorOf, expectValidation } from './helpers/api.ts';
import { insertApplication } from './helpers/applications.ts';
import { approvedSubscription, storedSubscription, subscriptionServices } from './helpers/subscriptions.ts';
import { createTestApp, MemoryMailer, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember } from './helpers/workspaces.ts';

/**
 * A workspace's time zone decides its "today" (no date after it), the calendar of its
 * subscriptions (periods, trials) and the dates its mails print.
 */

// 12:00 UTC on 10 March 2026: the 10th in Cairo (14:00), already the 11th in Kiritimati (02:00, UTC+14).
let now = new Date('2026-03-10T12:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ now: () => now });
});
afterAll(async () => {
  await t?.close();
});

async function workspaceIn(timeZone: string): Promise<{ id: string; admin: TestMember }> {
  const workspace = await createWorkspace(t.db);
  await t.db.update(workspaces).set({ timeZone }).where(eq(workspaces.id, workspace.id));
  return { id: workspace.id, admin: await addMember(t.db, workspace.id, { isAdmin: true }) };
}

const brand = (code: string, creationDate: string) => ({
  code,
  name: [{ locale: 'en', value: `Brand ${code}` }],
  creationDate,
});

describe("no date after the workspace's today", () => {
  it('Cairo refuses the 11th at 14:00 on the 10th; Kiritimati, where it is the 11th, takes it', async () => {
    const cairo = await workspaceIn('Africa/Cairo');
    const kiritimati = await workspaceIn('Pacific/Kiritimati');
    const post = (workspaceId: string, cookie: string, body: unknown, path = '') =>
      api(t.app, { url: `/api/brands${path}?workspaceId=${workspaceId}`, body, cookie });

    // The schema alone (today anywhere on Earth) takes the 11th: the workspace's zone refuses it.
    expectValidation(
      await post(cairo.id, cairo.admin.cookie, brand('TZ-1', '2026-03-11')),
      'creationDate',
      validationCodes.DATE_IN_FUTURE,
    );
    expect((await post(cairo.id, cairo.admin.cookie, brand('TZ-1', '2026-03-10'))).status).toBe(201);
    expect((await post(kiritimati.id, kiritimati.admin.cookie, brand('TZ-1', '2026-03-11'))).status).toBe(
      201,
    );

    // A bulk names the row; nothing of it is written.
    const bulk = await post(
      cairo.id,
      cairo.admin.cookie,
      [brand('TZ-2', '2026-03-09'), brand('TZ-3', '2026-03-11')],
      '/bulk',
    );
    expect(bulk.status).toBe(400);
    expect(errorOf(bulk).issues).toEqual([
      { path: '1.creationDate', message: validationCodes.DATE_IN_FUTURE },
    ]);
    const stored = await t.db
      .select({ code: brands.code })
      .from(brands)
      .where(eq(brands.workspaceId, cairo.id));
    expect(stored.map((row) => row.code)).toEqual(['TZ-1']);

    // An update too, leaving the record as it was.
    const [created] = await t.db.select().from(brands).where(eq(brands.workspaceId, cairo.id));
    const patch = await api(t.app, {
      method: 'PATCH',
      url: `/api/brands/${created!.id}?workspaceId=${cairo.id}`,
      body: { creationDate: '2026-03-11' },
      cookie: cairo.admin.cookie,
    });
    expectValidation(patch, 'creationDate', validationCodes.DATE_IN_FUTURE);
    const [after] = await t.db.select().from(brands).where(eq(brands.id, created!.id));
    expect(after!.creationDate).toBe('2026-03-10');

    // At 22:00 UTC it is the 11th in Cairo too.
    now = new Date('2026-03-10T22:00:00.000Z');
    try {
      const later = await api(t.app, {
        method: 'PATCH',
        url: `/api/brands/${created!.id}?workspaceId=${cairo.id}`,
        body: { creationDate: '2026-03-11' },
        cookie: cairo.admin.cookie,
      });
      expect(later.status).toBe(200);
      expect(dataOf<{ creationDate: string }>(later).creationDate).toBe('2026-03-11');
    } finally {
      now = new Date('2026-03-10T12:00:00.000Z');
    }
  });
});

describe("subscriptions follow the workspace's calendar", () => {
  const mailer = new MemoryMailer();
  const services = () => subscriptionServices(t.db, mailer);

  it("a month from 01:00 on 31 March in Cairo ends on 30 April there; in UTC's calendar it is 1 May", async () => {
    const at = new Date('2026-03-30T23:00:00.000Z');
    const cairo = await workspaceIn('Africa/Cairo');
    const utc = await workspaceIn('UTC');
    const application = await insertApplication(t.db);
    await approvedSubscription(services(), cairo.id, application.id, 'monthly', at);
    await approvedSubscription(services(), utc.id, application.id, 'monthly', at);
    // 01:00 in Cairo on 30 April, in summer time (UTC+3).
    expect((await storedSubscription(t.db, cairo.id, application.id))!.endDate).toEqual(
      new Date('2026-04-29T22:00:00.000Z'),
    );
    expect((await storedSubscription(t.db, utc.id, application.id))!.endDate).toEqual(
      new Date('2026-04-30T23:00:00.000Z'),
    );
  });

  it('a 14-day trial over a change of the clocks ends at the same wall-clock time, 13 days and 23 hours later', async () => {
    const cairo = await workspaceIn('Africa/Cairo');
    const application = await insertApplication(t.db, { trialDays: 14 });
    // 10:00 in Cairo on 20 April (UTC+2) → 10:00 on 4 May (UTC+3).
    await runSubscriptionEvent(
      services(),
      { workspaceId: cairo.id, applicationId: application.id, event: 'startTrial', actor: 'workspace' },
      new Date('2026-04-20T08:00:00.000Z'),
    );
    expect((await storedSubscription(t.db, cairo.id, application.id))!.endDate).toEqual(
      new Date('2026-05-04T07:00:00.000Z'),
    );
  });

  it("the approval mail prints the period's end as a day of the workspace's calendar", async () => {
    // 20:00 in Los Angeles on 31 January is 04:00 UTC on 1 February: a month on, 28 February there.
    const at = new Date('2026-02-01T04:00:00.000Z');
    const losAngeles = await workspaceIn('America/Los_Angeles');
    const utc = await workspaceIn('UTC');
    const application = await insertApplication(t.db);
    mailer.sent.length = 0;
    await approvedSubscription(services(), losAngeles.id, application.id, 'monthly', at);
    const [local] = mailer.sent.filter(
      (mail) => mail.to === losAngeles.admin.user.email && /active/.test(mail.subject),
    );
    expect(local?.text).toContain('active until Sat, Feb 28, 2026.');
    // The same instant in a UTC workspace is 1 March.
    await approvedSubscription(services(), utc.id, application.id, 'monthly', at);
    const [inUtc] = mailer.sent.filter(
      (mail) => mail.to === utc.admin.user.email && /active/.test(mail.subject),
    );
    expect(inUtc?.text).toContain('active until Sun, Mar 01, 2026.');
  });
});
