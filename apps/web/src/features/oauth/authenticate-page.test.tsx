import type { CurrentUser } from '@dukkan/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/routes.tsx';
import { loginRedirectTarget } from '../../lib/login-redirect.ts';
import { bothLanguages } from '../../test/localized.ts';
import { callsTo, type MockRoute, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { AuthenticatePage } from './authenticate-page.tsx';

// jsdom cannot leave the page: the full navigation is recorded instead.
const left = vi.hoisted(() => ({ addresses: [] as string[] }));
vi.mock('../../lib/leave-app.ts', () => ({
  leaveApp: (address: string) => left.addresses.push(address),
}));

const search =
  '?client_id=demo-app&redirect_uri=https%3A%2F%2Fdemo.example%2Fcallback&response_type=code' +
  '&scope=openid&code_challenge=abc123&code_challenge_method=S256&state=s%26t&interaction=uid-1';
const portal = `/authenticate${search}`;

const user = testUser([
  { id: 'w1', name: 'Demo Store', grant: 'admin' },
  { id: 'w2', name: 'Second Shop', grant: ['viewBrands'] },
]);

const notFound = {
  status: 404,
  body: { error: { statusCode: 404, code: 'NOT_FOUND', name: 'NotFoundError', message: 'Not found' } },
};
const failed = {
  status: 500,
  body: { error: { statusCode: 500, code: 'INTERNAL', name: 'InternalError', message: 'Internal' } },
};

const application: MockRoute = {
  path: '/api/oauth/application/demo-app',
  body: {
    data: {
      clientId: 'demo-app',
      localizedName: bothLanguages('Demo App', 'التطبيق التجريبي'),
      logo: '/files/demo-logo.png',
    },
  },
};
const installed: MockRoute = {
  path: '/api/oauth/installed-application/demo-app',
  body: { data: { clientId: 'demo-app', workspace: { id: 'w1', name: 'Demo Store' } } },
};
const authorized: MockRoute = {
  path: '/api/oauth/authorize/client-side',
  body: { data: { redirect: 'http://localhost:3000/oidc/auth/uid-1' } },
};

function open(routes: MockRoute[], at = portal) {
  const mock = mockFetch(routes);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(<AuthenticatePage />, { user, path: '/authenticate', at });
  return mock;
}

const location = () => screen.getByTestId('location');

/** The toast showing `text`, checked to sit at the top centre of the screen. */
async function expectTopCentreToast(text: string) {
  const message = await screen.findByText(text);
  const placement = message.closest<HTMLElement>('div[style*="justify-content"]');
  expect(placement?.style.justifyContent).toBe('center');
  expect(placement?.style.top).toBe('0px');
}

describe('AuthenticatePage, the sign-in portal (spec §2, §7, §8)', () => {
  beforeEach(() => {
    left.addresses = [];
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows a loading state while the application is looked up', async () => {
    vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
    renderSignedIn(<AuthenticatePage />, { user, path: '/authenticate', at: portal });
    const loading = await screen.findByText('Loading…');
    expect(loading.closest('[role="status"]')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
  });

  it("shows the application's name and logo, the user's initials, the workspace, and focuses Login", async () => {
    const { calls } = open([application, installed]);
    expect(await screen.findByRole('heading', { name: 'You are about to login to Demo App' })).toBeTruthy();
    expect(document.querySelector('img[src="/files/demo-logo.png"]')).toBeTruthy();
    // Sara Ali, no profile picture: the initials of the first two words.
    expect(screen.getByText('SA')).toBeTruthy();
    expect(screen.getByText('Signed in as Sara Ali')).toBeTruthy();
    expect(screen.getByText('Demo Store')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Switch Account' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Login' }));
    const [check] = callsTo(calls, '/api/oauth/installed-application/demo-app');
    expect(check?.query.get('workspaceId')).toBe('w1');
  });

  it("shows the user's profile picture in place of the initials when they set one", async () => {
    const picture = '/files/11111111-1111-4111-8111-111111111111/33333333-3333-4333-8333-333333333333.png';
    const mock = mockFetch([application, installed]);
    vi.stubGlobal('fetch', mock.fetchMock);
    renderSignedIn(<AuthenticatePage />, {
      user: { ...user, profilePicture: picture },
      path: '/authenticate',
      at: portal,
    });
    expect(await screen.findByRole('heading', { name: 'You are about to login to Demo App' })).toBeTruthy();
    expect(document.querySelector(`img[src="${picture}"]`)).toBeTruthy();
    expect(screen.queryByText('SA')).toBeNull();
  });

  it('asks about the workspace selected in the shell', async () => {
    localStorage.setItem('selectedWorkspace', 'w2');
    const { calls } = open([application, installed]);
    expect(await screen.findByText('Second Shop')).toBeTruthy();
    expect(callsTo(calls, '/api/oauth/installed-application/demo-app')[0]?.query.get('workspaceId')).toBe(
      'w2',
    );
  });

  it('goes to /404 for an unknown client, asking once (a 404 is not retried)', async () => {
    const { calls } = open([{ path: '/api/oauth/application/demo-app', ...notFound }, installed]);
    await waitFor(() => expect(location().textContent).toBe('/404'));
    expect(callsTo(calls, '/api/oauth/application/demo-app')).toHaveLength(1);
  });

  it('goes to /404 when no client is named', async () => {
    const { calls } = open([application, installed], '/authenticate?redirect_uri=x');
    await waitFor(() => expect(location().textContent).toBe('/404'));
    expect(callsTo(calls, '/api/oauth/application/demo-app')).toHaveLength(0);
  });

  it('shows Access Denied when the workspace has not installed the application, with a link home', async () => {
    const { calls } = open([application, { path: '/api/oauth/installed-application/demo-app', ...notFound }]);
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeTruthy();
    expect(screen.getByText('You are not authorized to access Demo App')).toBeTruthy();
    // Nothing to offer here (the dashboard's list is not found either): the spec's last line.
    expect(await screen.findByText('Please contact your administrator')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to home page' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
    // Once in the selected workspace (not retried), once in the other one.
    const checks = callsTo(calls, '/api/oauth/installed-application/demo-app');
    expect(checks.map((call) => call.query.get('workspaceId'))).toEqual(['w1', 'w2']);
  });

  it('shows Something went wrong when the installed check keeps failing, after 3 retries', async () => {
    const { calls } = open([application, { path: '/api/oauth/installed-application/demo-app', ...failed }]);
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByText('Please try again later')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to home page' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
    expect(callsTo(calls, '/api/oauth/installed-application/demo-app')).toHaveLength(4);
  });

  it('shows Something went wrong when the application lookup keeps failing, after 3 retries', async () => {
    const { calls } = open([{ path: '/api/oauth/application/demo-app', ...failed }, installed]);
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(location().textContent).toBe(portal);
    expect(callsTo(calls, '/api/oauth/application/demo-app')).toHaveLength(4);
  });

  it("Login authorizes with the page's parameters and the workspace, once, then leaves for the redirect", async () => {
    const person = userEvent.setup();
    const { calls } = open([application, installed, authorized]);
    const login = await screen.findByRole('button', { name: 'Login' });
    await person.dblClick(login);
    await waitFor(() => expect(left.addresses).toEqual(['http://localhost:3000/oidc/auth/uid-1']));
    const requests = callsTo(calls, '/api/oauth/authorize/client-side');
    expect(requests).toHaveLength(1);
    expect(Object.fromEntries(requests[0]?.query ?? [])).toEqual({
      ...Object.fromEntries(new URLSearchParams(search)),
      workspaceId: 'w1',
    });
    // Busy until the browser has gone.
    expect(login.getAttribute('aria-busy')).toBe('true');
    expect(location().textContent).toBe(portal);
  });

  it("shows a refusal's description in a toast at the top centre, and lets the user try again", async () => {
    const person = userEvent.setup();
    open([
      application,
      installed,
      {
        path: '/api/oauth/authorize/client-side',
        status: 403,
        body: { error: 'access_denied', error_description: 'The workspace has no subscription to Demo App' },
      },
    ]);
    const login = await screen.findByRole('button', { name: 'Login' });
    await person.click(login);
    await expectTopCentreToast('The workspace has no subscription to Demo App');
    expect(left.addresses).toEqual([]);
    await waitFor(() => expect(login).toHaveProperty('disabled', false));
    expect(document.activeElement).toBe(login);
  });

  it('shows the usual error toast for any other failure of Login', async () => {
    const person = userEvent.setup();
    open([
      application,
      installed,
      { path: '/api/oauth/authorize/client-side', status: 400, body: { error: 'server_error' } },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    expect(left.addresses).toEqual([]);
  });

  describe('a second factor the session has not used', () => {
    const multiFactor = 'http://schemas.openid.net/pape/policies/2007/06/multi-factor';
    const factors: MockRoute = {
      path: '/api/auth/second-factors',
      body: {
        data: {
          factors: [
            { id: 'f1', kind: 'totp', name: 'Phone', createdAt: '2026-11-01T00:00:00Z', lastUsedAt: null },
          ],
          recoveryCodesLeft: 10,
        },
      },
    };
    const openAs = (person: CurrentUser, routes: MockRoute[], at = portal) => {
      const mock = mockFetch(routes);
      vi.stubGlobal('fetch', mock.fetchMock);
      renderSignedIn(<AuthenticatePage />, { user: person, path: '/authenticate', at });
      return mock;
    };

    it('asks for it first when the application asks (acr_values), then signs in by itself', async () => {
      const person = userEvent.setup();
      const withFactor = { ...user, hasSecondFactor: true };
      const { calls } = openAs(
        withFactor,
        [
          application,
          installed,
          authorized,
          factors,
          {
            method: 'POST',
            path: '/api/auth/second-factor/totp',
            body: { data: { ...withFactor, sessionFactors: ['pwd', 'otp'] } },
          },
        ],
        `${portal}&acr_values=${encodeURIComponent(multiFactor)}`,
      );
      expect(
        await screen.findByText('Demo App asks for a second factor. Confirm it is you to sign in.'),
      ).toBeTruthy();
      // No Login to press before the second step: it would only be refused.
      expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
      await person.type(await screen.findByLabelText(/^Authentication code/), '123456');
      await person.click(screen.getByRole('button', { name: 'Verify' }));
      await waitFor(() => expect(left.addresses).toEqual(['http://localhost:3000/oidc/auth/uid-1']));
      expect(callsTo(calls, '/api/auth/second-factor/totp', 'POST')[0]?.body).toEqual({ code: '123456' });
      expect(callsTo(calls, '/api/oauth/authorize/client-side')).toHaveLength(1);
    });

    it('asks for it when Login is refused for the lack of one, without a toast', async () => {
      const person = userEvent.setup();
      openAs({ ...user, hasSecondFactor: true }, [
        application,
        installed,
        factors,
        {
          path: '/api/oauth/authorize/client-side',
          status: 403,
          body: {
            error: {
              statusCode: 403,
              code: 'SECOND_FACTOR_REQUIRED',
              name: 'SecondFactorRequiredError',
              message: 'A second factor is required',
            },
          },
        },
      ]);
      await person.click(await screen.findByRole('button', { name: 'Login' }));
      expect(await screen.findByLabelText(/^Authentication code/)).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
      expect(screen.queryByText('Something went wrong')).toBeNull();
      expect(left.addresses).toEqual([]);
    });

    it('sends a person without one to add it on the profile, in English and Arabic', async () => {
      const required = {
        ...user,
        adminWorkspaces: user.adminWorkspaces.map((entry) => ({ ...entry, requireSecondFactor: true })),
      };
      openAs(required, [application, installed]);
      const link = await screen.findByRole('link', { name: 'Set up a second factor' });
      expect(link.getAttribute('href')).toBe('/profile#security');
      expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
      expect(screen.getByRole('button', { name: 'Switch Account' })).toBeTruthy();
    });
  });

  it('Switch Account signs out, then goes to /login to come back here with the same parameters', async () => {
    const person = userEvent.setup();
    const { calls } = open([
      application,
      installed,
      { path: '/api/auth/logout', body: { data: { ok: true } } },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Switch Account' }));
    await waitFor(() => expect(location().textContent).toBe('/login?from=/authenticate'));
    expect(callsTo(calls, '/api/auth/logout')).toHaveLength(1);
    const state: unknown = JSON.parse(location().dataset.state ?? 'null');
    expect(state).toEqual({ search });
    // What the login page does with them once the other account has signed in.
    expect(loginRedirectTarget('/authenticate', state)).toBe(portal);
    expect(callsTo(calls, '/api/oauth/authorize/client-side')).toHaveLength(0);
  });

  it("shows the authorization server's refusal from the address in a toast, and no way on", async () => {
    const { calls } = open(
      [application, installed],
      '/authenticate?error=invalid_redirect_uri&error_description=redirect_uri+did+not+match&client_id=demo-app',
    );
    await expectTopCentreToast('redirect_uri did not match');
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByText('Please try again later')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to home page' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
    expect(calls).toHaveLength(0);
  });
});

/** The demo application's card on the dashboard of a workspace that has not subscribed. */
const dashboardApplication = (card: string, allowedEvents: string[]) => ({
  id: '0b7c5c1e-4c6b-4a57-9a0e-000000000001',
  clientId: 'demo-app',
  name: bothLanguages('Demo App', 'التطبيق التجريبي'),
  description: [{ locale: 'en', value: 'The demo' }],
  logo: null,
  homeUrl: 'https://demo.example/',
  pricing: {
    currency: 'EGP',
    monthlyPricePerLocation: 25_000,
    discounts: { monthly: 0, quarterly: 500, semiannually: 1_000, annually: 2_000 },
    trialDays: 14,
  },
  subscription: null,
  card,
  allowedEvents,
  trialUsed: false,
});

describe('Access Denied helps the person in front of it', () => {
  beforeEach(() => {
    left.addresses = [];
  });
  afterEach(() => vi.unstubAllGlobals());

  /** Installed in the workspaces of `allowed` (mutable: a trial adds one), refused elsewhere. */
  function installedIn(allowed: Set<string>): MockRoute {
    return {
      path: '/api/oauth/installed-application/demo-app',
      body: ({ query }: { query: URLSearchParams }) => {
        const workspaceId = query.get('workspaceId') ?? '';
        if (!allowed.has(workspaceId)) throw new Error('refused');
        return { data: { clientId: 'demo-app', workspace: { id: workspaceId, name: 'Shop' } } };
      },
    };
  }

  function openAs(person: ReturnType<typeof testUser>, routes: MockRoute[]) {
    const mock = mockFetch(routes);
    // A refusal thrown by a route's body answers 404, as the server does for an uninstalled app.
    const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
      try {
        return await mock.fetchMock(input, init);
      } catch {
        return new Response(JSON.stringify(notFound.body), { status: 404 });
      }
    };
    vi.stubGlobal('fetch', fetchMock);
    renderSignedIn(<AuthenticatePage />, { user: person, path: '/authenticate', at: portal });
    return mock;
  }

  it("offers the application's card to a member who may subscribe: a started trial signs in at once", async () => {
    const person = userEvent.setup();
    const allowed = new Set<string>();
    const { calls } = openAs(testUser([{ id: 'w1', name: 'Demo Store', grant: 'admin' }]), [
      application,
      installedIn(allowed),
      {
        path: '/api/applications',
        body: { data: [dashboardApplication('notSubscribed', ['startTrial', 'request'])], meta: {} },
      },
      {
        method: 'POST',
        path: '/api/subscriptions/events',
        body: () => {
          allowed.add('w1');
          return { data: { id: 's1', status: 'freeTrial' } };
        },
      },
      authorized,
    ]);
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeTruthy();
    expect(screen.getByText('You are not authorized to access Demo App')).toBeTruthy();
    const card = await screen.findByRole('article', { name: 'Demo App' });
    expect(screen.queryByText('Please contact your administrator')).toBeNull();
    // What gives access, not what the dashboard alone offers.
    expect(within(card).getByRole('button', { name: 'Subscribe' })).toBeTruthy();
    await person.click(within(card).getByRole('button', { name: 'Start free trial' }));

    await waitFor(() => expect(left.addresses).toEqual(['http://localhost:3000/oidc/auth/uid-1']));
    expect(callsTo(calls, '/api/subscriptions/events', 'POST')[0]?.body).toMatchObject({
      event: 'startTrial',
    });
    const authorize = callsTo(calls, '/api/oauth/authorize/client-side');
    expect(authorize).toHaveLength(1);
    expect(authorize[0]?.query.get('workspaceId')).toBe('w1');
  });

  it('lets a member continue in another workspace where the application is theirs', async () => {
    const person = userEvent.setup();
    const { calls } = openAs(
      testUser([
        { id: 'w1', name: 'Demo Store', grant: ['viewBrands'] },
        { id: 'w2', name: 'Second Shop', grant: ['viewBrands'] },
      ]),
      [application, installedIn(new Set(['w2'])), authorized],
    );
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeTruthy();
    await person.click(await screen.findByRole('button', { name: 'Continue in Second Shop' }));
    await waitFor(() => expect(left.addresses).toEqual(['http://localhost:3000/oidc/auth/uid-1']));
    expect(callsTo(calls, '/api/oauth/authorize/client-side')[0]?.query.get('workspaceId')).toBe('w2');
    expect(callsTo(calls, '/api/applications')).toHaveLength(0);
  });

  it('tells someone who can do neither to contact their administrator, and offers nothing', async () => {
    const { calls } = openAs(testUser([{ id: 'w1', name: 'Demo Store', grant: ['viewBrands'] }]), [
      application,
      installedIn(new Set()),
    ]);
    expect(await screen.findByText('Please contact your administrator')).toBeTruthy();
    expect(screen.queryByRole('article')).toBeNull();
    expect(screen.queryByRole('button', { name: /Start free trial|Subscribe|Continue in/ })).toBeNull();
    expect(callsTo(calls, '/api/applications')).toHaveLength(0);
  });
});

let lastLocation: ReturnType<typeof useLocation> | undefined;
function LocationProbe() {
  lastLocation = useLocation();
  return null;
}

describe('/authenticate in the app routes', () => {
  function renderApp(routes: MockRoute[]) {
    const mock = mockFetch(routes);
    vi.stubGlobal('fetch', mock.fetchMock);
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[portal]}>
          <Suspense fallback={null}>
            <AppRoutes />
          </Suspense>
          <LocationProbe />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    return mock;
  }
  afterEach(() => vi.unstubAllGlobals());

  it('sends a signed-out visitor to /login with from=/authenticate and the parameters in navigation state', async () => {
    const { calls } = renderApp([
      {
        path: '/api/auth/user',
        status: 401,
        body: { error: { statusCode: 401, code: 'UNAUTHORIZED', name: 'UnauthorizedError', message: 'x' } },
      },
      application,
    ]);
    await waitFor(() =>
      expect(`${lastLocation?.pathname}${lastLocation?.search}`).toBe('/login?from=/authenticate'),
    );
    expect(lastLocation?.state).toEqual({ search });
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
    expect(callsTo(calls, '/api/oauth/application/demo-app')).toHaveLength(0);
  });

  it('sends the user to sign in and back when the session has ended by the time Login is pressed', async () => {
    const person = userEvent.setup();
    renderApp([
      { path: '/api/auth/user', body: { data: user } },
      application,
      installed,
      {
        path: '/api/oauth/authorize/client-side',
        status: 401,
        body: { error: { statusCode: 401, code: 'UNAUTHORIZED', name: 'UnauthorizedError', message: 'x' } },
      },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Login' }));
    await waitFor(() => expect(lastLocation?.pathname).toBe('/login'));
    expect(lastLocation?.search).toBe('?from=/authenticate');
    expect(lastLocation?.state).toEqual({ search });
    expect(left.addresses).toEqual([]);
  });

  it('shows a signed-in user the portal in its own card, not in the shell', async () => {
    renderApp([{ path: '/api/auth/user', body: { data: user } }, application, installed]);
    expect(await screen.findByRole('heading', { name: 'You are about to login to Demo App' })).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(lastLocation?.pathname).toBe('/authenticate');
  });
});
