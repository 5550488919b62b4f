import { randomUUID } from 'node:crypto';
import { type BrandRecord, type CategoryRecord, defaultTimeZone, validationCodes } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { workspaces } from '../src/db/schema/index.ts';
import { api, dataOf, expectValidation } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/** What the catalogue adds to the engine: counts, references inside a workspace, localized names. */
let t: TestApp;
let shop: { id: string };
let admin: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Catalogue Shop');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
  api(t.app, { method, url: `/api/${path}?workspaceId=${shop.id}`, body, cookie: admin.cookie });

const brandInput = () => ({ code: unique('b'), name: [{ locale: 'en', value: 'Roastery' }] });
const locationInput = (brandId: string) => ({
  code: unique('l'),
  name: [{ locale: 'en', value: 'Olaya' }],
  brandId,
  workingHours: [
    { day: 'sunday', opensAt: 8 * 3600, closesAt: 23 * 3600 },
    { day: 'friday', opensAt: 16 * 3600, closesAt: 86_400 },
  ],
  phones: [
    { label: 'Front desk', number: '0112345678' },
    { label: 'Manager', number: '+966500000000' },
  ],
});

describe('brands and locations', () => {
  it('a brand counts its locations, and cannot be deleted while it has some', async () => {
    const brand = dataOf<BrandRecord>(await call('POST', 'brands', brandInput()));
    expect(brand).toMatchObject({
      locationsCount: 0,
      logo: null,
      creationDate: null,
      currencies: [],
      status: 'active',
    });
    const location = dataOf<{ id: string; workingHours: unknown; phones: unknown }>(
      await call('POST', 'locations', locationInput(brand.id)),
    );
    expect(location.workingHours).toEqual(locationInput(brand.id).workingHours);
    expect(location.phones).toEqual(locationInput(brand.id).phones);
    expect(dataOf<BrandRecord>(await call('GET', `brands/${brand.id}`)).locationsCount).toBe(1);
    const refused = expectValidation(await call('DELETE', `brands/${brand.id}`), 'id');
    expect(refused.issues).toEqual([
      { path: 'id', message: validationCodes.RECORD_IN_USE_BY, params: { count: 1, names: 'Olaya' } },
    ]);
    expect((await call('DELETE', `locations/${location.id}`)).status).toBe(200);
    expect((await call('DELETE', `brands/${brand.id}`)).status).toBe(200);
  });

  it('a deleted brand leaves its customers without a brand', async () => {
    const brand = dataOf<BrandRecord>(await call('POST', 'brands', brandInput()));
    const customer = dataOf<{ id: string; brandId: string | null }>(
      await call('POST', 'customers', {
        code: unique('c'),
        name: 'Nadia Fathy',
        phones: ['01001112222'],
        source: 'walkIn',
        brandId: brand.id,
      }),
    );
    expect(customer.brandId).toBe(brand.id);
    expect((await call('DELETE', `brands/${brand.id}`)).status).toBe(200);
    const after = dataOf<{ brandId: string | null }>(await call('GET', `customers/${customer.id}`));
    expect(after.brandId).toBeNull();
  });

  it('a brand named by a recipe line cannot be deleted: the refusal names the product', async () => {
    const brand = dataOf<BrandRecord>(await call('POST', 'brands', brandInput()));
    const unit = dataOf<{ id: string }>(
      await call('POST', 'measurement-units', {
        code: unique('u'),
        name: [{ locale: 'en', value: 'Gram' }],
        symbol: 'g',
      }),
    );
    const product = (name: string, recipe: unknown[] = []) =>
      call('POST', 'products', {
        code: unique('p'),
        name: [
          { locale: 'en', value: name },
          { locale: 'ar', value: `${name} ع` },
        ],
        measurementUnitId: unit.id,
        recipe,
      });
    const beans = dataOf<{ id: string }>(await product('Beans'));
    const latte = dataOf<{ id: string }>(
      await product('Latte', [{ ingredientProductId: beans.id, quantity: 18, brandIds: [brand.id] }]),
    );
    const refused = expectValidation(
      await api(t.app, {
        method: 'DELETE',
        url: `/api/brands/${brand.id}?workspaceId=${shop.id}`,
        cookie: admin.cookie,
        headers: { 'accept-language': 'ar' },
      }),
      'id',
    );
    expect(refused.issues).toEqual([
      { path: 'id', message: validationCodes.RECORD_IN_USE_BY, params: { count: 1, names: 'Latte ع' } },
    ]);
    expect((await call('DELETE', `products/${latte.id}`)).status).toBe(200);
    expect((await call('DELETE', `brands/${brand.id}`)).status).toBe(200);
  });

  it('a PATCH naming `name` replaces both languages; one not naming it keeps them', async () => {
    const brand = dataOf<BrandRecord>(
      await call('POST', 'brands', {
        ...brandInput(),
        name: [
          { locale: 'en', value: 'Dates' },
          { locale: 'ar', value: 'تمور' },
        ],
        currencies: ['SAR', 'USD', 'SAR'],
        creationDate: '2020-01-31',
        logo: `/files/${shop.id}/${randomUUID()}.png`,
      }),
    );
    expect(brand).toMatchObject({ currencies: ['SAR', 'USD'], creationDate: '2020-01-31' });
    const renamed = dataOf<BrandRecord>(
      await call('PATCH', `brands/${brand.id}`, { name: [{ locale: 'en', value: 'Fine dates' }] }),
    );
    expect(renamed.name).toEqual([{ locale: 'en', value: 'Fine dates' }]);
    const recoded = dataOf<BrandRecord>(await call('PATCH', `brands/${brand.id}`, { code: unique('b') }));
    expect(recoded.name).toEqual(renamed.name);
    expect(recoded.currencies).toEqual(['SAR', 'USD']);
  });

  it("refuses a creation or opening date after the workspace's today, and takes that today", async () => {
    // The workspace in UTC+14 (the latest time zone), whose today is often UTC's tomorrow; one
    // clock for the test and the server: the day cannot turn between reading it and the request.
    await t.db.update(workspaces).set({ timeZone: 'Pacific/Kiritimati' }).where(eq(workspaces.id, shop.id));
    vi.useFakeTimers({ toFake: ['Date'], now: new Date() });
    try {
      const dayInUtcPlus14 = (days: number) =>
        new Date(Date.now() + 14 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
      const [today, tomorrow] = [dayInUtcPlus14(0), dayInUtcPlus14(1)];
      expectValidation(
        await call('POST', 'brands', { ...brandInput(), creationDate: tomorrow }),
        'creationDate',
        validationCodes.DATE_IN_FUTURE,
      );
      const created = await call('POST', 'brands', { ...brandInput(), creationDate: today });
      expect(created.status, created.text).toBe(201);
      const brand = dataOf<BrandRecord>(created);
      expect(brand.creationDate).toBe(today);
      expectValidation(
        await call('PATCH', `brands/${brand.id}`, { creationDate: tomorrow }),
        'creationDate',
        validationCodes.DATE_IN_FUTURE,
      );
      expectValidation(
        await call('POST', 'locations', { ...locationInput(brand.id), openingDate: tomorrow }),
        'openingDate',
        validationCodes.DATE_IN_FUTURE,
      );
    } finally {
      vi.useRealTimers();
      await t.db.update(workspaces).set({ timeZone: defaultTimeZone }).where(eq(workspaces.id, shop.id));
    }
  });
});

describe('categories', () => {
  it('sub-categories list by parent; a category cannot be its own parent', async () => {
    const input = (parentId: string | null = null) => ({
      code: unique('c'),
      name: [{ locale: 'en', value: 'Coffee' }],
      description: [{ locale: 'en', value: 'Beans and ground' }],
      parentId,
    });
    const parent = dataOf<CategoryRecord>(await call('POST', 'categories', input()));
    const child = dataOf<CategoryRecord>(await call('POST', 'categories', input(parent.id)));
    const children = await api(t.app, {
      url: `/api/categories?workspaceId=${shop.id}&parentId=${parent.id}`,
      cookie: admin.cookie,
    });
    expect((children.json as { data: CategoryRecord[] }).data.map((row) => row.id)).toEqual([child.id]);
    expectValidation(
      await call('PATCH', `categories/${parent.id}`, { parentId: parent.id }),
      'parentId',
      validationCodes.PARENT_IS_DESCENDANT,
    );
    expectValidation(await call('DELETE', `categories/${parent.id}`), 'id', validationCodes.RECORD_IN_USE);
  });
});
