import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, listPage, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { CategoriesPage } from './categories-page.tsx';

/** A category tree: the top level, a category's children under its breadcrumbs, and creating under it. */
const shop = { id: 'w-shop', name: 'Shop' };
const admin = testUser([{ ...shop, grant: 'admin' }]);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CategoriesPage', () => {
  const parentId = '7d1e2f3a-2222-4a57-9a0e-6f1d1b9c2a03';
  const parent = {
    id: parentId,
    code: 'BEV',
    name: [{ locale: 'en', value: 'Beverages' }],
    description: [{ locale: 'en', value: 'Drinks' }],
    parentId: null,
    status: 'active',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };

  function renderCategories(at: string) {
    const mock = mockFetch([
      { path: '/api/categories', body: listPage([]) },
      { path: `/api/categories/${parentId}`, body: { data: parent } },
    ]);
    vi.stubGlobal('fetch', mock.fetchMock);
    renderSignedIn(<CategoriesPage />, { user: admin, path: '/categories/*', at });
    return mock;
  }

  it('lists the top level at /categories', async () => {
    const { calls } = renderCategories('/categories');
    await waitFor(() => expect(callsTo(calls, '/api/categories')).not.toHaveLength(0));
    expect(callsTo(calls, '/api/categories')[0]?.query.get('parentId')).toBe('none');
    expect(screen.queryByRole('navigation', { name: 'Category path' })).toBeNull();
  });

  it("lists a category's children under its breadcrumbs, and creates under it", async () => {
    const person = userEvent.setup();
    const { calls } = renderCategories(`/categories/${parentId}`);
    const trail = await screen.findByRole('navigation', { name: 'Category path' });
    expect(within(trail).getByRole('link', { name: 'Categories' }).getAttribute('href')).toBe('/categories');
    expect((await within(trail).findByText('Beverages')).getAttribute('aria-current')).toBe('page');
    expect(callsTo(calls, '/api/categories')[0]?.query.get('parentId')).toBe(parentId);

    await person.click((await screen.findAllByRole('button', { name: 'New category' }))[0]!);
    const form = within(await screen.findByRole('dialog'));
    // The parent is offered even when it is not on the first page of choices (here: none are).
    await waitFor(() =>
      expect((form.getByLabelText('Parent category') as HTMLSelectElement).value).toBe(parentId),
    );
  });
});
