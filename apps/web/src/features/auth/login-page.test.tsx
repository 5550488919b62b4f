import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import type { InitialEntry } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { unauthorizedRefusal, validationRefusal } from '../../test/refusal.ts';
import { type MockRoute, mockFetch, renderPage } from '../../test/render.tsx';
import { LoginPage } from './login-page.tsx';

const signedOut = {
  path: '/api/auth/user',
  ...unauthorizedRefusal('You are not signed in'),
};
const shop = {
  id: 'w-shop',
  name: 'Shop',
  logo: null,
  baseCurrency: 'EGP',
  timeZone: 'Africa/Cairo',
  requireSecondFactor: false,
};
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

/** The login page at `at`, the visitor signed out; `answers` answer the calls after that. */
function renderLogin(at: InitialEntry = '/login', ...answers: MockRoute[]) {
  const mock = mockFetch([signedOut, ...answers]);
  vi.stubGlobal('fetch', mock.fetchMock);
  return { ...mock, ...renderPage(<LoginPage />, { path: '/login', at }) };
}

/** The sign-in accepted, for this user. */
const signsIn = (data: object): MockRoute => ({ method: 'POST', path: '/api/auth/login', body: { data } });

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
    const { calls } = renderLogin('/login', {
      method: 'POST',
      path: '/api/auth/login',
      ...unauthorizedRefusal('Invalid Credentials'),
    });
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Invalid Credentials');
    const login = calls.find((call) => call.method === 'POST');
    expect(login?.url).toBe('/api//auth/login');
    expect(login?.body).toEqual({ email: 'admin@example.com', password: 'Secret123!' });
  });

  it('puts VALIDATION issues under their fields, translated', async () => {
    renderLogin('/login', {
      method: 'POST',
      path: '/api/auth/login',
      ...validationRefusal([{ path: 'password', message: 'PASSWORD_TOO_SHORT' }], { key: 'password' }),
    });
    await fillAndSubmit();
    const password = screen.getByLabelText(/^Password/);
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    const errorId = password.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(errorId)?.textContent).toBe('Password must be at least 8 characters');
  });

  it('validates in the browser before sending anything', async () => {
    const { calls } = renderLogin();
    await fillAndSubmit('not-an-email', 'short');
    expect(await screen.findByText('Enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('goes to from with the query string carried in navigation state', async () => {
    const { getByTestId } = renderLogin('/login?from=/brands', signsIn(user));
    // MemoryRouter cannot take state in a string entry; the state case is covered by login-redirect tests.
    await fillAndSubmit();
    await waitFor(() => expect(getByTestId('location').textContent).toBe('/brands'));
  });

  it('lands a member who may not open the dashboard on the first page of their menu, without the last page’s toast', async () => {
    const { getByTestId } = renderLogin('/login?from=/', signsIn(clerk));
    // What the invitation's page said on its way here.
    toast.success('Your profile is ready. You can now sign in.');
    expect(await screen.findByText('Your profile is ready. You can now sign in.')).toBeTruthy();
    await fillAndSubmit('omar@example.com');
    await waitFor(() => expect(getByTestId('location').textContent).toBe('/products'));
    expect(screen.queryByText('Your profile is ready. You can now sign in.')).toBeNull();
  });

  it.each([
    [
      'goes to from when the member may open it: the add page with addProducts',
      '/products/add',
      '/products/add',
    ],
    ['a from that resolves off the site lands on a page of the site', '/.//evil.test', '/products'],
  ])('%s', async (_title, from, landing) => {
    const { getByTestId } = renderLogin(`/login?from=${from}`, signsIn(clerk));
    await fillAndSubmit('omar@example.com');
    await waitFor(() => expect(getByTestId('location').textContent).toBe(landing));
  });

  it('fills in the email handed in navigation state (after accepting an invitation)', async () => {
    renderLogin({ pathname: '/login', state: { email: 'omar@example.com' } });
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe('omar@example.com');
    expect((screen.getByLabelText(/^Password/) as HTMLInputElement).value).toBe('');
  });

  describe('the second step', () => {
    const needsStep: MockRoute = signsIn({ secondFactor: { methods: ['totp', 'passkey', 'recovery'] } });

    it('asks for the authenticator code after the password, then goes on to from', async () => {
      const { calls, getByTestId } = renderLogin('/login?from=/brands', needsStep, {
        method: 'POST',
        path: '/api/auth/second-factor/totp',
        body: { data: user },
      });
      await fillAndSubmit();
      const code = await screen.findByLabelText(/^Authentication code/);
      expect(code.getAttribute('autocomplete')).toBe('one-time-code');
      expect(code.getAttribute('inputmode')).toBe('numeric');
      const person = userEvent.setup();
      await person.type(code, '123456');
      await person.click(screen.getByRole('button', { name: 'Verify' }));
      await waitFor(() => expect(getByTestId('location').textContent).toBe('/brands'));
      expect(calls.find((call) => call.url.endsWith('/second-factor/totp'))?.body).toEqual({
        code: '123456',
      });
    });

    it('says a wrong code in words under the field, and stays', async () => {
      const { getByTestId } = renderLogin('/login?from=/brands', needsStep, {
        method: 'POST',
        path: '/api/auth/second-factor/totp',
        ...validationRefusal([{ path: 'code', message: 'ONE_TIME_CODE_IS_INVALID' }]),
      });
      await fillAndSubmit();
      const person = userEvent.setup();
      await person.type(await screen.findByLabelText(/^Authentication code/), '000000');
      await person.click(screen.getByRole('button', { name: 'Verify' }));
      expect(
        await screen.findByText(
          'This code is not valid. Enter the six digits your authenticator app shows now',
        ),
      ).toBeTruthy();
      expect(getByTestId('location').textContent).toBe('/login?from=/brands');
    });

    it('switches to a recovery code, sent to its own endpoint', async () => {
      const { calls } = renderLogin('/login', needsStep, {
        method: 'POST',
        path: '/api/auth/second-factor/recovery',
        ...validationRefusal([{ path: 'code', message: 'RECOVERY_CODE_IS_INVALID' }]),
      });
      await fillAndSubmit();
      const person = userEvent.setup();
      await person.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
      await person.type(screen.getByLabelText(/^Recovery code/), 'abcde-fghij-klmno');
      await person.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByText('This recovery code is not valid or has been used')).toBeTruthy();
      expect(calls.find((call) => call.url.endsWith('/second-factor/recovery'))?.body).toEqual({
        code: 'abcde-fghij-klmno',
      });
    });

    it('offers only the ways the account has', async () => {
      renderLogin('/login', signsIn({ secondFactor: { methods: ['passkey'] } }));
      await fillAndSubmit();
      expect(await screen.findByRole('button', { name: 'Sign in with a passkey' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Use a recovery code' })).toBeNull();
      expect(screen.queryByLabelText(/^Authentication code/)).toBeNull();
    });
  });
});
