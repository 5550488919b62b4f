import { createHash } from 'node:crypto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, type MockRoute, mockFetch, renderPage } from '../../test/render.tsx';
import { AcceptInvitePage } from './accept-invite-page.tsx';

// A real, tiny ALTCHA challenge: the page solves it as it would in the browser.
const salt = 'invite-salt';
const challenge = {
  algorithm: 'SHA-256',
  challenge: createHash('sha256').update(`${salt}5`).digest('hex'),
  maxnumber: 20,
  salt,
  signature: 'signature',
};

const notFound = {
  status: 404,
  body: { error: { statusCode: 404, code: 'NOT_FOUND', name: 'NotFoundError', message: 'Not found' } },
};

const invitedEmail = 'omar@example.com';

function status(value: 'pending' | 'accepted' | 'expired', passwordResetToken: string | null = null) {
  return {
    body: {
      data: {
        status: value,
        user: { email: invitedEmail, passwordResetToken },
        workspace: { name: 'Cairo Coffee' },
      },
    },
  };
}

/** The navigation state the page left with: the login page fills in this email. */
const leftWithState = () => JSON.parse(screen.getByTestId('location').dataset.state ?? 'null');

function open(at: string, routes: MockRoute[]) {
  const mock = mockFetch([
    { path: '/api/captcha/config', body: { data: { provider: 'altcha' } } },
    { path: '/api/captcha/challenge', body: { data: challenge } },
    ...routes,
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderPage(<AcceptInvitePage />, { path: '/accept-invite', at });
  return mock;
}

const location = () => screen.getByTestId('location').textContent;

async function completeProfile() {
  const person = userEvent.setup();
  await person.type(screen.getByLabelText('Full name'), 'Omar Hassan');
  await person.type(screen.getByLabelText('Phone number'), '+20 1001234567');
  await person.type(screen.getByLabelText('Password'), 'Secret123!');
  await person.type(screen.getByLabelText('Confirm password'), 'Secret123!');
  await person.click(screen.getByRole('button', { name: 'Update Profile' }));
}

describe('AcceptInvitePage (spec §2, §4)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('goes to / without a token, asking nothing', async () => {
    const { calls } = open('/accept-invite', []);
    await waitFor(() => expect(location()).toBe('/'));
    expect(callsTo(calls, '/api/auth/invite-status')).toHaveLength(0);
  });

  it('shows "This Invite Is Invalid" in red for an unknown token', async () => {
    const { calls } = open('/accept-invite?token=nope', [{ path: '/api/auth/invite-status', ...notFound }]);
    const heading = await screen.findByRole('heading', { name: 'This Invite Is Invalid' });
    expect(heading.className).toContain('text-red-600');
    expect(callsTo(calls, '/api/auth/invite-status')[0]?.query.get('token')).toBe('nope');
  });

  it.each(['accepted', 'expired'] as const)(
    'an %s invite without a reset token is already accepted and expired',
    async (state) => {
      open('/accept-invite?token=t1', [{ path: '/api/auth/invite-status', ...status(state) }]);
      expect(await screen.findByRole('heading', { name: 'Cairo Coffee' })).toBeTruthy();
      expect(screen.getByText('Invitation Already Accepted')).toBeTruthy();
      expect(screen.getByText('Invitation has Expired')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Accept Invitation' })).toBeNull();
    },
  );

  it('pending → Accept Invitation → profile form → set-profile → /login', async () => {
    const person = userEvent.setup();
    const { calls } = open('/accept-invite?token=t2', [
      { path: '/api/auth/invite-status', ...status('pending', 'reset-1') },
      {
        method: 'POST',
        path: '/api/workspaces/users/accept-invite',
        body: { data: { passwordResetToken: 'reset-2', workspace: { name: 'Cairo Coffee' } } },
      },
      { method: 'POST', path: '/api/auth/set-profile', body: { data: { ok: true } } },
    ]);
    expect(await screen.findByRole('heading', { name: 'Cairo Coffee' })).toBeTruthy();
    await person.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    expect(callsTo(calls, '/api/workspaces/users/accept-invite', 'POST')[0]?.body).toEqual({ token: 't2' });

    expect(await screen.findByRole('heading', { name: 'Thanks for Accepting Invitation' })).toBeTruthy();
    expect(screen.getByText('Please Complete Your Data')).toBeTruthy();
    await completeProfile();

    await waitFor(() => expect(location()).toBe('/login'));
    // The invited address goes along in navigation state, not in the URL.
    expect(leftWithState()).toEqual({ email: invitedEmail });
    const [profile] = callsTo(calls, '/api/auth/set-profile', 'POST');
    expect(profile?.body).toMatchObject({
      name: 'Omar Hassan',
      // Typed with a space; sent as the contract's schema normalizes it.
      phone: '+201001234567',
      password: 'Secret123!',
      passwordResetToken: 'reset-2',
    });
    expect(profile?.body).toHaveProperty('reCaptchaToken', expect.any(String));
    expect(profile?.body).not.toHaveProperty('confirmPassword');
    expect(await screen.findByText('Your profile is ready. You can now sign in.')).toBeTruthy();
  });

  it('checks the profile form before sending it', async () => {
    const person = userEvent.setup();
    const { calls } = open('/accept-invite?token=t3', [
      { path: '/api/auth/invite-status', ...status('accepted', 'reset-3') },
    ]);
    // Accepted earlier but the profile was never completed: straight to the form.
    expect(await screen.findByRole('heading', { name: 'Thanks for Accepting Invitation' })).toBeTruthy();
    await person.type(screen.getByLabelText('Password'), 'weak');
    await person.type(screen.getByLabelText('Confirm password'), 'other');
    await person.click(screen.getByRole('button', { name: 'Update Profile' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText(/Password must contain at least 8 characters/)).toBeTruthy();
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(callsTo(calls, '/api/auth/set-profile', 'POST')).toHaveLength(0);
  });

  it('someone who already has an account joins and is sent to sign in', async () => {
    const person = userEvent.setup();
    open('/accept-invite?token=t4', [
      { path: '/api/auth/invite-status', ...status('pending') },
      {
        method: 'POST',
        path: '/api/workspaces/users/accept-invite',
        body: { data: { workspace: { name: 'Cairo Coffee' } } },
      },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByText('You have joined Cairo Coffee.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to login' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('heading', { name: 'Thanks for Accepting Invitation' })).toBeNull();
    await person.click(screen.getByRole('link', { name: 'Go to login' }));
    await waitFor(() => expect(location()).toBe('/login'));
    expect(leftWithState()).toEqual({ email: invitedEmail });
  });

  it('shows the invalid state when the token is refused on accepting', async () => {
    const person = userEvent.setup();
    open('/accept-invite?token=t5', [
      { path: '/api/auth/invite-status', ...status('pending') },
      { method: 'POST', path: '/api/workspaces/users/accept-invite', ...notFound },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByRole('heading', { name: 'This Invite Is Invalid' })).toBeTruthy();
  });
});
