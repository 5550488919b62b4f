import { z } from 'zod';
import {
  type ApplicationCardState,
  applicationCardStates,
  subscriptionStatuses,
  workspaceSubscriptionEvents,
} from '../domain/subscription-lifecycle.ts';
import { type PlanLength, planLengths } from '../domain/subscription-price.ts';
import { lazySchema } from '../lazy-schema.ts';
import { defineResource } from '../resource-kit/define-resource.ts';
import { idField, localizedNameRecordField, timestampField } from '../resource-kit/fields.ts';
import { validationCodes as codes } from '../validation-codes.ts';

/*
 * The platform's applications as a workspace sees them (the dashboard at `/`), the workspace's
 * subscriptions to them (`/subscriptions`) and its invoices (`/payments`). Applications are the
 * operator's, registered from the command line; a workspace only reads them.
 */

/** A plan length's discount in basis points (1,000 = 10 %), by plan length. */
export const planDiscountsSchema = lazySchema(() =>
  z.object(
    Object.fromEntries(planLengths.map((plan) => [plan, z.int().min(0).max(10_000)])) as Record<
      PlanLength,
      z.ZodInt
    >,
  ),
);
export type PlanDiscounts = z.infer<typeof planDiscountsSchema>;

/** An application's prices: per location per month in integer minor units of its currency. */
export const applicationPricingSchema = lazySchema(() =>
  z.object({
    currency: z.string().regex(/^[A-Z]{3}$/),
    monthlyPricePerLocation: z.int().min(0),
    discounts: planDiscountsSchema,
    /** 0: the application has no free trial. */
    trialDays: z.int().min(0).max(365),
  }),
);
export type ApplicationPricing = z.infer<typeof applicationPricingSchema>;

/** A workspace's subscription to an application, as the dashboard's card and the list show it. */
export const subscriptionSummarySchema = lazySchema(() =>
  z.object({
    id: idField,
    status: z.enum(subscriptionStatuses),
    /** Null for a free trial. */
    plan: z.enum(planLengths).nullable(),
    /** The plan the next period will use, when a change is waiting. */
    nextPlan: z.enum(planLengths).nullable(),
    /** The current period's (or trial's) start and end; null while pending or rejected. */
    startDate: timestampField.nullable(),
    endDate: timestampField.nullable(),
    /** Approved and cancelled: ends at `endDate`. */
    cancelling: z.boolean(),
    /** Approved, past `endDate`, until `graceEndsAt`: the next period's invoice is waiting. */
    graceEndsAt: timestampField.nullable(),
  }),
);
export type SubscriptionSummary = z.infer<typeof subscriptionSummarySchema>;

/**
 * An issued invoice waiting for its payment (`GET payments/due`, and on the dashboard's card): what
 * to pay, and by when before the subscription ends — the grace's end for the next period's invoice
 * of a subscription in grace; null for another (the first period's), which nothing ends.
 */
export const duePaymentSchema = lazySchema(() =>
  z.object({
    invoiceId: idField,
    number: z.int(),
    subscriptionId: idField,
    application: localizedNameRecordField,
    amount: z.int(),
    currency: z.string(),
    issuedAt: timestampField,
    dueBy: timestampField.nullable(),
    /** The end of the period it pays for: once paid, when the invoice after it is issued. */
    periodEnd: timestampField,
  }),
);
export type DuePayment = z.infer<typeof duePaymentSchema>;

/** The longest bank-transfer text the operator may set (a holder's or bank's name, a note). */
export const bankTransferTextMax = { name: 140, account: 64, notes: 1000 } as const;

/**
 * How to pay an invoice by bank transfer, as the operator set it (`npm run dukkan --
 * set-bank-transfer`): the account's holder and bank, each in the languages given (a reader sees
 * theirs, else the other), the IBAN or account number, and a note (empty: none). The transfer's
 * reference is always the invoice's number.
 */
export const bankTransferInstructionsSchema = lazySchema(() =>
  z.object({
    accountHolder: localizedNameRecordField,
    bank: localizedNameRecordField,
    account: z.string(),
    notes: localizedNameRecordField,
  }),
);
export type BankTransferInstructions = z.infer<typeof bankTransferInstructionsSchema>;

/** How invoices are paid (PAYMENT_PROVIDER): by bank transfer, or on a hosted checkout's page. */
export const paymentProviders = ['bank-transfer', 'stripe'] as const;
export type PaymentProviderName = (typeof paymentProviders)[number];

/**
 * `GET payments/instructions?workspaceId=…`: how the workspace pays its invoices. `provider` is
 * the platform's driver: `stripe` offers "Pay now" on each pending invoice (`POST
 * payments/:invoiceId/checkout`); `bank-transfer` shows the operator's account. `bankTransfer` is
 * null when the operator set no instructions (the page then says to contact the operator).
 */
export const paymentInstructionsSchema = lazySchema(() =>
  z.object({
    provider: z.enum(paymentProviders),
    bankTransfer: bankTransferInstructionsSchema.nullable(),
  }),
);
export type PaymentInstructions = z.infer<typeof paymentInstructionsSchema>;

/** `POST payments/:invoiceId/checkout?workspaceId=…`: the hosted checkout's page to send the payer to. */
export const checkoutStartedSchema = lazySchema(() => z.object({ url: z.url() }));
export type CheckoutStarted = z.infer<typeof checkoutStartedSchema>;

/** `GET applications?workspaceId=…`: every application with the workspace's state (the dashboard). */
export const dashboardApplicationSchema = lazySchema(() =>
  z.object({
    id: idField,
    clientId: z.string(),
    name: localizedNameRecordField,
    description: localizedNameRecordField,
    /** The logo's address (under `/files/`), or null. */
    logo: z.string().nullable(),
    /** Where "Open the app" leads. */
    homeUrl: z.string(),
    pricing: applicationPricingSchema,
    subscription: subscriptionSummarySchema.nullable(),
    card: z.enum(applicationCardStates),
    /** What the workspace may do from this card (the lifecycle table's allowed events). */
    allowedEvents: z.array(z.enum(workspaceSubscriptionEvents)),
    /** Whether this workspace already had its free trial of the application. */
    trialUsed: z.boolean(),
    /** The subscription's issued invoice waiting for its payment, if any (the newest). */
    duePayment: duePaymentSchema.nullable(),
  }),
);
export type DashboardApplication = z.infer<typeof dashboardApplicationSchema>;

/** `GET applications?workspaceId=…`'s `meta`: what a price is computed from, and what the cards say of the operator. */
export interface DashboardMeta {
  /** The workspace's active locations (a workspace without any pays for one). */
  activeLocations: number;
  /** Within how many hours the operator reviews a request (SUBSCRIPTION_REVIEW_HOURS); null: not said. */
  reviewHours: number | null;
  /** Days an unpaid period's subscription stays approved after its end (SUBSCRIPTION_GRACE_DAYS). */
  graceDays: number;
}

/**
 * `POST subscriptions/events?workspaceId=…`: the workspace causes one event of the lifecycle on
 * its subscription to an application. `request`, `renew` and `changePlan` name a plan.
 */
export const subscriptionEventInputSchema = lazySchema(() =>
  z
    .object({
      applicationId: z.uuid({ error: codes.REFERENCE_NOT_FOUND }),
      event: z.enum(workspaceSubscriptionEvents, { error: codes.SUBSCRIPTION_EVENT_IS_INVALID }),
      plan: z.enum(planLengths, { error: codes.PLAN_IS_REQUIRED }).optional(),
    })
    .refine(
      (input) => input.plan !== undefined || !['request', 'renew', 'changePlan'].includes(input.event),
      {
        message: codes.PLAN_IS_REQUIRED,
        path: ['plan'],
      },
    ),
);
export type SubscriptionEventInput = z.infer<typeof subscriptionEventInputSchema>;

/** A subscription as `/subscriptions` lists it. */
export const subscriptionRecordSchema = lazySchema(() =>
  z.object({
    id: idField,
    applicationId: idField,
    application: localizedNameRecordField,
    plan: z.enum(planLengths).nullable(),
    startDate: timestampField.nullable(),
    endDate: timestampField.nullable(),
    status: z.enum(subscriptionStatuses),
    createdAt: timestampField,
    updatedAt: timestampField,
  }),
);
export type SubscriptionRecord = z.infer<typeof subscriptionRecordSchema>;

/** The workspace's subscriptions: read here, changed only through the lifecycle's events. */
export const subscriptionsResource = defineResource({
  key: 'subscriptions',
  path: 'subscriptions',
  permission: 'Subscriptions',
  menu: { group: 'subscriptions', order: 10 },
  verbs: ['list', 'get', 'filters'],
  schemas: {
    record: subscriptionRecordSchema,
    create: lazySchema(() => z.object({})),
    update: lazySchema(() => z.object({})),
  },
  search: [],
  sort: ['startDate', 'endDate', 'status', 'createdAt'],
  defaultSort: '-createdAt',
  filters: [
    { field: 'status', kind: 'enum', values: subscriptionStatuses },
    { field: 'plan', kind: 'enum', values: planLengths },
  ],
  hasStatus: false,
  columns: [
    { field: 'application', kind: 'localizedText', primary: true },
    { field: 'plan', kind: 'enum' },
    { field: 'startDate', kind: 'date' },
    { field: 'endDate', kind: 'date' },
    { field: 'status', kind: 'enum' },
  ],
});

/** Spec §4's payment statuses; `upcoming` is an invoice not issued yet (it has no number). */
export const paymentStatuses = ['successful', 'failed', 'pending', 'upcoming'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];
/** The statuses an issued invoice can have. */
export const issuedPaymentStatuses = ['successful', 'failed', 'pending'] as const;
export type IssuedPaymentStatus = (typeof issuedPaymentStatuses)[number];

/** What an invoice is for: frozen when it is issued, like its amount. */
export const invoiceDetailsSchema = lazySchema(() =>
  z.object({
    application: localizedNameRecordField,
    plan: z.enum(planLengths),
    periodStart: timestampField,
    periodEnd: timestampField,
    locations: z.int(),
    monthlyPricePerLocation: z.int(),
    discountBasisPoints: z.int(),
  }),
);
export type InvoiceDetails = z.infer<typeof invoiceDetailsSchema>;

/** An invoice as `/payments` lists it. Issued invoices never change but for their status. */
export const paymentRecordSchema = lazySchema(() =>
  z.object({
    id: idField,
    /** Per workspace, from 1, without gaps. */
    number: z.int(),
    subscriptionId: idField,
    issuedAt: timestampField,
    details: invoiceDetailsSchema,
    amount: z.int(),
    currency: z.string(),
    status: z.enum(issuedPaymentStatuses),
    createdAt: timestampField,
    updatedAt: timestampField,
  }),
);
export type PaymentRecord = z.infer<typeof paymentRecordSchema>;

/** `GET payments/upcoming?workspaceId=…`: the next period's invoice of each renewing subscription. */
export const upcomingPaymentSchema = lazySchema(() =>
  z.object({
    subscriptionId: idField,
    details: invoiceDetailsSchema,
    amount: z.int(),
    currency: z.string(),
    /** When it will be issued: the current period's end. */
    dueAt: timestampField,
    status: z.literal('upcoming'),
    /**
     * For a subscription in its grace: the number of the issued invoice it waits for. This one is
     * issued (at the end of the period that one pays for) only once that one is paid.
     */
    afterInvoice: z.int().optional(),
  }),
);
export type UpcomingPayment = z.infer<typeof upcomingPaymentSchema>;

/** `GET payments/upcoming`'s `meta`: what a change of locations is priced from. */
export interface UpcomingPaymentsMeta {
  /** The workspace's active locations now (0 is billed as 1). */
  activeLocations: number;
  /** Days an issued invoice may wait for its payment before its subscription ends (SUBSCRIPTION_GRACE_DAYS). */
  graceDays: number;
}

export const paymentsResource = defineResource({
  key: 'payments',
  path: 'payments',
  permission: 'Payments',
  menu: { group: 'subscriptions', order: 20 },
  verbs: ['list', 'get', 'filters'],
  schemas: {
    record: paymentRecordSchema,
    create: lazySchema(() => z.object({})),
    update: lazySchema(() => z.object({})),
  },
  search: [],
  sort: ['number', 'issuedAt', 'amount', 'status'],
  defaultSort: '-number',
  filters: [{ field: 'status', kind: 'enum', values: issuedPaymentStatuses }],
  hasStatus: false,
  columns: [
    { field: 'number', kind: 'number', primary: true },
    { field: 'issuedAt', kind: 'date' },
    { field: 'amount', kind: 'money', currencyField: 'currency' },
    { field: 'status', kind: 'enum' },
  ],
});

export type { ApplicationCardState };
