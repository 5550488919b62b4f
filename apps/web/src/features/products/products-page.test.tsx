import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { searchDebounceMs } from '../../resource-ui/search-box.tsx';
import { openDialog } from '../../test/dialogs.ts';
import { importReport, mockImportJobs } from '../../test/import-jobs.ts';
import { callsTo, type MockRoute, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';
import { catalogueRoutes, latte, list, sugar } from './product-test-data.ts';
import { ProductsPage } from './products-page.tsx';

const workspace = { id: 'w-shop', name: 'Shop' };

function renderProducts(grant: 'admin' | string[] = 'admin', routes: MockRoute[] = []) {
  const mock = mockFetch([
    ...routes,
    { path: '/api/products', body: list([latte, sugar]) },
    { path: '/api/products/filters', body: { data: { status: [{ value: 'active', count: 2 }] } } },
    ...catalogueRoutes,
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(<ProductsPage />, { user: testUser([{ ...workspace, grant }]), path: '/products' });
  return mock;
}

/** Types a search into the list's box and lets its wait pass. */
function search(text: string) {
  // The search box waits 300 ms after the last keystroke: the test's clock lets that pass at once.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  fireEvent.change(screen.getByRole('searchbox'), { target: { value: text } });
  act(() => vi.advanceTimersByTime(searchDebounceMs));
  vi.useRealTimers();
}

/**
 * The list as the server answers it: a search by Latte's first variant's SKU finds Latte by that
 * variant (`matchedVariant`), a search by its name by its own fields (null).
 */
const searchedProducts: MockRoute = {
  path: '/api/products',
  body: ({ query }: { query: URLSearchParams }) => {
    const variant = latte.variants![0]!;
    const matchedVariant =
      query.get('search') === variant.sku
        ? { id: variant.id, title: variant.title, sku: variant.sku, barcode: '6221234567890' }
        : null;
    return list([
      { ...latte, matchedVariant },
      { ...sugar, matchedVariant: null },
    ]);
  },
};

/** The line under a product's name in its row (the row's header cell), or null. */
const noteUnder = (name: string) =>
  within(screen.getByRole('link', { name }).closest('th') as HTMLElement).queryByText(
    /^(Matched variant|المتغير المطابق):/,
  );

const lastList = (calls: Parameters<typeof callsTo>[0]) => callsTo(calls, '/api/products').at(-1)?.query;
const location = () => screen.getByTestId('location').textContent;

describe('ProductsPage', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('lists code, name, unit and category by name, and the variant count', async () => {
    renderProducts();
    const row = (await screen.findByRole('rowheader', { name: 'Latte' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('LAT')).toBeTruthy();
    expect(await within(row).findByText('Cup')).toBeTruthy();
    expect(await within(row).findByText('Drinks')).toBeTruthy();
    expect(within(row).getByText('12')).toBeTruthy();
  });

  it('shows the price range in the base currency, sorts by the lowest, and a dash without prices', async () => {
    const person = userEvent.setup();
    const { calls } = renderProducts();
    const row = (await screen.findByRole('rowheader', { name: 'Latte' })).closest('tr') as HTMLElement;
    expect(
      within(row).getByText((content) => content.replace(/\u00a0/g, ' ') === 'EGP 120.00 – 175.00'),
    ).toBeTruthy();
    const sugarRow = screen.getByRole('rowheader', { name: 'Sugar' }).closest('tr') as HTMLElement;
    const priceCell = within(sugarRow).getAllByRole('cell')[3];
    expect(priceCell?.textContent).toBe('—');
    await person.click(screen.getByRole('button', { name: /^Price/ }));
    await waitFor(() => expect(lastList(calls)?.get('sort')).toBe('priceMin'));
  });

  it('sends the search to the server (code, name, a variant SKU or barcode are its business)', async () => {
    const { calls } = renderProducts();
    await screen.findByRole('rowheader', { name: 'Latte' });
    // The search box waits 300 ms after the last keystroke: the test's clock lets that pass at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search Products' }), {
      target: { value: 'LAT-S-WHOLE' },
    });
    act(() => vi.advanceTimersByTime(searchDebounceMs));
    vi.useRealTimers();
    await waitFor(() => expect(lastList(calls)?.get('search')).toBe('LAT-S-WHOLE'));
    expect(lastList(calls)?.get('workspaceId')).toBe(workspace.id);
    expect(location()).toBe('/products?search=LAT-S-WHOLE');
  });

  it("names the variant a search found a product by under the product's name, and none for a match of its own", async () => {
    renderProducts('admin', [searchedProducts]);
    await screen.findByRole('rowheader', { name: 'Latte' });
    expect(noteUnder('Latte')).toBeNull();
    search('LAT-S-WHOLE');
    await waitFor(() => expect(noteUnder('Latte')).not.toBeNull());
    expect(noteUnder('Latte')?.textContent).toBe(
      'Matched variant: Small, Whole · SKU LAT-S-WHOLE · Barcode 6221234567890',
    );
    expect(noteUnder('Sugar')).toBeNull();
    // The name stays the link's name, the line outside it.
    expect(screen.getByRole('link', { name: 'Latte' }).textContent).toBe('Latte');

    search('Latte');
    await waitFor(() => expect(noteUnder('Latte')).toBeNull());
  });

  it('names the matched variant in Arabic for an Arabic reader', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    try {
      renderProducts('admin', [searchedProducts]);
      await screen.findByRole('rowheader', { name: 'لاتيه' });
      search('LAT-S-WHOLE');
      await waitFor(() => expect(noteUnder('لاتيه')).not.toBeNull());
      expect(noteUnder('لاتيه')?.textContent).toBe(
        'المتغير المطابق: Small ع، Whole ع · رمز SKU LAT-S-WHOLE · الباركود 6221234567890',
      );
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('filters by status, which every list with a status takes', async () => {
    const person = userEvent.setup();
    const { calls } = renderProducts();
    await screen.findByRole('rowheader', { name: 'Latte' });
    await person.click(screen.getByRole('button', { name: /^Status/ }));
    await person.click(screen.getByRole('checkbox', { name: /Inactive/ }));
    await waitFor(() => expect(lastList(calls)?.get('status')).toBe('inactive'));
    expect(location()).toBe('/products?status=inactive');
  });

  it("a row's name opens the product's page", async () => {
    const person = userEvent.setup();
    renderProducts();
    await person.click(await screen.findByRole('link', { name: 'Latte' }));
    expect(location()).toBe(`/products/${latte.id}`);
  });

  it('New opens the add page, not a dialog', async () => {
    const person = userEvent.setup();
    renderProducts();
    await screen.findByRole('rowheader', { name: 'Latte' });
    await person.click(screen.getByRole('link', { name: 'New product' }));
    expect(location()).toBe('/products/add');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers New only to a user who may add products, and no edit dialog at all', async () => {
    renderProducts(['viewProducts']);
    await screen.findByRole('rowheader', { name: 'Latte' });
    expect(screen.queryByRole('link', { name: 'New product' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New product' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
  });

  it("imports a products file: the dialog checks it and names a variant's unknown value in the reader's words", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const person = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const report = importReport({
      rows: 2,
      counts: { create: 0, update: 0, unchanged: 1 },
      errors: [
        {
          row: 3,
          column: 'Size',
          code: 'IMPORT_VALUE_NOT_FOUND',
          params: { value: 'Huge', type: 'Size' },
        },
      ],
    });
    const mock = renderProducts();
    // The import is a job: queued, then done with its report when polled.
    const { imports } = mockImportJobs('products', [report], mock.fetchMock);
    await person.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await openDialog('Import from a file');
    const file = new File(['Code,Size,Price\r\nLAT,Huge,10\r\n'], 'products.csv', { type: 'text/csv' });
    await person.upload(within(dialog).getByLabelText(/^File/), file);
    await person.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    const table = await within(dialog).findByRole('table', { name: 'The rows and columns to fix' });
    expect(within(table).getByText('“Size” has no value “Huge” in this workspace')).toBeTruthy();
    expect(imports[0]?.query.get('dryRun')).toBe('true');
  });

  it('offers no import to a member who may only view products', async () => {
    renderProducts(['viewProducts']);
    await screen.findByRole('rowheader', { name: 'Latte' });
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
  });
});
