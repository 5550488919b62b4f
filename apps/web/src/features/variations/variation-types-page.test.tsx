import type { VariationTypeRecord, VariationTypeValue } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { bothLanguages } from '../../test/localized.ts';
import { type RefusedIssue, validationRefusal } from '../../test/refusal.ts';
import {
  callsTo,
  type MockCall,
  type MockRoute,
  mockFetch,
  renderSignedIn,
  type TestWorkspace,
  testUser,
} from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';
import { VariationTypesPage } from './variation-types-page.tsx';

/**
 * VariantOptions: the variation types with their values inline, and a type's values edited in
 * its dialog through the variation-values API (add, reorder, delete), with the server's refusals
 * shown where the user looks, in their language.
 */
const shop = { id: 'w-shop', name: 'Shop' };
const stamp = '2026-01-01T00:00:00.000Z';

const value = (
  id: string,
  code: string,
  en: string,
  arName: string,
  position: number,
): VariationTypeValue => ({
  id,
  code,
  name: bothLanguages(en, arName),
  position,
  status: 'active',
});
const sizeId = '5e000000-0000-4000-8000-000000000001';
const colourId = 'c0000000-0000-4000-8000-000000000002';
const small = value('a0000000-0000-4000-8000-000000000011', 'S', 'Small', 'صغير', 0);
const medium = value('a0000000-0000-4000-8000-000000000012', 'M', 'Medium', 'وسط', 1);
const large = value('a0000000-0000-4000-8000-000000000013', 'L', 'Large', 'كبير', 2);
const red = value('a0000000-0000-4000-8000-000000000021', 'RED', 'Red', 'أحمر', 0);

const type = (id: string, code: string, en: string, arName: string, values: VariationTypeValue[]) =>
  ({
    id,
    code,
    name: bothLanguages(en, arName),
    values,
    status: 'active',
    createdAt: stamp,
    updatedAt: stamp,
  }) satisfies VariationTypeRecord;

/** The server refusing one call (`VALIDATION`, 400) with one issue. */
const refused = (method: MockRoute['method'], path: string, issue: RefusedIssue): MockRoute => ({
  method,
  path,
  ...validationRefusal([issue], { key: issue.path }),
});

/** The page's texts in Arabic from here on. */
async function readInArabic() {
  if (!i18next.hasResourceBundle('ar', 'translation'))
    i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
  await i18next.changeLanguage('ar');
}

/**
 * A small server: the types with their values, kept in order by position; values can be added,
 * moved and deleted. `override` answers a call before the server does (a refusal).
 */
function fakeServer(override: MockRoute[] = []) {
  const types = [
    type(sizeId, 'SIZE', 'Size', 'المقاس', [small, medium, large]),
    type(colourId, 'COLOUR', 'Colour', 'اللون', [red]),
  ];
  const ordered = (record: VariationTypeRecord) => ({
    ...record,
    values: [...record.values].sort((a, b) => a.position - b.position),
  });
  const allValues = () => types.flatMap((record) => record.values);
  const routes: MockRoute[] = [
    ...override,
    {
      path: '/api/variation-types',
      body: () => ({ data: types.map(ordered), meta: { total: types.length, page: 1, pageSize: 20 } }),
    },
    ...types.map((record) => ({
      path: `/api/variation-types/${record.id}`,
      body: () => ({ data: ordered(record) }),
    })),
    {
      method: 'POST',
      path: '/api/variation-values',
      status: 201,
      body: ({ body }: MockCall) => {
        const input = body as { code: string; name: VariationTypeValue['name']; typeId: string };
        const owner = types.find((record) => record.id === input.typeId)!;
        const created = {
          id: `a0000000-0000-4000-8000-0000000001${owner.values.length}0`,
          code: input.code,
          name: input.name,
          position: owner.values.length,
          status: 'active' as const,
        };
        owner.values.push(created);
        return { data: { ...created, typeId: owner.id, createdAt: stamp, updatedAt: stamp } };
      },
    },
    ...allValues().map((stored) => ({
      method: 'PATCH',
      path: `/api/variation-values/${stored.id}`,
      body: ({ body }: MockCall) => {
        Object.assign(stored, body);
        return { data: { ...stored, createdAt: stamp, updatedAt: stamp } };
      },
    })),
  ];
  const mock = mockFetch(routes);
  vi.stubGlobal('fetch', mock.fetchMock);
  return mock;
}

function renderTypes(grant: TestWorkspace['grant'] = 'admin') {
  renderSignedIn(<VariationTypesPage />, {
    user: testUser([{ ...shop, grant }]),
    path: '/variations-types',
  });
}

async function openSize(person: ReturnType<typeof userEvent.setup>, action: RegExp = /^Edit/) {
  const row = await screen.findByRole('row', { name: /SIZE/ });
  await person.click(within(row).getByRole('button', { name: action }));
  return within(await screen.findByRole('dialog'));
}

const listed = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent);

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('the variation types page', () => {
  it('shows each type with its values inline, in their order', async () => {
    fakeServer();
    renderTypes();
    const size = await screen.findByRole('row', { name: /SIZE/ });
    expect(
      within(size)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Small', 'Medium', 'Large']);
    const colour = screen.getByRole('row', { name: /COLOUR/ });
    expect(
      within(colour)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Red']);
  });

  it("adds a value to the type: posted with the type's id, then listed last", async () => {
    const person = userEvent.setup();
    const { calls } = fakeServer();
    renderTypes();
    const dialog = await openSize(person);
    const form = within(dialog.getByRole('region', { name: 'New value' }));
    await person.type(form.getByLabelText('Code'), 'XL');
    await person.type(form.getByLabelText('Name (English)'), 'Extra large');
    await person.type(form.getByLabelText('Name (Arabic)'), 'كبير جدًا');
    await person.click(form.getByRole('button', { name: 'Add value' }));

    await waitFor(() => expect(callsTo(calls, '/api/variation-values', 'POST')).toHaveLength(1));
    expect(callsTo(calls, '/api/variation-values', 'POST')[0]!.body).toEqual({
      code: 'XL',
      name: bothLanguages('Extra large', 'كبير جدًا'),
      typeId: sizeId,
    });
    const values = dialog.getByRole('list', { name: 'Values of Size' });
    await waitFor(() => expect(listed(values)).toHaveLength(4));
    expect(within(values).getAllByRole('listitem')[3]!.textContent).toContain('Extra large');
    // The form is empty again for the next value.
    expect((form.getByLabelText('Code') as HTMLInputElement).value).toBe('');
  });

  it('adds a value with no code typed: the hint says one is derived, and none is sent', async () => {
    const person = userEvent.setup();
    const { calls } = fakeServer();
    renderTypes();
    const form = within((await openSize(person)).getByRole('region', { name: 'New value' }));
    const code = form.getByLabelText('Code');
    expect(document.getElementById(code.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Left empty, the value gets its type’s code and a number (SIZE-01)',
    );
    await person.type(form.getByLabelText('Name (English)'), 'Extra large');
    await person.click(form.getByRole('button', { name: 'Add value' }));
    await waitFor(() => expect(callsTo(calls, '/api/variation-values', 'POST')).toHaveLength(1));
    expect(callsTo(calls, '/api/variation-values', 'POST')[0]!.body).toEqual({
      code: '',
      name: [{ locale: 'en', value: 'Extra large' }],
      typeId: sizeId,
    });
  });

  it("shows the server's VALUE_REPEATED under the box of the repeated text, in English", async () => {
    const person = userEvent.setup();
    fakeServer([refused('POST', '/api/variation-values', { path: 'name', message: 'VALUE_REPEATED' })]);
    renderTypes();
    const form = within((await openSize(person)).getByRole('region', { name: 'New value' }));
    await person.type(form.getByLabelText('Code'), 'L2');
    await person.type(form.getByLabelText('Name (English)'), 'Huge');
    await person.type(form.getByLabelText('Name (Arabic)'), ' كبير');
    await person.click(form.getByRole('button', { name: 'Add value' }));

    // The Arabic text is the one Size already has: the message is under that box.
    const arabic = form.getByLabelText('Name (Arabic)');
    await waitFor(() => expect(arabic.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(arabic.getAttribute('aria-describedby')!)?.textContent).toBe(
      'This type already has this value',
    );
    expect(form.getByLabelText('Name (English)').getAttribute('aria-invalid')).toBeNull();
  });

  it("shows the server's VALUE_REPEATED under the name, in Arabic", async () => {
    await readInArabic();
    const person = userEvent.setup();
    fakeServer([refused('POST', '/api/variation-values', { path: 'name', message: 'VALUE_REPEATED' })]);
    renderTypes();
    const form = within((await openSize(person, /^تعديل/)).getByRole('region', { name: 'قيمة جديدة' }));
    await person.type(form.getByLabelText('الرمز'), 'L2');
    await person.type(form.getByLabelText('الاسم (بالإنجليزية)'), 'LARGE');
    await person.click(form.getByRole('button', { name: 'إضافة القيمة' }));

    const english = form.getByLabelText('الاسم (بالإنجليزية)');
    await waitFor(() => expect(english.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(english.getAttribute('aria-describedby')!)?.textContent).toBe(
      'هذه القيمة موجودة بالفعل في هذا النوع',
    );
  });

  it('moves a value up from the keyboard: the new positions are sent and the focus stays on it', async () => {
    const person = userEvent.setup();
    const { calls } = fakeServer();
    renderTypes();
    const dialog = await openSize(person);
    const moveUp = dialog.getByRole('button', { name: 'Move Large up' });
    moveUp.focus();
    await person.keyboard('{Enter}');

    await waitFor(() =>
      expect(
        calls
          .filter((call) => call.method === 'PATCH')
          .map((call) => [call.url.split('?')[0]?.replace(/\/{2,}/g, '/'), call.body]),
      ).toEqual([
        [`/api/variation-values/${large.id}`, { position: 1 }],
        [`/api/variation-values/${medium.id}`, { position: 2 }],
      ]),
    );
    const values = dialog.getByRole('list', { name: 'Values of Size' });
    await waitFor(() =>
      expect(
        within(values)
          .getAllByRole('listitem')
          .map((item) => item.textContent?.split(' ')[0]),
      ).toEqual(['1Small', '2Large', '3Medium']),
    );
    expect(document.activeElement).toBe(dialog.getByRole('button', { name: 'Move Large up' }));
    // Closed, the list of types shows the new order too.
    await person.keyboard('{Escape}');
    const row = await screen.findByRole('row', { name: /SIZE/ });
    await waitFor(() =>
      expect(
        within(row)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(['Small', 'Large', 'Medium']),
    );
  });

  it("a used value's delete is refused with how many products use it and the first five", async () => {
    const person = userEvent.setup();
    fakeServer([
      refused('DELETE', `/api/variation-values/${large.id}`, {
        path: 'id',
        message: 'RECORD_IN_USE_BY',
        params: { count: 7, names: 'Shirt, Hoodie, Cap, Scarf, Socks' },
      }),
    ]);
    renderTypes();
    const dialog = await openSize(person);
    await person.click(dialog.getByRole('button', { name: 'Delete Large' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Large?' });
    expect(within(confirm).getByRole('button', { name: 'Keep Large' })).toBeTruthy();
    await person.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(
      await within(confirm).findByText('Records still using this one (7): Shirt, Hoodie, Cap, Scarf, Socks'),
    ).toBeTruthy();
    // Its Delete is disabled while the value is in use.
    expect((within(confirm).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});

describe('permissions on the variation types page', () => {
  it('viewVariations alone: the values are shown, nothing can be changed', async () => {
    fakeServer();
    renderTypes(['viewVariations']);
    const row = await screen.findByRole('row', { name: /SIZE/ });
    expect(within(row).getAllByRole('listitem')).toHaveLength(3);
    expect(within(row).queryAllByRole('button')).toEqual([]);
    expect(screen.queryByRole('button', { name: 'New variation type' })).toBeNull();
  });

  it('addVariations without editVariations: values can be added, not moved, renamed or the type edited', async () => {
    const person = userEvent.setup();
    fakeServer();
    renderTypes(['viewVariations', 'addVariations']);
    const dialog = await openSize(person, /^Edit values/);
    expect(dialog.getByRole('region', { name: 'New value' })).toBeTruthy();
    expect(dialog.queryByRole('button', { name: 'Move Large up' })).toBeNull();
    expect(dialog.queryByRole('button', { name: 'Rename Large' })).toBeNull();
    expect(dialog.queryByRole('button', { name: 'Delete Large' })).toBeNull();
    expect(dialog.queryByRole('button', { name: 'Save type' })).toBeNull();
  });

  it('without viewVariations the page is refused and nothing is fetched', async () => {
    const { calls } = fakeServer();
    renderTypes(['viewProducts']);
    expect(await screen.findByText('You are not authorized to access this page')).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

describe('a new variation type with its values', () => {
  /** A created type as the server answers it: its values derived from the lines sent. */
  const createdType = ({ body }: MockCall) => {
    const input = body as {
      code?: string;
      name: VariationTypeValue['name'];
      values?: { name: VariationTypeValue['name'] }[];
    };
    const code = input.code || 'VAR-0001';
    return {
      data: type(
        'd0000000-0000-4000-8000-000000000003',
        code,
        'Fit',
        'المقاس',
        (input.values ?? []).map((item, index) => ({
          ...value(`d0000000-0000-4000-8000-0000000001${index}0`, `${code}-0${index + 1}`, '', '', index),
          name: item.name,
        })),
      ),
    };
  };

  async function openNew(person: ReturnType<typeof userEvent.setup>, name = 'New variation type') {
    await person.click((await screen.findAllByRole('button', { name }))[0]!);
    return within(await screen.findByRole('dialog'));
  }

  it('sends the typed lines as its values, one per non-blank line, named by their script', async () => {
    const person = userEvent.setup();
    const { calls } = fakeServer([
      { method: 'POST', path: '/api/variation-types', status: 201, body: createdType },
    ]);
    renderTypes();
    const dialog = await openNew(person);
    await person.type(dialog.getByLabelText('Name (English)'), 'Fit');
    const box = dialog.getByLabelText('Values');
    await person.type(box, 'Slim | نحيف{Enter}{Enter}  Regular  {Enter}واسع');
    await person.click(dialog.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(callsTo(calls, '/api/variation-types', 'POST')).toHaveLength(1));
    expect(callsTo(calls, '/api/variation-types', 'POST')[0]!.body).toEqual({
      code: '',
      name: [{ locale: 'en', value: 'Fit' }],
      values: [
        {
          name: bothLanguages('Slim', 'نحيف'),
        },
        { name: [{ locale: 'en', value: 'Regular' }] },
        { name: [{ locale: 'ar', value: 'واسع' }] },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says a repeated or malformed line under the box, by its line number, and sends nothing', async () => {
    const person = userEvent.setup();
    const { calls } = fakeServer();
    renderTypes();
    const dialog = await openNew(person);
    await person.type(dialog.getByLabelText('Name (English)'), 'Fit');
    const box = dialog.getByLabelText('Values');
    await person.type(box, 'Slim{Enter}{Enter}Wide | Loose{Enter}slim');
    await person.click(dialog.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'));
    const said = document.getElementById(box.getAttribute('aria-describedby')!.split(' ').at(-1)!);
    // The line format is checked first; blank lines are counted as typed.
    expect(said?.textContent).toBe(
      'Line 3: Put each value on a line of its own; “|” separates its English name from its Arabic name',
    );
    await person.clear(box);
    await person.type(box, 'Slim{Enter}{Enter}Wide{Enter}slim');
    await person.click(dialog.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(
        document.getElementById(box.getAttribute('aria-describedby')!.split(' ').at(-1)!)?.textContent,
      ).toBe('Line 4: This type already has this value'),
    );
    expect(callsTo(calls, '/api/variation-types', 'POST')).toEqual([]);
  });

  it("puts the server's refusal of a value under the box, at the line it was typed on, in Arabic", async () => {
    await readInArabic();
    const person = userEvent.setup();
    fakeServer([
      refused('POST', '/api/variation-types', { path: 'values.1.code', message: 'CODE_MUST_BE_UNIQUE' }),
    ]);
    renderTypes();
    const dialog = await openNew(person, 'إضافة نوع متغير');
    await person.type(dialog.getByLabelText('الاسم (بالعربية)'), 'القصة');
    const box = dialog.getByLabelText('القيم');
    await person.type(box, 'نحيف{Enter}{Enter}واسع');
    await person.click(dialog.getByRole('button', { name: 'إنشاء' }));

    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'));
    expect(
      document.getElementById(box.getAttribute('aria-describedby')!.split(' ').at(-1)!)?.textContent,
    ).toBe('السطر 3: يجب أن يكون هذا الرمز فريدًا');
    // The dialog stays open with what was typed.
    expect((box as HTMLTextAreaElement).value).toBe('نحيف\n\nواسع');
  });

  it('shows no values box when a type is edited', async () => {
    const person = userEvent.setup();
    fakeServer();
    renderTypes();
    const dialog = await openSize(person);
    expect(dialog.getByRole('button', { name: 'Save type' })).toBeTruthy();
    expect(dialog.queryByRole('textbox', { name: 'Values' })).toBeNull();
  });
});
