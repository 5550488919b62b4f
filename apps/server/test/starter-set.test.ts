import type { MeasurementUnitRecord } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapDemo } from '../src/bootstrap.ts';
import { accessRequests, appMeta, workspaces } from '../src/db/schema/index.ts';
import { starterUnits } from '../src/features/workspaces/starter-set.ts';
import { api, dataOf } from './helpers/api.ts';
import { runCliOn } from './helpers/cli.ts';
import { createTestApp, MemoryMailer, type TestApp } from './helpers/test-app.ts';
import { addMember, type TestMember, unique } from './helpers/workspaces.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const run = (...argv: string[]) =>
  runCliOn(t, argv, {
    mailer: new MemoryMailer(),
    env: { NODE_ENV: 'test', DATA_DIR: t.config.dataDir, PUBLIC_URL: t.config.publicUrl },
  });

/** The starter set as the units' list answers it, from the one definition (sorted by code). */
const expectedUnits = starterUnits
  .map((unit) => ({
    code: unit.code,
    name: [
      { locale: 'en', value: unit.en },
      { locale: 'ar', value: unit.ar },
    ],
    symbol: unit.symbol,
    status: 'active',
  }))
  .sort((a, b) => a.code.localeCompare(b.code, 'en'));

async function workspaceNamed(name: string) {
  const [workspace] = await t.db.select().from(workspaces).where(eq(workspaces.name, name));
  expect(workspace, `workspace ${name}`).toBeDefined();
  return workspace!;
}

function unitsApi(workspaceId: string, admin: TestMember) {
  const call = (method: 'GET' | 'PATCH' | 'DELETE' | 'POST', path = '', body?: unknown) =>
    api(t.app, {
      method,
      url: `/api/measurement-units${path}?workspaceId=${workspaceId}${method === 'GET' && !path ? '&pageSize=100&sort=code' : ''}`,
      body,
      cookie: admin.cookie,
    });
  return {
    call,
    list: async () => dataOf<MeasurementUnitRecord[]>(await call('GET')),
  };
}

const comparable = (units: MeasurementUnitRecord[]) =>
  units
    .map(({ code, name, symbol, status }) => ({ code, name, symbol, status }))
    .sort((a, b) => a.code.localeCompare(b.code, 'en'));

describe('the starter set of a new workspace', () => {
  it('approve: the workspace has exactly the starter units, ordinary records to rename, disable and delete', async () => {
    const companyName = unique('Cairo Sweets ');
    const [request] = await t.db
      .insert(accessRequests)
      .values({
        name: 'Sara Ali',
        email: `${unique('sara')}@example.com`,
        phone: `+20 10${String(Date.now()).slice(-8)}`,
        companyName,
        businessCategory: 'food',
        howDidYouHearAboutUs: 'google',
        language: 'ar',
      })
      .returning();
    expect((await run('approve', request!.id)).code).toBe(0);
    const workspace = await workspaceNamed(companyName);
    const units = unitsApi(workspace.id, await addMember(t.db, workspace.id, { isAdmin: true }));
    const listed = await units.list();
    expect(comparable(listed)).toEqual(expectedUnits);

    // Renamed (in either language, symbol too), disabled, and deleted like any record.
    const [first, second, third] = listed;
    const renamed = await units.call('PATCH', `/${first!.id}`, {
      name: [
        { locale: 'en', value: 'Tray' },
        { locale: 'ar', value: 'صينية' },
      ],
      symbol: 'tray',
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(dataOf<MeasurementUnitRecord>(renamed)).toMatchObject({
      code: first!.code,
      name: [
        { locale: 'en', value: 'Tray' },
        { locale: 'ar', value: 'صينية' },
      ],
      symbol: 'tray',
    });
    const disabled = await units.call('PATCH', `/${second!.id}`, { status: 'inactive' });
    expect(dataOf<MeasurementUnitRecord>(disabled).status).toBe('inactive');
    expect((await units.call('DELETE', `/${third!.id}`)).status).toBe(200);
    expect((await units.list()).map((unit) => unit.id)).not.toContain(third!.id);
    // Its code is free again.
    const again = await units.call('POST', '', {
      code: third!.code,
      name: [{ locale: 'en', value: 'Again' }],
      symbol: 'x',
    });
    expect(again.status, again.text).toBe(201);
  });

  it('create-workspace: the same starter units, each workspace its own records', async () => {
    const name = unique('Delta Market ');
    expect(
      (await run('create-workspace', '--name', name, '--admin-email', `${unique('o')}@example.com`)).code,
    ).toBe(0);
    const other = unique('Echo Grocery ');
    expect(
      (await run('create-workspace', '--name', other, '--admin-email', `${unique('o')}@example.com`)).code,
    ).toBe(0);
    const [first, second] = [await workspaceNamed(name), await workspaceNamed(other)];
    const firstUnits = await unitsApi(first.id, await addMember(t.db, first.id, { isAdmin: true })).list();
    const secondUnits = await unitsApi(second.id, await addMember(t.db, second.id, { isAdmin: true })).list();
    expect(comparable(firstUnits)).toEqual(expectedUnits);
    expect(comparable(secondUnits)).toEqual(expectedUnits);
    const ids = new Set(secondUnits.map((unit) => unit.id));
    expect(firstUnits.some((unit) => ids.has(unit.id))).toBe(false);
  });

  it('the demo workspace of the first start has the same starter units, used by its products', async () => {
    await t.db.delete(appMeta).where(eq(appMeta.key, 'bootstrap'));
    const email = `${unique('demo')}@example.com`;
    expect((await bootstrapDemo(t.db, { email, password: 'Demo#Pass12' })).created).toBe(true);
    const [demo] = await t.db.select().from(workspaces).where(eq(workspaces.name, 'Demo Store'));
    const admin = await addMember(t.db, demo!.id, { isAdmin: true });
    const units = await unitsApi(demo!.id, admin).list();
    expect(comparable(units)).toEqual(expectedUnits);
    const products = dataOf<{ code: string; measurementUnitId: string }[]>(
      await api(t.app, {
        url: `/api/products?workspaceId=${demo!.id}&pageSize=100`,
        cookie: admin.cookie,
      }),
    );
    const unitCode = new Map(units.map((unit) => [unit.id, unit.code]));
    expect(
      Object.fromEntries(products.map((product) => [product.code, unitCode.get(product.measurementUnitId)])),
    ).toMatchObject({
      BEANS: 'KG',
      MILK: 'L',
      LATTE: 'PC',
    });
  });
});
