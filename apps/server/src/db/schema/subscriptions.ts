import type { InvoiceDetails } from '@dukkan/contract';
import {
  issuedPaymentStatuses,
  type PlanDiscounts,
  planLengths,
  subscriptionStatuses,
} from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './catalogue.ts';
import { workspaces } from './identity.ts';
import { recordId, workspaceKey, workspaceReference } from './workspace-keys.ts';

/*
 * The platform's applications (registered by the operator), each workspace's subscription to
 * them and the invoices those subscriptions issue. Amounts are integer minor units of the
 * application's currency (bigint columns read as JS numbers: no amount nears 2^53).
 */

/** A client application of the platform: what the dashboard shows and the sign-in portal serves. */
export const applications = pgTable(
  'applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    nameEn: text('name_en').notNull(),
    nameAr: text('name_ar').notNull(),
    descriptionEn: text('description_en').notNull().default(''),
    descriptionAr: text('description_ar').notNull().default(''),
    /** The logo's address in file storage (under `/files/`), or null. */
    logo: text('logo'),
    homeUrl: text('home_url').notNull(),
    /** Exact-match redirect URIs (the portal never follows any other). */
    redirectUris: text('redirect_uris').array().notNull().default(sql`'{}'::text[]`),
    /** A public client (PKCE, no secret) or a confidential one (its secret stored hashed). */
    clientType: text('client_type', { enum: ['public', 'confidential'] }).notNull(),
    secretHash: text('secret_hash'),
    currency: text('currency').notNull(),
    monthlyPricePerLocation: bigint('monthly_price_per_location', { mode: 'number' }).notNull(),
    discounts: jsonb('discounts').$type<PlanDiscounts>().notNull(),
    trialDays: integer('trial_days').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('applications__client_id__unique').on(table.clientId),
    check(
      'applications_secret_matches_type',
      sql`(${table.clientType} = 'public') = (${table.secretHash} is null)`,
    ),
  ],
);

/**
 * A workspace's subscription to an application: one row per workspace and application, moved
 * through the contract's lifecycle table; its invoices keep the history.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: recordId(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'restrict' }),
    status: text('status', { enum: subscriptionStatuses }).notNull(),
    /** Null during a free trial. */
    plan: text('plan', { enum: planLengths }),
    /** A plan change waiting for the next period. */
    nextPlan: text('next_plan', { enum: planLengths }),
    /** The current period's (or the trial's) bounds; null while pending or rejected. */
    startDate: timestamp('start_date', { withTimezone: true }),
    endDate: timestamp('end_date', { withTimezone: true }),
    cancelling: boolean('cancelling').notNull().default(false),
    /** Set when a period ended unpaid: the subscription stays approved until then. */
    graceEndsAt: timestamp('grace_ends_at', { withTimezone: true }),
    /** Whether the workspace has had its free trial of the application. */
    trialUsed: boolean('trial_used').notNull().default(false),
    /** The end the "3 days left" mail was sent for: sent once per period. */
    warnedForEnd: timestamp('warned_for_end', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    workspaceKey('subscriptions', table.workspaceId, table.id),
    uniqueIndex('subscriptions__application__unique').on(table.workspaceId, table.applicationId),
    index('subscriptions_created_idx').on(table.workspaceId, table.createdAt),
    // The clock's scan: due trials, periods and graces across workspaces.
    index('subscriptions_due_idx').on(table.status, table.endDate),
  ],
);

/** The next invoice number of each workspace: taken and advanced in the issuing transaction. */
export const invoiceCounters = pgTable('invoice_counters', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  lastNumber: integer('last_number').notNull().default(0),
});

/**
 * Issued invoices (the `payments` resource): numbered per workspace from 1 without gaps, frozen
 * once issued but for their status, which a payment provider (today the operator) records.
 */
export const payments = pgTable(
  'invoices',
  {
    id: recordId(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id').notNull(),
    number: integer('number').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    details: jsonb('details').$type<InvoiceDetails>().notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: issuedPaymentStatuses }).notNull().default('pending'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    workspaceKey('invoices', table.workspaceId, table.id),
    workspaceReference(
      'invoices',
      { workspaceId: table.workspaceId, column: table.subscriptionId },
      subscriptions,
    ).onDelete('restrict'),
    uniqueIndex('invoices__number__unique').on(table.workspaceId, table.number),
    index('invoices_subscription_idx').on(table.subscriptionId),
    index('invoices_issued_idx').on(table.workspaceId, table.issuedAt),
  ],
);

/**
 * The payment provider's events that were applied (a hosted checkout's webhook): one row per
 * provider and event id, written in the transaction that settles the invoice, so a replayed or
 * retried event finds its row and changes nothing. A refused event (wrong amount, unknown
 * invoice) leaves no row: it is answered and logged, and its retry is refused again.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    /** The event's type as the provider names it (`checkout.session.completed`). */
    type: text('type').notNull(),
    invoiceId: uuid('invoice_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.eventId] })],
);
