import { validationCodes } from '@dukkan/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, dataOf, expectValidation } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/**
 * What Egyptian users type (issue 14) reaches the catalogue normalized by the contract's field
 * schemas: Arabic-Indic digits in phones and numbers, international numbers in groups. It is
 * stored so, and what the rules still refuse is refused with nothing saved.
 */
let t: TestApp;
let shop: { id: string };
let admin: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Typed Input Shop');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) =>
  api(t.app, { method, url: `/api/${path}?workspaceId=${shop.id}`, body, cookie: admin.cookie });
/** How many records a list has in the workspace. */
const total = async (path: string) =>
  ((await call('GET', path)).json as { meta: { total: number } }).meta.total;

describe('phones', () => {
  it('a customer with Arabic-Indic digits and a number in groups: stored normalized, the same number once', async () => {
    const created = await call('POST', 'customers', {
      code: unique('c'),
      name: 'Omar',
      phones: ['٠١٠٠٢٣٤٥٦٧٨', '+20 100 123 4567', '+201001234567', '+٢٠-١٠٠-١٢٣-٤٥٦٧'],
    });
    expect(created.status, created.text).toBe(201);
    const customer = dataOf<{ id: string; phones: string[] }>(created);
    expect(customer.phones).toEqual(['01002345678', '+201001234567']);
    expect(dataOf<{ phones: string[] }>(await call('GET', `customers/${customer.id}`)).phones).toEqual([
      '01002345678',
      '+201001234567',
    ]);
    // Found by the number as stored.
    const found = await api(t.app, {
      url: `/api/customers?workspaceId=${shop.id}&search=01002345678`,
      cookie: admin.cookie,
    });
    expect(dataOf<{ id: string }[]>(found).map((row) => row.id)).toEqual([customer.id]);
  });

  it('a location phone, created and edited', async () => {
    const brand = dataOf<{ id: string }>(
      await call('POST', 'brands', { code: unique('b'), name: [{ locale: 'en', value: 'Roastery' }] }),
    );
    const created = await call('POST', 'locations', {
      code: unique('l'),
      name: [{ locale: 'ar', value: 'المعادي' }],
      brandId: brand.id,
      phones: [{ label: 'Reception', number: '+20 (2) 2345-6789' }],
    });
    expect(created.status, created.text).toBe(201);
    const location = dataOf<{ id: string; phones: unknown }>(created);
    expect(location.phones).toEqual([{ label: 'Reception', number: '+20223456789' }]);
    const edited = await call('PATCH', `locations/${location.id}`, {
      phones: [{ label: 'Reception', number: '٠٢ ٢٣٤٥ ٦٧٨٩' }],
    });
    expect(edited.status, edited.text).toBe(200);
    expect(dataOf<{ phones: unknown }>(edited).phones).toEqual([
      { label: 'Reception', number: '0223456789' },
    ]);
  });

  it.each([
    ['letters', ['+20 1oo 123 4567'], validationCodes.PHONE_IS_INVALID],
    ['an Arabic letter', ['٠١٠٠٢٣٤٥٦٧٨ت'], validationCodes.PHONE_IS_INVALID],
    ['9 digits once normalized', ['٠١٠ ٠٢٣ ٤٥٦'], validationCodes.PHONE_TOO_SHORT],
    ['16 characters once normalized', ['+20 (100) 1234-567890'], validationCodes.PHONE_TOO_LONG],
  ])('a customer phone with %s → 400, nothing saved', async (_label, phones, code) => {
    const before = await total('customers');
    expectValidation(
      await call('POST', 'customers', { code: unique('c'), name: 'Omar', phones }),
      'phones.0',
      code,
    );
    expect(await total('customers')).toBe(before);
  });
});

describe('numbers', () => {
  it('a tax rate and an exchange rate typed with Arabic-Indic digits and separators', async () => {
    const tax = await call('POST', 'taxes', {
      code: unique('t'),
      title: [{ locale: 'en', value: 'VAT' }],
      country: 'EG',
      rate: '١٤',
    });
    expect(tax.status, tax.text).toBe(201);
    expect(dataOf<{ rate: number }>(tax).rate).toBe(14);
    const rate = await call('POST', 'exchange-rates', { currency: 'USD', rate: '٤٨٫٥' });
    expect(rate.status, rate.text).toBe(201);
    expect(dataOf<{ rate: number }>(rate).rate).toBe(48.5);
  });

  it.each([
    ['over 100', '١٠١'],
    ['not a number', '١٤س'],
    ['hexadecimal', '0x10'],
  ])('a tax rate %s → 400 TAX_RATE_OUT_OF_RANGE, nothing saved', async (_label, typed) => {
    const before = await total('taxes');
    expectValidation(
      await call('POST', 'taxes', {
        code: unique('t'),
        title: [{ locale: 'en', value: 'VAT' }],
        country: 'EG',
        rate: typed,
      }),
      'rate',
      validationCodes.TAX_RATE_OUT_OF_RANGE,
    );
    expect(await total('taxes')).toBe(before);
  });
});
