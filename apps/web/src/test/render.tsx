import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { AppToaster } from '../components/app-toaster.tsx';

/** Shows where the app navigated to, for assertions. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/** Renders one page at a path with fresh query state, toasts and a location probe. */
export function renderPage(
  page: ReactElement,
  { path = '/', at = path }: { path?: string; at?: string } = {},
) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route path={path} element={page} />
          <Route path="*" element={null} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
      <AppToaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

export interface MockRoute {
  method?: string;
  path: string;
  status?: number;
  body: unknown;
}

/** A fetch that answers by method and path (double slashes folded) and records each call. */
export function mockFetch(routes: MockRoute[]) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const path = url.replace(/\/{2,}/g, '/');
    const route = routes.find(
      (candidate) => (candidate.method ?? 'GET') === method && path === candidate.path,
    );
    if (!route)
      return new Response(
        JSON.stringify({
          error: { statusCode: 404, code: 'NOT_FOUND', name: 'NotFoundError', message: 'Not found' },
        }),
        { status: 404 },
      );
    return new Response(JSON.stringify(route.body), {
      status: route.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetchMock, calls };
}
