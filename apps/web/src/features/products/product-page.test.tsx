import type { ProductRecord } from '@dukkan/contract';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { bothLanguages } from '../../test/localized.ts';
import {
  callsTo,
  listPage,
  type MockRoute,
  mockFetch,
  renderSignedIn,
  testUser,
} from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';
import { ProductPage } from './product-page.tsx';
import {
  catalogueRoutes,
  cups,
  drinks,
  latte,
  list,
  milk,
  refusal,
  setUpProductPageTests,
  size,
  sugar,
  syrup,
  uuid,
} from './product-test-data.ts';

const workspace = { id: 'w-shop', name: 'Shop' };
const latteUrl = `/api/products/${latte.id}`;

function renderPage({
  at,
  grant = 'admin',
  routes = [],
}: {
  at: string;
  grant?: 'admin' | string[];
  routes?: MockRoute[];
}) {
  const mock = mockFetch([
    ...routes,
    { path: latteUrl, body: { data: latte } },
    { path: `/api/products/${syrup.id}`, body: { data: syrup } },
    { path: `/api/products/${sugar.id}`, body: { data: sugar } },
    ...catalogueRoutes,
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(<ProductPage />, {
    user: testUser([{ ...workspace, grant }]),
    path: at === '/products/add' ? '/products/add' : '/products/:id',
    at,
  });
  return mock;
}

const saveButton = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
const location = () => screen.getByTestId('location').textContent;

/** Adds a variation type and chooses every one of its values. */
async function addTypeWithAllValues(person: ReturnType<typeof userEvent.setup>, name: string) {
  await person.click(await screen.findByRole('button', { name: 'Variation type to add' }));
  await person.type(screen.getByRole('combobox', { name: 'Search variation types by code or name' }), name);
  await person.click(await screen.findByRole('option', { name: new RegExp(name) }));
  await person.click(screen.getByRole('button', { name: `Choose every value of ${name}` }));
}

/** The grid's cell of a variant (from 0) in a column (from 0: select, title, SKU, barcode, image, status). */
function cellAt(row: number, column: number): HTMLElement {
  const cell = document.querySelector<HTMLElement>(
    `[role="row"][aria-rowindex="${row + 2}"] [role="gridcell"][aria-colindex="${column + 1}"]`,
  );
  if (!cell) throw new Error(`no cell at ${row}:${column}`);
  return cell;
}
const SKU = 2;
const PRICE = 4;

const vat = {
  id: uuid(7000),
  code: 'VAT',
  title: bothLanguages('VAT', 'VAT'),
  country: 'EG',
  rate: 14,
  status: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

setUpProductPageTests();

describe('the add product page', () => {
  it('creates a product of 2 types, 3 × 4 values: the preview says 12, the POST has the options and no variants', async () => {
    const person = userEvent.setup();
    const created: ProductRecord = { ...latte, id: uuid(9999), recipe: [] };
    const { calls } = renderPage({
      at: '/products/add',
      routes: [{ method: 'POST', path: '/api/products', status: 201, body: { data: created } }],
    });
    await person.type(screen.getByLabelText('Code'), 'LAT');
    await person.type(screen.getByLabelText('Name (English)'), 'Latte');
    const unit = screen.getByLabelText('Unit of measurement');
    await waitFor(() => expect(within(unit).getByRole('option', { name: 'Cup' })).toBeTruthy());
    await person.selectOptions(unit, cups.id);

    await addTypeWithAllValues(person, 'Size');
    expect(screen.getByText('Variants that will be created: 3')).toBeTruthy();
    await addTypeWithAllValues(person, 'Milk');
    expect(screen.getByText('Variants that will be created: 12')).toBeTruthy();
    expect(screen.getByRole('grid').getAttribute('aria-rowcount')).toBe('13');

    await person.click(saveButton());
    expect(await screen.findByText('Creating PRODUCT successful!')).toBeTruthy();
    const [post] = callsTo(calls, '/api/products', 'POST');
    expect(post?.query.get('workspaceId')).toBe(workspace.id);
    const body = post?.body as Record<string, unknown>;
    expect(body.options).toEqual([
      { typeId: size.id, valueIds: size.values.map((value) => value.id) },
      { typeId: milk.id, valueIds: milk.values.map((value) => value.id) },
    ]);
    expect(body).not.toHaveProperty('variants');
    expect(body).toMatchObject({
      code: 'LAT',
      name: [{ locale: 'en', value: 'Latte' }],
      measurementUnitId: cups.id,
    });
    await waitFor(() => expect(location()).toBe(`/products/${created.id}`));
  });

  it('a type beyond the first page of types is found by a search on the server, and added', async () => {
    const person = userEvent.setup();
    const { calls } = renderPage({
      at: '/products/add',
      routes: [
        {
          path: '/api/variation-types',
          body: ({ query }: { query: URLSearchParams }) =>
            list(query.get('search') === 'Milk' ? [milk] : [size]),
        },
        { path: `/api/variation-types/${milk.id}`, body: { data: milk } },
      ],
    });
    await addTypeWithAllValues(person, 'Milk');
    expect(callsTo(calls, '/api/variation-types').some((call) => call.query.get('search') === 'Milk')).toBe(
      true,
    );
    expect(screen.getByRole('group', { name: 'Values of Milk' })).toBeTruthy();
    expect(screen.getByText(`Variants that will be created: ${milk.values.length}`)).toBeTruthy();
  });

  it('above 2,048 combinations names the count, in the TOO_MANY_VARIANTS message, and Save is disabled', async () => {
    const person = userEvent.setup();
    const { calls } = renderPage({ at: '/products/add' });
    await addTypeWithAllValues(person, 'Size');
    await addTypeWithAllValues(person, 'Shade');
    expect(
      screen.getByText(
        'These choices make 2049 variants; a product can have at most 2048. Choose fewer values',
      ),
    ).toBeTruthy();
    expect(saveButton().disabled).toBe(true);
    expect(screen.queryByRole('grid')).toBeNull();

    // One value fewer is within the limit again (the long list is filtered to find it).
    expect(screen.getByText('Showing 60 of 683 values: filter to find the others')).toBeTruthy();
    await person.type(screen.getByLabelText('Filter Shade'), '683');
    await person.click(screen.getByLabelText('Shade 683'));
    expect(screen.getByText('Variants that will be created: 2046')).toBeTruthy();
    expect(saveButton().disabled).toBe(false);
    expect(callsTo(calls, '/api/products', 'POST')).toHaveLength(0);
  });
});

describe('a stored product', () => {
  it('editing one SKU in the grid sends just that variant, by key', async () => {
    const person = userEvent.setup();
    const { calls } = renderPage({
      at: `/products/${latte.id}`,
      routes: [{ method: 'PATCH', path: latteUrl, body: { data: latte } }],
    });
    expect(await screen.findByText('Variants that will be created: 12')).toBeTruthy();
    expect(cellAt(0, SKU).textContent).toBe('LAT-S-WHOLE');
    await person.click(cellAt(5, SKU));
    await person.keyboard('LAT-M-SKIM{Enter}');
    await person.click(saveButton());
    await waitFor(() => expect(callsTo(calls, latteUrl, 'PATCH')).toHaveLength(1));
    const [medium, skim] = [size.values[1]!, milk.values[1]!];
    expect(callsTo(calls, latteUrl, 'PATCH')[0]?.body).toEqual({
      variants: [{ key: `${medium.id}-${skim.id}`, sku: 'LAT-M-SKIM' }],
    });
  });

  it('a variant price typed in its cell is sent with its key, in minor units; a bad one holds the save', async () => {
    const person = userEvent.setup();
    const { calls } = renderPage({
      at: `/products/${latte.id}`,
      routes: [{ method: 'PATCH', path: latteUrl, body: { data: latte } }],
    });
    await screen.findByText('Variants that will be created: 12');
    expect(cellAt(1, PRICE).textContent).toBe('125.00');
    await person.click(cellAt(1, PRICE));
    await person.keyboard('abc{Enter}');
    expect(await screen.findByText('Fix the amounts marked in the variants before saving.')).toBeTruthy();
    await person.click(saveButton());
    expect(callsTo(calls, latteUrl, 'PATCH')).toHaveLength(0);

    await person.click(cellAt(1, PRICE));
    await person.keyboard('{Enter}{Control>}a{/Control}{Backspace}130.5{Enter}');
    await person.click(saveButton());
    await waitFor(() => expect(callsTo(calls, latteUrl, 'PATCH')).toHaveLength(1));
    expect(callsTo(calls, latteUrl, 'PATCH')[0]?.body).toEqual({
      variants: [{ key: latte.variants![1]!.key, price: 13_050 }],
    });
  });

  it('a product without variants: its price typed in Arabic digits, its tax, sent in minor units', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    const person = userEvent.setup();
    const { calls } = renderPage({
      at: `/products/${syrup.id}`,
      routes: [
        { path: '/api/taxes', body: list([vat]) },
        { method: 'PATCH', path: `/api/products/${syrup.id}`, body: { data: syrup } },
      ],
    });
    const fields = signedInAr.products.page;
    const price = (await screen.findByLabelText(fields.priceLabel.replace('{{baseCurrency}}', 'EGP'), {
      exact: false,
    })) as HTMLInputElement;
    expect(price.value).toBe('٠٫٠٠');
    expect(price.getAttribute('dir')).toBe('ltr');
    await person.clear(price);
    await person.type(price, '١٢٫٥٠٥');
    await person.click(screen.getByRole('button', { name: ar.common.save }));
    expect(await screen.findByText(ar.validation.MONEY_TOO_MANY_DECIMALS)).toBeTruthy();
    expect(callsTo(calls, `/api/products/${syrup.id}`, 'PATCH')).toHaveLength(0);

    await person.clear(price);
    await person.type(price, '١٢٫٥');
    const tax = screen.getByLabelText(signedInAr.resources.products.fields.taxId);
    await waitFor(() => expect(within(tax).getByRole('option', { name: 'VAT' })).toBeTruthy());
    await person.selectOptions(tax, vat.id);
    await person.click(screen.getByLabelText(signedInAr.resources.products.fields.pricesIncludeTax));
    await person.click(screen.getByRole('button', { name: ar.common.save }));
    await waitFor(() => expect(callsTo(calls, `/api/products/${syrup.id}`, 'PATCH')).toHaveLength(1));
    expect(callsTo(calls, `/api/products/${syrup.id}`, 'PATCH')[0]?.body).toEqual({
      price: 1250,
      taxId: vat.id,
      pricesIncludeTax: false,
    });
  });

  it("puts a server's SKU refusal at variants.<i>.sku on the variant sent i-th, not the grid's i-th row", async () => {
    const person = userEvent.setup();
    renderPage({
      at: `/products/${latte.id}`,
      routes: [
        {
          method: 'PATCH',
          path: latteUrl,
          ...refusal([{ path: 'variants.1.sku', message: 'SKU_MUST_BE_UNIQUE' }]),
        },
      ],
    });
    await screen.findByText('Variants that will be created: 12');
    await person.click(cellAt(2, SKU));
    await person.keyboard('LAT-S-OAT{Enter}');
    await person.click(cellAt(9, SKU));
    await person.keyboard('LAT-L-SKIM{Enter}');
    await person.click(saveButton());
    expect(await within(cellAt(9, SKU)).findByText('Another variant already has this SKU')).toBeTruthy();
    expect(cellAt(9, SKU).getAttribute('aria-invalid')).toBe('true');
    expect(within(cellAt(2, SKU)).queryByText('Another variant already has this SKU')).toBeNull();
    expect(within(cellAt(1, SKU)).queryByText('Another variant already has this SKU')).toBeNull();
  });

  it('is read-only for a user with viewProducts only: no inputs, no Save', async () => {
    renderPage({
      at: `/products/${latte.id}`,
      grant: ['viewProducts', 'viewVariations', 'viewMeasurementUnits'],
    });
    expect(await screen.findByText('You can view this product but not change it.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Latte', level: 1 })).toBeTruthy();
    expect(screen.getByText('LAT')).toBeTruthy();
    expect(await screen.findByText('Cup')).toBeTruthy();
    expect(screen.getByRole('grid').getAttribute('aria-readonly')).toBe('true');
    expect(screen.getByRole('rowheader', { name: /Vanilla syrup/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(document.querySelectorAll('input, select, textarea')).toHaveLength(0);
  });

  it("names the unit, category, types and values from the product's own answer for a reader who cannot list them", async () => {
    const named = (record: { id: string; name: ProductRecord['name'] }) => [record.id, { name: record.name }];
    const referenced: ProductRecord = {
      ...latte,
      references: Object.fromEntries([
        [cups.id, { name: cups.name, symbol: cups.symbol }],
        named(drinks),
        ...[size, milk].flatMap((type) => [named(type), ...type.values.map(named)]),
      ]),
    };
    renderPage({
      at: `/products/${latte.id}`,
      grant: ['viewProducts'],
      routes: [{ path: latteUrl, body: { data: referenced } }],
    });
    expect(await screen.findByText('You can view this product but not change it.')).toBeTruthy();
    expect(screen.getByText('Cup')).toBeTruthy();
    expect(screen.getByText('Drinks')).toBeTruthy();
    expect(screen.getByText('Size')).toBeTruthy();
    expect(screen.getByText('Whole, Skim, Oat, Soy')).toBeTruthy();
  });

  it('with editProducts too, the same address is the form with Save', async () => {
    renderPage({ at: `/products/${latte.id}`, grant: ['viewProducts', 'editProducts', 'viewVariations'] });
    expect(((await screen.findByLabelText('Code')) as HTMLInputElement).value).toBe('LAT');
    expect(saveButton()).toBeTruthy();
    expect(screen.queryByText('You can view this product but not change it.')).toBeNull();
  });

  it('shows a stored product’s History to whoever holds viewAudit, and to no one else', async () => {
    const repriced = {
      id: 'a1',
      at: '2026-11-29T08:15:00.000Z',
      actorKind: 'member',
      actorUserId: 'u-karim',
      actorName: 'Karim Adel',
      requestId: null,
      address: null,
      userAgent: null,
      action: 'update',
      resource: 'products',
      recordId: latte.id,
      changes: { code: ['LATTE', 'LAT'] },
    };
    const history = { path: '/api/audit-log', body: listPage([repriced]) };
    const { calls } = renderPage({ at: `/products/${latte.id}`, routes: [history] });
    const change = await screen.findByTestId('audit-change');
    expect(change.textContent).toBe('Code:Before: LATTE→After: LAT');
    expect(callsTo(calls, '/api/audit-log')[0]?.query.get('recordId')).toBe(latte.id);
    cleanup();
    const viewer = renderPage({
      at: `/products/${latte.id}`,
      grant: ['viewProducts', 'editProducts', 'viewVariations'],
      routes: [history],
    });
    await screen.findByLabelText('Code');
    expect(screen.queryByRole('heading', { name: 'History' })).toBeNull();
    expect(callsTo(viewer.calls, '/api/audit-log')).toEqual([]);
  });

  it('refuses /products/add without addProducts with the app’s refusal view, linking the pages the member may open', async () => {
    renderPage({ at: '/products/add', grant: ['viewProducts', 'viewTaxes'] });
    expect(await screen.findByText('You are not authorized to access this page')).toBeTruthy();
    const pages = screen.getByRole('navigation', { name: 'Pages you can open' });
    expect(within(pages).getByRole('link', { name: 'Taxes' }).getAttribute('href')).toBe('/taxes');
  });

  it('says so when the product does not exist in the workspace', async () => {
    renderPage({ at: `/products/${uuid(404)}` });
    expect(await screen.findByText('This product does not exist in this workspace.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to products' }).getAttribute('href')).toBe('/products');
  });
});

describe('the recipe', () => {
  it('a line added (ingredient searched on the server, quantity in its unit, an order type) is sent', async () => {
    const person = userEvent.setup();
    const { calls } = renderPage({
      at: `/products/${latte.id}`,
      routes: [
        {
          path: '/api/products',
          body: ({ query }: { query: URLSearchParams }) =>
            list(query.get('search') === 'sug' ? [sugar] : [syrup, sugar]),
        },
        { method: 'PATCH', path: latteUrl, body: { data: latte } },
      ],
    });
    await person.click(await screen.findByRole('button', { name: 'Add ingredient' }));
    const line = screen.getByRole('group', { name: 'Line 2' });
    await person.click(within(line).getByRole('button', { name: 'Ingredient (Line 2)' }));
    await person.type(
      screen.getByRole('combobox', { name: 'Search products by code, name, SKU or barcode' }),
      'sug',
    );
    await waitFor(() =>
      expect(callsTo(calls, '/api/products').some((call) => call.query.get('search') === 'sug')).toBe(true),
    );
    await person.click(await screen.findByRole('option', { name: /Sugar/ }));
    expect(within(line).getByRole('button', { name: 'Ingredient (Line 2)' }).textContent).toContain('SUG');
    expect(await within(line).findByText('g')).toBeTruthy();
    await person.type(within(line).getByLabelText('Quantity'), '2.5');
    await person.click(within(line).getByRole('checkbox', { name: 'Takeaway' }));
    await person.click(saveButton());

    await waitFor(() => expect(callsTo(calls, latteUrl, 'PATCH')).toHaveLength(1));
    expect(callsTo(calls, latteUrl, 'PATCH')[0]?.body).toEqual({
      recipe: [
        {
          ingredientProductId: syrup.id,
          ingredientVariantId: null,
          quantity: 20,
          orderTypes: [],
          brandIds: [],
        },
        {
          ingredientProductId: sugar.id,
          ingredientVariantId: null,
          quantity: 2.5,
          orderTypes: ['takeaway'],
          brandIds: [],
        },
      ],
    });
  });

  it("a line's brands tell a member who may not view brands so, not that there are none yet", async () => {
    const person = userEvent.setup();
    renderPage({
      at: `/products/${latte.id}`,
      grant: ['viewProducts', 'editProducts', 'viewVariations', 'viewMeasurementUnits'],
    });
    const line = await screen.findByRole('group', { name: 'Line 1' });
    await person.click(within(line).getByRole('button', { name: /brands/i }));
    expect(await screen.findByText('You may not view brands')).toBeTruthy();
    expect(screen.queryByText('There are no brands yet')).toBeNull();
  });

  it('a quantity typed in Arabic-Indic digits (١٢٫٥) is read as 12.5 and sent', async () => {
    const person = userEvent.setup();
    const { calls } = renderPage({
      at: `/products/${latte.id}`,
      routes: [{ method: 'PATCH', path: latteUrl, body: { data: latte } }],
    });
    const line = await screen.findByRole('group', { name: 'Line 1' });
    const quantity = within(line).getByLabelText('Quantity') as HTMLInputElement;
    expect(quantity.getAttribute('inputmode')).toBe('decimal');
    expect(quantity.getAttribute('dir')).toBe('ltr');
    await person.clear(quantity);
    await person.type(quantity, '١٢٫٥');
    await person.click(saveButton());
    await waitFor(() => expect(callsTo(calls, latteUrl, 'PATCH')).toHaveLength(1));
    const sent = callsTo(calls, latteUrl, 'PATCH')[0]?.body as { recipe: { quantity: number }[] };
    expect(sent.recipe[0]?.quantity).toBe(12.5);
  });

  const cycle = (names: string) =>
    refusal([{ path: 'recipe.0.ingredientProductId', message: 'RECIPE_CYCLE', params: { cycle: names } }]);

  async function saveChangedQuantity(save: string, line: string, patch: MockRoute) {
    const person = userEvent.setup();
    renderPage({ at: `/products/${latte.id}`, routes: [patch] });
    const group = await screen.findByRole('group', { name: line });
    const quantity = within(group).getByRole('textbox', { name: /^(Quantity|الكمية)$/ });
    await person.clear(quantity);
    await person.type(quantity, '25');
    await person.click(screen.getByRole('button', { name: save }));
    return group;
  }

  it("shows the server's RECIPE_CYCLE on the line, naming the loop, in English", async () => {
    const line = await saveChangedQuantity('Save', 'Line 1', {
      method: 'PATCH',
      path: latteUrl,
      ...cycle('Latte → Vanilla syrup → Latte'),
    });
    expect(
      await within(line).findByText(
        'These recipes would use each other in a loop: Latte → Vanilla syrup → Latte',
      ),
    ).toBeTruthy();
    expect(
      within(line).getByRole('button', { name: 'Ingredient (Line 1)' }).getAttribute('aria-invalid'),
    ).toBe('true');
  });

  it("shows the server's RECIPE_CYCLE on the line, naming the loop, in Arabic", async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    const line = await saveChangedQuantity('حفظ', 'السطر 1', {
      method: 'PATCH',
      path: latteUrl,
      ...cycle('لاتيه ← شراب الفانيليا ← لاتيه'),
    });
    expect(
      await within(line).findByText('ستستخدم هذه الوصفات بعضها بعضًا في حلقة: لاتيه ← شراب الفانيليا ← لاتيه'),
    ).toBeTruthy();
  });
});
