import {
  defineResource,
  type ImportJob,
  type ImportPreview,
  type ImportReport,
  recordStatusField,
} from '@dukkan/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import ar from '../i18n/locales/ar.json';
import signedInAr from '../i18n/locales/signed-in/texts-ar.ts';
import { openDialog } from '../test/dialogs.ts';
import { importJob, importReport, mockImportJobs, stubEventSource } from '../test/import-jobs.ts';
import { mockFetch, renderSignedIn, testUser } from '../test/render.tsx';
import { mergedTexts } from '../test/texts.ts';
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

/** A preview of a file of gadgets: a renamed code column, a column the list lacks, 25 rows read as 20. */
const gadgetPreview = (language: 'en' | 'ar'): ImportPreview => ({
  fileName: 'gadgets.csv',
  format: 'csv',
  headers: ['Ref', 'Status', 'Notes'],
  rows: Array.from({ length: 20 }, (_, index) => [`G-${index + 1}`, 'active', index === 0 ? 'first' : null]),
  mapping: { Ref: null, Status: 'status', Notes: null },
  remembered: [],
  targets: [
    { key: 'code', label: language === 'ar' ? 'الرمز' : 'Code', required: false },
    { key: 'status', label: language === 'ar' ? 'الحالة' : 'Status', required: false },
  ],
});

/**
 * The list page with an import route queuing a job per call, each answered `answers` in turn
 * once polled (after `running` polls showing a row done); the calls' queries are kept.
 */
function renderGadgets(
  answers: ImportReport[],
  grant: 'admin' | string[] = 'admin',
  importable?: false,
  {
    running = 0,
    latest = [] as ImportJob[],
    preview = gadgetPreview('en'),
    refuse = undefined as unknown,
    holdPolls = false,
  } = {},
) {
  const mock = mockFetch([
    { path: '/api/gadgets', body: list },
    { path: '/api/gadgets/filters', body: { data: {} } },
  ]);
  const calls = mockImportJobs('gadgets', answers, mock.fetchMock, {
    running,
    latest,
    preview,
    refuse,
    holdPolls,
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
  return calls;
}

/** An element's accessible description: the text of the elements its `aria-describedby` names. */
const description = (element: Element) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

/** The next poll of the job, a second on. */
const nextPoll = () => act(() => vi.advanceTimersByTimeAsync(1000));

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});

afterEach(async () => {
  // Before the stubs go: a dialog still open asks for its preview again in the new language.
  await i18next.changeLanguage('en');
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the list’s Import dialog', () => {
  it('checks the file, lists each row’s error translated, and imports only a file without errors', async () => {
    const person = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { imports } = renderGadgets([
      importReport({
        errors: [
          { row: 2, column: 'Brand', code: 'IMPORT_CODE_NOT_FOUND', params: { code: 'BR-9' } },
          { row: 4, column: 'Code', code: 'IMPORT_ROW_REPEATED', params: { row: 3 } },
        ],
      }),
      importReport({}),
      importReport({ dryRun: false, committed: true }),
    ]);
    await person.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await openDialog('Import from a file');
    const check = within(dialog).getByRole('button', { name: 'Check the file' }) as HTMLButtonElement;
    expect(check.disabled).toBe(true);
    const file = new File(['Code\r\nG-2\r\n'], 'gadgets.csv', { type: 'text/csv' });
    await person.upload(within(dialog).getByLabelText(/^File/), file);
    await person.click(check);
    await nextPoll();

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
    await nextPoll();
    expect(await within(dialog).findByText('Rows: 3 · to add: 1 · to change: 2 · unchanged: 0')).toBeTruthy();
    await waitFor(() => expect(commit.disabled).toBe(false));
    await person.click(commit);
    await nextPoll();
    expect(await within(dialog).findByText('Imported: 1 added, 2 changed.')).toBeTruthy();
    expect(imports.map((call) => call.query.get('dryRun'))).toEqual(['true', 'true', 'false']);
  });

  it('shows rows done of rows while the job runs, and cancels it before the commit', async () => {
    const person = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { cancels } = renderGadgets([importReport({})], 'admin', undefined, { running: 5 });
    await person.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await openDialog('Import from a file');
    await person.upload(within(dialog).getByLabelText(/^File/), new File(['Code\r\n'], 'g.csv'));
    await person.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    expect(await within(dialog).findByText('Waiting to start…')).toBeTruthy();
    await nextPoll();
    expect(await within(dialog).findByText('Rows done: 1 of 3')).toBeTruthy();
    const bar = within(dialog).getByRole('progressbar', { name: 'Import progress' }) as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([1, 3]);
    await person.click(within(dialog).getByRole('button', { name: 'Cancel the import' }));
    expect(await within(dialog).findByText('The import was cancelled; nothing was changed.')).toBeTruthy();
    expect(cancels).toEqual(['j1']);
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
  });

  it('shows the rows done the server pushes while the poll waits, then asks for the end at once', async () => {
    const sources = stubEventSource();
    const person = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { heldPolls } = renderGadgets([importReport({})], 'admin', undefined, { holdPolls: true });
    await person.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await openDialog('Import from a file');
    // Opened with the dialog, before any file is sent.
    expect(sources).toHaveLength(1);
    const [source] = sources as [(typeof sources)[number]];
    expect(source.url).toMatch(/\/gadgets\/import-jobs\/events\?workspaceId=w-shop$/);
    await person.upload(within(dialog).getByLabelText(/^File/), new File(['Code\r\n'], 'g.csv'));
    await person.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    expect(await within(dialog).findByText('Waiting to start…')).toBeTruthy();
    // The poll is asked and waits (the embedded database runs the job); no second ask meanwhile.
    await nextPoll();
    await nextPoll();
    expect(heldPolls.map((poll) => poll.id)).toEqual(['j1']);

    act(() => source.emit('job', { jobId: 'j1', status: 'running', rowsDone: 2, rowsTotal: 3 }));
    expect(await within(dialog).findByText('Rows done: 2 of 3')).toBeTruthy();
    const bar = within(dialog).getByRole('progressbar', { name: 'Import progress' }) as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([2, 3]);
    // Another job of the list (another member's) moves nothing here; an older event neither.
    act(() => source.emit('job', { jobId: 'j9', status: 'running', rowsDone: 3, rowsTotal: 3 }));
    act(() => source.emit('job', { jobId: 'j1', status: 'running', rowsDone: 1, rowsTotal: 3 }));
    expect(within(dialog).getByText('Rows done: 2 of 3')).toBeTruthy();

    // The end pushed: the report is asked for at once, and shown when it comes.
    act(() => source.emit('job', { jobId: 'j1', status: 'done', rowsDone: 3, rowsTotal: 3 }));
    await waitFor(() => expect(heldPolls).toHaveLength(2));
    act(() => {
      for (const poll of heldPolls) poll.answer();
    });
    expect(await within(dialog).findByText('Rows: 3 · to add: 1 · to change: 2 · unchanged: 0')).toBeTruthy();

    await person.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(source.closed).toBe(true));
  });

  it('a member who comes back finds the running import and its progress', async () => {
    const person = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderGadgets([importReport({})], 'admin', undefined, {
      running: 1,
      latest: [importJob('gadgets', { id: 'j1', status: 'running', rowsDone: 1 })],
    });
    await person.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await openDialog('Import from a file');
    expect(await within(dialog).findByText('Rows done: 1 of 3')).toBeTruthy();
    await nextPoll();
    await nextPoll();
    expect(await within(dialog).findByText('Rows: 3 · to add: 1 · to change: 2 · unchanged: 0')).toBeTruthy();
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
  it('shows the file’s first rows under a select per column, and sends the corrected mapping with the check and the import', async () => {
    const person = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { imports, previews } = renderGadgets([
      importReport({}),
      importReport({}),
      importReport({ dryRun: false, committed: true }),
    ]);
    await person.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await openDialog('Import from a file');
    const file = new File(['Ref,Status,Notes\r\nG-1,active,first\r\n'], 'gadgets.csv', { type: 'text/csv' });
    await person.upload(within(dialog).getByLabelText(/^File/), file);

    const table = await within(dialog).findByRole('table', {
      name: 'The file’s first rows, under the field each column fills',
    });
    expect((previews[0]!.file as File).name).toBe('gadgets.csv');
    expect(previews[0]!.language).toBe('en');
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    expect(
      within(within(table).getAllByRole('row')[1]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['G-1', 'active', 'first']);
    const ref = within(table).getByRole('combobox', {
      name: 'Field filled by the column Ref',
    }) as HTMLSelectElement;
    expect(ref.value).toBe('');
    expect([...ref.options].map((option) => option.textContent)).toEqual(['Do not import', 'Code', 'Status']);
    expect(
      (
        within(table).getByRole('combobox', {
          name: 'Field filled by the column Status',
        }) as HTMLSelectElement
      ).value,
    ).toBe('status');

    // The proposal as it came, checked; then the code column chosen.
    await person.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    await nextPoll();
    expect(await within(dialog).findByText('Rows: 3 · to add: 1 · to change: 2 · unchanged: 0')).toBeTruthy();
    expect(imports[0]!.mapping).toEqual({ Ref: null, Status: 'status', Notes: null });
    await person.selectOptions(ref, 'Code');
    expect(ref.value).toBe('code');
    // Another mapping is another check: the report is gone and Import waits for it.
    expect(within(dialog).queryByText('Rows: 3 · to add: 1 · to change: 2 · unchanged: 0')).toBeNull();
    const commit = within(dialog).getAllByRole('button', { name: 'Import' }).at(-1) as HTMLButtonElement;
    expect(commit.disabled).toBe(true);
    await person.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    await nextPoll();
    await waitFor(() => expect(commit.disabled).toBe(false));
    await person.click(commit);
    await nextPoll();
    expect(await within(dialog).findByText('Imported: 1 added, 2 changed.')).toBeTruthy();
    expect(imports.slice(1).map((call) => call.mapping)).toEqual([
      { Ref: 'code', Status: 'status', Notes: null },
      { Ref: 'code', Status: 'status', Notes: null },
    ]);
  });

  it('in Arabic: the columns’ names and the choices in Arabic, and a refused mapping said in Arabic', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    const person = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { imports, previews } = renderGadgets([], 'admin', undefined, {
      preview: gadgetPreview('ar'),
      refuse: {
        error: {
          statusCode: 400,
          code: 'VALIDATION',
          name: 'ValidationError',
          message: 'The column mapping is refused',
          requestId: 'r1',
          issues: [{ path: 'mapping', message: 'IMPORT_MAPPING_COLUMN_TWICE', params: { column: 'الرمز' } }],
        },
      },
    });
    await person.click(await screen.findByRole('button', { name: 'استيراد' }));
    const dialog = await openDialog('استيراد من ملف');
    await person.upload(within(dialog).getByLabelText(/^الملف/), new File(['Ref\r\n'], 'g.csv'));
    const table = await within(dialog).findByRole('table', {
      name: 'الصفوف الأولى من الملف، تحت الحقل الذي يملؤه كل عمود',
    });
    expect(previews[0]!.language).toBe('ar');
    const notes = within(table).getByRole('combobox', {
      name: 'الحقل الذي يملؤه العمود Notes',
    }) as HTMLSelectElement;
    expect([...notes.options].map((option) => option.textContent)).toEqual([
      'عدم الاستيراد',
      'الرمز',
      'الحالة',
    ]);
    await person.selectOptions(notes, 'code');
    await person.selectOptions(
      within(table).getByRole('combobox', { name: 'الحقل الذي يملؤه العمود Ref' }),
      'code',
    );
    await person.click(within(dialog).getByRole('button', { name: 'فحص الملف' }));
    expect(await within(dialog).findByText('الحقل الرمز مختار لعمودين: اختره لعمود واحد فقط')).toBeTruthy();
    expect(imports[0]).toMatchObject({
      mapping: { Ref: 'code', Status: 'status', Notes: 'code' },
      language: 'ar',
    });
    // The file picked again: the member's choices stay for the headers it shares.
    await person.upload(within(dialog).getByLabelText(/^الملف/), new File(['Ref\r\n'], 'g2.csv'));
    await waitFor(() => expect(previews).toHaveLength(2));
    const again = await within(dialog).findByRole('combobox', { name: 'الحقل الذي يملؤه العمود Notes' });
    expect((again as HTMLSelectElement).value).toBe('code');
  });

  it('pre-selects the column the workspace last chose for a header, says so, and sends it with the check', async () => {
    const person = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { imports } = renderGadgets([importReport({})], 'admin', undefined, {
      // The server's proposal: Ref as last chosen in this list, not as its name matches.
      preview: {
        ...gadgetPreview('en'),
        mapping: { Ref: 'code', Status: 'status', Notes: null },
        remembered: ['Ref'],
      },
    });
    await person.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await openDialog('Import from a file');
    await person.upload(within(dialog).getByLabelText(/^File/), new File(['Ref\r\n'], 'gadgets.csv'));
    const table = await within(dialog).findByRole('table', {
      name: 'The file’s first rows, under the field each column fills',
    });
    const ref = within(table).getByRole('combobox', {
      name: 'Field filled by the column Ref',
    }) as HTMLSelectElement;
    expect(ref.value).toBe('code');
    expect(description(ref)).toBe('As chosen in this list’s last import');
    expect(
      description(within(table).getByRole('combobox', { name: 'Field filled by the column Status' })),
    ).toBe('');
    await person.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    await nextPoll();
    expect(imports[0]!.mapping).toEqual({ Ref: 'code', Status: 'status', Notes: null });
    // Another choice is the member's own: the note goes.
    await person.selectOptions(ref, '');
    expect(description(ref)).toBe('');
    expect(within(table).queryByText('As chosen in this list’s last import')).toBeNull();
  });

  it('in Arabic: the remembered column is said in Arabic', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    const person = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderGadgets([], 'admin', undefined, {
      preview: {
        ...gadgetPreview('ar'),
        mapping: { Ref: 'code', Status: 'status', Notes: null },
        remembered: ['Ref'],
      },
    });
    await person.click(await screen.findByRole('button', { name: 'استيراد' }));
    const dialog = await openDialog('استيراد من ملف');
    await person.upload(within(dialog).getByLabelText(/^الملف/), new File(['Ref\r\n'], 'g.csv'));
    const ref = await within(dialog).findByRole('combobox', { name: 'الحقل الذي يملؤه العمود Ref' });
    expect((ref as HTMLSelectElement).value).toBe('code');
    expect(description(ref)).toBe('كما اختير في آخر استيراد لهذه القائمة');
  });
});
