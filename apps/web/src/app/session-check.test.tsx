import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appQueryClient } from '../lib/app-query-client.ts';
import { mockFetch } from '../test/render.tsx';
import { SignedInGate } from './require-auth.tsx';
import { checkSession } from './session-check.ts';

const workspace = { id: 'w1', name: 'Demo Store', logo: null, baseCurrency: 'EGP' };
const user = {
  id: 'u1',
  name: 'Sara',
  email: 'sara@example.com',
  phone: null,
  profilePicture: null,
  language: 'en',
  adminWorkspaces: [workspace],
  workspaces: [],
};

afterEach(() => {
  vi.unstubAllGlobals();
  appQueryClient.clear();
});

function renderGate(path = '/brands') {
  return render(
    <QueryClientProvider client={appQueryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/login" element={<p>login page</p>} />
          <Route
            path="*"
            element={
              <SignedInGate>
                <p>signed-in area</p>
              </SignedInGate>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('checkSession', () => {
  it('asks for the user before the gate mounts; the gate uses that answer and does not ask again', async () => {
    const { fetchMock, calls } = mockFetch([{ path: '/api/auth/user', body: { data: user } }]);
    vi.stubGlobal('fetch', fetchMock);
    checkSession();
    // The spec's join of base and path (`/api/` + `/auth/user`).
    await vi.waitFor(() => expect(calls.map((call) => call.url)).toEqual(['/api//auth/user']));
    renderGate();
    expect(await screen.findByText('signed-in area')).toBeTruthy();
    expect(calls).toHaveLength(1);
  });

  it('a session found missing sends the visitor to the login page, as without it', async () => {
    const { fetchMock } = mockFetch([
      {
        path: '/api/auth/user',
        status: 401,
        body: { error: { statusCode: 401, code: 'UNAUTHORIZED', name: 'UnauthorizedError', message: 'No' } },
      },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    checkSession();
    renderGate();
    expect(await screen.findByText('login page')).toBeTruthy();
  });
});
