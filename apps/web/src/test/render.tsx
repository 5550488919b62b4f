import type { CurrentUser } from '@dukkan/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { type InitialEntry, MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import { NotAuthorized } from '../app/not-authorized.tsx';
import { AppToaster } from '../components/app-toaster.tsx';
import { NotAuthorizedViewContext } from '../components/not-authorized-view.tsx';
import { mutationDefaults } from '../lib/query-client.ts';
import { useWorkspace, WorkspaceProvider } from '../lib/workspace-context.tsx';
import { RecordEditorProvider } from '../resource-ui/record-editor-provider.tsx';

/** Shows where the app navigated to, and the navigation state it carried, for assertions. */
function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {`${location.pathname}${location.search}`}
    </output>
  );
}

/** Renders one page at a path with fresh query state, toasts and a location probe. */
export function renderPage(
  page: ReactElement,
  /** `at`: the address, or a location with navigation state (`{ pathname, search, state }`). */
  { path = '/', at = path }: { path?: string; at?: InitialEntry } = {},
) {
  const queryClient = new QueryClient({
    // A query's own retry rule still runs, without the waits between attempts.
    defaultOptions: { queries: { retry: false, retryDelay: 0 }, mutations: mutationDefaults },
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

/** A list's answer of one page (of 20) holding `records`, as a route's body. */
export const listPage = <T,>(records: T[]) => ({
  data: records,
  meta: { total: records.length, page: 1, pageSize: 20 },
});

export interface MockCall {
  method: string;
  url: string;
  body: unknown;
}

export interface MockRoute {
  method?: string;
  /** Matched against the path without its query string (double slashes folded). */
  path: string;
  status?: number;
  /** The answer, or a function of the call for answers that depend on the query or body. */
  body: unknown | ((call: MockCall & { query: URLSearchParams }) => unknown);
}

/** A fetch that answers by method and path (double slashes folded) and records each call. */
export function mockFetch(routes: MockRoute[]) {
  const calls: MockCall[] = [];
  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? 'GET';
    // An upload's form is kept as it is (its files read by the test); anything else is JSON.
    const body =
      init?.body instanceof FormData ? init.body : init?.body ? JSON.parse(String(init.body)) : undefined;
    const call = { method, url, body };
    calls.push(call);
    const [rawPath = '', rawQuery = ''] = url.split('?');
    const path = rawPath.replace(/\/{2,}/g, '/');
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
    // A function may answer later (a promise): a test holds an answer back to see the page wait.
    const answer = await (typeof route.body === 'function'
      ? route.body({ ...call, query: new URLSearchParams(rawQuery) })
      : route.body);
    return new Response(JSON.stringify(answer), {
      status: route.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetchMock, calls };
}

export interface TestWorkspace {
  id: string;
  name: string;
  /** 'admin', or the tags of the user's role there. */
  grant: 'admin' | string[];
}

/** A signed-in user with the given workspaces: admin of some, a role with tags in the others. */
export function testUser(workspaces: TestWorkspace[], id = 'u-me'): CurrentUser {
  return {
    id,
    name: 'Sara Ali',
    email: 'sara@example.com',
    phone: null,
    profilePicture: null,
    language: 'en',
    hasSecondFactor: false,
    sessionFactors: ['pwd'],
    adminWorkspaces: workspaces
      .filter((workspace) => workspace.grant === 'admin')
      .map(({ id: workspaceId, name }) => ({
        id: workspaceId,
        name,
        logo: null,
        baseCurrency: 'EGP',
        timeZone: 'Africa/Cairo',
        requireSecondFactor: false,
      })),
    workspaces: workspaces
      .filter((workspace) => workspace.grant !== 'admin')
      .map(({ id: workspaceId, name, grant }) => ({
        workspaceId,
        workspace: {
          id: workspaceId,
          name,
          logo: null,
          baseCurrency: 'EGP',
          timeZone: 'Africa/Cairo',
          requireSecondFactor: false,
        },
        role: {
          id: `role-${workspaceId}`,
          code: 'staff',
          title: 'Staff',
          permissions: (grant as string[]).map((tag) => ({ tag })),
        },
      })),
  };
}

/** Buttons to switch workspace from a test, as the shell's selector would, and to go back and forward. */
function WorkspaceSwitchProbe() {
  const { workspaces, selectWorkspace } = useWorkspace();
  const navigate = useNavigate();
  return (
    <div data-testid="workspace-switch">
      <button type="button" onClick={() => void navigate(-1)}>
        history back
      </button>
      <button type="button" onClick={() => void navigate(1)}>
        history forward
      </button>
      {workspaces.map((workspace) => (
        <button key={workspace.id} type="button" onClick={() => selectWorkspace(workspace.id)}>
          {`switch to ${workspace.name}`}
        </button>
      ))}
    </div>
  );
}

/** Renders a signed-in page for a user (their first workspace selected), with toasts and probes. */
export function renderSignedIn(
  page: ReactElement,
  { user, path = '/', at = path }: { user: CurrentUser; path?: string; at?: string },
) {
  const queryClient = new QueryClient({
    // A query's own retry rule still runs, without the waits between attempts.
    defaultOptions: { queries: { retry: false, retryDelay: 0 }, mutations: mutationDefaults },
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[at]}>
        <WorkspaceProvider user={user}>
          <NotAuthorizedViewContext.Provider value={NotAuthorized}>
            <RecordEditorProvider>
              <Routes>
                <Route path={path} element={page} />
                <Route path="*" element={null} />
              </Routes>
            </RecordEditorProvider>
          </NotAuthorizedViewContext.Provider>
          <LocationProbe />
          <WorkspaceSwitchProbe />
        </WorkspaceProvider>
      </MemoryRouter>
      <AppToaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

/** The calls made to a path (query string ignored), with their query parsed. */
export function callsTo(calls: readonly MockCall[], path: string, method = 'GET') {
  return calls
    .filter((call) => call.method === method && call.url.split('?')[0]?.replace(/\/{2,}/g, '/') === path)
    .map((call) => ({ ...call, query: new URLSearchParams(call.url.split('?')[1] ?? '') }));
}
