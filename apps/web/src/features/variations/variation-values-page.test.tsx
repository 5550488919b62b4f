import type { VariationTypeRecord, VariationValueRecord } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, listPage, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { VariationValuesPage } from './variation-values-page.tsx';

/** VariantValues (`/options`): every value with its type's name, filtered by type. */
const shop = { id: 'w-shop', name: 'Shop' };
const stamp = '2026-01-01T00:00:00.000Z';
const sizeId = '5e000000-0000-4000-8000-000000000001';
const colourId = 'c0000000-0000-4000-8000-000000000002';

const type = (id: string, code: string, en: string): VariationTypeRecord & { id: string } => ({
  id,
  code,
  name: [{ locale: 'en', value: en }],
  values: [],
  status: 'active',
  createdAt: stamp,
  updatedAt: stamp,
});
const value = (
  id: string,
  code: string,
  en: string,
  typeId: string,
): VariationValueRecord & { id: string } => ({
  id,
  code,
  name: [{ locale: 'en', value: en }],
  typeId,
  position: 0,
  status: 'active',
  createdAt: stamp,
  updatedAt: stamp,
});
const types = [type(colourId, 'COLOUR', 'Colour'), type(sizeId, 'SIZE', 'Size')];
const values = [
  value('a0000000-0000-4000-8000-000000000011', 'L', 'Large', sizeId),
  value('a0000000-0000-4000-8000-000000000021', 'RED', 'Red', colourId),
  value('a0000000-0000-4000-8000-000000000012', 'S', 'Small', sizeId),
];

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the variation values page', () => {
  it("names each value's type, and lists one type's values when filtered by it", async () => {
    const person = userEvent.setup();
    const mock = mockFetch([
      {
        path: '/api/variation-values',
        body: ({ query }: { query: URLSearchParams }) => {
          const typeIds = query.get('typeId')?.split(',');
          return listPage(values.filter((record) => !typeIds || typeIds.includes(record.typeId)));
        },
      },
      {
        path: '/api/variation-values/filters',
        body: {
          data: {
            typeId: [
              { value: colourId, count: 1 },
              { value: sizeId, count: 2 },
            ],
            status: [{ value: 'active', count: 3 }],
          },
        },
      },
      { path: '/api/variation-types', body: listPage(types) },
    ]);
    vi.stubGlobal('fetch', mock.fetchMock);
    renderSignedIn(<VariationValuesPage />, {
      user: testUser([{ ...shop, grant: 'admin' }]),
      path: '/options',
    });

    const large = await screen.findByRole('row', { name: /Large/ });
    expect(await within(large).findByText('Size')).toBeTruthy();
    expect(await within(screen.getByRole('row', { name: /Red/ })).findByText('Colour')).toBeTruthy();

    await person.click(screen.getByRole('button', { name: 'Type' }));
    await person.click(await screen.findByRole('checkbox', { name: /Size/ }));
    await waitFor(() =>
      expect(callsTo(mock.calls, '/api/variation-values').at(-1)?.query.get('typeId')).toBe(sizeId),
    );
    await waitFor(() => expect(screen.queryByRole('row', { name: /Red/ })).toBeNull());
    expect(screen.getByRole('row', { name: /Large/ })).toBeTruthy();
    expect(screen.getByRole('row', { name: /Small/ })).toBeTruthy();
  });
});
