import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { leaveIfAllowed } from '../../lib/leave-guard.ts';
import {
  callsTo,
  type MockCall,
  type MockRoute,
  mockFetch,
  renderSignedIn,
  testUser,
} from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';
import { ProductPage } from './product-page.tsx';
import { cups, drinks, grams, list, setUpProductPageTests, uuid } from './product-test-data.ts';

/**
 * "New …" under the product page's reference fields (resource-ui's select, checkbox list and
 * record picker, with no page-specific code): the resource's own editor opens over the page, the
 * record saved there is chosen in the field, the page keeps what was typed, the editor's fields
 * offer "New …" in turn, and a record made meanwhile is said to be kept when an edit is discarded.
 */
const workspace = { id: 'w-shop', name: 'Shop' };
const stamps = { createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };

/** A small server of units, categories, tags and variation types: what is posted is listed after. */
function fakeServer({ tags = [] }: { tags?: Record<string, unknown>[] } = {}) {
  let next = 100;
  const stores: Record<string, Record<string, unknown>[]> = {
    'measurement-units': [grams, cups],
    categories: [drinks],
    'waste-categories': [],
    'product-tags': [...tags],
    'variation-types': [],
    brands: [],
  };
  const routes: MockRoute[] = Object.entries(stores).flatMap(([path, records]): MockRoute[] => [
    { path: `/api/${path}`, body: () => list(records) },
    {
      method: 'POST',
      path: `/api/${path}`,
      status: 201,
      body: ({ body }: MockCall) => {
        const input = body as Record<string, unknown> & { values?: { name: unknown }[] };
        const id = uuid(next++);
        const code = (input.code as string) || `NEW-${next}`;
        const record: Record<string, unknown> = { ...input, id, code, status: 'active', ...stamps };
        if (path === 'variation-types')
          record.values = (input.values ?? []).map((value, index) => ({
            id: uuid(next++),
            code: `${code}-0${index + 1}`,
            name: value.name,
            position: index,
            status: 'active',
          }));
        records.push(record);
        return { data: record };
      },
    },
  ]);
  const mock = mockFetch(routes);
  vi.stubGlobal('fetch', mock.fetchMock);
  return mock;
}

function renderAddProduct(
  grant: 'admin' | string[] = 'admin',
  server: Parameters<typeof fakeServer>[0] = {},
) {
  const mock = fakeServer(server);
  renderSignedIn(<ProductPage />, { user: testUser([{ ...workspace, grant }]), path: '/products/add' });
  return mock;
}

/** The dialogs a screen reader finds: one over another hides it, as a modal dialog should. */
const dialogs = () => screen.queryAllByRole('dialog');
/**
 * The dialog on top once it opened, over `under` if given (the editor's chunk loads at the first
 * open, so it is waited for).
 */
async function topDialog(under?: HTMLElement) {
  await waitFor(() => {
    expect(dialogs()).toHaveLength(1);
    expect(dialogs()[0]).not.toBe(under);
  });
  return dialogs()[0]!;
}

setUpProductPageTests();

describe('New … under a reference field', () => {
  it('makes a unit over the page: chosen on save, the page keeps what was typed, the focus back on the field', async () => {
    const person = userEvent.setup();
    const { calls } = renderAddProduct();
    await person.type(screen.getByLabelText('Name (English)'), 'Cotton shirt');
    await person.click(await screen.findByRole('button', { name: 'New measurement unit' }));

    const editor = within(await topDialog());
    expect(screen.getByRole('dialog', { name: 'New measurement unit' })).toBeTruthy();
    await person.type(editor.getByLabelText('Name (English)'), 'Box');
    await person.type(editor.getByLabelText('Symbol'), 'box');
    await person.click(editor.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(dialogs()).toHaveLength(0));
    expect(callsTo(calls, '/api/measurement-units', 'POST')[0]?.body).toEqual({
      code: '',
      name: [{ locale: 'en', value: 'Box' }],
      symbol: 'box',
    });
    // Nothing of the product was sent: its page is still being filled in.
    expect(callsTo(calls, '/api/products', 'POST')).toEqual([]);
    const unit = screen.getByLabelText('Unit of measurement') as HTMLSelectElement;
    await waitFor(() => expect(unit.selectedOptions[0]?.textContent).toBe('Box'));
    expect((screen.getByLabelText('Name (English)') as HTMLInputElement).value).toBe('Cotton shirt');
    await waitFor(() => expect(document.activeElement).toBe(unit));
  });

  it('is offered only for what the member may add', async () => {
    renderAddProduct([
      'viewProducts',
      'addProducts',
      'viewMeasurementUnits',
      'viewCategories',
      'addCategories',
      'viewWasteCategories',
      'viewTags',
      'viewVariations',
    ]);
    expect(await screen.findByRole('button', { name: 'New category' })).toBeTruthy();
    // The same form of the same resource, for a parent of a new category, is the editor's own.
    for (const name of [
      'New measurement unit',
      'New waste category',
      'New product tag',
      'New variation type',
    ])
      expect(screen.queryByRole('button', { name })).toBeNull();
  });

  it('offers New … in the editor in turn: a new category’s parent made in a second editor, both chosen', async () => {
    const person = userEvent.setup();
    const { calls } = renderAddProduct();
    await person.click(await screen.findByRole('button', { name: 'New category' }));
    const outerDialog = await topDialog();
    const outer = within(outerDialog);
    await person.type(outer.getByLabelText('Name (English)'), 'Shirts');
    await person.type(outer.getByLabelText('Description (English)'), 'Shirts of every kind');
    await person.click(outer.getByRole('button', { name: 'New category' }));

    const inner = within(await topDialog(outerDialog));
    await person.type(inner.getByLabelText('Name (English)'), 'Clothes');
    await person.type(inner.getByLabelText('Description (English)'), 'What people wear');
    await person.click(inner.getByRole('button', { name: 'Create' }));

    // Back in the first editor: its parent is the new one, what was typed there is kept.
    await waitFor(() => expect(dialogs()).toEqual([outerDialog]));
    const parent = outer.getByLabelText('Parent category') as HTMLSelectElement;
    await waitFor(() => expect(parent.selectedOptions[0]?.textContent).toBe('Clothes'));
    expect((outer.getByLabelText('Name (English)') as HTMLInputElement).value).toBe('Shirts');
    expect(document.activeElement).toBe(parent);
    await person.click(outer.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(dialogs()).toHaveLength(0));
    const posted = callsTo(calls, '/api/categories', 'POST').map(
      (call) => call.body as Record<string, unknown>,
    );
    expect(posted.map((body) => body.name)).toEqual([
      [{ locale: 'en', value: 'Clothes' }],
      [{ locale: 'en', value: 'Shirts' }],
    ]);
    const clothes = (await (await fetch('/api/categories')).json()).data.find(
      (record: { code: string; name: { value: string }[] }) => record.name[0]?.value === 'Clothes',
    );
    expect(posted[1]?.parentId).toBe(clothes.id);
    const category = screen.getByLabelText('Category') as HTMLSelectElement;
    await waitFor(() => expect(category.selectedOptions[0]?.textContent?.trim()).toBe('Shirts'));
  });

  it('keeps a record made meanwhile when the editor around it is discarded, and says so', async () => {
    const person = userEvent.setup();
    const { calls } = renderAddProduct();
    await person.click(await screen.findByRole('button', { name: 'New category' }));
    const outerDialog = await topDialog();
    const outer = within(outerDialog);
    await person.click(outer.getByRole('button', { name: 'New category' }));
    const inner = within(await topDialog(outerDialog));
    await person.type(inner.getByLabelText('Name (English)'), 'Clothes');
    await person.type(inner.getByLabelText('Description (English)'), 'What people wear');
    await person.click(inner.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(dialogs()).toEqual([outerDialog]));

    await person.click(outer.getByRole('button', { name: 'Cancel' }));
    const question = await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
    expect(question.textContent).toContain(
      'Kept all the same, as it was saved when you created it: category “Clothes”.',
    );
    await person.click(within(question).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(dialogs()).toHaveLength(0));
    // The parent was made; the discarded category was not.
    expect(callsTo(calls, '/api/categories', 'POST')).toHaveLength(1);
    expect(
      [...(screen.getByLabelText('Category') as HTMLSelectElement).options].map(
        (option) => option.textContent,
      ),
    ).toContain('Clothes');
  });

  it('adds a new tag to those already chosen', async () => {
    const person = userEvent.setup();
    renderAddProduct();
    const tags = await screen.findByRole('group', { name: 'Tags' });
    for (const name of ['Summer', 'Cotton']) {
      await person.click(within(tags.parentElement!).getByRole('button', { name: 'New product tag' }));
      const editor = within(await topDialog());
      await person.type(editor.getByLabelText('Name (English)'), name);
      await person.click(editor.getByRole('button', { name: 'Create' }));
      await waitFor(() => expect(dialogs()).toHaveLength(0));
    }
    await waitFor(() =>
      expect(
        within(tags)
          .getAllByRole('checkbox')
          .map((box) => (box as HTMLInputElement).checked),
      ).toEqual([true, true]),
    );
    expect(document.activeElement).toBe(within(tags).getByRole('checkbox', { name: 'Cotton' }));
  });

  it('adds a new tag as a chip of the long list’s combobox, the focus back in its box', async () => {
    const person = userEvent.setup();
    const tags = Array.from({ length: 9 }, (_, index) => ({
      id: uuid(900 + index),
      code: `T${index}`,
      name: [{ locale: 'en', value: `Tag ${index}` }],
      status: 'active',
      ...stamps,
    }));
    renderAddProduct('admin', { tags });
    const box = await screen.findByRole('combobox', { name: 'Tags' });
    await person.click(screen.getByRole('button', { name: 'New product tag' }));
    const editor = within(await topDialog());
    await person.type(editor.getByLabelText('Name (English)'), 'Cotton');
    await person.click(editor.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(dialogs()).toHaveLength(0));
    expect(await screen.findByRole('button', { name: 'Remove Cotton' })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(box));
  });

  it('makes a variation type with its values from the picker, added with every value chosen', async () => {
    const person = userEvent.setup();
    const { calls } = renderAddProduct();
    await person.click(await screen.findByRole('button', { name: 'New variation type' }));
    const editor = within(await topDialog());
    await person.type(editor.getByLabelText('Name (English)'), 'Size');
    await person.type(editor.getByRole('textbox', { name: 'Values' }), 'S{Enter}M{Enter}L');
    await person.click(editor.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(dialogs()).toHaveLength(0));
    expect(callsTo(calls, '/api/variation-types', 'POST')[0]?.body).toMatchObject({
      values: [
        { name: [{ locale: 'en', value: 'S' }] },
        { name: [{ locale: 'en', value: 'M' }] },
        { name: [{ locale: 'en', value: 'L' }] },
      ],
    });
    const values = await screen.findByRole('group', { name: 'Values of Size' });
    expect(
      within(values)
        .getAllByRole('checkbox')
        .map((box) => (box as HTMLInputElement).checked),
    ).toEqual([true, true, true]);
    expect(screen.getByText('Variants that will be created: 3')).toBeTruthy();
  });
});

describe('New … in Arabic', () => {
  it('names the editor in Arabic and says in Arabic what is kept when the page is left', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    const person = userEvent.setup();
    renderAddProduct();
    await person.click(await screen.findByRole('button', { name: 'إضافة وحدة قياس' }));
    const editor = within(await topDialog());
    expect(screen.getByRole('dialog', { name: 'إضافة وحدة قياس' })).toBeTruthy();
    await person.type(editor.getByLabelText('الاسم (بالعربية)'), 'علبة');
    await person.type(editor.getByLabelText('الرمز المختصر'), 'علبة');
    await person.click(editor.getByRole('button', { name: 'إنشاء' }));
    await waitFor(() => expect(dialogs()).toHaveLength(0));
    const unit = screen.getByLabelText('وحدة القياس') as HTMLSelectElement;
    await waitFor(() => expect(unit.selectedOptions[0]?.textContent).toBe('علبة'));

    // Leaving the page asks (the app's history asks through leaveIfAllowed), and says the unit stays.
    act(() => leaveIfAllowed(() => undefined));
    const question = await screen.findByRole('alertdialog', { name: 'هل تريد تجاهل تغييراتك؟' });
    expect(question.textContent).toContain(
      'سيبقى ما أنشأته أثناء ذلك لأنه حُفظ عند إنشائه: وحدة قياس «علبة».',
    );
  });
});
