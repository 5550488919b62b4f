import { defineResource } from '@dukkan/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AppToaster } from '../components/app-toaster.tsx';
import { WorkspaceProvider } from '../lib/workspace-context.tsx';
import { callsTo, mockFetch, testUser } from '../test/render.tsx';
import { PermissionDeniedError, useResourceMutations, useResourceRecord } from './use-resource.ts';

const widgetRecord = z.object({
  id: z.string(),
  code: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const widgetInput = z.object({ code: z.string() });
const widgets = defineResource({
  key: 'widgets',
  path: 'catalogue/widgets',
  permission: 'Taxes',
  menu: { group: 'data', order: 999 },
  verbs: ['list', 'get', 'filters', 'create', 'bulk', 'update', 'delete'],
  schemas: { record: widgetRecord, create: widgetInput, update: widgetInput.partial() },
  search: ['code'],
  sort: ['code'],
  defaultSort: 'code',
  filters: [],
  hasStatus: false,
});

const workspace = { id: 'w-1', name: 'Shop' };

function wrapperFor(tags: 'admin' | string[]) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const user = testUser([{ ...workspace, grant: tags }]);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <WorkspaceProvider user={user}>{children}</WorkspaceProvider>
      </MemoryRouter>
      <AppToaster />
    </QueryClientProvider>
  );
  return { wrapper, queryClient };
}

describe('resource data hooks', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('refuses every change the user may not make, before anything is sent (spec §6)', async () => {
    const { fetchMock, calls } = mockFetch([]);
    vi.stubGlobal('fetch', fetchMock);
    const { wrapper } = wrapperFor(['viewTaxes']);
    const { result } = renderHook(() => useResourceMutations(widgets), { wrapper });
    const attempts = [
      () => result.current.create.mutateAsync({ code: 'A' }),
      () => result.current.bulkCreate.mutateAsync([{ code: 'A' }]),
      () => result.current.update.mutateAsync({ id: '1', input: { code: 'B' } }),
      () => result.current.setStatus.mutateAsync({ id: '1', status: 'inactive' }),
      () => result.current.remove.mutateAsync({ id: '1' }),
    ];
    for (const attempt of attempts) {
      await act(async () => {
        await expect(attempt()).rejects.toBeInstanceOf(PermissionDeniedError);
      });
    }
    expect(calls).toHaveLength(0);
    // Silently: no operation toast either.
    expect(screen.queryByText(/WIDGET/)).toBeNull();
  });

  it('creates with the workspace in the query string and the spec toasts, in progress then successful', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { fetchMock, calls } = mockFetch([]);
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      void fetchMock(input, init);
      return new Promise<Response>((resolve) => {
        answer = resolve;
      });
    });
    const { wrapper } = wrapperFor(['addTaxes']);
    const { result } = renderHook(() => useResourceMutations(widgets), { wrapper });
    let created: Promise<unknown> = Promise.resolve();
    act(() => {
      created = result.current.create.mutateAsync({ code: 'A' });
    });
    expect(await screen.findByText('Creating WIDGET in progress...')).toBeTruthy();
    const [call] = callsTo(calls, '/api/catalogue/widgets', 'POST');
    expect(call?.query.get('workspaceId')).toBe(workspace.id);
    expect(call?.body).toEqual({ code: 'A' });
    await act(async () => {
      answer(new Response(JSON.stringify({ data: { id: '1', code: 'A' } }), { status: 201 }));
      await created;
    });
    expect(await screen.findByText('Creating WIDGET successful!')).toBeTruthy();
  });

  it('names a failed change and why it failed', async () => {
    const { fetchMock } = mockFetch([
      {
        method: 'PATCH',
        path: '/api/catalogue/widgets/1',
        status: 409,
        body: { error: { statusCode: 409, code: 'DB', name: 'DBError', message: 'dup', target: 'code' } },
      },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    const { wrapper } = wrapperFor('admin');
    const { result } = renderHook(() => useResourceMutations(widgets), { wrapper });
    await act(async () => {
      await expect(result.current.update.mutateAsync({ id: '1', input: { code: 'B' } })).rejects.toBeTruthy();
    });
    expect(await screen.findByText('Updating WIDGET failed.')).toBeTruthy();
    expect(screen.getByText('This code must be unique')).toBeTruthy();
  });

  it('refreshes the resource cache of the workspace after a change', async () => {
    const { fetchMock } = mockFetch([
      { method: 'DELETE', path: '/api/catalogue/widgets/1', body: { data: { id: '1' } } },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    const { wrapper, queryClient } = wrapperFor('admin');
    queryClient.setQueryData([workspace.id, 'widgets', 'list', {}], { data: [], meta: { total: 0 } });
    queryClient.setQueryData(['other-workspace', 'widgets', 'list', {}], { data: [], meta: { total: 0 } });
    const { result } = renderHook(() => useResourceMutations(widgets), { wrapper });
    await act(async () => {
      await result.current.remove.mutateAsync({ id: '1' });
    });
    expect(queryClient.getQueryState([workspace.id, 'widgets', 'list', {}])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['other-workspace', 'widgets', 'list', {}])?.isInvalidated).toBe(false);
  });

  it('reads one record under a key that starts with the workspace, only with the view permission', async () => {
    const { fetchMock, calls } = mockFetch([
      { path: '/api/catalogue/widgets/7', body: { data: { id: '7', code: 'W7' } } },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    const allowed = wrapperFor(['viewTaxes']);
    const { result } = renderHook(() => useResourceRecord(widgets, '7'), { wrapper: allowed.wrapper });
    await waitFor(() => expect(result.current.data?.code).toBe('W7'));
    expect(allowed.queryClient.getQueryCache().getAll()[0]?.queryKey).toEqual([
      workspace.id,
      'widgets',
      'record',
      '7',
    ]);
    expect(callsTo(calls, '/api/catalogue/widgets/7')[0]?.query.get('workspaceId')).toBe(workspace.id);

    // On a fake clock, so that everything the hook schedules can be run out without waiting: no
    // request now, and none later.
    vi.useFakeTimers();
    const refused = wrapperFor(['addTaxes']);
    const denied = renderHook(() => useResourceRecord(widgets, '7'), { wrapper: refused.wrapper });
    await act(() => vi.runAllTimersAsync());
    expect(denied.result.current.fetchStatus).toBe('idle');
    expect(calls).toHaveLength(1);
  });
});
