/*
 * Payments: how the platform learns that an invoice was paid. A provider (a card processor's
 * webhook, a bank transfer import) reports an outcome per invoice; the subscriptions feature
 * settles the invoice with it (its status, the activation of a requested subscription its first
 * invoice's payment brings, the renewal the next period's brings). Two drivers, chosen by
 * PAYMENT_PROVIDER: the operator recording a payment by hand once a bank transfer to the account
 * each pending invoice shows has arrived (`bank-transfer.ts`, the default), and a hosted checkout
 * whose signed webhook reports the outcome (`stripe-checkout.ts`; decision 0044).
 */

/** What a provider reports about an invoice. */
export type PaymentOutcome = 'successful' | 'failed';

/**
 * What a provider's own word says about the payment, checked against the invoice before it is
 * settled: its event (applied once: a replay finds it recorded), and the workspace, amount (minor
 * units) and currency it was paid for.
 */
export interface ReportedPayment {
  provider: string;
  eventId: string;
  eventType: string;
  workspaceId: string;
  amount: number | null;
  currency: string | null;
}

/** Applies a provider's outcome to an invoice: the subscriptions feature's side of every provider. */
export type InvoiceSettler<Result> = (
  invoiceId: string,
  outcome: PaymentOutcome,
  now: Date,
  reported?: ReportedPayment,
) => Promise<Result>;

export interface PaymentProvider<Result> {
  /** Names the driver in logs and answers (`manual`). */
  readonly name: string;
  /** Records the outcome of a payment of an invoice, as the provider learned it. */
  recordPayment(invoiceId: string, outcome: PaymentOutcome, now: Date): Promise<Result>;
}

/**
 * The operator's manual record (`npm run dukkan -- …`): the outcome is what the operator says, so
 * it is settled as given. A provider with its own word (a signed webhook) would check it first.
 */
export function manualPaymentProvider<Result>(settle: InvoiceSettler<Result>): PaymentProvider<Result> {
  return {
    name: 'manual',
    recordPayment: (invoiceId, outcome, now) => settle(invoiceId, outcome, now),
  };
}

/** An invoice as a hosted checkout charges it. */
export interface CheckoutInvoice {
  invoiceId: string;
  workspaceId: string;
  number: number;
  /** Minor units of `currency` (ISO 4217, upper case as stored). */
  amount: number;
  currency: string;
  /** What the checkout page names the purchase (the application and the invoice's number). */
  description: string;
  /** Where the provider sends the payer back after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
}

/** A webhook's event as a hosted checkout driver read it, its signature verified. */
export interface CheckoutEvent {
  id: string;
  type: string;
  invoiceId: string;
  workspaceId: string;
  outcome: PaymentOutcome;
  amount: number | null;
  currency: string | null;
}

/** A webhook the driver refuses before anything is read: a missing or wrong signature. */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/**
 * An invoice whose amount the provider cannot charge exactly (a three-decimal currency's amount not
 * ending in 0 for Stripe), refused before anything is sent. `step` is the smallest amount the
 * provider charges in steps of, in major units of `currency`.
 */
export class UnchargeableAmountError extends Error {
  override name = 'UnchargeableAmountError';
  constructor(
    readonly currency: string,
    readonly step: number,
  ) {
    super(`The payment provider cannot charge this amount in ${currency}: it takes steps of ${step}`);
  }
}

/**
 * A provider whose payer pays on the provider's own page: the driver starts a checkout for an
 * invoice (the page's address) and reads the provider's signed webhook. Stripe Checkout is today's;
 * a Paymob driver would implement the same two (an intention and its checkout URL; the HMAC of the
 * transaction callback).
 */
export interface HostedCheckoutProvider {
  readonly name: string;
  /** Throws `UnchargeableAmountError`, before any request, for an amount it cannot charge. */
  startCheckout(invoice: CheckoutInvoice): Promise<{ url: string }>;
  /**
   * Verifies the signature of a webhook's raw body and reads it: the event's outcome for an
   * invoice, or null for an event that settles nothing (another type, a checkout still waiting
   * for an asynchronous payment). Throws `WebhookSignatureError` for a wrong signature.
   */
  readEvent(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): CheckoutEvent | null;
}
