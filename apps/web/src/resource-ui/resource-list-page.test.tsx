import { defineResource, recordStatusField } from '@dukkan/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { validationRefusal } from '../test/refusal.ts';
import { callsTo, type MockRoute, mockFetch, renderSignedIn, testUser } from '../test/render.tsx';
import type { ResourceColumn } from './columns.ts';
import { ResourceListPage } from './resource-list-page.tsx';
import { searchDebounceMs } from './search-box.tsx';

/** A resource made up for these tests: the machinery must work for any definition. */
const gadgetRecord = z.object({
  id: z.string(),
  code: z.string(),
  title: z.string(),
  status: recordStatusField,
  createdAt: z.string(),
  updatedAt: z.string(),
});
const gadgetInput = z.object({ code: z.string(), title: z.string() });
const gadgets = defineResource({
  key: 'gadgets',
  path: 'gadgets',
  permission: 'Brands',
  menu: { group: 'data', order: 999 },
  verbs: ['list', 'get', 'filters', 'create', 'bulk', 'update', 'delete'],
  schemas: { record: gadgetRecord, create: gadgetInput, update: gadgetInput.partial() },
  search: ['code', 'title'],
  sort: ['code', 'title'],
  defaultSort: 'code',
  filters: [],
  hasStatus: true,
});
type Gadget = z.infer<typeof gadgetRecord>;

const gadget = (id: string, title: string, status: Gadget['status'] = 'active'): Gadget => ({
  id,
  code: `G-${id}`,
  title,
  status,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const columns: ResourceColumn<Gadget>[] = [
  { key: 'code', header: 'Code', sortField: 'code', cell: (record) => record.code },
  { key: 'title', header: 'Title', sortField: 'title', primary: true, cell: (record) => record.title },
];

const shop = { id: 'w-shop', name: 'Shop' };
const cafe = { id: 'w-cafe', name: 'Cafe' };
const admin = testUser([
  { ...shop, grant: 'admin' },
  { ...cafe, grant: 'admin' },
]);

function listOf(records: Gadget[], total = records.length) {
  return ({ query }: { query: URLSearchParams }) => ({
    data: records,
    meta: { total, page: Number(query.get('page')), pageSize: Number(query.get('pageSize')) },
  });
}

function renderGadgets(routes: MockRoute[], { user = admin, at = '/gadgets' } = {}) {
  const mock = mockFetch(routes);
  vi.stubGlobal('fetch', mock.fetchMock);
  const view = renderSignedIn(
    <ResourceListPage
      definition={gadgets}
      title="Gadgets"
      columns={columns}
      recordLabel={(record) => record.title}
      editor={({ onClose }) => (
        <button type="button" onClick={onClose}>
          editor open
        </button>
      )}
      createLabel="New gadget"
    />,
    { user, path: '/gadgets', at },
  );
  return { ...mock, ...view };
}

const location = () => screen.getByTestId('location').textContent;
const lastList = (calls: Parameters<typeof callsTo>[0]) => callsTo(calls, '/api/gadgets').at(-1)?.query;

/**
 * The test's clock for the search debounce: only setTimeout is faked (the debounce's timer and the
 * query library's notifications), so the fetch mock and React keep running. While it is on, events
 * are fired synchronously (`fireEvent`): user-event waits on setTimeout between its steps.
 */
function startTestClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
}

/** Types into a field one character at a time, each an input event, as a person would. */
function typeInto(field: HTMLElement, text: string) {
  for (const character of text) {
    fireEvent.change(field, { target: { value: (field as HTMLInputElement).value + character } });
  }
}

/** Lets `ms` pass on the test's clock. */
function pass(ms: number) {
  act(() => vi.advanceTimersByTime(ms));
}

/**
 * Lets `ms` pass and goes back to the real clock in the same synchronous step, so that nothing
 * scheduled meanwhile is left behind on the fake one.
 */
function passThenRealClock(ms: number) {
  pass(ms);
  vi.useRealTimers();
}

describe('ResourceListPage (generic)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('prepares the editor once the rows show, not while they load', async () => {
    let answer: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const prepareEditor = vi.fn();
    const mock = mockFetch([
      {
        path: '/api/gadgets',
        body: async (call: { query: URLSearchParams }) => {
          await held;
          return listOf([gadget('1', 'Lamp')])(call);
        },
      },
    ]);
    vi.stubGlobal('fetch', mock.fetchMock);
    renderSignedIn(
      <ResourceListPage
        definition={gadgets}
        title="Gadgets"
        columns={columns}
        recordLabel={(record) => record.title}
        editor={() => null}
        prepareEditor={prepareEditor}
      />,
      { user: admin, path: '/gadgets' },
    );
    await waitFor(() => expect(callsTo(mock.calls, '/api/gadgets')).toHaveLength(1));
    // Idle while the list loads: still nothing to prepare.
    await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
    expect(prepareEditor).not.toHaveBeenCalled();
    answer();
    expect(await screen.findByText('Lamp')).toBeTruthy();
    await waitFor(() => expect(prepareEditor).toHaveBeenCalledTimes(1));
  });

  it('renders the rows of the first page, asking with the workspace, page, page size and sort', async () => {
    const { calls } = renderGadgets([
      { path: '/api/gadgets', body: listOf([gadget('1', 'Alpha'), gadget('2', 'Beta')]) },
    ]);
    expect(await screen.findByRole('rowheader', { name: 'Alpha' })).toBeTruthy();
    expect(screen.getByRole('rowheader', { name: 'Beta' })).toBeTruthy();
    const query = lastList(calls);
    expect(query?.get('workspaceId')).toBe(shop.id);
    expect(query?.get('page')).toBe('1');
    expect(query?.get('pageSize')).toBe('20');
    // No sort chosen: the server's default (code), marked on its column.
    expect(query?.has('sort')).toBe(false);
    expect(query?.has('search')).toBe(false);
    expect(screen.getByText('Showing 1–2 of 2')).toBeTruthy();
  });

  it('pages through the server: next page, page numbers and page size change the request and the address', async () => {
    const person = userEvent.setup();
    const { calls } = renderGadgets([{ path: '/api/gadgets', body: listOf([gadget('1', 'Alpha')], 45) }]);
    await screen.findByRole('rowheader', { name: 'Alpha' });
    expect(screen.getByText('Showing 1–20 of 45')).toBeTruthy();

    await person.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastList(calls)?.get('page')).toBe('2'));
    expect(location()).toBe('/gadgets?page=2');
    expect(screen.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');

    await person.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(lastList(calls)?.get('page')).toBe('3'));
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);

    await person.selectOptions(screen.getByLabelText('Rows per page'), '50');
    await waitFor(() => expect(lastList(calls)?.get('pageSize')).toBe('50'));
    expect(lastList(calls)?.get('page')).toBe('1');
    expect(lastList(calls)?.get('workspaceId')).toBe(shop.id);
    expect(location()).toBe('/gadgets?pageSize=50');
  });

  it('searches 300 ms after typing stops, keeps the search in the address and starts from page 1', async () => {
    const { calls } = renderGadgets([{ path: '/api/gadgets', body: listOf([gadget('1', 'Alpha')], 45) }], {
      at: '/gadgets?page=2',
    });
    await screen.findByRole('rowheader', { name: 'Alpha' });
    expect(lastList(calls)?.get('page')).toBe('2');
    const before = callsTo(calls, '/api/gadgets').length;

    startTestClock();
    const box = screen.getByRole('searchbox', { name: 'Search Gadgets' });
    typeInto(box, 'al');
    pass(searchDebounceMs - 100);
    typeInto(box, 'p');
    // Each keystroke starts the delay again: 'al' is never sent, and 'alp' not before the full delay.
    pass(searchDebounceMs - 1);
    expect(location()).toBe('/gadgets?page=2');
    expect(callsTo(calls, '/api/gadgets')).toHaveLength(before);
    passThenRealClock(1);
    expect(location()).toBe('/gadgets?search=alp');
    // Not one request per keystroke: only the settled text is sent.
    await waitFor(() => expect(lastList(calls)?.get('search')).toBe('alp'));
    const searches = callsTo(calls, '/api/gadgets')
      .slice(before)
      .map((call) => call.query.get('search'));
    expect(searches).toEqual(['alp']);
    expect(lastList(calls)?.get('page')).toBe('1');
    expect(lastList(calls)?.get('workspaceId')).toBe(shop.id);
    expect(location()).toBe('/gadgets?search=alp');
  });

  it('follows back and forward: the search box and the request show the list state of the address', async () => {
    const person = userEvent.setup();
    const { calls } = renderGadgets([{ path: '/api/gadgets', body: listOf([gadget('1', 'Alpha')]) }]);
    await screen.findByRole('rowheader', { name: 'Alpha' });
    startTestClock();
    typeInto(screen.getByRole('searchbox'), 'be');
    passThenRealClock(searchDebounceMs);
    expect(location()).toBe('/gadgets?search=be');
    await waitFor(() => expect(lastList(calls)?.get('search')).toBe('be'));

    startTestClock();
    fireEvent.click(screen.getByRole('button', { name: 'history back' }));
    expect(location()).toBe('/gadgets');
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('');
    // And it stays there: the old text is not searched again once the debounce delay has passed.
    passThenRealClock(searchDebounceMs);
    expect(location()).toBe('/gadgets');
    await waitFor(() => expect(lastList(calls)?.has('search')).toBe(false));
    await person.click(screen.getByRole('button', { name: 'history forward' }));
    await waitFor(() => expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('be'));
    expect(lastList(calls)?.get('search')).toBe('be');
  });

  it('opens with the search, page and sort of a link', async () => {
    const { calls } = renderGadgets([{ path: '/api/gadgets', body: listOf([gadget('1', 'Alpha')], 60) }], {
      at: '/gadgets?search=al&page=3&sort=-title&pageSize=999',
    });
    await screen.findByRole('rowheader', { name: 'Alpha' });
    const query = lastList(calls);
    expect([query?.get('search'), query?.get('page'), query?.get('sort'), query?.get('pageSize')]).toEqual([
      'al',
      '3',
      '-title',
      '20',
    ]);
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('al');
  });

  it('sorts by a declared field from its column header, ascending then descending, with aria-sort', async () => {
    const person = userEvent.setup();
    const { calls } = renderGadgets([{ path: '/api/gadgets', body: listOf([gadget('1', 'Alpha')]) }]);
    await screen.findByRole('rowheader', { name: 'Alpha' });
    const titleHeader = screen.getByRole('columnheader', { name: /Title/ });
    expect(titleHeader.getAttribute('aria-sort')).toBe('none');
    expect(screen.getByRole('columnheader', { name: /Code/ }).getAttribute('aria-sort')).toBe('ascending');

    await person.click(within(titleHeader).getByRole('button'));
    await waitFor(() => expect(lastList(calls)?.get('sort')).toBe('title'));
    expect(screen.getByRole('columnheader', { name: /Title/ }).getAttribute('aria-sort')).toBe('ascending');

    await person.click(within(screen.getByRole('columnheader', { name: /Title/ })).getByRole('button'));
    await waitFor(() => expect(lastList(calls)?.get('sort')).toBe('-title'));
    expect(screen.getByRole('columnheader', { name: /Title/ }).getAttribute('aria-sort')).toBe('descending');
    expect(location()).toBe('/gadgets?sort=-title');
  });

  it('while searching with no sort chosen asks for none and marks no column: the server ranks', async () => {
    const person = userEvent.setup();
    const { calls } = renderGadgets([{ path: '/api/gadgets', body: listOf([gadget('1', 'Alpha')]) }], {
      at: '/gadgets?search=alp',
    });
    await screen.findByRole('rowheader', { name: 'Alpha' });
    expect(lastList(calls)?.get('search')).toBe('alp');
    expect(lastList(calls)?.has('sort')).toBe(false);
    expect(screen.getByRole('columnheader', { name: /Code/ }).getAttribute('aria-sort')).toBe('none');

    // The default sort chosen from its header wins over relevance, and stays in the address.
    await person.click(within(screen.getByRole('columnheader', { name: /Code/ })).getByRole('button'));
    await waitFor(() => expect(lastList(calls)?.get('sort')).toBe('code'));
    expect(screen.getByRole('columnheader', { name: /Code/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(location()).toBe('/gadgets?search=alp&sort=code');
  });

  it('tells "nothing yet" (with a create button) apart from "nothing matches"', async () => {
    const person = userEvent.setup();
    renderGadgets([{ path: '/api/gadgets', body: listOf([]) }]);
    expect(await screen.findByText('Nothing here yet')).toBeTruthy();
    // Offered in the toolbar and in the empty state itself.
    const createButtons = screen.getAllByRole('button', { name: 'New gadget' });
    expect(createButtons).toHaveLength(2);
    await person.click(createButtons[1] as HTMLElement);
    expect(screen.getByRole('button', { name: 'editor open' })).toBeTruthy();
  });

  it('shows the no-match state for a search without results, and clears it', async () => {
    const person = userEvent.setup();
    const { calls } = renderGadgets([{ path: '/api/gadgets', body: listOf([]) }], {
      at: '/gadgets?search=zzz',
    });
    expect(await screen.findByText('Nothing matches your search')).toBeTruthy();
    expect(screen.queryByText('Nothing here yet')).toBeNull();
    await person.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    await waitFor(() => expect(location()).toBe('/gadgets'));
    await waitFor(() => expect(lastList(calls)?.has('search')).toBe(false));
  });

  it('shows an error state with a retry that asks again', async () => {
    const person = userEvent.setup();
    let failing = true;
    renderGadgets([
      {
        path: '/api/gadgets',
        body: (call: { query: URLSearchParams }) =>
          failing
            ? { error: { statusCode: 500, code: 'INTERNAL', name: 'InternalError', message: 'x' } }
            : listOf([gadget('1', 'Alpha')])(call),
        get status() {
          return failing ? 500 : 200;
        },
      },
    ]);
    expect(await screen.findByText('The list could not be loaded.')).toBeTruthy();
    failing = false;
    await person.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('rowheader', { name: 'Alpha' })).toBeTruthy();
  });

  it('deletes only after confirmation, with the operation toasts', async () => {
    const person = userEvent.setup();
    const { calls } = renderGadgets([
      { path: '/api/gadgets', body: listOf([gadget('1', 'Alpha')]) },
      { method: 'DELETE', path: '/api/gadgets/1', body: { data: { id: '1' } } },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Delete: Alpha' }));
    // Its chunk may still be on its way: the confirmation opens when it arrives.
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Alpha?' });
    expect(callsTo(calls, '/api/gadgets/1', 'DELETE')).toHaveLength(0);
    // The safe button, naming what it keeps, has the focus first, so Enter never deletes by accident.
    expect(document.activeElement?.textContent).toBe('Keep Alpha');

    await person.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleting GADGET successful!')).toBeTruthy();
    const [deletion] = callsTo(calls, '/api/gadgets/1', 'DELETE');
    expect(deletion?.query.get('workspaceId')).toBe(shop.id);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('closes the confirmation with Escape without deleting', async () => {
    const person = userEvent.setup();
    const { calls } = renderGadgets([{ path: '/api/gadgets', body: listOf([gadget('1', 'Alpha')]) }]);
    await person.click(await screen.findByRole('button', { name: 'Delete: Alpha' }));
    expect(await screen.findByRole('alertdialog')).toBeTruthy();
    await person.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(callsTo(calls, '/api/gadgets/1', 'DELETE')).toHaveLength(0);
  });

  const inUseRefusal = {
    method: 'DELETE' as const,
    path: '/api/gadgets/1',
    ...validationRefusal([
      { path: 'id', message: 'RECORD_IN_USE_BY', params: { count: 7, names: 'Downtown, Airport' } },
    ]),
  };

  it('says a refused delete once, in the confirmation, and disables Delete while the record is in use', async () => {
    const person = userEvent.setup();
    const { calls } = renderGadgets([
      { path: '/api/gadgets', body: listOf([gadget('1', 'Alpha')]) },
      inUseRefusal,
    ]);
    await person.click(await screen.findByRole('button', { name: 'Delete: Alpha' }));
    const dialog = await screen.findByRole('alertdialog');
    // The question does not promise a deletion the server may refuse.
    expect(within(dialog).getByText(/If no other records use Alpha/)).toBeTruthy();
    await person.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const reason = 'Records still using this one (7): Downtown, Airport';
    expect((await within(dialog).findByRole('alert')).textContent).toBe(reason);
    // Said once: no toast, neither 'failed' nor a lingering 'in progress'.
    await waitFor(() => expect(screen.queryByText(/Deleting GADGET/)).toBeNull());
    expect(screen.getAllByText(/Downtown, Airport/)).toHaveLength(1);
    // Delete cannot be pressed again while the record is in use; the focus is on the way out.
    const confirm = within(dialog).getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Keep Alpha'));
    await person.keyboard('{Enter}');
    expect(callsTo(calls, '/api/gadgets/1', 'DELETE')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    // Asked again (the records may have moved meanwhile), Delete is offered afresh.
    await person.click(screen.getByRole('button', { name: 'Delete: Alpha' }));
    const again = await screen.findByRole('alertdialog');
    expect((within(again).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(false);
    expect(within(again).queryByRole('alert')).toBeNull();
  });

  it('keeps Delete enabled after a failure that may pass on a second try', async () => {
    const person = userEvent.setup();
    renderGadgets([
      { path: '/api/gadgets', body: listOf([gadget('1', 'Alpha')]) },
      {
        method: 'DELETE',
        path: '/api/gadgets/1',
        status: 500,
        body: { error: { statusCode: 500, code: 'INTERNAL', name: 'InternalError', message: 'boom' } },
      },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Delete: Alpha' }));
    const dialog = await screen.findByRole('alertdialog');
    await person.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Something went wrong');
    expect((within(dialog).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('disables and enables a record with a PATCH of its status and the operation toasts', async () => {
    const person = userEvent.setup();
    const { calls } = renderGadgets([
      { path: '/api/gadgets', body: listOf([gadget('1', 'Alpha', 'active')]) },
      { method: 'PATCH', path: '/api/gadgets/1', body: { data: gadget('1', 'Alpha', 'inactive') } },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Disable: Alpha' }));
    expect(await screen.findByText('Disabling GADGET successful!')).toBeTruthy();
    const [patch] = callsTo(calls, '/api/gadgets/1', 'PATCH');
    expect(patch?.body).toEqual({ status: 'inactive' });
    expect(patch?.query.get('workspaceId')).toBe(shop.id);
  });

  it('shows each row action only with its permission', async () => {
    const viewer = testUser([{ ...shop, grant: ['viewBrands', 'deleteBrands'] }]);
    renderGadgets([{ path: '/api/gadgets', body: listOf([gadget('1', 'Alpha')]) }], { user: viewer });
    await screen.findByRole('rowheader', { name: 'Alpha' });
    expect(screen.getByRole('button', { name: 'Delete: Alpha' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit: Alpha' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Disable: Alpha' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New gadget' })).toBeNull();
  });

  it('sends no request at all without the view permission', async () => {
    const stranger = testUser([{ ...shop, grant: ['addBrands', 'viewTaxes'] }]);
    // On a fake clock from the start, so that everything the page schedules can be run out
    // without waiting: no request now, and none later.
    vi.useFakeTimers();
    const { calls } = renderGadgets([{ path: '/api/gadgets', body: listOf([gadget('1', 'Alpha')]) }], {
      user: stranger,
    });
    expect(screen.getByText('You are not authorized to access this page')).toBeTruthy();
    // The app's one refusal view: no dead end, the pages this member may open (viewTaxes) are linked.
    const pages = screen.getByRole('navigation', { name: 'Pages you can open' });
    expect(within(pages).getByRole('link', { name: 'Taxes' }).getAttribute('href')).toBe('/taxes');
    await act(() => vi.runAllTimersAsync());
    expect(calls).toHaveLength(0);
  });

  it('scopes the cache by workspace: switching shows the new workspace rows, never the old ones', async () => {
    const person = userEvent.setup();
    let releaseCafe: () => void = () => undefined;
    const cafeAnswered = new Promise<void>((resolve) => {
      releaseCafe = resolve;
    });
    const mock = mockFetch([
      {
        path: '/api/gadgets',
        body: ({ query }: { query: URLSearchParams }) =>
          query.get('workspaceId') === cafe.id
            ? listOf([gadget('9', 'Cafe gadget')])({ query })
            : listOf([gadget('1', 'Shop gadget')])({ query }),
      },
    ]);
    // The cafe's answer waits until the test has looked at the page in between.
    const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes(`workspaceId=${cafe.id}`)) await cafeAnswered;
      return mock.fetchMock(input, init);
    };
    vi.stubGlobal('fetch', fetchMock);
    const { queryClient } = renderSignedIn(
      <ResourceListPage
        definition={gadgets}
        title="Gadgets"
        columns={columns}
        recordLabel={(r) => r.title}
      />,
      { user: admin, path: '/gadgets', at: '/gadgets' },
    );
    await screen.findByRole('rowheader', { name: 'Shop gadget' });

    await person.click(screen.getByRole('button', { name: 'switch to Cafe' }));
    expect(screen.queryByRole('rowheader', { name: 'Shop gadget' })).toBeNull();
    expect(screen.getByText('Loading…')).toBeTruthy();
    await act(async () => releaseCafe());
    expect(await screen.findByRole('rowheader', { name: 'Cafe gadget' })).toBeTruthy();

    const workspacesCached = new Set(
      queryClient
        .getQueryCache()
        .getAll()
        .map((query) => query.queryKey[0]),
    );
    // The shop's cache was dropped on leaving it; what is cached belongs to the cafe.
    expect([...workspacesCached]).toEqual([cafe.id]);
    const workspacesAsked = callsTo(mock.calls, '/api/gadgets').map((call) => call.query.get('workspaceId'));
    expect(workspacesAsked).toEqual([shop.id, cafe.id]);
  });
});
