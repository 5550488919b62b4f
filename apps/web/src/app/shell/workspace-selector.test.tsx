import { allPermissionTags, type CurrentUser, exchangeRatesResource } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/ar.json';
import { queryKeys } from '../../lib/query-keys.ts';
import { ResourceScreen } from '../../resource-ui/resource-screen.tsx';
import { callsTo, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { WorkspaceSelector, workspaceSelectorPopup } from './workspace-selector.tsx';

const shop = { id: 'w-shop', name: 'Shop' };
const admin = testUser([{ ...shop, grant: 'admin' }]);
// A role holding every tag of the catalogue is still not an admin.
const manager = testUser([{ ...shop, grant: [...allPermissionTags] }]);

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

const openSelector = () => userEvent.click(screen.getByRole('button', { name: /switch workspace/i }));

// The menu's own code already there (`deferred-menu.test.tsx` covers the press before it arrives).
beforeAll(async () => {
  await workspaceSelectorPopup.preload();
});

describe('the workspace selector’s settings item', () => {
  it('is offered to an admin of the selected workspace, and saves name and base currency', async () => {
    const saved = {
      id: shop.id,
      name: 'Sara Foods',
      logo: null,
      baseCurrency: 'USD',
      timeZone: 'Africa/Cairo',
    };
    const { fetchMock, calls } = mockFetch([
      { method: 'PATCH', path: '/api/workspaces/settings', body: { data: saved } },
      { path: '/api/auth/user', body: { data: admin } },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    const { queryClient } = renderSignedIn(<WorkspaceSelector />, { user: admin });
    queryClient.setQueryData(queryKeys.currentUser, admin);

    await openSelector();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Workspace settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Workspace settings' });
    const name = within(dialog).getByRole('textbox', { name: /workspace name/i });
    expect((name as HTMLInputElement).value).toBe('Shop');
    await userEvent.clear(name);
    await userEvent.type(name, 'Sara Foods');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')).toHaveLength(1));
    const [call] = callsTo(calls, '/api/workspaces/settings', 'PATCH');
    expect(call!.query.get('workspaceId')).toBe(shop.id);
    expect(call!.body).toEqual({ name: 'Sara Foods', logo: null, baseCurrency: 'EGP' });
    // The shell's current user shows the saved settings at once.
    await waitFor(() =>
      expect(queryClient.getQueryData<CurrentUser>(queryKeys.currentUser)?.adminWorkspaces).toEqual([saved]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByText('Workspace settings saved');
  });

  it('asks before discarding a changed name', async () => {
    vi.stubGlobal('fetch', mockFetch([]).fetchMock);
    renderSignedIn(<WorkspaceSelector />, { user: admin });
    await openSelector();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Workspace settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Workspace settings' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /workspace name/i }), ' 2');
    await userEvent.keyboard('{Escape}');
    await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
  });

  it('is not offered to a member who is not an admin, whatever their role', async () => {
    vi.stubGlobal('fetch', mockFetch([]).fetchMock);
    renderSignedIn(<WorkspaceSelector />, { user: manager });
    await openSelector();
    await screen.findByRole('menuitemradio', { name: /shop/i });
    expect(screen.queryByRole('menuitem', { name: 'Workspace settings' })).toBeNull();
  });
});

describe('declared texts name the selected workspace’s base currency', () => {
  it('the exchange rates screen says what its rates are against, in en and ar', async () => {
    const inDollars = testUser([{ ...shop, grant: 'admin' }]);
    inDollars.adminWorkspaces = [{ ...inDollars.adminWorkspaces[0]!, baseCurrency: 'USD' }];
    vi.stubGlobal(
      'fetch',
      mockFetch([
        { path: '/api/exchange-rates', body: { data: [], meta: { total: 0, page: 1, pageSize: 20 } } },
      ]).fetchMock,
    );
    renderSignedIn(<ResourceScreen definition={exchangeRatesResource} title="Exchange rates" />, {
      user: inDollars,
    });
    await screen.findByText(/^Rates against USD, the workspace's base currency/);
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', { ...ar, ...signedInAr });
    await i18next.changeLanguage('ar');
    await screen.findByText(/^الأسعار مقابل USD/);
  });
});
