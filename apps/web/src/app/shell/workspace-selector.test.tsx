import { allPermissionTags, exchangeRatesResource } from '@dukkan/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { ResourceScreen } from '../../resource-ui/resource-screen.tsx';
import { mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
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
  it.each([
    ['an admin', admin],
    ['a member who is not an admin, whatever their role', manager],
  ])('opens /settings for %s', async (_who, user) => {
    vi.stubGlobal('fetch', mockFetch([]).fetchMock);
    renderSignedIn(<WorkspaceSelector />, { user, path: '*', at: '/brands' });
    await openSelector();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Workspace settings' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/settings'));
    // No dialog of its own any more: the page is where the settings are.
    expect(screen.queryByRole('dialog')).toBeNull();
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
    if (!i18next.hasResourceBundle('ar', 'translation')) {
      // As the app loads them: the public texts, then the signed-in ones added key by key.
      i18next.addResourceBundle('ar', 'translation', ar);
      i18next.addResourceBundle('ar', 'translation', signedInAr, true, true);
    }
    await i18next.changeLanguage('ar');
    await screen.findByText(/^الأسعار مقابل USD/);
  });
});
