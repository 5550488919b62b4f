import type { AuditLogRecord, CurrentUser, SignInEvent } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
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
      i18next.addResourceBundle('ar', 'translation', { ...ar, ...signedInAr });
    await i18next.changeLanguage('ar');
    renderActivity();
    const [first] = (await screen.findAllByTestId('audit-group')) as [HTMLElement];
    expect(plain(within(first).getAllByTestId('audit-change')[1]!.textContent)).toBe(
      'الحالة:قبل: مفعّل←بعد: معطّل',
    );
    expect(within(first).getByText('ضريبة')).toBeTruthy();
  });
});
