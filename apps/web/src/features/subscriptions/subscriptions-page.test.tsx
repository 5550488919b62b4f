import type { SubscriptionRecord } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageOf } from '../../app/pages.tsx';
import { bothLanguages } from '../../test/localized.ts';
import { callsTo, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';

/**
 * /subscriptions has no page of its own: the spec's name resolves to the generic page of the
 * read-only `subscriptions` declaration, which shows its plans and statuses translated.
 */
const shop = { id: 'w-shop', name: 'Shop' };
const stamp = '2027-01-01T12:00:00.000Z';
const record = (overrides: Partial<SubscriptionRecord>): SubscriptionRecord => ({
  id: '5a0c4b1e-1111-4a57-9a0e-000000000001',
  applicationId: '0b7c5c1e-4c6b-4a57-9a0e-000000000001',
  application: bothLanguages('Demo app', 'تطبيق تجريبي'),
  plan: 'quarterly',
  startDate: '2027-01-01T12:00:00.000Z',
  endDate: '2027-04-01T12:00:00.000Z',
  status: 'approved',
  createdAt: stamp,
  updatedAt: stamp,
  ...overrides,
});
const subscribed = record({});
const trial = record({
  id: '5a0c4b1e-1111-4a57-9a0e-000000000002',
  application: [{ locale: 'en', value: 'Kiosk' }],
  plan: null,
  status: 'freeTrial',
});
const waiting = record({
  id: '5a0c4b1e-1111-4a57-9a0e-000000000003',
  application: [{ locale: 'en', value: 'Loyalty' }],
  plan: 'semiannually',
  startDate: null,
  endDate: null,
  status: 'pending',
});

function renderSubscriptions(grant: 'admin' | string[] = 'admin') {
  const mock = mockFetch([
    {
      path: '/api/subscriptions',
      body: { data: [subscribed, trial, waiting], meta: { total: 3, page: 1, pageSize: 20 } },
    },
    { path: '/api/subscriptions/filters', body: { data: {} } },
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  const Page = pageOf('Subscriptions');
  if (!Page) throw new Error('No Subscriptions page');
  renderSignedIn(
    <Suspense fallback={null}>
      <Page />
    </Suspense>,
    { user: testUser([{ ...shop, grant }]), path: '/subscriptions' },
  );
  return mock;
}

const rowOf = async (name: string) =>
  (await screen.findByRole('rowheader', { name })).closest('tr') as HTMLElement;

afterEach(() => vi.unstubAllGlobals());

describe('the subscriptions page', () => {
  it('lists the application, the plan and status translated, and the period', async () => {
    renderSubscriptions();
    expect((await rowOf('Demo app')).textContent).toBe(
      'Demo appQuarterlyFri, Jan 01, 2027Thu, Apr 01, 2027Approved',
    );
    // A free trial has no plan; a request waiting for activation no period yet.
    expect((await rowOf('Kiosk')).textContent).toBe('Kiosk—Fri, Jan 01, 2027Thu, Apr 01, 2027Free trial');
    expect((await rowOf('Loyalty')).textContent).toBe('LoyaltySemiannually——Pending');
    expect(screen.getByRole('heading', { name: 'Subscriptions' })).toBeTruthy();
    for (const header of ['Application', 'Plan', 'Start date', 'End date', 'Status'])
      expect(screen.getByRole('columnheader', { name: new RegExp(`^${header}`) })).toBeTruthy();
  });

  it('is read-only even for an admin: no New, no row actions, no search', async () => {
    renderSubscriptions();
    const row = await rowOf('Demo app');
    expect(within(row).queryAllByRole('button')).toEqual([]);
    expect(screen.queryByRole('button', { name: /New subscription/ })).toBeNull();
    expect(screen.queryByRole('searchbox')).toBeNull();
  });

  it('filters by translated plans, in the request', async () => {
    const person = userEvent.setup();
    const { calls } = renderSubscriptions(['viewSubscriptions']);
    await rowOf('Demo app');
    await person.click(screen.getByRole('button', { name: /^Plan/, expanded: false }));
    for (const plan of ['Monthly', 'Quarterly', 'Semiannually', 'Annually'])
      expect(screen.getByRole('checkbox', { name: plan })).toBeTruthy();
    await person.click(screen.getByRole('checkbox', { name: 'Annually' }));
    await waitFor(() =>
      expect(callsTo(calls, '/api/subscriptions').at(-1)?.query.get('plan')).toBe('annually'),
    );
    await person.click(screen.getByRole('button', { name: /^Status/, expanded: false }));
    expect(screen.getByRole('checkbox', { name: 'Expired free trial' })).toBeTruthy();
  });
});
