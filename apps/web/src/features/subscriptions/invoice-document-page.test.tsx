import type { PaymentRecord } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/ar.json';
import { bothLanguages } from '../../test/localized.ts';
import { callsTo, type MockRoute, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';
import { InvoiceDocumentPage } from './invoice-document-page.tsx';

/**
 * /payments/:id/document: an issued invoice as a document in the reader's language, with the other
 * a click away, Print (the browser's dialog) and Download (the server's file).
 */
const shop = { id: 'w-shop', name: 'Corner Bakery' };
const invoice: PaymentRecord = {
  id: '7d0c4b1e-1111-4a57-9a0e-000000000001',
  number: 1024,
  subscriptionId: '5a0c4b1e-1111-4a57-9a0e-000000000001',
  // 23:30 UTC on 31 December is already 1 January in Cairo, the workspace's time zone.
  issuedAt: '2026-12-31T23:30:00.000Z',
  details: {
    application: bothLanguages('Demo app', 'تطبيق العرض'),
    plan: 'quarterly',
    periodStart: '2026-12-31T23:30:00.000Z',
    periodEnd: '2027-03-31T22:30:00.000Z',
    locations: 3,
    monthlyPricePerLocation: 25_000,
    discountBasisPoints: 500,
  },
  amount: 213_750,
  currency: 'EGP',
  status: 'successful',
  createdAt: '2026-12-31T23:30:00.000Z',
  updatedAt: '2027-01-05T10:00:00.000Z',
};
const path = '/payments/:id/document';
const documentAt = (search = '') => `/payments/${invoice.id}/document${search}`;

/** Intl spaces a currency and a date range with no-break and thin spaces; the tests read them as plain ones. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u2009\u202f]/g, ' ');

function renderDocument(
  at: string,
  routes: MockRoute[] = [{ path: `/api/payments/${invoice.id}`, body: { data: invoice } }],
) {
  const mock = mockFetch(routes);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(<InvoiceDocumentPage />, { user: testUser([{ ...shop, grant: 'admin' }]), path, at });
  return mock;
}

async function useArabic() {
  if (!i18next.hasResourceBundle('ar', 'translation'))
    i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
  await i18next.changeLanguage('ar');
}

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18next.changeLanguage('en');
});

const theDocument = () => screen.findByRole('article');

describe('an invoice’s document', () => {
  it('in English: the workspace, the number, dates in the workspace’s time zone, the line, the total and the payment', async () => {
    const { calls } = renderDocument(documentAt());
    const article = await theDocument();
    expect(article.getAttribute('lang')).toBe('en');
    expect(article.getAttribute('dir')).toBe('ltr');
    expect(within(article).getByRole('heading', { name: 'Invoice no. 1024' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Invoice no. 1024' })).toBeTruthy();
    const text = plain(article.textContent);
    expect(text).toContain('Billed toCorner Bakery');
    expect(text).toContain('Invoice no.1024');
    expect(text).toContain('Issued onFri, Jan 01, 2027');
    expect(text).toContain('PeriodJanuary 1 – April 1, 2027');
    expect(text).toContain('StatusPaid');
    expect(text).toContain('Paid onTue, Jan 05, 2027');
    expect(text).toContain(
      'Demo app, quarterly plan3 locations × 3 monthsEGP 250.00 per location per monthEGP 2,250.00',
    );
    expect(text).toContain('Plan discount (5%)-EGP 112.50');
    expect(plain(screen.getByTestId('invoice-total').textContent)).toContain('EGP 2,137.50');
    expect(callsTo(calls, `/api/payments/${invoice.id}`)[0]?.query.get('workspaceId')).toBe(shop.id);
  });

  it('in Arabic for an Arabic reader, right to left, and in English a click away', async () => {
    await useArabic();
    const person = userEvent.setup();
    renderDocument(documentAt());
    const article = await theDocument();
    expect(article.getAttribute('lang')).toBe('ar');
    expect(article.getAttribute('dir')).toBe('rtl');
    expect(within(article).getByRole('heading', { name: 'الفاتورة رقم ١٠٢٤' })).toBeTruthy();
    const text = plain(article.textContent);
    expect(text).toContain('صادرة إلىCorner Bakery');
    expect(text).toContain('تطبيق العرض، الخطة الربع سنوية');
    expect(text).toContain('تاريخ الدفعالثلاثاء، ٠٥ يناير ٢٠٢٧');
    expect(plain(screen.getByTestId('invoice-total').textContent)).toContain('٢٬١٣٧٫٥٠ ج.م.');
    await person.click(screen.getByRole('link', { name: 'عرض بالإنجليزية' }));
    await waitFor(() => expect(screen.getByRole('article').getAttribute('lang')).toBe('en'));
    expect(screen.getByTestId('location').textContent).toBe(documentAt('?lang=en'));
    expect(
      within(screen.getByRole('article')).getByRole('heading', { name: 'Invoice no. 1024' }),
    ).toBeTruthy();
  });

  it('in the other language from the keyboard', async () => {
    const person = userEvent.setup();
    renderDocument(documentAt());
    await theDocument();
    screen.getByRole('link', { name: 'View in Arabic' }).focus();
    await person.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('article').getAttribute('dir')).toBe('rtl'));
    expect(plain(screen.getByRole('article').textContent)).toContain('الفاتورة رقم ١٠٢٤');
    // The page's own heading stays in the reader's language.
    expect(screen.getByRole('heading', { level: 1, name: 'Invoice no. 1024' })).toBeTruthy();
  });

  it('prints with the browser’s dialog, and opens it once when asked by the list’s Print', async () => {
    // happy-dom has no print dialog: the page's call of it is what is seen.
    const print = vi.fn();
    window.print = print;
    const person = userEvent.setup();
    renderDocument(documentAt('?print=1'));
    await theDocument();
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    // Asked once: the address no longer asks, so going back or reloading does not print again.
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(documentAt()));
    expect(print).toHaveBeenCalledTimes(1);
    await person.click(screen.getByRole('button', { name: 'Print invoice' }));
    expect(print).toHaveBeenCalledTimes(2);
  });

  it('downloads the server’s file in the document’s language', async () => {
    URL.createObjectURL = () => 'blob:file';
    URL.revokeObjectURL = () => undefined;
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const person = userEvent.setup();
    const { calls } = renderDocument(documentAt('?lang=ar'), [
      { path: `/api/payments/${invoice.id}`, body: { data: invoice } },
      { path: `/api/payments/${invoice.id}/document`, body: '<!DOCTYPE html>' },
    ]);
    await theDocument();
    await person.click(screen.getByRole('button', { name: 'Download invoice' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    const [call] = callsTo(calls, `/api/payments/${invoice.id}/document`);
    expect(Object.fromEntries(call!.query)).toEqual({ workspaceId: shop.id, lang: 'ar' });
  });

  it('says so when the workspace has no such invoice', async () => {
    renderDocument(documentAt(), []);
    expect(await screen.findByText('This invoice does not exist in this workspace.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to invoices' }).getAttribute('href')).toBe('/payments');
    expect(screen.queryByRole('article')).toBeNull();
  });
});
