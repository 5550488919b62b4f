import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequireAuth } from './require-auth.tsx';

// Whether the signed-in area's module was downloaded (imported), recorded by its stand-in.
const imported = vi.hoisted(() => ({ signedInArea: false }));
vi.mock('./signed-in-app.tsx', () => {
  imported.signedInArea = true;
  return { SignedInApp: () => null };
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RequireAuth', () => {
  it('downloads the signed-in area while the session is still being checked, not after', async () => {
    // The session check never answers: anything downloaded was asked for during the wait.
    vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/brands']}>
          <Routes>
            <Route path="*" element={<RequireAuth />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByRole('status')).toBeTruthy();
    await vi.waitFor(() => expect(imported.signedInArea).toBe(true));
  });
});
