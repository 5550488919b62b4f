import type { CurrentUser } from '@dukkan/contract';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { AppShell } from './app-shell.tsx';

/** A user whose only workspace requires a second factor, signed in with `sessionFactors`. */
function member(hasSecondFactor: boolean, sessionFactors: string[], requireSecondFactor = true): CurrentUser {
  const user = testUser([{ id: 'w1', name: 'Shop', grant: ['viewProducts'] }]);
  const [entry] = user.workspaces;
  if (!entry) throw new Error('no workspace');
  return {
    ...user,
    hasSecondFactor,
    sessionFactors,
    workspaces: [{ ...entry, workspace: { ...entry.workspace, requireSecondFactor } }],
  };
}

function renderShell(user: CurrentUser, at = '/products') {
  const mock = mockFetch([
    {
      path: '/api/auth/second-factors',
      body: {
        data: {
          factors: [
            { id: 'f1', kind: 'totp', name: 'Phone', createdAt: '2026-11-01T00:00:00Z', lastUsedAt: null },
          ],
          recoveryCodesLeft: 10,
        },
      },
    },
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  return renderSignedIn(<AppShell />, { user, path: '/*', at });
}

describe('the shell when the workspace requires a second factor', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends a member without a factor to enrol on the profile, instead of the page', async () => {
    renderShell(member(false, ['pwd']));
    expect(await screen.findByRole('heading', { name: 'A second factor is required' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Set up a second factor' }).getAttribute('href')).toBe(
      '/profile#security',
    );
    expect(screen.getByRole('link', { name: 'Sign out' }).getAttribute('href')).toBe('/logout');
  });

  it('asks a member with a factor for the second step (a step-up)', async () => {
    renderShell(member(true, ['pwd']));
    expect(await screen.findByLabelText(/^Authentication code/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Use a recovery code' })).toBeTruthy();
  });

  it('lets a session that used a factor in, and leaves the profile open to enrol', async () => {
    renderShell(member(true, ['pwd', 'otp']));
    renderShell(member(false, ['pwd']), '/profile');
    // Neither shows the prompt (the profile's own page is not part of this test's routes).
    await screen.findAllByText('Shop');
    expect(screen.queryByRole('heading', { name: 'A second factor is required' })).toBeNull();
  });

  it('shows nothing of the kind when the workspace does not require it', async () => {
    renderShell(member(false, ['pwd'], false));
    await screen.findAllByText('Shop');
    expect(screen.queryByRole('heading', { name: 'A second factor is required' })).toBeNull();
  });
});
