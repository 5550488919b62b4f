import type { RoleRecord } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { RolesPage } from './roles-page.tsx';

const workspace = { id: 'w-1', name: 'Shop' };
const manager: RoleRecord = {
  id: '0b8f8c1e-1d7c-4a55-9e11-3d0f1c2b7a01',
  code: 'MGR',
  title: 'Manager',
  permissions: ['viewProducts', 'deleteTaxes'],
  usersCount: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function renderRoles(grant: 'admin' | string[], extraRoutes: Parameters<typeof mockFetch>[0] = []) {
  const mock = mockFetch([
    { path: '/api/authority-roles', body: { data: [manager], meta: { total: 1, page: 1, pageSize: 20 } } },
    ...extraRoutes,
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(<RolesPage />, { user: testUser([{ ...workspace, grant }]), path: '/authority-roles' });
  return mock;
}

describe('RolesPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists code, title and number of users', async () => {
    renderRoles('admin');
    const row = (await screen.findByRole('rowheader', { name: 'Manager' })).closest('tr') as HTMLElement;
    // Code, then (title is the row header) permissions and users, then the actions.
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['MGR', '2', '2', '']);
    expect(screen.getByRole('columnheader', { name: /Users/ })).toBeTruthy();
  });

  it('creates a role with the permissions picked in the matrix', async () => {
    const person = userEvent.setup();
    const { calls } = renderRoles('admin', [
      {
        method: 'POST',
        path: '/api/authority-roles',
        status: 201,
        body: { data: { ...manager, id: 'new', code: 'CASH', title: 'Cashier' } },
      },
    ]);
    await screen.findByRole('rowheader', { name: 'Manager' });
    await person.click(screen.getAllByRole('button', { name: 'New role' })[0] as HTMLElement);
    const dialog = screen.getByRole('dialog', { name: 'New role' });
    await person.type(within(dialog).getByLabelText('Code'), 'CASH');
    await person.type(within(dialog).getByLabelText('Title'), 'Cashier');
    await person.click(within(dialog).getByRole('checkbox', { name: 'Every permission on Products' }));
    await person.click(within(dialog).getByRole('checkbox', { name: 'View Dashboard' }));
    await person.click(within(dialog).getByRole('button', { name: 'Create role' }));

    expect(await screen.findByText('Creating ROLE successful!')).toBeTruthy();
    const [created] = callsTo(calls, '/api/authority-roles', 'POST');
    expect(created?.query.get('workspaceId')).toBe(workspace.id);
    expect(created?.body).toEqual({
      code: 'CASH',
      title: 'Cashier',
      permissions: ['viewDashboard', 'viewProducts', 'addProducts', 'editProducts', 'deleteProducts'],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows "This code must be unique" under the code for a duplicate', async () => {
    const person = userEvent.setup();
    renderRoles('admin', [
      {
        method: 'POST',
        path: '/api/authority-roles',
        status: 409,
        body: { error: { statusCode: 409, code: 'DB', name: 'DBError', message: 'x', target: 'code' } },
      },
    ]);
    await screen.findByRole('rowheader', { name: 'Manager' });
    await person.click(screen.getAllByRole('button', { name: 'New role' })[0] as HTMLElement);
    const dialog = screen.getByRole('dialog');
    await person.type(within(dialog).getByLabelText('Code'), 'MGR');
    await person.type(within(dialog).getByLabelText('Title'), 'Another');
    await person.click(within(dialog).getByRole('button', { name: 'Create role' }));
    expect(await within(dialog).findByText('This code must be unique')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('says offline when saving offline, and "could not be saved" when the server failed; the values stay', async () => {
    const person = userEvent.setup();
    const { calls } = renderRoles('admin', [
      {
        method: 'POST',
        path: '/api/authority-roles',
        status: 500,
        body: {
          error: { statusCode: 500, code: 'INTERNAL', name: 'Error', message: 'Something went wrong' },
        },
      },
    ]);
    await screen.findByRole('rowheader', { name: 'Manager' });
    await person.click(screen.getAllByRole('button', { name: 'New role' })[0] as HTMLElement);
    const dialog = within(screen.getByRole('dialog'));
    await person.type(dialog.getByLabelText('Code'), 'CASH');
    await person.type(dialog.getByLabelText('Title'), 'Cashier');

    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    await person.click(dialog.getByRole('button', { name: 'Create role' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(
      'You are offline. Nothing was saved; check your connection and try again.',
    );
    expect(callsTo(calls, '/api/authority-roles', 'POST')).toHaveLength(0);
    expect((dialog.getByLabelText('Code') as HTMLInputElement).value).toBe('CASH');

    vi.stubGlobal('navigator', { ...navigator, onLine: true });
    await person.click(dialog.getByRole('button', { name: 'Create role' }));
    await waitFor(() =>
      expect(dialog.getByRole('alert').textContent).toBe(
        'The role could not be saved. Check the form and try again.',
      ),
    );
    expect(callsTo(calls, '/api/authority-roles', 'POST')).toHaveLength(1);
  });

  it('lets a non-admin editor change only what they hold, and sends only what changed', async () => {
    const person = userEvent.setup();
    const { calls } = renderRoles(
      ['viewAuthority', 'editAuthority', 'viewProducts', 'addProducts'],
      [{ method: 'PATCH', path: `/api/authority-roles/${manager.id}`, body: { data: manager } }],
    );
    await person.click(await screen.findByRole('button', { name: 'Edit: Manager' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit role: Manager' });
    expect(within(dialog).getByText(/You can grant only the permissions you hold yourself/)).toBeTruthy();
    const deleteTaxes = within(dialog).getByRole('checkbox', { name: 'Delete Taxes' }) as HTMLInputElement;
    expect([deleteTaxes.checked, deleteTaxes.disabled]).toEqual([true, true]);
    expect((within(dialog).getByRole('checkbox', { name: 'Edit Brands' }) as HTMLInputElement).disabled).toBe(
      true,
    );
    expect(screen.queryByRole('button', { name: 'New role' })).toBeNull();

    await person.click(within(dialog).getByRole('checkbox', { name: 'Add Products' }));
    await person.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updating ROLE successful!')).toBeTruthy();
    const [patch] = callsTo(calls, `/api/authority-roles/${manager.id}`, 'PATCH');
    expect(patch?.body).toEqual({ permissions: ['viewProducts', 'addProducts', 'deleteTaxes'] });
  });

  it('warns in the confirmation that a role held by members cannot be deleted yet', async () => {
    const person = userEvent.setup();
    renderRoles('admin');
    await person.click(await screen.findByRole('button', { name: 'Delete: Manager' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete the role Manager?' });
    expect(within(dialog).getByText(/2 member\(s\) hold this role/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Keep the role Manager' })).toBeTruthy();
  });
});
