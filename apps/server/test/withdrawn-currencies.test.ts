import { type BrandRecord, type ExchangeRateRecord, validationCodes } from '@dukkan/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, dataOf, expectValidation } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/** Currency fields take only the codes in use today: a withdrawn one is refused and nothing saved. */
let t: TestApp;
let shop: { id: string };
let admin: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Currency Shop');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) =>
  api(t.app, { method, url: `/api/${path}?workspaceId=${shop.id}`, body, cookie: admin.cookie });
const brand = (code: string, currencies: string[]) => ({
  code,
  name: [{ locale: 'en', value: 'Roastery' }],
  currencies,
});
const listed = async (path: string) =>
  dataOf<unknown[]>(
    await api(t.app, { url: `/api/${path}?workspaceId=${shop.id}&pageSize=100`, cookie: admin.cookie }),
  );

describe('withdrawn currency codes', () => {
  // HRK (Croatia, 2023), ZWL (Zimbabwe, 2024), SLL (Sierra Leone, 2024): Node's Intl still knows them.
  it.each(['HRK', 'ZWL', 'SLL'])(
    'a brand with %s is refused with CURRENCY_IS_INVALID and not saved',
    async (code) => {
      const brandCode = unique('b');
      const refused = expectValidation(
        await call('POST', 'brands', brand(brandCode, ['EGP', code])),
        'currencies.1',
      );
      expect(refused.issues).toEqual([
        { path: 'currencies.1', message: validationCodes.CURRENCY_IS_INVALID },
      ]);
      const brands = (await listed('brands')) as BrandRecord[];
      expect(brands.some((row) => row.code === brandCode)).toBe(false);
    },
  );

  it('a brand with EGP and USD is created', async () => {
    const response = await call('POST', 'brands', brand(unique('b'), ['EGP', 'USD']));
    expect(response.status).toBe(201);
    expect(dataOf<BrandRecord>(response).currencies).toEqual(['EGP', 'USD']);
  });

  it('an update to a withdrawn code is refused and the brand keeps its currencies', async () => {
    const created = dataOf<BrandRecord>(await call('POST', 'brands', brand(unique('b'), ['EGP'])));
    expectValidation(await call('PATCH', `brands/${created.id}`, { currencies: ['HRK'] }), 'currencies.0');
    expect(dataOf<BrandRecord>(await call('GET', `brands/${created.id}`)).currencies).toEqual(['EGP']);
  });

  it('an exchange rate for ZWL is refused and not saved; one for USD is created', async () => {
    const refused = expectValidation(
      await call('POST', 'exchange-rates', { currency: 'ZWL', rate: 1.5 }),
      'currency',
    );
    expect(refused.issues).toEqual([{ path: 'currency', message: validationCodes.CURRENCY_IS_INVALID }]);
    const rates = (await listed('exchange-rates')) as ExchangeRateRecord[];
    expect(rates.some((rate) => rate.currency === 'ZWL')).toBe(false);
    // Not EGP: the workspace's base currency has no rate of its own.
    const created = await call('POST', 'exchange-rates', { currency: 'USD', rate: 48.55 });
    expect(created.status).toBe(201);
    expect(dataOf<ExchangeRateRecord>(created).currency).toBe('USD');
  });
});
