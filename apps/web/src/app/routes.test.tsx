import { resources, tagFor } from '@dukkan/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from '../i18n/locales/ar.json';
import signedInAr from '../i18n/locales/signed-in/texts-ar.ts';
import { mockFetch } from '../test/render.tsx';
import { mergedTexts } from '../test/texts.ts';
import { pageOf } from './pages.tsx';
import { AppRoutes } from './routes.tsx';
import { screens as screenTable } from './screens.ts';

const workspace = {
  id: 'w1',
  name: 'Demo Store',
  logo: null,
  baseCurrency: 'EGP',
  timeZone: 'Africa/Cairo',
  requireSecondFactor: false,
};
function userWith(tags: string[]) {
  return {
    id: 'u1',
    name: 'sara',
    email: 'sara@example.com',
    phone: null,
    profilePicture: null,
    language: 'en',
    adminWorkspaces: [],
    workspaces: [
      {
        workspaceId: 'w1',
        workspace,
        role: { id: 'r1', code: 'staff', title: 'Staff', permissions: tags.map((tag) => ({ tag })) },
      },
    ],
  };
}

/** Spec §2, "Screen contents": the lazy pages by name. */
const specPageNames = [
  'Locations',
  'MeasurementUnits',
  'Categories',
  'WasteCategories',
  'VariantOptions',
  'VariantValues',
  'Roles',
  'Brands',
  'Taxes',
  'Products',
  'AddProduct',
  'ProductTags',
  'Applications',
  'Subscriptions',
  'Payments',
  'Users',
  'Profile',
  'Customers',
  'ExchangeRates',
];

let lastLocation: ReturnType<typeof useLocation> | undefined;
function LocationProbe() {
  lastLocation = useLocation();
  return null;
}

function renderAt(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('routes', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18next.changeLanguage('en');
  });

  it('sends a signed-out visitor to /login with from and the query string in navigation state', async () => {
    const { fetchMock } = mockFetch([
      {
        path: '/api/auth/user',
        status: 401,
        body: { error: { statusCode: 401, code: 'UNAUTHORIZED', name: 'UnauthorizedError', message: 'x' } },
      },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/brands?x=1');
    await waitFor(() =>
      expect(`${lastLocation?.pathname}${lastLocation?.search}`).toBe('/login?from=/brands'),
    );
    expect(lastLocation?.state).toEqual({ search: '?x=1' });
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
  });

  it('shows the rejection text when the role lacks the permission', async () => {
    const { fetchMock } = mockFetch([{ path: '/api/auth/user', body: { data: userWith(['viewTaxes']) } }]);
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/brands');
    expect(await screen.findByText('You are not authorized to access this page')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Brands' })).toBeTruthy();
    // The menu offers only what the role may open (inside the collapsed Data group).
    expect(screen.getAllByRole('link', { name: 'Taxes', hidden: true }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('link', { name: 'Brands', hidden: true })).toBeNull();
  });

  it.each([
    ['en', 'You are not authorized to access this page', 'Pages you can open', 'Brands', 'Taxes'],
    ['ar', 'ليست لديك صلاحية للوصول إلى هذه الصفحة', 'صفحات يمكنك فتحها', 'العلامات التجارية', 'الضرائب'],
  ])(
    '%s: a member without viewApplications at / gets the refusal and links to the pages they may open',
    async (language, refusal, heading, brands, taxes) => {
      const { fetchMock } = mockFetch([
        { path: '/api/auth/user', body: { data: userWith(['viewBrands']) } },
        { path: '/api/brands', body: { data: [], meta: { total: 0, page: 1, pageSize: 20 } } },
      ]);
      vi.stubGlobal('fetch', fetchMock);
      if (!i18next.hasResourceBundle('ar', 'translation'))
        i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
      await i18next.changeLanguage(language);
      renderAt('/');
      expect(await screen.findByText(refusal)).toBeTruthy();
      const offered = within(screen.getByRole('navigation', { name: heading }));
      const links = offered.getAllByRole('link').map((link) => link.getAttribute('href'));
      // Brands, and the pages every member may open; nothing the role does not allow, nor / itself.
      expect(links).toEqual(['/brands', '/settings', '/profile']);
      expect(offered.getByRole('link', { name: brands })).toBeTruthy();
      expect(offered.queryByRole('link', { name: taxes })).toBeNull();
      await userEvent.setup().click(offered.getByRole('link', { name: brands }));
      await waitFor(() => expect(lastLocation?.pathname).toBe('/brands'));
    },
  );

  it('opens the subscriptions screen from its read-only declaration for a role that may view subscriptions', async () => {
    const { fetchMock, calls } = mockFetch([
      { path: '/api/auth/user', body: { data: userWith(['viewSubscriptions']) } },
      { path: '/api/subscriptions', body: { data: [], meta: { total: 0, page: 1, pageSize: 20 } } },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/subscriptions');
    expect(await screen.findByText('No subscriptions yet')).toBeTruthy();
    expect(calls.find((call) => call.url.startsWith('/api//subscriptions?'))?.url).toContain(
      'workspaceId=w1',
    );
    expect(screen.queryByRole('button', { name: 'New subscription' })).toBeNull();
  });

  it("looks pages up by the spec's names: every screen's page is registered, any other name is 'Unknown component: {name}'", () => {
    for (const entry of Object.values(screenTable)) {
      if (entry.page) expect(() => pageOf(entry.page as string)).not.toThrow();
    }
    expect(() => pageOf('Inventory')).toThrow('Unknown component: Inventory');
    expect(() => pageOf('toString')).toThrow('Unknown component: toString');
  });

  it('opens the brands screen from its declaration for a role that may view brands', async () => {
    const { fetchMock, calls } = mockFetch([
      { path: '/api/auth/user', body: { data: userWith(['viewBrands']) } },
      { path: '/api/brands', body: { data: [], meta: { total: 0, page: 1, pageSize: 20 } } },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/brands');
    expect(await screen.findByText('No brands yet')).toBeTruthy();
    expect(calls.find((call) => call.url.startsWith('/api//brands?'))?.url).toContain('workspaceId=w1');
    // A viewer cannot create.
    expect(screen.queryByRole('button', { name: 'New brand' })).toBeNull();
  });

  it('opens the roles screen for a role that may view roles, asking for the selected workspace', async () => {
    const { fetchMock, calls } = mockFetch([
      { path: '/api/auth/user', body: { data: userWith(['viewAuthority']) } },
      { path: '/api/authority-roles', body: { data: [], meta: { total: 0, page: 1, pageSize: 20 } } },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/authority-roles');
    expect(await screen.findByText('No roles yet')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Authority roles' })).toBeTruthy();
    const list = calls.find((call) => call.url.startsWith('/api//authority-roles?'));
    expect(list?.url).toContain('workspaceId=w1');
    // A viewer cannot create: no New role button anywhere.
    expect(screen.queryByRole('button', { name: 'New role' })).toBeNull();
  });

  it('keeps /accept-invite public: no session is asked for', async () => {
    const { fetchMock, calls } = mockFetch([
      {
        path: '/api/auth/invite-status',
        body: {
          data: { status: 'pending', user: { passwordResetToken: null }, workspace: { name: 'Demo Store' } },
        },
      },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/accept-invite?token=abc');
    expect(await screen.findByRole('button', { name: 'Accept Invitation' })).toBeTruthy();
    expect(calls.some((call) => call.url.includes('/auth/user'))).toBe(false);
  });

  it('shows a signed-in user the not-found page for an unknown address', async () => {
    const { fetchMock } = mockFetch([{ path: '/api/auth/user', body: { data: userWith(['viewBrands']) } }]);
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to home page' }).getAttribute('href')).toBe('/');
  });

  it('sends a signed-out visitor at an unknown address to /login, like any signed-in address', async () => {
    const { fetchMock } = mockFetch([
      {
        path: '/api/auth/user',
        status: 401,
        body: { error: { statusCode: 401, code: 'UNAUTHORIZED', name: 'UnauthorizedError', message: 'x' } },
      },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/no-such-page');
    await waitFor(() => expect(lastLocation?.pathname).toBe('/login'));
  });

  it('routes every registered resource to its screen, guarded by its view permission', async () => {
    for (const definition of resources) {
      const entry = screenTable[definition.key];
      expect(entry?.definition, definition.key).toBe(definition);
      expect(entry?.requirement).toEqual({ or: [tagFor(definition, 'list')] });
      expect(() => pageOf(entry!.page)).not.toThrow();
    }
  });

  it('registers a page under every name of spec §2', () => {
    for (const name of specPageNames) expect(pageOf(name) === undefined, name).toBe(false);
  });
});
