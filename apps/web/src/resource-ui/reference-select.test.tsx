import { type CategoryRecord, categoriesResource, locationsResource } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from '../i18n/locales/ar.json';
import signedInAr from '../i18n/locales/signed-in/texts-ar.ts';
import { bothLanguages } from '../test/localized.ts';
import { callsTo, testUser } from '../test/render.tsx';
import { mergedTexts } from '../test/texts.ts';
import { downtownLocation } from './location-test-data.ts';
import { renderResourceScreen } from './render-resource-screen.tsx';

/**
 * A select of another resource's records (here a category's parent): a disabled record is no
 * new choice, but a record that already names one still shows it, marked, and saves it unchanged.
 */
const shop = { id: 'w-shop', name: 'Shop' };
const admin = testUser([{ ...shop, grant: 'admin' }]);

const category = (
  id: string,
  code: string,
  name: [string, string],
  parentId: string | null,
  status: 'active' | 'inactive' = 'active',
) =>
  ({
    id,
    code,
    name: bothLanguages(name[0], name[1]),
    description: [{ locale: 'en', value: name[0] }],
    parentId,
    status,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  }) satisfies CategoryRecord;

const drinks = category('d0000000-0000-4000-8000-000000000001', 'A-DRK', ['Drinks', 'مشروبات'], null);
const food = category('f0000000-0000-4000-8000-000000000002', 'B-FOO', ['Food', 'طعام'], null, 'inactive');
const bread = category('b0000000-0000-4000-8000-000000000003', 'C-BRD', ['Bread', 'خبز'], food.id);

function renderCategories() {
  return renderResourceScreen(categoriesResource, 'Categories', admin, [
    {
      path: '/api/categories',
      body: { data: [drinks, food, bread], meta: { total: 3, page: 1, pageSize: 100 } },
    },
    { method: 'PATCH', path: `/api/categories/${bread.id}`, body: { data: bread } },
  ]);
}

async function parentSelect(dialog: HTMLElement) {
  const select = dialog.querySelector('select[name="parentId"]') as HTMLSelectElement;
  await waitFor(() => expect(select.options.length).toBeGreaterThan(1));
  return select;
}
const choices = (select: HTMLSelectElement) =>
  [...select.options].filter((option) => option.value !== '').map((option) => option.textContent);

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('a reference select', () => {
  it('offers no disabled record as a new choice', async () => {
    const person = userEvent.setup();
    renderCategories();
    await person.click((await screen.findAllByRole('button', { name: 'New category' }))[0]!);
    const select = await parentSelect(await screen.findByRole('dialog'));
    // Bread, whose parent is left out, starts a branch of its own.
    expect(choices(select)).toEqual(['Drinks', 'Bread']);
  });

  it('keeps the disabled record a record already names, marked, and saves it unchanged', async () => {
    const person = userEvent.setup();
    const { calls } = renderCategories();
    const row = await screen.findByRole('row', { name: /Bread/ });
    await person.click(within(row).getByRole('button', { name: /^Edit/ }));
    const dialog = await screen.findByRole('dialog');
    const select = await parentSelect(dialog);
    expect(choices(select)).toEqual(['Drinks', 'Food (disabled)']);
    expect(select.value).toBe(food.id);
    expect(select.selectedOptions[0]?.textContent).toBe('Food (disabled)');
    await person.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(calls, `/api/categories/${bread.id}`, 'PATCH')).toHaveLength(1));
    expect(callsTo(calls, `/api/categories/${bread.id}`, 'PATCH')[0]?.body).toMatchObject({
      parentId: food.id,
    });
  });

  it('marks it in Arabic too', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    const person = userEvent.setup();
    renderCategories();
    const row = await screen.findByRole('row', { name: /خبز/ });
    await person.click(within(row).getByRole('button', { name: /^تعديل/ }));
    const select = await parentSelect(await screen.findByRole('dialog'));
    expect(select.selectedOptions[0]?.textContent).toBe('طعام (معطّل)');
    expect(choices(select)).toEqual(['مشروبات', 'طعام (معطّل)']);
  });
});

/**
 * A member who may not view the records a select offers gets no list (it is never asked for), and
 * is told why, not that there are none yet.
 */
describe('a reference select of records the member may not view', () => {
  const locationsOnly = testUser([{ ...shop, grant: ['viewLocations', 'addLocations'] }]);
  const locations = {
    path: '/api/locations',
    body: { data: [downtownLocation], meta: { total: 1, page: 1, pageSize: 25 } },
  };
  const brandSelect = async () => {
    const person = userEvent.setup();
    await person.click((await screen.findAllByRole('button', { name: /^(New location|إضافة فرع)$/ }))[0]!);
    return (await screen.findByRole('dialog')).querySelector('select[name="brandId"]') as HTMLSelectElement;
  };

  it('says "You may not view brands", and asks for none', async () => {
    const { calls } = renderResourceScreen(locationsResource, 'Locations', locationsOnly, [locations]);
    const select = await brandSelect();
    expect([...select.options].map((option) => option.textContent)).toEqual(['You may not view brands']);
    expect(callsTo(calls, '/api/brands')).toHaveLength(0);
  });

  it('still says "Create a brand first" to a member who may view brands when there are none', async () => {
    const member = testUser([{ ...shop, grant: ['viewLocations', 'addLocations', 'viewBrands'] }]);
    renderResourceScreen(locationsResource, 'Locations', member, [
      locations,
      { path: '/api/brands', body: { data: [], meta: { total: 0, page: 1, pageSize: 100 } } },
    ]);
    const select = await brandSelect();
    await waitFor(() =>
      expect([...select.options].map((option) => option.textContent)).toEqual(['Create a brand first']),
    );
  });

  it('says it in Arabic', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderResourceScreen(locationsResource, 'الفروع', locationsOnly, [locations]);
    const select = await brandSelect();
    expect([...select.options].map((option) => option.textContent)).toEqual([
      'ليست لديك صلاحية عرض العلامات التجارية',
    ]);
  });
});
