import {
  duePaymentSchema,
  invoiceDocumentLanguages,
  lazySchema,
  locationsResource,
  type PaymentInstructions,
  paymentInstructionsSchema,
  paymentsResource,
  subscriptionEventInputSchema,
  subscriptionsResource,
  tagFor,
  type UpcomingPaymentsMeta,
  upcomingPaymentSchema,
  workspaceQuerySchema,
} from '@dukkan/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { dueInvoices } from '../../db/due-invoices.ts';
import { notFound, parseInput } from '../../errors.ts';
import { access } from '../../http/access.ts';
import { requestCaller } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import { loadCauserLanguage, requestLanguage } from '../../http/mail-language.ts';
import { readBankTransfer } from '../../platform/payments/bank-transfer.ts';
import { stripeCheckoutProvider } from '../../platform/payments/stripe-checkout.ts';
import { registerCheckoutRoutes } from './checkout-routes.ts';
import { loadInvoiceDocument, renderInvoiceDocument } from './invoice-document.ts';
import { activeLocationCount, upcomingPayments } from './invoices.ts';
import {
  refusalAsHttpError,
  SubscriptionEventRefused,
  toSubscriptionSummary,
} from './subscription-lifecycle.ts';
import { runSubscriptionEvent } from './subscriptions.ts';

/** An invoice document's query: the workspace, and the language to write it in (else the reader's). */
export const documentQuerySchema = lazySchema(() =>
  workspaceQuerySchema.extend({ lang: z.enum(invoiceDocumentLanguages).optional() }),
);
const eventSchema = subscriptionEventInputSchema.strict();
const jsonSchemaOf = (schema: z.ZodType) => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>;
  return rest;
};

/**
 * The workspace's side of its subscriptions beyond the engine's read-only lists: the dashboard's
 * events (start a trial, subscribe, renew, change plan, cancel), the invoices to come and those
 * waiting for their payment.
 */
export function registerSubscriptionRoutes(app: FastifyInstance, context: AppContext) {
  const payments = context.config.payments;
  if (payments.provider === 'stripe') registerCheckoutRoutes(app, context, stripeCheckoutProvider(payments));

  app.post(
    `/api/${subscriptionsResource.path}/events`,
    // Every event adds to or changes the workspace's subscriptions: the "add" permission.
    { config: { access: access.permission({ and: [tagFor(subscriptionsResource, 'create')] }) } },
    async (request) => {
      const { workspaceId, userId } = requestCaller(request);
      const input = parseInput(eventSchema, request.body);
      try {
        const applied = await runSubscriptionEvent(
          {
            db: context.db,
            mailer: context.mailer,
            publicUrl: context.config.publicUrl,
            log: request.log,
            causerLanguage: await loadCauserLanguage(context.db, request, userId),
            operatorEmail: context.config.operatorEmail,
          },
          {
            workspaceId,
            applicationId: input.applicationId,
            event: input.event,
            plan: input.plan,
            actor: 'workspace',
            // With a hosted checkout a request's first invoice is issued at once, to pay now.
            invoiceOnRequest: context.config.payments.provider !== 'bank-transfer',
          },
          context.now(),
        );
        return { data: toSubscriptionSummary(applied.subscription) };
      } catch (error) {
        if (error instanceof SubscriptionEventRefused) throw refusalAsHttpError(error);
        throw error;
      }
    },
  );

  app.get(
    `/api/${paymentsResource.path}/upcoming`,
    {
      // The invoices page, and the location dialogs that say how a change moves the next invoice.
      config: {
        access: access.permission({
          or: [
            tagFor(paymentsResource, 'list'),
            ...(['create', 'update', 'delete'] as const).map((verb) => tagFor(locationsResource, verb)),
          ],
        }),
      },
      schema: {
        response: {
          200: {
            type: 'object',
            properties: {
              data: { type: 'array', items: jsonSchemaOf(upcomingPaymentSchema) },
              meta: {
                type: 'object',
                properties: { activeLocations: { type: 'integer' }, graceDays: { type: 'integer' } },
              },
            },
          },
        },
      },
    },
    async (request) => {
      parseInput(workspaceQuerySchema, request.query);
      const { workspaceId } = requestCaller(request);
      const meta: UpcomingPaymentsMeta = {
        activeLocations: await activeLocationCount(context.db, workspaceId),
        graceDays: context.config.subscriptions.graceDays,
      };
      return { data: await upcomingPayments(context.db, workspaceId), meta };
    },
  );

  app.get(
    `/api/${paymentsResource.path}/due`,
    {
      config: { access: access.permission({ and: [tagFor(paymentsResource, 'list')] }) },
      schema: {
        response: {
          200: {
            type: 'object',
            properties: { data: { type: 'array', items: jsonSchemaOf(duePaymentSchema) } },
          },
        },
      },
    },
    async (request) => {
      parseInput(workspaceQuerySchema, request.query);
      return { data: await dueInvoices(context.db, requestCaller(request).workspaceId) };
    },
  );

  app.get(
    `/api/${paymentsResource.path}/instructions`,
    {
      // How to pay what is due: the invoices page and the dashboard's cards, which show it.
      config: {
        access: access.permission({ or: [tagFor(paymentsResource, 'list'), 'viewApplications'] }),
      },
      schema: {
        response: {
          200: { type: 'object', properties: { data: jsonSchemaOf(paymentInstructionsSchema) } },
        },
      },
    },
    async (request) => {
      parseInput(workspaceQuerySchema, request.query);
      const data: PaymentInstructions = {
        provider: context.config.payments.provider,
        bankTransfer: await readBankTransfer(context.db),
      };
      return { data };
    },
  );

  app.get<{ Params: { id: string } }>(
    `/api/${paymentsResource.path}/:id/document`,
    {
      // Whoever may read the invoice (the engine's `GET payments/:id`) may keep its document.
      config: { access: access.permission({ and: [tagFor(paymentsResource, 'get')] }) },
    },
    async (request, reply) => {
      const { lang } = parseInput(documentQuerySchema, request.query);
      const found = await loadInvoiceDocument(
        context.db,
        requestCaller(request).workspaceId,
        request.params.id,
        // The language asked for, else the reader's page's.
        lang ?? requestLanguage(request),
      );
      if (!found) throw notFound('No invoice with this id');
      const fileName = `invoice-${found.number}-${found.document.language}.html`;
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(renderInvoiceDocument(found.document));
    },
  );
}
