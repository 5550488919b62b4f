import type { DuePayment } from '@dukkan/contract';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkoutNavigation } from '../../components/pay-now.tsx';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/ar.json';
import { bothLanguages } from '../../test/localized.ts';
import { callsTo, type MockRoute, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';
import { DueInvoices } from './due-invoices.tsx';

/**
 * "Pay now" on an invoice waiting for its payment when the platform takes payments through
 * Stripe's hosted checkout: the button asks for a checkout of that invoice and sends the browser
 * to the answered page, says it is opening it meanwhile, and says a refusal in the reader's
 * language; with the bank transfer the account is shown instead.
 */
const shop = { id: 'w-shop', name: 'Shop' };
const owed: DuePayment = {
  invoiceId: '7d0c4b1e-1111-4a57-9a0e-000000000012',
  number: 12,
  subscriptionId: '5a0c4b1e-1111-4a57-9a0e-000000000001',
  application: bothLanguages('Demo app', 'تطبيق Demo app'),
  amount: 213_750,
  currency: 'EGP',
  issuedAt: '2027-01-05T12:00:00.000Z',
  dueBy: null,
  periodEnd: '2027-04-05T12:00:00.000Z',
};
const checkoutPath = `/api/payments/${owed.invoiceId}/checkout`;
const pageUrl = 'https://checkout.stripe.test/c/pay/cs_test_1';

function renderDue(
  routes: MockRoute[],
  provider: 'stripe' | 'bank-transfer' = 'stripe',
  grant: 'admin' | string[] = 'admin',
) {
  const mock = mockFetch([
    ...routes,
    { path: '/api/payments/due', body: { data: [owed] } },
    { path: '/api/payments/instructions', body: { data: { provider, bankTransfer: null } } },
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(<DueInvoices />, { user: testUser([{ ...shop, grant }]), path: '/payments' });
  return mock;
}

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18next.changeLanguage('en');
});

describe('Pay now on an invoice waiting for its payment', () => {
  it('asks for a checkout of the invoice, says it is opening the page, then goes there', async () => {
    const open = vi.spyOn(checkoutNavigation, 'open').mockImplementation(() => {});
    let answer: (value: unknown) => void = () => {};
    const mock = renderDue([
      { method: 'POST', path: checkoutPath, body: () => new Promise((resolve) => (answer = resolve)) },
    ]);
    expect(await screen.findByText('Pay invoice no. 12 by card')).toBeTruthy();
    expect(screen.queryByText(/by bank transfer/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: /^Pay EGP\s2,137\.50 now$/ }));
    const opening = await screen.findByRole('button', { name: 'Opening the payment page…' });
    expect(opening.hasAttribute('disabled')).toBe(true);
    expect(callsTo(mock.calls, checkoutPath, 'POST').map((call) => call.query.get('workspaceId'))).toEqual([
      shop.id,
    ]);
    expect(open).not.toHaveBeenCalled();
    answer({ data: { url: pageUrl } });
    await waitFor(() => expect(open).toHaveBeenCalledWith(pageUrl));
  });

  it('says a refusal in the reader’s language, and may be pressed again', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderDue([
      {
        method: 'POST',
        path: checkoutPath,
        status: 409,
        body: {
          error: {
            statusCode: 409,
            code: 'VALIDATION',
            name: 'ValidationError',
            message: 'Invoice 12 is failed',
            key: 'invoiceId',
            issues: [{ path: 'invoiceId', message: 'INVOICE_NOT_PENDING' }],
          },
        },
      },
    ]);
    expect(await screen.findByText('ادفع الفاتورة رقم ١٢ بالبطاقة')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /^ادفع .* الآن$/ }));
    expect(await screen.findByText('لم تعد هذه الفاتورة بانتظار دفعها')).toBeTruthy();
    expect(screen.getByRole('button', { name: /^ادفع .* الآن$/ }).hasAttribute('disabled')).toBe(false);
  });

  it('says why an amount the provider cannot charge is refused, with its currency and step, in en and ar', async () => {
    const refusal = {
      method: 'POST' as const,
      path: checkoutPath,
      status: 422,
      body: {
        error: {
          statusCode: 422,
          code: 'VALIDATION',
          name: 'ValidationError',
          message: 'The payment provider cannot charge this amount in KWD',
          key: 'invoiceId',
          issues: [
            {
              path: 'invoiceId',
              message: 'CHECKOUT_AMOUNT_UNSUPPORTED',
              params: { currency: 'KWD', step: 0.01 },
            },
          ],
        },
      },
    };
    const open = vi.spyOn(checkoutNavigation, 'open').mockImplementation(() => {});
    renderDue([refusal]);
    await userEvent.click(await screen.findByRole('button', { name: /^Pay .* now$/ }));
    expect(
      await screen.findByText(
        "The payment provider cannot charge this amount in KWD: it takes amounts in steps of 0.01 only. Contact the platform's operator to pay this invoice another way.",
      ),
    ).toBeTruthy();
    expect(open).not.toHaveBeenCalled();
    cleanup();

    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderDue([refusal]);
    await userEvent.click(await screen.findByRole('button', { name: /^ادفع .* الآن$/ }));
    expect(await screen.findByText(/لا يقبل إلا مبالغ من مضاعفات ٠٫٠١/)).toBeTruthy();
  });

  it('a member without the edit permission of payments is told who can pay; no button', async () => {
    renderDue([], 'stripe', ['viewPayments']);
    expect(
      await screen.findByText('A member allowed to edit payments can pay invoice no. 12 by card.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Pay/ })).toBeNull();
  });

  it('with the bank transfer, no Pay now', async () => {
    renderDue([], 'bank-transfer');
    expect(await screen.findByText(/contact the platform's operator quoting invoice no. 12/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Pay/ })).toBeNull();
  });
});
