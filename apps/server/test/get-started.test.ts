import { type GetStarted, validationCodes } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaces } from '../src/db/schema/index.ts';
import { api, dataOf, errorOf, expectValidation } from './helpers/api.ts';
import { insertApplication, insertSubscription } from './helpers/applications.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import {
  addMember,
  createRole,
  createWorkspace,
  type TestMember,
  unique,
  workspaceSnapshot,
} from './helpers/workspaces.ts';

/**
 * The dashboard's Get started list: `GET /api/workspaces/get-started` computes each step from the
 * workspace's data for the member asking (only the steps they may take), and
 * `PUT`/`DELETE …/get-started/dismissal` hide it for the whole workspace and show it again.
 */
let t: TestApp;
/** The server's clock: the real one unless a test sets a time. */
let clock: (() => Date) | null = null;

beforeAll(async () => {
  t = await createTestApp({ now: () => clock?.() ?? new Date() });
});
afterAll(async () => {
  await t?.close();
});

const list = 'workspaces/get-started';
const dismissal = 'workspaces/get-started/dismissal';
const call = (
  member: TestMember | null,
  workspace: { id: string },
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' = 'GET',
  path = list,
  body?: unknown,
) =>
  api(t.app, {
    method,
    url: `/api/${path}?workspaceId=${workspace.id}`,
    body,
    ...(member ? { cookie: member.cookie } : {}),
  });
const stepsOf = async (member: TestMember, workspace: { id: string }) =>
  Object.fromEntries(
    dataOf<GetStarted>(await call(member, workspace)).steps.map((step) => [step.key, step.done]),
  );
const storedDismissal = async (workspace: { id: string }) =>
  (
    await t.db
      .select({ at: workspaces.getStartedDismissedAt })
      .from(workspaces)
      .where(eq(workspaces.id, workspace.id))
  )[0]!.at;

describe('GET /api/workspaces/get-started', () => {
  it('a new workspace: every step to do, the location waiting for a brand; each is ticked as it is done', async () => {
    const shop = await createWorkspace(t.db);
    const owner = await addMember(t.db, shop.id, { isAdmin: true });
    const answer = await call(owner, shop);
    expect(answer.status, answer.text).toBe(200);
    expect(dataOf<GetStarted>(answer)).toEqual({
      dismissedAt: null,
      steps: [
        { key: 'brand', done: false, waitsFor: null },
        { key: 'location', done: false, waitsFor: 'brand' },
        { key: 'product', done: false, waitsFor: null },
        { key: 'invite', done: false, waitsFor: null },
        { key: 'application', done: false, waitsFor: null },
      ],
    });

    const brand = dataOf<{ id: string }>(
      await call(owner, shop, 'POST', 'brands', { name: [{ locale: 'en', value: 'Nile' }], currencies: [] }),
    );
    const afterBrand = dataOf<GetStarted>(await call(owner, shop)).steps;
    expect(afterBrand.slice(0, 2)).toEqual([
      { key: 'brand', done: true, waitsFor: null },
      { key: 'location', done: false, waitsFor: null },
    ]);

    dataOf(
      await call(owner, shop, 'POST', 'locations', {
        name: [{ locale: 'en', value: 'Zamalek' }],
        brandId: brand.id,
        phones: [{ label: 'Front', number: '0227350000' }],
      }),
    );
    const [unit] = dataOf<{ id: string }[]>(await call(owner, shop, 'GET', 'measurement-units'));
    dataOf(
      await call(owner, shop, 'POST', 'products', {
        name: [{ locale: 'en', value: 'Latte' }],
        measurementUnitId: unit?.id ?? (await addUnit(owner, shop)),
      }),
    );
    expect(await stepsOf(owner, shop)).toEqual({
      brand: true,
      location: true,
      product: true,
      invite: false,
      application: false,
    });

    const role = await createRole(t.db, shop.id, []);
    dataOf(
      await call(owner, shop, 'POST', 'workspaces/users/invite', {
        email: `${unique('staff')}@example.com`,
        roleId: role.id,
      }),
    );
    expect((await stepsOf(owner, shop)).invite).toBe(true);

    const application = await insertApplication(t.db);
    dataOf(
      await call(owner, shop, 'POST', 'subscriptions/events', {
        applicationId: application.id,
        event: 'startTrial',
      }),
    );
    expect(await stepsOf(owner, shop)).toEqual({
      brand: true,
      location: true,
      product: true,
      invite: true,
      application: true,
    });
  });

  it('a disabled brand alone does not let a location be added: the step still waits for a brand', async () => {
    const shop = await createWorkspace(t.db);
    const owner = await addMember(t.db, shop.id, { isAdmin: true });
    const brand = dataOf<{ id: string }>(
      await call(owner, shop, 'POST', 'brands', { name: [{ locale: 'en', value: 'Old' }], currencies: [] }),
    );
    dataOf(await call(owner, shop, 'PATCH', `brands/${brand.id}`, { status: 'inactive' }));
    const steps = dataOf<GetStarted>(await call(owner, shop)).steps;
    expect(steps.slice(0, 2)).toEqual([
      { key: 'brand', done: true, waitsFor: null },
      { key: 'location', done: false, waitsFor: 'brand' },
    ]);
  });

  it.each(['pending', 'rejected', 'expiredFreeTrial'] as const)(
    'a subscription in any state, here %s, is an application tried',
    async (status) => {
      const shop = await createWorkspace(t.db);
      const owner = await addMember(t.db, shop.id, { isAdmin: true });
      expect((await stepsOf(owner, shop)).application).toBe(false);
      await insertSubscription(t.db, shop.id, (await insertApplication(t.db)).id, status);
      expect((await stepsOf(owner, shop)).application).toBe(true);
    },
  );

  it('a member is answered only the steps they may take', async () => {
    const shop = await createWorkspace(t.db);
    await addMember(t.db, shop.id, { isAdmin: true });
    const cook = await addMember(t.db, shop.id, { tags: ['addProducts', 'viewApplications'] });
    expect(dataOf<GetStarted>(await call(cook, shop)).steps).toEqual([
      { key: 'product', done: false, waitsFor: null },
    ]);
    const manager = await addMember(t.db, shop.id, {
      tags: ['addLocations', 'addSubscriptions', 'viewBrands'],
    });
    expect(dataOf<GetStarted>(await call(manager, shop)).steps.map((step) => step.key)).toEqual([
      'location',
      'application',
    ]);
  });

  it('signed out → 401; an unknown query field or no workspace → 400', async () => {
    const shop = await createWorkspace(t.db);
    const owner = await addMember(t.db, shop.id, { isAdmin: true });
    const signedOut = await call(null, shop);
    expect(signedOut.status).toBe(401);
    expect(errorOf(signedOut).code).toBe('UNAUTHORIZED');
    expectValidation(
      await api(t.app, { url: `/api/${list}?workspaceId=${shop.id}&extra=1`, cookie: owner.cookie }),
      '',
      validationCodes.VALUE_IS_INVALID,
    );
    const noWorkspace = await api(t.app, { url: `/api/${list}`, cookie: owner.cookie });
    expect(noWorkspace.status).toBe(400);
    expect(errorOf(noWorkspace).code).toBe('VALIDATION');
  });

  it('a member who may take none of the steps → 403 on every route, and nothing changes', async () => {
    const shop = await createWorkspace(t.db);
    const viewer = await addMember(t.db, shop.id, {
      tags: ['viewApplications', 'viewBrands', 'editBrands', 'viewUsers', 'editSubscriptions'],
    });
    const before = await workspaceSnapshot(t.db, shop.id);
    for (const [method, path] of [
      ['GET', list],
      ['PUT', dismissal],
      ['DELETE', dismissal],
    ] as const) {
      const refused = await call(viewer, shop, method, path);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(errorOf(refused).code).toBe('FORBIDDEN');
    }
    expect(await workspaceSnapshot(t.db, shop.id)).toEqual(before);
  });

  it("another workspace's id → 403 on every route, and that workspace's list stays as it was", async () => {
    const shop = await createWorkspace(t.db);
    const owner = await addMember(t.db, shop.id, { isAdmin: true });
    const other = await createWorkspace(t.db);
    await addMember(t.db, other.id, { isAdmin: true });
    for (const [method, path] of [
      ['GET', list],
      ['PUT', dismissal],
      ['DELETE', dismissal],
    ] as const) {
      expect((await call(owner, other, method, path)).status, `${method} ${path}`).toBe(403);
    }
    expect(await storedDismissal(other)).toBeNull();
  });
});

describe('dismissing the list', () => {
  it('hides it for every member of the workspace and no other workspace; persisted; shown again on DELETE', async () => {
    const shop = await createWorkspace(t.db);
    const owner = await addMember(t.db, shop.id, { isAdmin: true });
    const cook = await addMember(t.db, shop.id, { tags: ['addProducts'] });
    const other = await createWorkspace(t.db);
    await addMember(t.db, other.id, { user: owner.user, isAdmin: true });

    // A member who may take one step may hide the list for everyone.
    clock = () => new Date('2027-03-01T10:00:00.000Z');
    const hidden = dataOf<GetStarted>(await call(cook, shop, 'PUT', dismissal));
    expect(hidden.dismissedAt).toBe('2027-03-01T10:00:00.000Z');
    expect(hidden.steps).toEqual([{ key: 'product', done: false, waitsFor: null }]);
    expect(await storedDismissal(shop)).toEqual(new Date('2027-03-01T10:00:00.000Z'));
    expect(dataOf<GetStarted>(await call(owner, shop)).dismissedAt).toBe('2027-03-01T10:00:00.000Z');
    // The same person's other workspace still shows its own.
    expect(dataOf<GetStarted>(await call(owner, other)).dismissedAt).toBeNull();
    expect(await storedDismissal(other)).toBeNull();

    // Hiding it again keeps the first time.
    clock = () => new Date('2027-03-02T10:00:00.000Z');
    expect(dataOf<GetStarted>(await call(owner, shop, 'PUT', dismissal)).dismissedAt).toBe(
      '2027-03-01T10:00:00.000Z',
    );

    clock = null;
    const shown = dataOf<GetStarted>(await call(owner, shop, 'DELETE', dismissal));
    expect(shown.dismissedAt).toBeNull();
    expect(await storedDismissal(shop)).toBeNull();
    expect(dataOf<GetStarted>(await call(cook, shop)).dismissedAt).toBeNull();
  });
});

/** A measurement unit for a workspace without its starter set (test workspaces start empty). */
async function addUnit(owner: TestMember, shop: { id: string }): Promise<string> {
  return dataOf<{ id: string }>(
    await call(owner, shop, 'POST', 'measurement-units', {
      name: [{ locale: 'en', value: 'Piece' }],
      symbol: 'pc',
    }),
  ).id;
}
