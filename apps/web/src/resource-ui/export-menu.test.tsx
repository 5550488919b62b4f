import { defineResource, recordStatusField } from '@dukkan/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { callsTo, type MockRoute, mockFetch, renderSignedIn, testUser } from '../test/render.tsx';
import { ResourceListPage } from './resource-list-page.tsx';

const gadgetRecord = z.object({ id: z.string(), code: z.string(), status: recordStatusField });
const gadgets = defineResource({
  key: 'gadgets',
  path: 'gadgets',
  permission: 'Brands',
  menu: { group: 'data', order: 999 },
  verbs: ['list', 'get'],
  schemas: { record: gadgetRecord, create: z.object({}), update: z.object({}) },
  search: ['code'],
  sort: ['code'],
  defaultSort: 'code',
  filters: [],
  hasStatus: true,
  statusFilter: true,
});

const list = {
  data: [{ id: 'g1', code: 'G-1', status: 'active' }],
  meta: { total: 1, page: 1, pageSize: 20 },
};

function renderGadgets(exportRoute: Omit<MockRoute, 'path'>) {
  const mock = mockFetch([
    { path: '/api/gadgets', body: list },
    { path: '/api/gadgets/filters', body: { data: {} } },
    { path: '/api/gadgets/export', ...exportRoute },
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(
    <ResourceListPage
      definition={gadgets}
      title="Gadgets"
      columns={[{ key: 'code', header: 'Code', primary: true, cell: (record) => record.code }]}
      recordLabel={(record) => record.code}
    />,
    {
      user: testUser([{ id: 'w-shop', name: 'Shop', grant: 'admin' }]),
      path: '/gadgets',
      at: '/gadgets?search=lamp&status=inactive&page=3',
    },
  );
  return mock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the list’s Export menu', () => {
  it('downloads the list’s search, filters and sort, every page, in the format chosen from the keyboard', async () => {
    const person = userEvent.setup();
    let answer: (value: unknown) => void = () => undefined;
    const mock = renderGadgets({ body: () => new Promise((resolve) => (answer = resolve)) });
    // The saved file's address (happy-dom has no object URLs) and its link's click, which saves it.
    URL.createObjectURL = () => 'blob:file';
    URL.revokeObjectURL = () => undefined;
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);

    const button = await screen.findByRole('button', { name: 'Export' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    button.focus();
    await person.keyboard('{Enter}');
    const csv = screen.getByRole('menuitem', { name: 'CSV (.csv)' });
    await waitFor(() => expect(document.activeElement).toBe(csv));
    await person.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Excel (.xlsx)' }));
    await person.keyboard('{Enter}');

    // While the file is prepared the button says so and takes no second press.
    const preparing = await screen.findByRole('button', { name: 'Preparing the file…' });
    expect((preparing as HTMLButtonElement).disabled).toBe(true);
    const [call] = callsTo(mock.calls, '/api/gadgets/export');
    expect(Object.fromEntries(call!.query)).toEqual({
      workspaceId: 'w-shop',
      search: 'lamp',
      status: 'inactive',
      format: 'xlsx',
    });
    answer('file');
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(await screen.findByRole('button', { name: 'Export' })).toBeTruthy();
  });

  it('says when the file could not be prepared', async () => {
    const person = userEvent.setup();
    renderGadgets({
      status: 403,
      body: { error: { statusCode: 403, code: 'FORBIDDEN', name: 'ForbiddenError', message: 'No' } },
    });
    await person.click(await screen.findByRole('button', { name: 'Export' }));
    await person.click(screen.getByRole('menuitem', { name: 'CSV (.csv)' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The file could not be prepared. Please try again.',
    );
  });
});
