import type { RoleRecord, WorkspaceUserRecord } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validationRefusal } from '../../test/refusal.ts';
import { callsTo, type MockRoute, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { UsersPage } from './users-page.tsx';

const workspace = { id: 'w-1', name: 'Shop' };
const role = (id: string, title: string, permissions: string[]): RoleRecord => ({
  id,
  code: title.toUpperCase(),
  title,
  permissions,
  usersCount: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const cashier = role('11111111-1111-4111-8111-111111111111', 'Cashier', ['viewProducts']);
const owner = role('22222222-2222-4222-8222-222222222222', 'Owner', ['viewProducts', 'deleteUsers']);

const member = (overrides: Partial<WorkspaceUserRecord>): WorkspaceUserRecord => ({
  id: 'u-x',
  code: null,
  name: 'Someone',
  email: 'someone@example.com',
  phone: null,
  isAdmin: false,
  isLastAdmin: false,
  secondFactor: false,
  role: { id: cashier.id, title: cashier.title },
  applications: [],
  lastLoginAt: null,
  status: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});
const sara = member({
  id: 'u-me',
  name: 'Sara Ali',
  email: 'sara@example.com',
  isAdmin: true,
  role: null,
  code: 'S-1',
  phone: '+20 100 123 4567',
  lastLoginAt: '2026-03-02T09:05:00.000Z',
  applications: ['POS'],
});
const omar = member({ id: 'u-omar', name: 'Omar', email: 'omar@example.com' });
const nour = member({
  id: 'u-nour',
  name: '',
  email: 'nour@example.com',
  status: 'invited',
  secondFactor: null,
});

function renderUsers(
  grant: 'admin' | string[],
  routes: MockRoute[] = [],
  at = '/users',
  members: WorkspaceUserRecord[] = [sara, omar, nour],
) {
  const mock = mockFetch([
    {
      path: '/api/workspaces/users',
      body: { data: members, meta: { total: members.length, page: 1, pageSize: 20 } },
    },
    {
      path: '/api/workspaces/users/filters',
      body: {
        data: {
          status: [
            { value: 'active', count: 2 },
            { value: 'invited', count: 1 },
          ],
        },
      },
    },
    {
      path: '/api/authority-roles',
      body: { data: [cashier, owner], meta: { total: 2, page: 1, pageSize: 100 } },
    },
    ...routes,
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(<UsersPage />, { user: testUser([{ ...workspace, grant }], 'u-me'), path: '/users', at });
  return mock;
}

const refusal = (message: string, path = 'status') => validationRefusal([{ path, message }]);

describe('UsersPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists members with code, name, email, phone, role, applications, last login and status', async () => {
    renderUsers('admin');
    const row = (await screen.findByRole('rowheader', { name: /Sara Ali/ })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Admin')).toBeTruthy();
    expect(within(row).getByText('You')).toBeTruthy();
    expect(within(row).getByText('S-1')).toBeTruthy();
    // A phone reads left to right in an Arabic page too, isolated from the text around it.
    const phone = within(row).getByText('+20 100 123 4567');
    expect([phone.tagName, phone.getAttribute('dir')]).toEqual(['BDI', 'ltr']);
    expect(within(row).getByText('POS')).toBeTruthy();
    expect(within(row).getByText('Mon, Mar 02, 2026')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    const invited = screen.getByText('nour@example.com').closest('tr') as HTMLElement;
    expect(within(invited).getByText('Invited')).toBeTruthy();
    expect(within(invited).getByText('Never')).toBeTruthy();
    // No phone before the invitation is accepted.
    const phoneColumn = screen
      .getAllByRole('columnheader')
      .findIndex((header) => header.textContent === 'Phone');
    expect(phoneColumn).toBeGreaterThan(0);
    expect(invited.children[phoneColumn]?.textContent).toBe('—');
  });

  it('shows who has a second factor, marking those without it where the workspace requires one', async () => {
    const members = [{ ...sara, secondFactor: true }, omar, nour];
    const user = testUser([{ ...workspace, grant: 'admin' }], 'u-me');
    const required = {
      ...user,
      adminWorkspaces: user.adminWorkspaces.map((w) => ({ ...w, requireSecondFactor: true })),
    };
    vi.stubGlobal(
      'fetch',
      mockFetch([
        { path: '/api/workspaces/users', body: { data: members, meta: { total: 3, page: 1, pageSize: 20 } } },
        { path: '/api/workspaces/users/filters', body: { data: {} } },
      ]).fetchMock,
    );
    renderSignedIn(<UsersPage />, { user: required, path: '/users', at: '/users' });
    const column = async (email: string) => {
      const header = screen
        .getAllByRole('columnheader')
        .findIndex((cell) => cell.textContent === 'Second factor');
      expect(header).toBeGreaterThan(0);
      return (screen.getByText(email).closest('tr') as HTMLElement).children[header] as HTMLElement;
    };
    await screen.findByText('omar@example.com');
    expect((await column('sara@example.com')).textContent).toBe('On');
    const off = await column('omar@example.com');
    expect(off.textContent).toBe('Off');
    expect(off.querySelector('span')?.className).toMatch(/amber/);
    // An invited person's account is not the workspace's to see yet.
    expect((await column('nour@example.com')).textContent).toBe('—');
  });

  it("folds a member's many applications to four chips and '+N more' (five places), which unfolds them", async () => {
    const apps = ['POS', 'KDS', 'Kiosk', 'Stock', 'Loyalty', 'Delivery', 'Reports'];
    renderUsers('admin', [], '/users', [{ ...omar, applications: apps }]);
    const row = (await screen.findByRole('rowheader', { name: /Omar/ })).closest('tr') as HTMLElement;
    for (const app of apps.slice(0, 4)) expect(within(row).getByText(app)).toBeTruthy();
    expect(within(row).queryByText('Loyalty')).toBeNull();
    await userEvent.setup().click(within(row).getByRole('button', { name: '+3 more' }));
    for (const app of apps) expect(within(row).getByText(app)).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Show less' })).toBeTruthy();
  });

  it('filters by status and by role (roles from the roles list), in the request and the address', async () => {
    const person = userEvent.setup();
    const { calls } = renderUsers('admin');
    await screen.findByRole('rowheader', { name: /Sara Ali/ });
    await person.click(screen.getByRole('button', { name: /^Status/ }));
    expect(screen.getByRole('checkbox', { name: /Invited/ }).closest('label')?.textContent).toBe('Invited1');
    await person.click(screen.getByRole('checkbox', { name: /Invited/ }));
    await waitFor(() =>
      expect(callsTo(calls, '/api/workspaces/users').at(-1)?.query.get('status')).toBe('invited'),
    );
    await person.click(screen.getByRole('button', { name: /^Role/ }));
    await person.click(screen.getByRole('checkbox', { name: 'Owner' }));
    await waitFor(() =>
      expect(callsTo(calls, '/api/workspaces/users').at(-1)?.query.get('role')).toBe(owner.id),
    );
    expect(screen.getByTestId('location').textContent).toBe(`/users?status=invited&role=${owner.id}`);
  });

  it('invites by email with a role, with the operation toasts', async () => {
    const person = userEvent.setup();
    const { calls } = renderUsers('admin', [
      { method: 'POST', path: '/api/workspaces/users/invite', status: 201, body: { data: nour } },
    ]);
    await screen.findByRole('rowheader', { name: /Sara Ali/ });
    await person.click(screen.getByRole('button', { name: 'Invite user' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite a user' });
    await person.type(within(dialog).getByLabelText('Email'), 'New@Example.com');
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Cashier' })).toBeTruthy());
    await person.selectOptions(within(dialog).getByLabelText('Role'), cashier.id);
    await person.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Inviting USER successful!')).toBeTruthy();
    const [invite] = callsTo(calls, '/api/workspaces/users/invite', 'POST');
    expect(invite?.query.get('workspaceId')).toBe(workspace.id);
    expect(invite?.body).toEqual({ email: 'new@example.com', roleId: cashier.id, applications: [] });
  });

  it('asks before discarding a typed invitation, then gives the focus back to Invite user', async () => {
    const person = userEvent.setup();
    const { calls } = renderUsers('admin');
    await screen.findByRole('rowheader', { name: /Sara Ali/ });
    const opener = screen.getByRole('button', { name: 'Invite user' });
    await person.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Invite a user' });
    await person.type(within(dialog).getByLabelText('Email'), 'omar@example.com');
    await person.keyboard('{Escape}');
    const question = await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
    await person.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect((within(dialog).getByLabelText('Email') as HTMLInputElement).value).toBe('omar@example.com');
    await person.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await person.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Discard' }),
    );
    expect(screen.queryByRole('dialog', { hidden: true })).toBeNull();
    expect(callsTo(calls, '/api/workspaces/users/invite', 'POST')).toHaveLength(0);
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('shows ALREADY_A_MEMBER under the email', async () => {
    const person = userEvent.setup();
    renderUsers('admin', [
      { method: 'POST', path: '/api/workspaces/users/invite', ...refusal('ALREADY_A_MEMBER', 'email') },
    ]);
    await screen.findByRole('rowheader', { name: /Sara Ali/ });
    await person.click(screen.getByRole('button', { name: 'Invite user' }));
    const dialog = screen.getByRole('dialog');
    await person.type(within(dialog).getByLabelText('Email'), 'omar@example.com');
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Cashier' })).toBeTruthy());
    await person.selectOptions(within(dialog).getByLabelText('Role'), cashier.id);
    await person.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('This person is already a member of the workspace')).toBeTruthy();
  });

  it('offers resend only for invitations, and enable/disable only for members', async () => {
    const person = userEvent.setup();
    const { calls } = renderUsers('admin', [
      { method: 'POST', path: '/api/workspaces/users/resend-invite', body: { data: nour } },
    ]);
    await screen.findByRole('rowheader', { name: /Sara Ali/ });
    expect(screen.queryByRole('button', { name: 'Resend invitation: Omar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Disable: nour@example.com' })).toBeNull();
    await person.click(screen.getByRole('button', { name: 'Resend invitation: nour@example.com' }));
    expect(await screen.findByText('Re-inviting USER successful!')).toBeTruthy();
    const [resend] = callsTo(calls, '/api/workspaces/users/resend-invite', 'POST');
    expect(resend?.body).toEqual({ userId: nour.id });
    expect(resend?.query.get('workspaceId')).toBe(workspace.id);
  });

  it("offers no Disable or Remove on the last admin's row (they always fail), nor clearing their admin box", async () => {
    const person = userEvent.setup();
    renderUsers('admin', [], '/users', [{ ...sara, isLastAdmin: true }, omar, nour]);
    await screen.findByRole('rowheader', { name: /Sara Ali/ });
    expect(screen.queryByRole('button', { name: 'Disable: Sara Ali' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove from workspace: Sara Ali' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Disable: Omar' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove from workspace: Omar' })).toBeTruthy();
    await person.click(screen.getByRole('button', { name: 'Edit: Sara Ali' }));
    const dialog = await screen.findByRole('dialog');
    const adminBox = within(dialog).getByRole('checkbox', { name: 'Workspace admin' }) as HTMLInputElement;
    expect(adminBox.disabled).toBe(true);
    expect(within(dialog).getByText(/only admin stays an admin/)).toBeTruthy();
  });

  it('offers Disable and Remove on an admin’s row once another admin is active', async () => {
    renderUsers('admin');
    await screen.findByRole('rowheader', { name: /Sara Ali/ });
    expect(screen.getByRole('button', { name: 'Disable: Sara Ali' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove from workspace: Sara Ali' })).toBeTruthy();
  });

  it('translates LAST_ADMIN when disabling the last admin is refused', async () => {
    const person = userEvent.setup();
    renderUsers('admin', [
      { method: 'PATCH', path: `/api/workspaces/users/${sara.id}`, ...refusal('LAST_ADMIN') },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Disable: Sara Ali' }));
    expect(await screen.findByText('Disabling USER failed.')).toBeTruthy();
    expect(screen.getByText('A workspace needs at least one admin')).toBeTruthy();
  });

  it('changes a role, listing roles a non-admin may not hand out as unavailable', async () => {
    const person = userEvent.setup();
    const { calls } = renderUsers(
      ['viewUsers', 'editUsers', 'viewAuthority', 'viewProducts'],
      [{ method: 'PATCH', path: `/api/workspaces/users/${omar.id}`, body: { data: omar } }],
    );
    expect(screen.queryByRole('button', { name: 'Invite user' })).toBeNull();
    await person.click(await screen.findByRole('button', { name: 'Edit: Omar' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit member: Omar' });
    const ownerOption = (await within(dialog).findByRole('option', { name: /Owner/ })) as HTMLOptionElement;
    expect(ownerOption.disabled).toBe(true);
    expect(within(dialog).queryByLabelText('Workspace admin')).toBeNull();
    await person.type(within(dialog).getByLabelText('Code'), 'O-7');
    await person.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updating USER successful!')).toBeTruthy();
    expect(callsTo(calls, `/api/workspaces/users/${omar.id}`, 'PATCH')[0]?.body).toEqual({ code: 'O-7' });
  });

  it('lets an admin make a member admin, sending only that change', async () => {
    const person = userEvent.setup();
    const { calls } = renderUsers('admin', [
      {
        method: 'PATCH',
        path: `/api/workspaces/users/${omar.id}`,
        body: { data: { ...omar, isAdmin: true } },
      },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Edit: Omar' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit member: Omar' });
    const admin = within(dialog).getByRole('checkbox', { name: 'Workspace admin' });
    expect(admin.getAttribute('aria-describedby')).toBe('member-admin-hint');
    await person.click(admin);
    await person.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updating USER successful!')).toBeTruthy();
    expect(callsTo(calls, `/api/workspaces/users/${omar.id}`, 'PATCH')[0]?.body).toEqual({ isAdmin: true });
  });

  it('removes a member after confirmation', async () => {
    const person = userEvent.setup();
    const { calls } = renderUsers('admin', [
      { method: 'DELETE', path: `/api/workspaces/users/${omar.id}`, body: { data: { id: omar.id } } },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Remove from workspace: Omar' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Omar from this workspace?' });
    // The safe button names whom it keeps.
    expect(within(dialog).getByRole('button', { name: 'Keep Omar' })).toBeTruthy();
    await person.click(within(dialog).getByRole('button', { name: 'Remove from workspace' }));
    expect(await screen.findByText('Removing USER successful!')).toBeTruthy();
    expect(callsTo(calls, `/api/workspaces/users/${omar.id}`, 'DELETE')).toHaveLength(1);
  });
});
