import type {
  BankTransferInstructions,
  DuePayment,
  InvoiceDetails,
  PaymentRecord,
  UpcomingPayment,
} from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/ar.json';
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
import { PaymentsPage } from './payments-page.tsx';

/**
 * /payments: the issued invoices on the generic list of the read-only `payments` resource (money
 * in each invoice's own currency, its details, translated statuses) and the upcoming ones above.
 */
const shop = { id: 'w-shop', name: 'Shop' };
const stamp = '2027-01-01T12:00:00.000Z';
const details = (
  application: string,
  plan: InvoiceDetails['plan'],
  start: string,
  end: string,
): InvoiceDetails => ({
  application: bothLanguages(application, `تطبيق ${application}`),
  plan,
  periodStart: start,
  periodEnd: end,
  locations: 3,
  monthlyPricePerLocation: 25_000,
  discountBasisPoints: 500,
});

const paid: PaymentRecord = {
  id: '7d0c4b1e-1111-4a57-9a0e-000000000001',
  number: 1,
  subscriptionId: '5a0c4b1e-1111-4a57-9a0e-000000000001',
  issuedAt: stamp,
  details: details('Demo app', 'quarterly', '2027-01-01T12:00:00.000Z', '2027-03-31T12:00:00.000Z'),
  amount: 213_750,
  currency: 'EGP',
  status: 'successful',
  createdAt: stamp,
  updatedAt: stamp,
};
const unpaid: PaymentRecord = {
  ...paid,
  id: '7d0c4b1e-1111-4a57-9a0e-000000000002',
  number: 2,
  subscriptionId: '5a0c4b1e-1111-4a57-9a0e-000000000002',
  details: details('Kiosk', 'monthly', '2027-02-01T12:00:00.000Z', '2027-02-28T12:00:00.000Z'),
  amount: 1_200,
  currency: 'USD',
  status: 'failed',
};
const next: UpcomingPayment = {
  subscriptionId: paid.subscriptionId,
  details: details('Demo app', 'annually', '2027-03-31T12:00:00.000Z', '2028-03-31T12:00:00.000Z'),
  amount: 720_000,
  currency: 'EGP',
  dueAt: '2027-03-31T12:00:00.000Z',
  status: 'upcoming',
};

/** Intl spaces a currency and a date range with no-break and thin spaces; the tests read them as plain ones. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u2009\u202f]/g, ' ');

function renderPayments(routes: MockRoute[], grant: 'admin' | string[] = 'admin', at = '/payments') {
  const mock = mockFetch([
    { path: '/api/payments/filters', body: { data: { status: [{ value: 'successful', count: 1 }] } } },
    ...routes,
    // None waiting for payment unless a test says otherwise (the first route that matches answers).
    { path: '/api/payments/due', body: { data: [] } },
    // No bank-transfer instructions set unless a test says otherwise.
    { path: '/api/payments/instructions', body: { data: { provider: 'bank-transfer', bankTransfer: null } } },
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(<PaymentsPage />, { user: testUser([{ ...shop, grant }]), path: '/payments', at });
  return mock;
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

/** Invoice 2 of the next period, its subscription in grace until the 19th; invoice 1 the first period's. */
const owed: DuePayment[] = [
  {
    invoiceId: '7d0c4b1e-1111-4a57-9a0e-000000000012',
    number: 12,
    subscriptionId: paid.subscriptionId,
    application: bothLanguages('Demo app', 'تطبيق Demo app'),
    amount: 213_750,
    currency: 'EGP',
    issuedAt: '2027-01-05T12:00:00.000Z',
    // 23:00 in UTC is the 20th in Cairo, the workspace's time zone.
    dueBy: '2027-01-19T23:00:00.000Z',
    periodEnd: '2027-04-05T12:00:00.000Z',
  },
  {
    invoiceId: '7d0c4b1e-1111-4a57-9a0e-000000000011',
    number: 11,
    subscriptionId: unpaid.subscriptionId,
    application: bothLanguages('Kiosk', 'تطبيق Kiosk'),
    amount: 1_200,
    currency: 'USD',
    issuedAt: '2027-01-02T12:00:00.000Z',
    dueBy: null,
    periodEnd: '2027-02-02T12:00:00.000Z',
  },
];

describe('the payments page', () => {
  it("lists issued invoices: number, date, details, the amount in the invoice's currency, translated status", async () => {
    renderPayments([
      { path: '/api/payments', body: listPage([paid, unpaid]) },
      { path: '/api/payments/upcoming', body: { data: [] } },
    ]);
    const first = (await screen.findByRole('rowheader', { name: '1' })).closest('tr') as HTMLElement;
    expect(plain(first.textContent)).toBe(
      '1SuccessfulFri, Jan 01, 2027Demo app · Quarterly · Jan 1 – Mar 31, 2027EGP 2,137.50',
    );
    const second = screen.getByRole('rowheader', { name: '2' }).closest('tr') as HTMLElement;
    expect(within(second).getByText('$12.00')).toBeTruthy();
    expect(within(second).getByText('Failed')).toBeTruthy();
    expect(plain(second.textContent)).toContain('Kiosk · Monthly · Feb 1 – 28, 2027');
    for (const header of ['Invoice', 'Date', 'Details', 'Amount', 'Status'])
      expect(screen.getByRole('columnheader', { name: new RegExp(`^${header}`) })).toBeTruthy();
    // No upcoming invoice: no section for them.
    expect(screen.queryByRole('heading', { name: 'Upcoming invoices' })).toBeNull();
  });

  it('shows the upcoming invoices above the issued ones, with no number and status Upcoming', async () => {
    const { calls } = renderPayments([
      { path: '/api/payments', body: listPage([paid]) },
      { path: '/api/payments/upcoming', body: { data: [next] } },
    ]);
    const section = (await screen.findByRole('heading', { name: 'Upcoming invoices' })).closest(
      'section',
    ) as HTMLElement;
    const row = within(section).getByRole('rowheader', { name: '—' }).closest('tr') as HTMLElement;
    expect(plain(row.textContent)).toBe(
      '—UpcomingWed, Mar 31, 2027Demo app · Annually · Mar 31, 2027 – Mar 31, 2028EGP 7,200.00',
    );
    expect(callsTo(calls, '/api/payments/upcoming')[0]?.query.get('workspaceId')).toBe(shop.id);
    // The issued list is below, on its own.
    expect(await screen.findByRole('rowheader', { name: '1' })).toBeTruthy();
    expect(within(section).queryByRole('rowheader', { name: '1' })).toBeNull();
    expect(
      section.compareDocumentPosition(screen.getByRole('rowheader', { name: '1' })) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('is read-only: no New, Edit, Delete or search, and its status filter offers translated statuses', async () => {
    const person = userEvent.setup();
    const { calls } = renderPayments([
      { path: '/api/payments', body: listPage([paid]) },
      { path: '/api/payments/upcoming', body: { data: [] } },
    ]);
    const row = (await screen.findByRole('rowheader', { name: '1' })).closest('tr') as HTMLElement;
    // Its document's actions only: nothing edits or deletes an invoice.
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['View invoice: 1', 'Print invoice: 1', 'Download invoice: 1']);
    expect(screen.queryByRole('button', { name: /New payment/ })).toBeNull();
    expect(screen.queryByRole('searchbox')).toBeNull();
    await person.click(screen.getByRole('button', { name: /^Status/, expanded: false }));
    for (const status of ['Successful', 'Failed', 'Pending'])
      expect(screen.getByRole('checkbox', { name: new RegExp(status) })).toBeTruthy();
    await person.click(screen.getByRole('checkbox', { name: /Failed/ }));
    await waitFor(() => expect(callsTo(calls, '/api/payments').at(-1)?.query.get('status')).toBe('failed'));
  });

  it('with no invoice, says how one comes: billed, not added here', async () => {
    renderPayments([
      { path: '/api/payments', body: listPage([]) },
      { path: '/api/payments/upcoming', body: { data: [] } },
    ]);
    expect(await screen.findByText('No invoices yet')).toBeTruthy();
    expect(screen.getByText('An invoice is listed here when a subscription is billed.')).toBeTruthy();
    expect(screen.queryByText('Records you add will be listed here.')).toBeNull();
  });

  it('says of each invoice waiting for payment what is due, by when, how to pay and what follows', async () => {
    const { calls } = renderPayments([
      { path: '/api/payments', body: listPage([paid]) },
      { path: '/api/payments/upcoming', body: { data: [next], meta: { activeLocations: 3, graceDays: 14 } } },
      { path: '/api/payments/due', body: { data: owed } },
    ]);
    const section = (await screen.findByRole('heading', { name: 'Waiting for payment' })).closest(
      'section',
    ) as HTMLElement;
    // The operator set no bank-transfer instructions: each says to contact them.
    await within(section).findAllByText(/^To pay, contact the platform's operator/);
    const [graced, first] = within(section)
      .getAllByRole('listitem')
      .map((item) => plain(item.textContent));
    expect(graced).toBe(
      'Demo appInvoice no. 12: EGP 2,137.50, due by Wed, Jan 20, 2027.' +
        'If it is not paid by Wed, Jan 20, 2027, the subscription ends and your team can no longer open Demo app.' +
        "To pay, contact the platform's operator quoting invoice no. 12; it shows as Successful once they record your payment.",
    );
    expect(callsTo(calls, '/api/payments/instructions')[0]?.query.get('workspaceId')).toBe(shop.id);
    expect(first).toContain('Invoice no. 11: $12.00, waiting for payment.');
    expect(first).toContain('The subscription stays active meanwhile.');
    expect(callsTo(calls, '/api/payments/due')[0]?.query.get('workspaceId')).toBe(shop.id);
    // The upcoming ones say when they fall due and what an unpaid one leads to.
    expect(
      screen.getByText(
        'Each is issued when its current period ends and is due within 14 days; unpaid after that, its subscription ends.',
      ),
    ).toBeTruthy();
  });

  it('says the invoices waiting for payment in Arabic, dated in the workspace’s time zone', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderPayments([
      { path: '/api/payments', body: listPage([paid]) },
      { path: '/api/payments/upcoming', body: { data: [next], meta: { activeLocations: 3, graceDays: 3 } } },
      { path: '/api/payments/due', body: { data: owed } },
    ]);
    const section = (await screen.findByRole('heading', { name: 'بانتظار الدفع' })).closest(
      'section',
    ) as HTMLElement;
    await within(section).findAllByText(/^للدفع، تواصل مع مشغّل المنصة/);
    const graced = plain(within(section).getAllByRole('listitem')[0]!.textContent);
    expect(graced).toContain('الفاتورة رقم ١٢');
    expect(graced).toContain(
      'للدفع، تواصل مع مشغّل المنصة مع ذكر رقم الفاتورة ١٢، وتظهر «ناجحة» فور تسجيله دفعتك.',
    );
    expect(graced).toContain('آخر موعد لدفعها الأربعاء، ٢٠ يناير ٢٠٢٧.');
    expect(graced).toContain(
      'إن لم تُدفع حتى الأربعاء، ٢٠ يناير ٢٠٢٧، ينتهي الاشتراك ولن يتمكن فريقك من فتح تطبيق Demo app.',
    );
    expect(
      screen.getByText('تصدر كل فاتورة عند انتهاء فترتها الحالية، وتُدفع خلال ٣ أيام، وإلا انتهى اشتراكها.'),
    ).toBeTruthy();
  });

  it('says when the upcoming invoices could not be loaded, and offers to try again', async () => {
    renderPayments([
      { path: '/api/payments', body: listPage([paid]) },
      {
        path: '/api/payments/upcoming',
        status: 500,
        body: { error: { statusCode: 500, code: 'INTERNAL', name: 'InternalError', message: 'x' } },
      },
    ]);
    expect(await screen.findByText('The upcoming invoices could not be loaded.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

/** The operator's account: holder in both languages, the bank in English only, a note in both. */
const bankTransfer: BankTransferInstructions = {
  accountHolder: bothLanguages('Dukkan Platform LLC', 'شركة منصة دكان'),
  bank: [{ locale: 'en', value: 'National Bank of Egypt' }],
  account: 'EG38 0019 0005 0000 0000 2631 8000 2',
  notes: bothLanguages('Transfers arrive within two working days.', 'تصل التحويلات خلال يومي عمل.'),
};

function renderOwed() {
  return renderPayments([
    { path: '/api/payments', body: listPage([paid]) },
    { path: '/api/payments/upcoming', body: { data: [] } },
    { path: '/api/payments/due', body: { data: owed } },
    { path: '/api/payments/instructions', body: { data: { provider: 'bank-transfer', bankTransfer } } },
  ]);
}

/** The bank-transfer box of the invoice waiting for payment with this number. */
async function bankBox(title: string) {
  return (await screen.findByText(title)).parentElement as HTMLElement;
}

/** Each definition of the box, as `term: value`. */
const definitions = (box: HTMLElement) =>
  [...box.querySelectorAll('dt')].map(
    (term) => `${term.textContent}: ${plain(term.nextElementSibling?.textContent)}`,
  );

describe('how to pay an invoice waiting for payment: the operator’s bank transfer', () => {
  it('in English: holder, bank, account, the invoice number as the reference, the amount, the note', async () => {
    renderOwed();
    const box = await bankBox('Pay invoice no. 12 by bank transfer');
    expect(definitions(box)).toEqual([
      'Account holder: Dukkan Platform LLC',
      'Bank: National Bank of Egypt',
      'IBAN / account no.: EG38 0019 0005 0000 0000 2631 8000 2',
      'Reference: 12',
      'Amount: EGP 2,137.50',
    ]);
    expect(within(box).getByText('Transfers arrive within two working days.')).toBeTruthy();
    expect(
      within(box).getByText(
        "Quote the reference with your transfer; the invoice shows as Successful once the platform's operator records your payment.",
      ),
    ).toBeTruthy();
    // The other invoice has its own reference and amount; no line says to contact the operator.
    expect(definitions(await bankBox('Pay invoice no. 11 by bank transfer'))).toContain('Amount: $12.00');
    expect(screen.queryByText(/contact the platform's operator/)).toBeNull();
  });

  it('in Arabic: Arabic texts, the bank in English when it has no Arabic name, the account and reference left-to-right', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderOwed();
    const box = await bankBox('ادفع الفاتورة رقم ١٢ بتحويل بنكي');
    expect(definitions(box)).toEqual([
      'صاحب الحساب: شركة منصة دكان',
      'البنك: National Bank of Egypt',
      'رقم الآيبان / الحساب: EG38 0019 0005 0000 0000 2631 8000 2',
      'المرجع: 12',
      'المبلغ: ‏٢٬١٣٧٫٥٠ ج.م.‏',
    ]);
    expect(within(box).getByText('EG38 0019 0005 0000 0000 2631 8000 2').getAttribute('dir')).toBe('ltr');
    expect(within(box).getByText('12').getAttribute('dir')).toBe('ltr');
    expect(within(box).getByText('تصل التحويلات خلال يومي عمل.')).toBeTruthy();
    expect(
      within(box).getByText('اذكر المرجع مع تحويلك، وتظهر الفاتورة «ناجحة» فور تسجيل مشغّل المنصة دفعتك.'),
    ).toBeTruthy();
  });
});

describe('an invoice’s document from the list', () => {
  it('is viewed, printed and downloaded from its row, by keyboard too; an upcoming invoice has none', async () => {
    URL.createObjectURL = () => 'blob:file';
    URL.revokeObjectURL = () => undefined;
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const person = userEvent.setup();
    const { calls } = renderPayments([
      { path: '/api/payments', body: listPage([paid, unpaid]) },
      { path: '/api/payments/upcoming', body: { data: [next] } },
      { path: `/api/payments/${unpaid.id}/document`, body: '<!DOCTYPE html>' },
    ]);
    const section = (await screen.findByRole('heading', { name: 'Upcoming invoices' })).closest(
      'section',
    ) as HTMLElement;
    expect(within(section).queryAllByRole('button')).toEqual([]);

    await person.click(await screen.findByRole('button', { name: 'Download invoice: 2' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    const [download] = callsTo(calls, `/api/payments/${unpaid.id}/document`);
    expect(Object.fromEntries(download!.query)).toEqual({ workspaceId: shop.id, lang: 'en' });

    screen.getByRole('button', { name: 'Print invoice: 2' }).focus();
    await person.keyboard('{Enter}');
    expect(screen.getByTestId('location').textContent).toBe(`/payments/${unpaid.id}/document?print=1`);
  });

  it('opens the document page from View', async () => {
    const person = userEvent.setup();
    renderPayments([
      { path: '/api/payments', body: listPage([paid]) },
      { path: '/api/payments/upcoming', body: { data: [] } },
    ]);
    await person.click(await screen.findByRole('button', { name: 'View invoice: 1' }));
    expect(screen.getByTestId('location').textContent).toBe(`/payments/${paid.id}/document`);
  });

  it('names its actions in Arabic', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderPayments([
      { path: '/api/payments', body: listPage([paid]) },
      { path: '/api/payments/upcoming', body: { data: [] } },
    ]);
    for (const name of ['عرض الفاتورة: ١', 'طباعة الفاتورة: ١', 'تنزيل الفاتورة: ١'])
      expect(await screen.findByRole('button', { name })).toBeTruthy();
  });

  it('says when the file could not be downloaded', async () => {
    const person = userEvent.setup();
    renderPayments([
      { path: '/api/payments', body: listPage([paid]) },
      { path: '/api/payments/upcoming', body: { data: [] } },
    ]);
    await person.click(await screen.findByRole('button', { name: 'Download invoice: 1' }));
    expect(await screen.findByText(/^The invoice could not be downloaded: /)).toBeTruthy();
  });
});

describe('the return from the hosted checkout', () => {
  const listed: MockRoute[] = [
    { path: '/api/payments', body: listPage([unpaid]) },
    { path: '/api/payments/upcoming', body: { data: [] } },
  ];
  const address = () => screen.getByTestId('location').textContent;

  it('says a paid checkout is being confirmed, once: the parameter leaves the address', async () => {
    renderPayments(listed, 'admin', `/payments?workspaceId=${shop.id}&checkout=paid`);
    const notice = (await screen.findByText('Payment received — being confirmed')).closest(
      '[role=status]',
    ) as HTMLElement;
    expect(notice.textContent).toContain('Payment received — being confirmed');
    expect(notice.textContent).toContain('The invoice shows as Successful as soon as it does');
    await waitFor(() => expect(address()).toBe(`/payments?workspaceId=${shop.id}`));
    // Still said after the address changed, until dismissed.
    expect(screen.getByText('Payment received — being confirmed')).toBeTruthy();
    await userEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Payment received — being confirmed')).toBeNull();
  });

  it('says in Arabic that a cancelled checkout charged nothing and Pay now stays', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderPayments(listed, 'admin', `/payments?workspaceId=${shop.id}&checkout=cancelled`);
    const title = await screen.findByText('أُلغي الدفع');
    const notice = title.closest('[role=status]') as HTMLElement;
    expect(notice.textContent).toContain('لم يُخصم أي مبلغ');
    expect(notice.textContent).toContain('«ادفع الآن»');
    await waitFor(() => expect(address()).toBe(`/payments?workspaceId=${shop.id}`));
    await userEvent.click(within(notice).getByRole('button', { name: 'إخفاء' }));
    expect(screen.queryByText('أُلغي الدفع')).toBeNull();
  });

  it('while a paid one is shown, reads the invoices again until the provider has confirmed; not once dismissed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { calls } = renderPayments(listed, 'admin', `/payments?workspaceId=${shop.id}&checkout=paid`);
      await screen.findByText('Payment received — being confirmed');
      await waitFor(() => expect(callsTo(calls, '/api/payments/due')).toHaveLength(1));
      await vi.advanceTimersByTimeAsync(5_000);
      await waitFor(() => expect(callsTo(calls, '/api/payments/due')).toHaveLength(2));
      expect(callsTo(calls, '/api/payments').length).toBeGreaterThanOrEqual(2);
      await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
      await vi.advanceTimersByTimeAsync(20_000);
      expect(callsTo(calls, '/api/payments/due')).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says nothing without the parameter, or for another value of it', async () => {
    renderPayments(listed, 'admin', `/payments?workspaceId=${shop.id}&checkout=maybe`);
    await screen.findByRole('rowheader', { name: '2' });
    expect(screen.queryByText('Payment received — being confirmed')).toBeNull();
    expect(screen.queryByText('Payment cancelled')).toBeNull();
    await waitFor(() => expect(address()).toBe(`/payments?workspaceId=${shop.id}`));
  });
});
