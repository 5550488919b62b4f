import Stripe from 'stripe';
import type { StripeApiAddress } from '../../config.ts';
import {
  type CheckoutEvent,
  type HostedCheckoutProvider,
  type PaymentOutcome,
  UnchargeableAmountError,
  WebhookSignatureError,
} from './payment-provider.ts';
import { fromStripeAmount, toStripeAmount } from './stripe-amounts.ts';

/*
 * Stripe Checkout, the hosted checkout driver (PAYMENT_PROVIDER=stripe; decision 0044): "Pay now"
 * creates a Checkout Session for one pending invoice, whose page Stripe hosts, and Stripe's signed
 * webhook tells the outcome. The session carries the invoice's and workspace's ids as metadata;
 * the webhook's event id makes each event apply once. The SDK is pointed at another address
 * (STRIPE_API_URL) for the tests' stand-in of Stripe's API.
 */

/** The events that settle an invoice, and the outcome each reports. */
const outcomes: Record<string, PaymentOutcome | 'byPaymentStatus'> = {
  // Paid at once (a card), or completed with an asynchronous payment still to come (its own events follow).
  'checkout.session.completed': 'byPaymentStatus',
  'checkout.session.async_payment_succeeded': 'successful',
  'checkout.session.async_payment_failed': 'failed',
  // Not `checkout.session.expired`: a payer who left the page has not failed to pay. The invoice
  // stays pending and Pay now starts another checkout (a card declined on the page is retried
  // there and sends no event).
};

export interface StripeCheckoutOptions {
  secretKey: string;
  webhookSecret: string;
  api?: StripeApiAddress;
}

export function stripeCheckoutProvider(options: StripeCheckoutOptions): HostedCheckoutProvider {
  const stripe = new Stripe(options.secretKey, {
    ...(options.api ?? {}),
    // A failed create is the payer's to retry by pressing the button again.
    maxNetworkRetries: 0,
    timeout: 20_000,
  });
  return {
    name: 'stripe',
    async startCheckout(invoice) {
      const metadata = { invoiceId: invoice.invoiceId, workspaceId: invoice.workspaceId };
      // In Stripe's unit of the currency; an amount it cannot take is refused before sending.
      const charged = toStripeAmount(invoice.amount, invoice.currency);
      if (!charged.ok) throw new UnchargeableAmountError(invoice.currency, charged.step);
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: invoice.currency.toLowerCase(),
              unit_amount: charged.amount,
              product_data: { name: invoice.description },
            },
          },
        ],
        client_reference_id: invoice.invoiceId,
        metadata,
        payment_intent_data: { metadata },
        success_url: invoice.successUrl,
        cancel_url: invoice.cancelUrl,
      });
      if (!session.url)
        throw new Error(`Stripe answered checkout session ${session.id} without its page's URL`);
      return { url: session.url };
    },
    readEvent(rawBody, headers) {
      const signature = headers['stripe-signature'];
      if (typeof signature !== 'string' || signature === '')
        throw new WebhookSignatureError('The webhook has no Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError(
          `The webhook's signature does not verify: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const rule = outcomes[event.type];
      if (!rule) return null;
      const session = event.data.object as Stripe.Checkout.Session;
      const outcome: PaymentOutcome | null =
        rule !== 'byPaymentStatus'
          ? rule
          : session.payment_status === 'paid' || session.payment_status === 'no_payment_required'
            ? 'successful'
            : null;
      if (!outcome) return null;
      const currency = session.currency ? session.currency.toUpperCase() : null;
      return {
        id: event.id,
        type: event.type,
        invoiceId: session.metadata?.invoiceId ?? session.client_reference_id ?? '',
        workspaceId: session.metadata?.workspaceId ?? '',
        outcome,
        // Back in Dukkan's minor units, to be checked against the invoice's.
        amount:
          session.amount_total != null && currency ? fromStripeAmount(session.amount_total, currency) : null,
        currency,
      } satisfies CheckoutEvent;
    },
  };
}
