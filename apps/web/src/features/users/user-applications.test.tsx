import type { RoleRecord, WorkspaceUserRecord } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bothLanguages } from '../../test/localized.ts';
import { callsTo, type MockRoute, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { UsersPage } from './users-page.tsx';

/**
 * The applications a member may sign in to: named in the list, chosen in the invite and member
 * dialogs from the workspace's installed applications, optional for everyone (decision 0035).
 */
const workspace = { id: 'w-1', name: 'Shop' };
const stamp = '2026-01-01T00:00:00.000Z';
const cashier: RoleRecord = {
  id: '11111111-1111-4111-8111-111111111111',
  code: 'CASHIER',
  title: 'Cashier',
  permissions: ['viewProducts'],
  usersCount: 1,
  createdAt: stamp,
  updatedAt: stamp,
};
const omar: WorkspaceUserRecord = {
  id: 'u-omar',
  code: null,
  name: 'Omar',
  email: 'omar@example.com',
  phone: null,
  isAdmin: false,
  isLastAdmin: false,
  secondFactor: false,
  role: { id: cashier.id, title: cashier.title },
  applications: ['pos', 'retired-app'],
  lastLoginAt: null,
  status: 'active',
  createdAt: stamp,
};
const installed = [
  {
    clientId: 'pos',
    name: bothLanguages('Point of Sale', 'نقطة البيع'),
    grantable: true,
  },
  {
    clientId: 'kds',
    name: bothLanguages('Kitchen Display', 'شاشة المطبخ'),
    grantable: true,
  },
];
/** A non-admin who may invite and edit members, and holds Kitchen Display only. */
const managerTags = ['viewUsers', 'addUsers', 'editUsers', 'viewAuthority', 'viewProducts'];
const heldByManager = installed.map((entry) => ({ ...entry, grantable: entry.clientId === 'kds' }));
const me: WorkspaceUserRecord = {
  ...omar,
  id: 'u-me',
  name: 'Sara Ali',
  email: 'sara@example.com',
  applications: ['kds'],
};

function renderUsers(
  routes: MockRoute[],
  {
    withInstalled = true,
    grant = 'admin',
    applications = installed,
    members = [omar],
  }: {
    withInstalled?: boolean;
    grant?: 'admin' | string[];
    applications?: typeof installed;
    members?: WorkspaceUserRecord[];
  } = {},
) {
  const mock = mockFetch([
    {
      path: '/api/workspaces/users',
      body: { data: members, meta: { total: members.length, page: 1, pageSize: 20 } },
    },
    { path: '/api/workspaces/users/filters', body: { data: {} } },
    { path: '/api/authority-roles', body: { data: [cashier], meta: { total: 1, page: 1, pageSize: 100 } } },
    ...(withInstalled ? [{ path: '/api/applications/installed', body: { data: applications } }] : []),
    ...routes,
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(<UsersPage />, {
    user: testUser([{ ...workspace, grant }], 'u-me'),
    path: '/users',
  });
  return mock;
}

async function openInvite(person: ReturnType<typeof userEvent.setup>) {
  await screen.findByRole('rowheader', { name: /Omar/ });
  await person.click(screen.getByRole('button', { name: 'Invite user' }));
  const dialog = screen.getByRole('dialog', { name: 'Invite a user' });
  await person.type(within(dialog).getByLabelText('Email'), 'new@example.com');
  await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Cashier' })).toBeTruthy());
  await person.selectOptions(within(dialog).getByLabelText('Role'), cashier.id);
  return dialog;
}

const errorOf = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

afterEach(() => vi.unstubAllGlobals());

describe("members' applications", () => {
  it("names a member's applications in the list, and shows an id no longer installed as it is", async () => {
    renderUsers([]);
    const row = (await screen.findByRole('rowheader', { name: /Omar/ })).closest('tr') as HTMLElement;
    expect(await within(row).findByText('Point of Sale')).toBeTruthy();
    expect(within(row).getByText('retired-app')).toBeTruthy();
    expect(within(row).queryByText('pos')).toBeNull();
  });

  it('invites someone with no application though the workspace has some: the field is optional', async () => {
    const person = userEvent.setup();
    const { calls } = renderUsers([
      { method: 'POST', path: '/api/workspaces/users/invite', status: 201, body: { data: omar } },
    ]);
    const dialog = await openInvite(person);
    const field = within(dialog).getByRole('button', { name: 'Applications' });
    expect(errorOf(field)).toContain('With none, they work in this back office only.');
    await person.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Inviting USER successful!')).toBeTruthy();
    expect(callsTo(calls, '/api/workspaces/users/invite', 'POST')[0]?.body).toEqual({
      email: 'new@example.com',
      roleId: cashier.id,
      applications: [],
    });
  });

  it('invites someone with applications chosen from a searchable list', async () => {
    const person = userEvent.setup();
    const { calls } = renderUsers([
      { method: 'POST', path: '/api/workspaces/users/invite', status: 201, body: { data: omar } },
    ]);
    const dialog = await openInvite(person);
    const field = within(dialog).getByRole('button', { name: 'Applications' });

    await person.click(field);
    const search = screen.getByRole('searchbox', { name: 'Search applications' });
    await person.type(search, 'kitch');
    expect(screen.queryByRole('checkbox', { name: 'Point of Sale' })).toBeNull();
    await person.click(screen.getByRole('checkbox', { name: 'Kitchen Display' }));
    await person.clear(search);
    await person.type(search, 'zzz');
    expect(screen.getByText('No application matches')).toBeTruthy();
    await person.keyboard('{Escape}');
    expect(field.textContent).toBe('Kitchen Display');
    expect(field.getAttribute('aria-invalid')).toBeNull();

    await person.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Inviting USER successful!')).toBeTruthy();
    expect(callsTo(calls, '/api/workspaces/users/invite', 'POST')[0]?.body).toEqual({
      email: 'new@example.com',
      roleId: cashier.id,
      applications: ['kds'],
    });
  });

  it.each([
    [
      'applications.0',
      'APPLICATION_NOT_INSTALLED',
      'This application is not installed in the workspace',
      true,
      400,
    ],
    // The no-escalation refusal is a 403, with the reason for the field.
    [
      'applications.0',
      'APPLICATION_NOT_HELD',
      'You can give only the applications you use yourself',
      true,
      403,
    ],
  ] as const)(
    "puts the server's refusal at %s (%s) under the field",
    async (path, code, text, withInstalled, status) => {
      const person = userEvent.setup();
      const [errorCode, name] =
        status === 403 ? ['FORBIDDEN', 'ForbiddenError'] : ['VALIDATION', 'ValidationError'];
      renderUsers(
        [
          {
            method: 'POST',
            path: '/api/workspaces/users/invite',
            status,
            body: {
              error: {
                statusCode: status,
                code: errorCode,
                name,
                message: 'x',
                issues: [{ path, message: code }],
              },
            },
          },
        ],
        { withInstalled },
      );
      const dialog = await openInvite(person);
      const field = within(dialog).getByRole('button', { name: 'Applications' });
      if (withInstalled) {
        await person.click(field);
        await person.click(screen.getByRole('checkbox', { name: 'Point of Sale' }));
        await person.keyboard('{Escape}');
      }
      await person.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
      await waitFor(() => expect(errorOf(field)).toContain(text));
      // A field with nothing to choose from is disabled, and cannot take the focus.
      if (withInstalled) expect(document.activeElement).toBe(field);
    },
  );

  it("keeps a member's applications unless changed, and accepts none for a non-admin as for an admin", async () => {
    const person = userEvent.setup();
    const { calls } = renderUsers([
      { method: 'PATCH', path: `/api/workspaces/users/${omar.id}`, body: { data: omar } },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Edit: Omar' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit member: Omar' });
    const field = within(dialog).getByRole('button', { name: 'Applications' });
    await waitFor(() => expect(field.textContent).toBe('Point of Sale, retired-app'));

    await person.click(field);
    await person.click(screen.getByRole('checkbox', { name: 'Point of Sale' }));
    await person.click(screen.getByRole('checkbox', { name: 'retired-app' }));
    await person.keyboard('{Escape}');
    await person.click(within(dialog).getByRole('checkbox', { name: 'Workspace admin' }));
    expect(within(dialog).getByText('Admins can use every installed application.')).toBeTruthy();
    await person.click(within(dialog).getByRole('checkbox', { name: 'Workspace admin' }));
    await person.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updating USER successful!')).toBeTruthy();
    expect(callsTo(calls, `/api/workspaces/users/${omar.id}`, 'PATCH')[0]?.body).toEqual({
      applications: [],
    });
  });

  it("sends no applications when a member's are unchanged", async () => {
    const person = userEvent.setup();
    const { calls } = renderUsers([
      { method: 'PATCH', path: `/api/workspaces/users/${omar.id}`, body: { data: omar } },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Edit: Omar' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit member: Omar' });
    await person.type(within(dialog).getByLabelText('Code'), 'O-7');
    await person.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updating USER successful!')).toBeTruthy();
    expect(callsTo(calls, `/api/workspaces/users/${omar.id}`, 'PATCH')[0]?.body).toEqual({ code: 'O-7' });
  });

  it("offers a non-admin only the applications they hold, and a member's own ones to keep", async () => {
    const person = userEvent.setup();
    const { calls } = renderUsers(
      [
        { method: 'POST', path: '/api/workspaces/users/invite', status: 201, body: { data: omar } },
        { method: 'PATCH', path: `/api/workspaces/users/${omar.id}`, body: { data: omar } },
      ],
      { grant: managerTags, applications: heldByManager },
    );
    const dialog = await openInvite(person);
    const field = within(dialog).getByRole('button', { name: 'Applications' });
    expect(errorOf(field)).toContain('You can give only those you use yourself');
    await person.click(field);
    expect(
      screen.getAllByRole('checkbox').map((box) => (box as HTMLInputElement).labels?.[0]?.textContent),
    ).toEqual(['Kitchen Display']);
    await person.click(screen.getByRole('checkbox', { name: 'Kitchen Display' }));
    await person.keyboard('{Escape}');
    await person.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Inviting USER successful!')).toBeTruthy();
    expect(callsTo(calls, '/api/workspaces/users/invite', 'POST')[0]?.body).toMatchObject({
      applications: ['kds'],
    });

    // Omar has Point of Sale (given by an admin): it stays listed, to keep or take away.
    await person.click(await screen.findByRole('button', { name: 'Edit: Omar' }));
    const editor = screen.getByRole('dialog', { name: 'Edit member: Omar' });
    const applications = within(editor).getByRole('button', { name: 'Applications' });
    await waitFor(() => expect(applications.textContent).toBe('Point of Sale, retired-app'));
    await person.click(applications);
    expect(screen.getByRole('checkbox', { name: 'Point of Sale' })).toBeTruthy();
    await person.click(screen.getByRole('checkbox', { name: 'retired-app' }));
    await person.click(screen.getByRole('checkbox', { name: 'Kitchen Display' }));
    await person.keyboard('{Escape}');
    await person.click(within(editor).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updating USER successful!')).toBeTruthy();
    expect(callsTo(calls, `/api/workspaces/users/${omar.id}`, 'PATCH')[0]?.body).toEqual({
      applications: ['pos', 'kds'],
    });
  });

  it('shows a non-admin their own applications without letting them change them', async () => {
    const person = userEvent.setup();
    renderUsers([], { grant: managerTags, applications: heldByManager, members: [omar, me] });
    await person.click(await screen.findByRole('button', { name: 'Edit: Sara Ali' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit member: Sara Ali' });
    const field = within(dialog).getByRole('button', { name: 'Applications' }) as HTMLButtonElement;
    await waitFor(() => expect(field.textContent).toBe('Kitchen Display'));
    expect(field.disabled).toBe(true);
    expect(errorOf(field)).toContain('Only an admin can change your own applications.');
  });
});
