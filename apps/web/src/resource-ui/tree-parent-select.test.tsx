import { type CategoryRecord, categoriesResource } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from '../i18n/locales/ar.json';
import signedInAr from '../i18n/locales/signed-in/texts-ar.ts';
import { bothLanguages } from '../test/localized.ts';
import { validationRefusal } from '../test/refusal.ts';
import { callsTo, type MockRoute, testUser } from '../test/render.tsx';
import { mergedTexts } from '../test/texts.ts';
import { type TreeNode, treeOptions } from './option-sources.ts';
import { renderResourceScreen } from './render-resource-screen.tsx';

/**
 * A select of records that form a tree (a category's parent): the choices under their parents,
 * indented by depth, and when editing, without the record and its descendants.
 */
const shop = { id: 'w-shop', name: 'Shop' };
const admin = testUser([{ ...shop, grant: 'admin' }]);
const indent = '\u00a0\u00a0\u00a0';

const category = (id: string, code: string, en: string, arName: string, parentId: string | null) =>
  ({
    id,
    code,
    name: bothLanguages(en, arName),
    description: [{ locale: 'en', value: en }],
    parentId,
    status: 'active',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  }) satisfies CategoryRecord;

// In code order (the list's default sort), which is not the tree's order.
const coffee = category(
  'c0ffee00-0000-4000-8000-000000000001',
  'A-COF',
  'Coffee',
  'قهوة',
  'd0000000-0000-4000-8000-000000000002',
);
const drinks = category('d0000000-0000-4000-8000-000000000002', 'B-DRK', 'Drinks', 'مشروبات', null);
const espresso = category('e0000000-0000-4000-8000-000000000003', 'C-ESP', 'Espresso', 'إسبريسو', coffee.id);
const food = category('f0000000-0000-4000-8000-000000000004', 'D-FOO', 'Food', 'طعام', null);
const tea = category('7ea00000-0000-4000-8000-000000000005', 'E-TEA', 'Tea', 'شاي', drinks.id);
const all = [coffee, drinks, espresso, food, tea];

const list = (records: unknown[]) => ({
  data: records,
  meta: { total: records.length, page: 1, pageSize: 100 },
});

function renderCategories(routes: MockRoute[] = []) {
  return renderResourceScreen(categoriesResource, 'Categories', admin, [
    { path: '/api/categories', body: list(all) },
    ...routes,
  ]);
}

/** The parent select's choices as shown (indentation kept), without the 'no parent' one. */
async function parentChoices(dialog: HTMLElement) {
  const select = dialog.querySelector('select[name="parentId"]') as HTMLSelectElement;
  await waitFor(() => expect(select.options.length).toBeGreaterThan(1));
  return [...select.options].filter((option) => option.value !== '').map((option) => option.textContent);
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('the parent select of a tree', () => {
  it('a new record may go under any record: each under its parent, indented by depth', async () => {
    const person = userEvent.setup();
    renderCategories();
    await person.click((await screen.findAllByRole('button', { name: 'New category' }))[0]!);
    expect(await parentChoices(await screen.findByRole('dialog'))).toEqual([
      'Drinks',
      `${indent}Coffee`,
      `${indent}${indent}Espresso`,
      `${indent}Tea`,
      'Food',
    ]);
  });

  it('editing a record leaves out the record and its descendants; another parent is sent', async () => {
    const person = userEvent.setup();
    const { calls } = renderCategories([
      {
        method: 'PATCH',
        path: `/api/categories/${coffee.id}`,
        body: { data: { ...coffee, parentId: food.id } },
      },
    ]);
    const row = await screen.findByRole('row', { name: /Coffee/ });
    await person.click(within(row).getByRole('button', { name: /^Edit/ }));
    const dialog = await screen.findByRole('dialog');
    expect(await parentChoices(dialog)).toEqual(['Drinks', `${indent}Tea`, 'Food']);
    const select = within(dialog).getByLabelText('Parent category') as HTMLSelectElement;
    expect(select.value).toBe(drinks.id);
    await person.selectOptions(select, food.id);
    await person.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(calls, `/api/categories/${coffee.id}`, 'PATCH')).toHaveLength(1));
    expect(callsTo(calls, `/api/categories/${coffee.id}`, 'PATCH')[0]?.body).toMatchObject({
      parentId: food.id,
    });
  });

  const refusal: MockRoute = {
    method: 'PATCH',
    path: `/api/categories/${drinks.id}`,
    ...validationRefusal([{ path: 'parentId', message: 'PARENT_IS_DESCENDANT' }], { key: 'parentId' }),
  };
  async function refusedMessage(name: string, edit: RegExp, save: string) {
    const person = userEvent.setup();
    renderCategories([refusal]);
    const row = await screen.findByRole('row', { name: new RegExp(name) });
    await person.click(within(row).getByRole('button', { name: edit }));
    const dialog = await screen.findByRole('dialog');
    await parentChoices(dialog);
    await person.click(within(dialog).getByRole('button', { name: save }));
    return within(dialog);
  }

  it("shows the server's refusal of a loop under the parent, in English", async () => {
    const dialog = await refusedMessage('Drinks', /^Edit/, 'Save');
    expect(
      await dialog.findByText(
        'A category cannot be placed under itself or under one of its own sub-categories',
      ),
    ).toBeTruthy();
  });

  it("shows the server's refusal of a loop under the parent, in Arabic", async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    const dialog = await refusedMessage('مشروبات', /^تعديل/, 'حفظ');
    expect(await dialog.findByText('لا يمكن وضع الفئة تحت نفسها أو تحت إحدى فئاتها الفرعية')).toBeTruthy();
  });
});

describe('treeOptions', () => {
  const node = (value: string, parent: string | null): TreeNode => ({ value, label: value, parent });

  it('starts a branch at a record whose parent is not among the records, and lists a stored loop once', () => {
    const options = treeOptions([
      node('orphan', 'gone'),
      node('x', 'y'),
      node('y', 'x'),
      node('child', 'orphan'),
    ]);
    expect(options.map((option) => option.label)).toEqual(['orphan', `${indent}child`, 'x', `${indent}y`]);
    // Leaving out a record of the loop leaves out the whole loop (each is the other's descendant).
    expect(
      treeOptions([node('x', 'y'), node('y', 'x'), node('z', null)], 'x').map((option) => option.value),
    ).toEqual(['z']);
  });
});
