import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { validationRefusal } from '../../test/refusal.ts';
import { mockFetch, renderPage } from '../../test/render.tsx';
import { LoginPage } from './login-page.tsx';

const signedOut = {
  path: '/api/auth/user',
  status: 401,
  body: {
    error: {
      statusCode: 401,
      code: 'UNAUTHORIZED',
      name: 'UnauthorizedError',
      message: 'You are not signed in',
    },
  },
};
const shop = { id: 'w-shop', name: 'Shop', logo: null, baseCurrency: 'EGP', timeZone: 'Africa/Cairo' };
const user = {
  id: 'u1',
  name: 'Demo Admin',
  email: 'admin@example.com',
  phone: null,
  profilePicture: null,
  language: 'en',
  adminWorkspaces: [shop],
  workspaces: [],
};
/** A member whose role may add and view products, and not open the dashboard (viewApplications). */
const clerk = {
  ...user,
  id: 'u2',
  name: 'Omar Clerk',
  email: 'omar@example.com',
  adminWorkspaces: [],
  workspaces: [
    {
      workspaceId: shop.id,
      workspace: shop,
      role: {
        id: 'r1',
        code: 'clerk',
        title: 'Clerk',
        permissions: [{ tag: 'viewProducts' }, { tag: 'addProducts' }],
      },
    },
  ],
};

async function fillAndSubmit(email = 'admin@example.com', password = 'Secret123!') {
  const person = userEvent.setup();
  await person.type(screen.getByLabelText(/^Email/), email);
  await person.type(screen.getByLabelText(/^Password/), password);
  await person.click(screen.getByRole('button', { name: 'Login' }));
}

describe('LoginPage', () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(() => vi.unstubAllGlobals());

  it('shows Invalid Credentials when the server answers 401', async () => {
    const { fetchMock, calls } = mockFetch([
      signedOut,
      {
        method: 'POST',
        path: '/api/auth/login',
        status: 401,
        body: {
          error: {
            statusCode: 401,
            code: 'UNAUTHORIZED',
            name: 'UnauthorizedError',
            message: 'Invalid Credentials',
          },
        },
      },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    renderPage(<LoginPage />, { path: '/login' });
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Invalid Credentials');
    const login = calls.find((call) => call.method === 'POST');
    expect(login?.url).toBe('/api//auth/login');
    expect(login?.body).toEqual({ email: 'admin@example.com', password: 'Secret123!' });
  });

  it('puts VALIDATION issues under their fields, translated', async () => {
    const { fetchMock } = mockFetch([
      signedOut,
      {
        method: 'POST',
        path: '/api/auth/login',
        ...validationRefusal([{ path: 'password', message: 'PASSWORD_TOO_SHORT' }], { key: 'password' }),
      },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    renderPage(<LoginPage />, { path: '/login' });
    await fillAndSubmit();
    const password = screen.getByLabelText(/^Password/);
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    const errorId = password.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(errorId)?.textContent).toBe('Password must be at least 8 characters');
  });

  it('validates in the browser before sending anything', async () => {
    const { fetchMock, calls } = mockFetch([signedOut]);
    vi.stubGlobal('fetch', fetchMock);
    renderPage(<LoginPage />, { path: '/login' });
    await fillAndSubmit('not-an-email', 'short');
    expect(await screen.findByText('Enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('goes to from with the query string carried in navigation state', async () => {
    const { fetchMock } = mockFetch([
      signedOut,
      { method: 'POST', path: '/api/auth/login', body: { data: user } },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    const { getByTestId } = renderPage(<LoginPage />, { path: '/login', at: '/login?from=/brands' });
    // MemoryRouter cannot take state in a string entry; the state case is covered by login-redirect tests.
    await fillAndSubmit();
    await waitFor(() => expect(getByTestId('location').textContent).toBe('/brands'));
  });

  it('lands a member who may not open the dashboard on the first page of their menu, without the last page’s toast', async () => {
    const { fetchMock } = mockFetch([
      signedOut,
      { method: 'POST', path: '/api/auth/login', body: { data: clerk } },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    const { getByTestId } = renderPage(<LoginPage />, { path: '/login', at: '/login?from=/' });
    // What the invitation's page said on its way here.
    toast.success('Your profile is ready. You can now sign in.');
    expect(await screen.findByText('Your profile is ready. You can now sign in.')).toBeTruthy();
    await fillAndSubmit('omar@example.com');
    await waitFor(() => expect(getByTestId('location').textContent).toBe('/products'));
    expect(screen.queryByText('Your profile is ready. You can now sign in.')).toBeNull();
  });

  it('goes to from when the member may open it: the add page with addProducts', async () => {
    const { fetchMock } = mockFetch([
      signedOut,
      { method: 'POST', path: '/api/auth/login', body: { data: clerk } },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    const { getByTestId } = renderPage(<LoginPage />, { path: '/login', at: '/login?from=/products/add' });
    await fillAndSubmit('omar@example.com');
    await waitFor(() => expect(getByTestId('location').textContent).toBe('/products/add'));
  });

  it('a from that resolves off the site lands on a page of the site', async () => {
    const { fetchMock } = mockFetch([
      signedOut,
      { method: 'POST', path: '/api/auth/login', body: { data: clerk } },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    const { getByTestId } = renderPage(<LoginPage />, { path: '/login', at: '/login?from=/.//evil.test' });
    await fillAndSubmit('omar@example.com');
    await waitFor(() => expect(getByTestId('location').textContent).toBe('/products'));
  });

  it('fills in the email handed in navigation state (after accepting an invitation)', async () => {
    const { fetchMock } = mockFetch([signedOut]);
    vi.stubGlobal('fetch', fetchMock);
    renderPage(<LoginPage />, {
      path: '/login',
      at: { pathname: '/login', state: { email: 'omar@example.com' } },
    });
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe('omar@example.com');
    expect((screen.getByLabelText(/^Password/) as HTMLInputElement).value).toBe('');
  });
});
