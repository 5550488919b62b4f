import { type LocationRecord, locationsResource, type UpcomingPayment } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { operationNotices } from '../../app/operation-notices.ts';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/ar.json';
import { downtownLocation } from '../../resource-ui/location-test-data.ts';
import { ResourcePage } from '../../resource-ui/resource-page.tsx';
import { bothLanguages } from '../../test/localized.ts';
import {
  callsTo,
  listPage,
  type MockRoute,
  mockFetch,
  renderSignedIn,
  testUser,
} from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';

/**
 * The locations page is the generic one with the hook the app declares for it: creating,
 * enabling, disabling or deleting a location in a workspace whose subscription renews says in the
 * dialog how the next invoice changes — before and after, by the contract's `nextInvoiceChange`.
 */
const shop = { id: 'w-shop', name: 'Shop' };
const admin = testUser([{ ...shop, grant: 'admin' }]);
const closed: LocationRecord = {
  ...downtownLocation,
  id: '5a0c4b1e-1111-4a57-9a0e-6f1d1b9c2a03',
  code: 'LOC-2',
  name: bothLanguages('Harbour', 'الميناء'),
  status: 'inactive',
};

/** Quarterly, 475.00 per location per month, 5 % off, for 2 active locations: 2,707.50. */
const renewing: UpcomingPayment = {
  subscriptionId: '5a0c4b1e-1111-4a57-9a0e-000000000001',
  details: {
    application: bothLanguages('Point of Sale', 'نقاط البيع'),
    plan: 'quarterly',
    // 22:30 in UTC on 31 March is 1 April in Cairo, the workspace's time zone.
    periodStart: '2027-03-31T22:30:00.000Z',
    periodEnd: '2027-06-30T21:30:00.000Z',
    locations: 2,
    monthlyPricePerLocation: 47_500,
    discountBasisPoints: 500,
  },
  amount: 270_750,
  currency: 'EGP',
  dueAt: '2027-03-31T22:30:00.000Z',
  status: 'upcoming',
};

const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u200f\u061c]/g, ' ');

function renderLocations(upcoming: UpcomingPayment[], routes: MockRoute[] = []) {
  const mock = mockFetch([
    ...routes,
    { path: '/api/brands', body: listPage([]) },
    { path: '/api/locations', body: listPage([downtownLocation, closed]) },
    { path: '/api/payments/upcoming', body: { data: upcoming, meta: { activeLocations: 2, graceDays: 5 } } },
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(
    <ResourcePage definition={locationsResource} useOperationNotice={operationNotices.locations} />,
    { user: admin, path: '/locations' },
  );
  return mock;
}

async function rowAction(person: ReturnType<typeof userEvent.setup>, name: RegExp, action: RegExp) {
  const row = await screen.findByRole('row', { name });
  await person.click(within(row).getByRole('button', { name: action }));
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('the next invoice in the location dialogs', () => {
  it('a new location: the create form says the next invoice goes from 2,707.50 to 4,061.25, on its day', async () => {
    const person = userEvent.setup();
    const { calls } = renderLocations([renewing]);
    await screen.findByRole('row', { name: /Downtown/ });
    await waitFor(() => expect(callsTo(calls, '/api/payments/upcoming')).toHaveLength(1));
    await person.click((await screen.findAllByRole('button', { name: 'New location' }))[0]!);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(plain(dialog.textContent)).toContain('The next invoice changes'));
    expect(plain(dialog.textContent)).toContain(
      'Point of Sale: the invoice issued on Thu, Apr 01, 2027 goes from EGP 2,707.50 to EGP 4,061.25.',
    );
    expect(callsTo(calls, '/api/payments/upcoming')[0]?.query.get('workspaceId')).toBe(shop.id);
  });

  it('disabling an active location asks first, with the lower invoice, and disables on confirm', async () => {
    const person = userEvent.setup();
    const { calls } = renderLocations(
      [renewing],
      [{ method: 'PATCH', path: `/api/locations/${downtownLocation.id}`, body: { data: downtownLocation } }],
    );
    await waitFor(() => expect(callsTo(calls, '/api/payments/upcoming')).toHaveLength(1));
    await rowAction(person, /Downtown/, /^Disable/);
    const confirm = await screen.findByRole('alertdialog', { name: 'Disable Downtown?' });
    expect(plain(confirm.textContent)).toContain('goes from EGP 2,707.50 to EGP 1,353.75.');
    expect(within(confirm).getByRole('button', { name: 'Keep Downtown active' })).toBeTruthy();
    expect(callsTo(calls, `/api/locations/${downtownLocation.id}`, 'PATCH')).toHaveLength(0);
    await person.click(within(confirm).getByRole('button', { name: 'Disable' }));
    await waitFor(() =>
      expect(callsTo(calls, `/api/locations/${downtownLocation.id}`, 'PATCH')[0]?.body).toEqual({
        status: 'inactive',
      }),
    );
  });

  it('enabling an inactive one says the higher invoice; deleting an active one the lower; deleting an inactive one nothing', async () => {
    const person = userEvent.setup();
    const { calls } = renderLocations([renewing]);
    await waitFor(() => expect(callsTo(calls, '/api/payments/upcoming')).toHaveLength(1));
    await rowAction(person, /Harbour/, /^Enable/);
    const enable = await screen.findByRole('alertdialog', { name: 'Enable Harbour?' });
    expect(plain(enable.textContent)).toContain('goes from EGP 2,707.50 to EGP 4,061.25.');
    await person.click(within(enable).getByRole('button', { name: 'Keep Harbour inactive' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await rowAction(person, /Downtown/, /^Delete/);
    const remove = await screen.findByRole('alertdialog', { name: 'Delete Downtown?' });
    expect(plain(remove.textContent)).toContain('goes from EGP 2,707.50 to EGP 1,353.75.');
    await person.click(within(remove).getByRole('button', { name: 'Keep Downtown' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await rowAction(person, /Harbour/, /^Delete/);
    const removeClosed = await screen.findByRole('alertdialog', { name: 'Delete Harbour?' });
    expect(plain(removeClosed.textContent)).not.toContain('The next invoice changes');
  });

  it('without a renewing subscription: no notice, and disabling happens at once as before', async () => {
    const person = userEvent.setup();
    const { calls } = renderLocations(
      [],
      [{ method: 'PATCH', path: `/api/locations/${downtownLocation.id}`, body: { data: downtownLocation } }],
    );
    await waitFor(() => expect(callsTo(calls, '/api/payments/upcoming')).toHaveLength(1));
    await rowAction(person, /Downtown/, /^Disable/);
    await waitFor(() =>
      expect(callsTo(calls, `/api/locations/${downtownLocation.id}`, 'PATCH')).toHaveLength(1),
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await person.click((await screen.findAllByRole('button', { name: 'New location' }))[0]!);
    expect(plain((await screen.findByRole('dialog')).textContent)).not.toContain('The next invoice changes');
  });

  it('says it in Arabic', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    const person = userEvent.setup();
    const { calls } = renderLocations([renewing]);
    await waitFor(() => expect(callsTo(calls, '/api/payments/upcoming')).toHaveLength(1));
    await rowAction(person, /وسط البلد/, /^تعطيل/);
    const confirm = await screen.findByRole('alertdialog', { name: 'تعطيل وسط البلد؟' });
    const text = plain(confirm.textContent);
    expect(text).toContain('تتغير الفاتورة القادمة');
    expect(text).toContain('نقاط البيع: الفاتورة التي تصدر في الخميس، ٠١ أبريل ٢٠٢٧ تصبح');
    // The amount's own abbreviation ends the sentence: no second stop after "ج.م.".
    expect(text).not.toContain('ج.م..');
    expect(within(confirm).getByRole('button', { name: 'أبقِ وسط البلد مفعّلًا' })).toBeTruthy();
  });

  it('says it in Arabic when a location is created or deleted', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    const person = userEvent.setup();
    const { calls } = renderLocations([renewing]);
    await screen.findByRole('row', { name: /وسط البلد/ });
    await waitFor(() => expect(callsTo(calls, '/api/payments/upcoming')).toHaveLength(1));

    await person.click((await screen.findAllByRole('button', { name: 'إضافة فرع' }))[0]!);
    const create = await screen.findByRole('dialog');
    await waitFor(() => expect(plain(create.textContent)).toContain('تتغير الفاتورة القادمة'));
    // A third location: 2,707.50 becomes 4,061.25, on 1 April in Cairo.
    expect(plain(create.textContent)).toContain(
      'نقاط البيع: الفاتورة التي تصدر في الخميس، ٠١ أبريل ٢٠٢٧ تصبح',
    );
    expect(plain(create.textContent)).toMatch(/تصبح[^،]*٤٬٠٦١٫٢٥[^،]*بدلًا من[^،]*٢٬٧٠٧٫٥٠/);
    await person.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await rowAction(person, /وسط البلد/, /^حذف/);
    const remove = await screen.findByRole('alertdialog', { name: 'حذف وسط البلد؟' });
    const text = plain(remove.textContent);
    expect(text).toContain('تتغير الفاتورة القادمة');
    // One location fewer: 1,353.75 instead of 2,707.50.
    expect(text).toMatch(/تصبح[^،]*١٬٣٥٣٫٧٥[^،]*بدلًا من[^،]*٢٬٧٠٧٫٥٠/);
    expect(within(remove).getByRole('button', { name: 'أبقِ على وسط البلد' })).toBeTruthy();
  });

  it('in its grace (payment due), the notice still shows: of the invoice after the one due, if that one is paid, in en and ar', async () => {
    // The subscription in grace waits for invoice no. 7; the next is issued at the end of the period it pays for.
    const graced: UpcomingPayment = { ...renewing, afterInvoice: 7 };
    const person = userEvent.setup();
    const { calls } = renderLocations([graced]);
    await screen.findByRole('row', { name: /Downtown/ });
    await waitFor(() => expect(callsTo(calls, '/api/payments/upcoming')).toHaveLength(1));
    await person.click((await screen.findAllByRole('button', { name: 'New location' }))[0]!);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(plain(dialog.textContent)).toContain('The next invoice changes'));
    expect(plain(dialog.textContent)).toContain(
      'Point of Sale: if invoice no. 7, due now, is paid, the invoice issued on Thu, Apr 01, 2027 goes from EGP 2,707.50 to EGP 4,061.25.',
    );
    await person.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    await rowAction(person, /وسط البلد/, /^تعطيل/);
    const confirm = await screen.findByRole('alertdialog', { name: 'تعطيل وسط البلد؟' });
    const text = plain(confirm.textContent);
    expect(text).toContain('تتغير الفاتورة القادمة');
    expect(text).toContain(
      'نقاط البيع: إن دُفعت الفاتورة رقم ٧ المستحقة الآن، فالفاتورة التي تصدر في الخميس، ٠١ أبريل ٢٠٢٧ تصبح',
    );
    expect(text).toMatch(/تصبح[^،]*١٬٣٥٣٫٧٥[^،]*بدلًا من[^،]*٢٬٧٠٧٫٥٠/);
  });
});
