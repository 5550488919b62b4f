import {
  type BaseCurrencyChange,
  convertMoney,
  maxMoneyMinorUnits,
  type ProductRecord,
  validationCodes,
  type WorkspaceSettings,
} from '@dukkan/contract';
import { describe, expect, it } from 'vitest';
import { api, dataOf, expectValidation } from './helpers/api.ts';
import { productCatalogue, sizes } from './helpers/product-catalogue.ts';
import { type TestApp, useTestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, tagsExcept } from './helpers/workspaces.ts';

/**
 * A new base currency converts every price and cost of the workspace's products and variants at
 * its exchange rate for the new base, rounded half-up, in the transaction that rebases the rates;
 * refused with nothing changed where it cannot. The settings page asks first what would change.
 */
let t: TestApp;
useTestApp((app) => {
  t = app;
});

/** A workspace of its own, its admin, and its products' calls. */
async function pricedShop(name: string) {
  const workspace = await createWorkspace(t.db, name);
  const admin = await addMember(t.db, workspace.id, { isAdmin: true });
  return { workspace, admin, catalogue: productCatalogue(t.app, workspace, admin) };
}
const settingsUrl = (workspaceId: string) => `/api/workspaces/settings?workspaceId=${workspaceId}`;
const changeBase = (workspaceId: string, member: TestMember, baseCurrency: string) =>
  api(t.app, {
    method: 'PATCH',
    url: settingsUrl(workspaceId),
    body: { baseCurrency },
    cookie: member.cookie,
  });
const baseOf = async (workspaceId: string, member: TestMember) =>
  dataOf<WorkspaceSettings>(await api(t.app, { url: settingsUrl(workspaceId), cookie: member.cookie }))
    .baseCurrency;
const preview = (workspaceId: string, cookie: string | undefined, currency: string) =>
  api(t.app, {
    url: `/api/workspaces/settings/base-currency-change?workspaceId=${workspaceId}&currency=${currency}`,
    cookie,
  });
const addRates = async (shop: Awaited<ReturnType<typeof pricedShop>>, rates: Record<string, number>) =>
  expect(
    (
      await shop.catalogue.call(
        'POST',
        'exchange-rates/bulk',
        Object.entries(rates).map(([currency, rate]) => ({ currency, rate })),
      )
    ).status,
  ).toBe(201);
/** Every amount of a product as the API answers it: its own, its range, its variants'. */
const amountsOf = (product: ProductRecord) => ({
  price: product.price,
  cost: product.cost,
  range: [product.priceMin, product.priceMax],
  variants: product.variants!.map((variant) => [variant.price, variant.cost]),
});

describe('changing the base currency', () => {
  it('converts every price and cost at the new base’s rate, rounded half-up; the preview names them', async () => {
    const shop = await pricedShop('Converting');
    const bystander = await pricedShop('Bystander');
    await addRates(shop, { USD: 48.5, KWD: 157.25 });
    const size = await shop.catalogue.variationType('Size', 'المقاس', sizes);
    const plain = await shop.catalogue.created({ price: 100_00, cost: 61_37 });
    const sized = await shop.catalogue.created({
      price: 0,
      options: [{ typeId: size.id, valueIds: size.values }],
      variants: [
        { key: size.values[0], price: 120_00, cost: 40_25 },
        { key: size.values[1], price: 150_05 },
        { key: size.values[2], price: 180_00, status: 'inactive' },
      ],
    });
    const free = await shop.catalogue.created({ price: 0 });
    const theirs = await bystander.catalogue.created({ price: 100_00 });

    // Non-zero amounts: the plain product's price and cost, three variant prices and one cost.
    expect(dataOf<BaseCurrencyChange>(await preview(shop.workspace.id, shop.admin.cookie, 'USD'))).toEqual({
      amounts: 6,
      rate: 48.5,
    });
    expect((await changeBase(shop.workspace.id, shop.admin, 'USD')).status).toBe(200);
    const usd = (minor: number) => convertMoney(minor, 'EGP', 'USD', 48.5);
    expect(amountsOf(await shop.catalogue.get(plain.id))).toEqual({
      price: usd(100_00), // 2.06
      cost: usd(61_37),
      range: [usd(100_00), usd(100_00)],
      variants: [],
    });
    expect(usd(100_00)).toBe(2_06);
    expect(amountsOf(await shop.catalogue.get(sized.id))).toEqual({
      price: 0,
      cost: null,
      range: [usd(120_00), usd(150_05)],
      variants: [
        [usd(120_00), usd(40_25)],
        [usd(150_05), null],
        [usd(180_00), null],
      ],
    });
    expect((await shop.catalogue.get(free.id)).price).toBe(0);
    // Another workspace's prices never move.
    expect((await bystander.catalogue.get(theirs.id)).price).toBe(100_00);

    // On to KWD (three decimals) at the rebased rate: KWD 157.25 / 48.5 USD.
    const kwd = dataOf<{ currency: string; rate: number }[]>(
      await shop.catalogue.call('GET', 'exchange-rates'),
    ).find((entry) => entry.currency === 'KWD');
    expect(dataOf<BaseCurrencyChange>(await preview(shop.workspace.id, shop.admin.cookie, 'KWD'))).toEqual({
      amounts: 6,
      rate: kwd!.rate,
    });
    expect((await changeBase(shop.workspace.id, shop.admin, 'KWD')).status).toBe(200);
    const toKwd = (minor: number) => convertMoney(usd(minor)!, 'USD', 'KWD', kwd!.rate);
    expect((await shop.catalogue.get(plain.id)).price).toBe(toKwd(100_00));
    expect((await shop.catalogue.get(sized.id)).variants![1]!.price).toBe(toKwd(150_05));
  });

  it('the database converts exactly as convertMoney: halves up, digits of each currency', async () => {
    const shop = await pricedShop('Exact');
    await addRates(shop, { JPY: 0.3275 });
    const size = await shop.catalogue.numberedType('N', 12);
    // EGP → JPY (no decimals) at 0.3275 EGP per yen: 1 piastre is 0.0305… yen; 1,637.5 piastres
    // are 50 yen exactly, halves at 3.275 and 1,801.25 …; the largest amounts in bulk.
    const prices = [1, 16, 17, 3_27, 1_637_50, 1_801_25, 1_801_26, 9_999_99, 123_456_789, 32_750, 49, 50];
    const product = await shop.catalogue.created({
      options: [{ typeId: size.id, valueIds: size.values }],
      variants: size.values.map((key, index) => ({ key, price: prices[index], cost: prices[11 - index] })),
    });
    expect((await changeBase(shop.workspace.id, shop.admin, 'JPY')).status).toBe(200);
    const jpy = (minor: number) => convertMoney(minor, 'EGP', 'JPY', 0.3275);
    expect(amountsOf(await shop.catalogue.get(product.id)).variants).toEqual(
      prices.map((price, index) => [jpy(price), jpy(prices[11 - index]!)]),
    );
  });

  it('with prices and no rate for the new base: refused under the field, nothing changed', async () => {
    const shop = await pricedShop('No rate');
    const product = await shop.catalogue.created({ price: 25_00 });
    expect(dataOf<BaseCurrencyChange>(await preview(shop.workspace.id, shop.admin.cookie, 'USD'))).toEqual({
      amounts: 1,
      rate: null,
      refusal: validationCodes.PRICES_NEED_A_RATE,
    });
    expectValidation(
      await changeBase(shop.workspace.id, shop.admin, 'USD'),
      'baseCurrency',
      validationCodes.PRICES_NEED_A_RATE,
    );
    // Other rates, but none for the new base: the prices are named first.
    await addRates(shop, { EUR: 52 });
    expectValidation(
      await changeBase(shop.workspace.id, shop.admin, 'USD'),
      'baseCurrency',
      validationCodes.PRICES_NEED_A_RATE,
    );
    expect(await baseOf(shop.workspace.id, shop.admin)).toBe('EGP');
    expect((await shop.catalogue.get(product.id)).price).toBe(25_00);
  });

  it('only zero prices: nothing to convert, no rate needed', async () => {
    const shop = await pricedShop('Zeros');
    const product = await shop.catalogue.created({ price: 0, cost: 0 });
    expect(dataOf<BaseCurrencyChange>(await preview(shop.workspace.id, shop.admin.cookie, 'USD'))).toEqual({
      amounts: 0,
      rate: null,
    });
    expect((await changeBase(shop.workspace.id, shop.admin, 'USD')).status).toBe(200);
    expect(await baseOf(shop.workspace.id, shop.admin)).toBe('USD');
    expect((await shop.catalogue.get(product.id)).price).toBe(0);
  });

  it('an amount the column cannot hold once converted: refused, nothing changed', async () => {
    const shop = await pricedShop('Too large');
    await addRates(shop, { JOD: 0.5 });
    const product = await shop.catalogue.created({ price: maxMoneyMinorUnits - 10, cost: 1_00 });
    expect(dataOf<BaseCurrencyChange>(await preview(shop.workspace.id, shop.admin.cookie, 'JOD'))).toEqual({
      amounts: 2,
      rate: 0.5,
      refusal: validationCodes.MONEY_TOO_LARGE,
    });
    expectValidation(
      await changeBase(shop.workspace.id, shop.admin, 'JOD'),
      'baseCurrency',
      validationCodes.MONEY_TOO_LARGE,
    );
    expect(await baseOf(shop.workspace.id, shop.admin)).toBe('EGP');
    expect(amountsOf(await shop.catalogue.get(product.id))).toMatchObject({
      price: maxMoneyMinorUnits - 10,
      cost: 1_00,
    });
    const rates = dataOf<{ currency: string; rate: number }[]>(
      await shop.catalogue.call('GET', 'exchange-rates'),
    );
    expect(rates.map(({ currency, rate }) => [currency, rate])).toEqual([['JOD', 0.5]]);
  });

  it('the preview: admins only, of their own workspace, a currency in use', async () => {
    const shop = await pricedShop('Preview access');
    const other = await pricedShop('Preview other');
    expect((await preview(shop.workspace.id, undefined, 'USD')).status).toBe(401);
    const manager = await addMember(t.db, shop.workspace.id, { tags: tagsExcept([]) });
    expect((await preview(shop.workspace.id, manager.cookie, 'USD')).status).toBe(403);
    expect((await preview(other.workspace.id, shop.admin.cookie, 'USD')).status).toBe(403);
    expectValidation(
      await preview(shop.workspace.id, shop.admin.cookie, 'XYZ'),
      'currency',
      validationCodes.CURRENCY_IS_INVALID,
    );
    expect(dataOf<BaseCurrencyChange>(await preview(shop.workspace.id, shop.admin.cookie, 'EGP'))).toEqual({
      amounts: 0,
      rate: null,
    });
  });
});
