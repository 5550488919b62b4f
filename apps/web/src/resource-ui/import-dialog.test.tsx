import { defineResource, type ImportReport, recordStatusField } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { mockFetch, renderSignedIn, testUser } from '../test/render.tsx';
import { ResourceListPage } from './resource-list-page.tsx';

const gadgetRecord = z.object({ id: z.string(), code: z.string(), status: recordStatusField });
const definition = (importable?: false) =>
  defineResource({
    key: 'gadgets',
    path: 'gadgets',
    permission: 'Brands',
    menu: { group: 'data', order: 999 },
    verbs: ['list', 'get', 'create', 'update'],
    ...(importable === false ? { importable } : {}),
    schemas: { record: gadgetRecord, create: z.object({}), update: z.object({}) },
    search: ['code'],
    sort: ['code'],
    defaultSort: 'code',
    filters: [],
    hasStatus: true,
  });

const list = {
  data: [{ id: 'g1', code: 'G-1', status: 'active' }],
  meta: { total: 1, page: 1, pageSize: 20 },
};

const report = (over: Partial<ImportReport>): ImportReport => ({
  dryRun: true,
  committed: false,
  rows: 3,
  counts: { create: 1, update: 2, unchanged: 0 },
  errors: [],
  ...over,
});

/** The list page with an import route answering `answers` in turn; the calls' queries are kept. */
function renderGadgets(answers: ImportReport[], grant: 'admin' | string[] = 'admin', importable?: false) {
  const mock = mockFetch([
    { path: '/api/gadgets', body: list },
    { path: '/api/gadgets/filters', body: { data: {} } },
  ]);
  const imports: { query: URLSearchParams; file: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.split('?')[0]?.endsWith('/gadgets/import')) {
      imports.push({
        query: new URLSearchParams(url.split('?')[1]),
        file: (init!.body as FormData).get('file'),
      });
      return new Response(JSON.stringify({ data: answers[imports.length - 1] }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }
    return mock.fetchMock(input, init);
  });
  renderSignedIn(
    <ResourceListPage
      definition={definition(importable)}
      title="Gadgets"
      columns={[{ key: 'code', header: 'Code', primary: true, cell: (record) => record.code }]}
      recordLabel={(record) => record.code}
    />,
    { user: testUser([{ id: 'w-shop', name: 'Shop', grant }]), path: '/gadgets', at: '/gadgets' },
  );
  return imports;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the list’s Import dialog', () => {
  it('checks the file, lists each row’s error translated, and imports only a file without errors', async () => {
    const person = userEvent.setup();
    const imports = renderGadgets([
      report({
        errors: [
          { row: 2, column: 'Brand', code: 'IMPORT_CODE_NOT_FOUND', params: { code: 'BR-9' } },
          { row: 4, column: 'Code', code: 'IMPORT_ROW_REPEATED', params: { row: 3 } },
        ],
      }),
      report({}),
      report({ dryRun: false, committed: true }),
    ]);
    await person.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import from a file' });
    const check = within(dialog).getByRole('button', { name: 'Check the file' }) as HTMLButtonElement;
    expect(check.disabled).toBe(true);
    const file = new File(['Code\r\nG-2\r\n'], 'gadgets.csv', { type: 'text/csv' });
    await person.upload(within(dialog).getByLabelText(/^File/), file);
    await person.click(check);

    const table = await within(dialog).findByRole('table', { name: 'The rows and columns to fix' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['2', 'Brand', 'No record of this workspace has the code BR-9'],
      ['4', 'Code', 'Row 3 already has this code'],
    ]);
    expect(imports[0]?.query.get('dryRun')).toBe('true');
    expect(imports[0]?.query.get('workspaceId')).toBe('w-shop');
    expect((imports[0]!.file as File).name).toBe('gadgets.csv');
    const commit = within(dialog).getAllByRole('button', { name: 'Import' }).at(-1) as HTMLButtonElement;
    expect(commit.disabled).toBe(true);

    // The file fixed and checked again: nothing to fix, so it may be imported.
    await person.click(check);
    expect(await within(dialog).findByText('Rows: 3 · to add: 1 · to change: 2 · unchanged: 0')).toBeTruthy();
    await waitFor(() => expect(commit.disabled).toBe(false));
    await person.click(commit);
    expect(await within(dialog).findByText('Imported: 1 added, 2 changed.')).toBeTruthy();
    expect(imports.map((call) => call.query.get('dryRun'))).toEqual(['true', 'true', 'false']);
  });

  it('is offered only where the resource is importable and the member may add or edit', async () => {
    renderGadgets([], ['viewBrands']);
    await screen.findByText('G-1');
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
  });

  it('is not offered for a resource kept out of imports', async () => {
    renderGadgets([], 'admin', false);
    await screen.findByText('G-1');
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
  });
});
