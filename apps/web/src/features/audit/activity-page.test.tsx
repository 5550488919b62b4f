import type { AuditLogRecord, CurrentUser, SignInEvent } from '@dukkan/contract';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import {
  callsTo,
  listPage,
  type MockRoute,
  mockFetch,
  renderSignedIn,
  testUser,
} from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';
import { ActivityPage } from './activity-page.tsx';

/**
 * /activity: the workspace's audit log as a feed — who, when, what, each changed field before →
 * after as the lists show it — filtered by member, resource, record, action and days; and the
 * members' sign-ins. Behind viewAudit.
 */
const shop = { id: 'w-shop', name: 'Shop' };
const admin = testUser([{ ...shop, grant: 'admin' }]);
const clerk = testUser([{ ...shop, grant: ['viewBrands', 'viewUsers'] }]);

const row = (fields: Partial<AuditLogRecord>): AuditLogRecord => ({
  id: crypto.randomUUID(),
  at: '2026-11-29T08:15:00.000Z',
  actorKind: 'member',
  actorUserId: 'u-karim',
  actorName: 'Karim Adel',
  requestId: null,
  address: '203.0.113.7',
  userAgent: null,
  action: 'update',
  resource: 'brands',
  recordId: '11111111-1111-4111-8111-111111111111',
  changes: {},
  names: null,
  ...fields,
});
const taxId = '33333333-3333-4333-8333-333333333333';
const rows = [
  row({ action: 'update', resource: 'taxes', recordId: taxId, requestId: 'r1', changes: { rate: [14, 15] } }),
  row({ action: 'disable', requestId: 'r1', changes: { status: ['active', 'inactive'] } }),
  row({
    at: '2026-11-28T10:00:00.000Z',
    actorKind: 'system',
    actorUserId: null,
    actorName: null,
    action: 'create',
    changes: { code: [null, 'BR-0001'] },
  }),
];

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

function renderActivity(user: CurrentUser = admin, routes: MockRoute[] = [], at = '/activity') {
  const mock = mockFetch([
    ...routes,
    { path: '/api/audit-log', body: listPage(rows) },
    { path: '/api/workspace-users', body: listPage([]) },
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(<ActivityPage />, { user, path: '/activity', at });
  return mock;
}

/** Intl spaces numbers and dates with no-break spaces; the tests read them as plain ones. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u2009\u202f]/g, ' ');

describe('the Activity page', () => {
  it('lists the changes newest first, one request’s together, each field before → after as the lists show it', async () => {
    renderActivity();
    const groups = await screen.findAllByTestId('audit-group');
    expect(groups).toHaveLength(2);
    const [first, second] = groups as [HTMLElement, HTMLElement];
    expect(plain(first.textContent)).toContain('Karim Adel');
    expect(within(first).getByText('2 changes saved together')).toBeTruthy();
    expect(within(first).getAllByTestId('audit-row')).toHaveLength(2);
    const changes = within(first)
      .getAllByTestId('audit-change')
      .map((change) => plain(change.textContent));
    // A percent as the taxes' list shows it, a status as its badge.
    expect(changes).toEqual(['Rate (%):Before: 14%→After: 15%', 'Status:Before: Active→After: Inactive']);
    expect(within(first).getByText('Tax')).toBeTruthy();
    expect(within(first).getByText('Disabled')).toBeTruthy();
    // A creation has no "before"; the system acted, not a member.
    expect(plain(second.textContent)).toContain('System');
    expect(
      within(second)
        .getAllByTestId('audit-change')
        .map((change) => plain(change.textContent)),
    ).toEqual(['Code:BR-0001']);
  });

  it('names each record by the end of its id, which tells apart records made in the same minute', async () => {
    // Time-ordered ids (the server's, decision 0058): made within a minute, they begin alike.
    const first = '019ad5e1-7c2a-7aaa-8aaa-aaaaaaaa1111';
    const second = '019ad5e1-7d90-7bbb-8bbb-bbbbbbbb2222';
    const person = userEvent.setup();
    renderActivity(admin, [
      {
        path: '/api/audit-log',
        body: listPage([
          row({ action: 'create', recordId: first, changes: { code: [null, 'BR-0001'] } }),
          row({ action: 'create', recordId: second, changes: { code: [null, 'BR-0002'] } }),
        ]),
      },
    ]);
    const named = async (id: string) =>
      (await screen.findAllByRole('button', { name: `Show the changes of record ${id}` }))[0]!;
    expect((await named(first)).textContent).toBe('aaaa1111');
    expect((await named(second)).textContent).toBe('bbbb2222');
    // The record the list is narrowed to is named the same way.
    await person.click(await named(second));
    const chip = (await screen.findByRole('button', { name: 'Show every record' })).parentElement;
    expect(plain(chip?.textContent)).toContain('bbbb2222');
  });

  it('narrows to a record from its row, and to days, in the address and the request', async () => {
    const person = userEvent.setup();
    const { calls } = renderActivity();
    await screen.findAllByTestId('audit-group');
    await person.click(screen.getAllByRole('button', { name: `Show the changes of record ${taxId}` })[0]!);
    await waitFor(() => {
      const query = callsTo(calls, '/api/audit-log').at(-1)?.query;
      expect(query?.get('recordId')).toBe(taxId);
      expect(query?.get('resource')).toBe('taxes');
    });
    await person.type(screen.getByLabelText('From'), '2026-11-01');
    await waitFor(() =>
      expect(callsTo(calls, '/api/audit-log').at(-1)?.query.get('at')).toBe('2026-11-01..'),
    );
    await person.click(screen.getByRole('button', { name: 'Show every record' }));
    await waitFor(() => expect(callsTo(calls, '/api/audit-log').at(-1)?.query.get('recordId')).toBeNull());
    await person.click(screen.getByRole('button', { name: /^Action/, expanded: false }));
    await person.click(screen.getByRole('checkbox', { name: 'Deleted' }));
    await waitFor(() => expect(callsTo(calls, '/api/audit-log').at(-1)?.query.get('action')).toBe('delete'));
  });

  it('says "more than" the count of a log longer than its count limit, and still offers the next page', async () => {
    renderActivity(
      admin,
      [
        {
          path: '/api/audit-log',
          body: { data: rows, meta: { total: 1000, page: 50, pageSize: 20, totalCapped: true } },
        },
      ],
      '/activity?page=50',
    );
    expect(await screen.findByText('Showing 981–1,000 of more than 1,000')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows a product save’s variants one by one, by their values’ names, prices as money, not as JSON', async () => {
    const [small, large, oat] = [
      '11111111-1111-4111-8111-111111111111',
      '22222222-2222-4222-8222-222222222222',
      '33333333-3333-4333-8333-333333333333',
    ];
    const added = Object.fromEntries(
      Array.from({ length: 12 }, (_, index) => [
        `${oat}-${String(index).padStart(12, '0').padStart(36, '9')}`,
        { position: index + 2, sku: `NEW-${index}`, price: 100, status: 'active' },
      ]),
    );
    const product = row({
      resource: 'products',
      changes: {
        variants: [
          {
            [`${small}-${oat}`]: { price: 1250, sku: 'LAT-S' },
            [`${large}-${oat}`]: { position: 1, price: 900 },
          },
          { [`${small}-${oat}`]: { price: 1500, sku: 'LAT-S-2' }, ...added },
        ],
      },
      names: {
        [small]: [{ locale: 'en', value: 'Small' }],
        [large]: [{ locale: 'en', value: 'Large' }],
        [oat]: [{ locale: 'en', value: 'Oat milk' }],
      },
    });
    const person = userEvent.setup();
    renderActivity(admin, [{ path: '/api/audit-log', body: listPage([product]) }]);
    const variants = await screen.findAllByTestId('audit-variant');
    // Ten shown of the fourteen, ordered by position: the removed one (1), the new ones (2…), then the changed one.
    expect(variants).toHaveLength(10);
    expect(plain(variants[0]!.textContent)).toBe('Large, Oat milkRemovedPrice:EGP 9.00Position:2');
    expect(plain(variants[1]!.textContent)).toBe(
      'Oat milk, Removed valueAddedSKU:NEW-0Price:EGP 1.00Status:ActivePosition:3',
    );
    expect(screen.queryByText(/"price"/)).toBeNull();
    await person.click(screen.getByRole('button', { name: 'Show all 14 variants' }));
    const all = screen.getAllByTestId('audit-variant');
    expect(all).toHaveLength(14);
    expect(plain(all[13]!.textContent)).toBe(
      'Small, Oat milkSKU:Before: LAT-S→After: LAT-S-2Price:Before: EGP 12.50→After: EGP 15.00',
    );
    expect(plain(screen.getByTestId('audit-change').textContent)).toMatch(/^Variants:Large, Oat milk/);
  });

  describe('a product’s changed options', () => {
    const [size, milk, small, large, oat, gone] = [
      '44444444-4444-4444-8444-444444444444',
      '55555555-5555-4555-8555-555555555555',
      '11111111-1111-4111-8111-111111111111',
      '22222222-2222-4222-8222-222222222222',
      '33333333-3333-4333-8333-333333333333',
      '66666666-6666-4666-8666-666666666666',
    ];
    const product = row({
      resource: 'products',
      changes: {
        options: [
          [{ typeId: size, valueIds: [small, gone] }],
          [
            { typeId: size, valueIds: [small, large] },
            { typeId: milk, valueIds: [oat] },
          ],
        ],
      },
      names: {
        [size]: [
          { locale: 'en', value: 'Size' },
          { locale: 'ar', value: 'المقاس' },
        ],
        [milk]: [
          { locale: 'en', value: 'Milk' },
          { locale: 'ar', value: 'الحليب' },
        ],
        [small]: [
          { locale: 'en', value: 'Small' },
          { locale: 'ar', value: 'صغير' },
        ],
        [large]: [
          { locale: 'en', value: 'Large' },
          { locale: 'ar', value: 'كبير' },
        ],
        [oat]: [{ locale: 'en', value: 'Oat milk' }],
      },
    });
    const changes = async () =>
      (await screen.findAllByTestId('audit-change')).map((change) => plain(change.textContent));

    it('names each type, then its values, as the product’s page lists them, not JSON', async () => {
      renderActivity(admin, [{ path: '/api/audit-log', body: listPage([product]) }]);
      expect(await changes()).toEqual([
        'Variation types:Before: Size: Small, Removed value→After: Size: Small, Large · Milk: Oat milk',
      ]);
      expect(screen.queryByText(/typeId/)).toBeNull();
    });

    it('in Arabic too', async () => {
      if (!i18next.hasResourceBundle('ar', 'translation'))
        i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
      await i18next.changeLanguage('ar');
      renderActivity(admin, [{ path: '/api/audit-log', body: listPage([product]) }]);
      expect(await changes()).toEqual([
        'أنواع المتغيرات:قبل: المقاس: صغير، قيمة محذوفة←بعد: المقاس: صغير، كبير · الحليب: Oat milk',
      ]);
      expect(screen.queryByText(/typeId/)).toBeNull();
    });
  });

  it('shows a product’s prices as money, its price range as its two ends, each named', async () => {
    const product = row({
      resource: 'products',
      changes: { price: [900, 1000], cost: [null, 450], priceMin: [900, 1250], priceMax: [1500, 2000] },
    });
    renderActivity(admin, [{ path: '/api/audit-log', body: listPage([product]) }]);
    const changes = async () =>
      (await screen.findAllByTestId('audit-change')).map((change) => plain(change.textContent));
    expect(await changes()).toEqual([
      'Price:Before: EGP 9.00→After: EGP 10.00',
      'Cost:Before: (empty)→After: EGP 4.50',
      'Lowest price:Before: EGP 9.00→After: EGP 12.50',
      'Highest price:Before: EGP 15.00→After: EGP 20.00',
    ]);
    cleanup();
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderActivity(admin, [{ path: '/api/audit-log', body: listPage([product]) }]);
    const arabic = await changes();
    // Amounts, not minor units.
    expect(arabic.join(' ')).not.toMatch(/\b(900|1000|450|1250|1500|2000)\b/);
    expect(arabic.map((change) => change.split(':')[0])).toEqual([
      'السعر',
      'التكلفة',
      'أدنى سعر',
      'أعلى سعر',
    ]);
  });

  it('names a product’s count of variants apart from its changed variants, in both languages', async () => {
    const small = '11111111-1111-4111-8111-111111111111';
    const product = row({
      resource: 'products',
      changes: { variantsCount: [0, 1], variants: [{}, { [small]: { position: 0, price: 100 } }] },
      names: { [small]: [{ locale: 'en', value: 'Small' }] },
    });
    const labels = async () =>
      (await screen.findAllByTestId('audit-change')).map((change) => plain(change.textContent).split(':')[0]);
    renderActivity(admin, [{ path: '/api/audit-log', body: listPage([product]) }]);
    expect(await labels()).toEqual(['Number of variants', 'Variants']);
    cleanup();
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderActivity(admin, [{ path: '/api/audit-log', body: listPage([product]) }]);
    expect(await labels()).toEqual(['عدد المتغيرات', 'المتغيرات']);
  });

  describe('a product’s changed recipe', () => {
    const milk = {
      ingredient: [
        { locale: 'en', value: 'Milk' },
        { locale: 'ar', value: 'حليب' },
      ],
      variant: null,
      unit: 'l',
      quantity: 0.25,
      orderTypes: [],
      brands: [],
    };
    const beans = {
      ingredient: [
        { locale: 'en', value: 'Beans' },
        { locale: 'ar', value: 'بن' },
      ],
      variant: [
        { locale: 'en', value: 'Dark' },
        { locale: 'ar', value: 'داكن' },
      ],
      unit: 'g',
      quantity: 18,
      orderTypes: [],
      brands: [],
    };
    const product = row({
      resource: 'products',
      changes: {
        recipe: [
          { p1: milk, 'p2/v1': beans },
          {
            p1: { ...milk, quantity: 0.3, orderTypes: ['takeaway'] },
            p3: {
              ...milk,
              ingredient: [{ locale: 'en', value: 'Cream' }],
              brands: [[{ locale: 'en', value: 'Kiosk' }]],
            },
          },
        ],
      },
    });
    const lines = async () =>
      (await screen.findAllByTestId('audit-recipe-line')).map((line) => plain(line.textContent));

    it('lists each line by its ingredient, its quantity in its unit, not JSON', async () => {
      renderActivity(admin, [{ path: '/api/audit-log', body: listPage([product]) }]);
      expect(await lines()).toEqual([
        'MilkQuantity:Before: 0.25 l→After: 0.3 lOrder types:Before: All order types→After: Takeaway',
        'Beans - DarkRemovedQuantity:18 g',
        'CreamAddedQuantity:0.25 lBrands:Kiosk',
      ]);
      expect(plain(screen.getByTestId('audit-change').textContent)).toMatch(/^Recipe:Milk/);
      expect(screen.queryByText(/ingredient/)).toBeNull();
    });

    it('in Arabic too', async () => {
      if (!i18next.hasResourceBundle('ar', 'translation'))
        i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
      await i18next.changeLanguage('ar');
      renderActivity(admin, [{ path: '/api/audit-log', body: listPage([product]) }]);
      expect(await lines()).toEqual([
        'حليبالكمية:قبل: ٠٫٢٥ l←بعد: ٠٫٣ lأنواع الطلبات:قبل: جميع أنواع الطلبات←بعد: سفري',
        'بن - داكنأُزيلالكمية:١٨ g',
        'Creamأُضيفالكمية:٠٫٢٥ lالعلامات التجارية:Kiosk',
      ]);
      expect(plain(screen.getByTestId('audit-change').textContent)).toMatch(/^الوصفة:حليب/);
    });
  });

  it('shows an export: the list, its file, rows, search and filters by their names', async () => {
    const exported = row({
      action: 'export',
      resource: 'customers',
      recordId: '44444444-4444-4444-8444-444444444444',
      changes: {
        format: [null, 'xlsx'],
        rows: [null, 1250],
        search: [null, 'Mona'],
        filters: [null, { status: ['active'], source: ['online', 'walkIn'] }],
      },
    });
    renderActivity(admin, [{ path: '/api/audit-log', body: listPage([exported]) }]);
    const entry = await screen.findByTestId('audit-row');
    expect(within(entry).getByText('Exported')).toBeTruthy();
    expect(within(entry).getByText('Customer')).toBeTruthy();
    expect(
      within(entry)
        .getAllByTestId('audit-change')
        .map((change) => plain(change.textContent)),
    ).toEqual([
      'File:XLSX',
      'Rows:1,250',
      'Search:“Mona”',
      'Filters:Status: ActiveSource: Online or Walk-in',
    ]);
    expect(
      within(entry)
        .getAllByRole('listitem')
        .map((filter) => plain(filter.textContent)),
    ).toEqual(['Status: Active', 'Source: Online or Walk-in']);
    // The export's own id names no record to narrow the list to.
    expect(within(entry).queryByRole('button', { name: /^Show the changes of record/ })).toBeNull();
  });

  it('shows an import: the list, its file, rows and the records added, changed and unchanged, in both languages', async () => {
    const imported = row({
      action: 'import',
      resource: 'customers',
      recordId: '55555555-5555-4555-8555-555555555555',
      changes: {
        fileName: [null, 'customers-march.xlsx'],
        format: [null, 'xlsx'],
        rows: [null, 1250],
        created: [null, 12],
        updated: [null, 30],
        unchanged: [null, 1208],
      },
    });
    renderActivity(admin, [{ path: '/api/audit-log', body: listPage([imported]) }]);
    const entry = await screen.findByTestId('audit-row');
    expect(within(entry).getByText('Imported')).toBeTruthy();
    expect(within(entry).getByText('Customer')).toBeTruthy();
    expect(
      within(entry)
        .getAllByTestId('audit-change')
        .map((change) => plain(change.textContent)),
    ).toEqual([
      'File:customers-march.xlsx',
      'Format:XLSX',
      'Rows:1,250',
      'Added:12',
      'Changed:30',
      'Unchanged:1,208',
    ]);
    // The import's own id names no record to narrow the list to.
    expect(within(entry).queryByRole('button', { name: /^Show the changes of record/ })).toBeNull();
    cleanup();

    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderActivity(admin, [{ path: '/api/audit-log', body: listPage([imported]) }]);
    const arabic = await screen.findByTestId('audit-row');
    expect(within(arabic).getByText('استيراد')).toBeTruthy();
    expect(
      within(arabic)
        .getAllByTestId('audit-change')
        .map((change) => plain(change.textContent)),
    ).toEqual([
      'الملف:customers-march.xlsx',
      'الصيغة:XLSX',
      'الصفوف:١٬٢٥٠',
      'أُضيف:١٢',
      'عُدّل:٣٠',
      'بلا تغيير:١٬٢٠٨',
    ]);
  });

  it('says when nothing was recorded yet', async () => {
    renderActivity(admin, [{ path: '/api/audit-log', body: listPage([]) }]);
    expect(await screen.findByText('No activity yet')).toBeTruthy();
  });

  it('shows the members’ sign-ins on their own view', async () => {
    const events: SignInEvent[] = [
      {
        id: 'e1',
        userId: 'u-karim',
        userName: 'Karim Adel',
        at: '2026-11-29T08:00:00.000Z',
        kind: 'failure',
        success: false,
        address: '198.51.100.4',
        userAgent:
          'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      },
    ];
    renderActivity(
      admin,
      [{ path: '/api/audit-log/sign-ins', body: listPage(events) }],
      '/activity?view=sign-ins',
    );
    const event = await screen.findByTestId('sign-in');
    expect(plain(event.textContent)).toContain(
      'Karim AdelSign-in failedFailedSafari on iOSAddress: 198.51.100.4',
    );
  });

  it('refuses whoever lacks viewAudit, asking nothing', async () => {
    const { calls } = renderActivity(clerk);
    expect(await screen.findByText(/not authorized|permission/i)).toBeTruthy();
    expect(callsTo(calls, '/api/audit-log')).toEqual([]);
  });

  it('reads right to left in Arabic, its arrow pointing from before to after', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderActivity();
    const [first] = (await screen.findAllByTestId('audit-group')) as [HTMLElement];
    expect(plain(within(first).getAllByTestId('audit-change')[1]!.textContent)).toBe(
      'الحالة:قبل: مفعّل←بعد: معطّل',
    );
    expect(within(first).getByText('ضريبة')).toBeTruthy();
  });
});
