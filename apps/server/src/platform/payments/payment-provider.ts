/*
 * Payments: how the platform learns that an invoice was paid. A provider (a card processor's
 * webhook, a bank transfer import) reports an outcome per invoice; the subscriptions feature
 * settles the invoice with it (its status, and the renewal a successful payment of the next
 * period's invoice brings). Today's one driver is the operator recording a payment by hand, once a
 * bank transfer to the account each pending invoice shows (`bank-transfer.ts`) has arrived.
 */

/** What a provider reports about an invoice. */
export type PaymentOutcome = 'successful' | 'failed';

/** Applies a provider's outcome to an invoice: the subscriptions feature's side of every provider. */
export type InvoiceSettler<Result> = (
  invoiceId: string,
  outcome: PaymentOutcome,
  now: Date,
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
