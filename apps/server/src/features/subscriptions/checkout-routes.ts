import {
  type CheckoutStarted,
  paymentsResource,
  pickLocalized,
  tagFor,
  validationCodes,
  workspaceQuerySchema,
} from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { asRecordedActor } from '../../db/audit-log.ts';
import { payments } from '../../db/schema/index.ts';
import { AppError, parseInput, validationError } from '../../errors.ts';
import { access } from '../../http/access.ts';
import { requestCaller } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import {
  type HostedCheckoutProvider,
  UnchargeableAmountError,
  WebhookSignatureError,
} from '../../platform/payments/payment-provider.ts';
import { isUuid } from '../../resource-engine/queries.ts';
import { payableInvoice, SubscriptionCommandError, settleInvoice } from './subscriptions.ts';

/*
 * The hosted checkout (PAYMENT_PROVIDER=stripe, decision 0044): "Pay now" starts a checkout for one
 * of the workspace's pending invoices and answers the provider's page; the provider's signed
 * webhook settles the invoice through the same settler as the operator's record, as the provider
 * (the audit log's actor), each event once. A refused webhook is logged and changes nothing.
 */

/** The webhook's path for a provider (the operator registers `PUBLIC_URL` + this at the provider). */
export const webhookPath = (provider: string) => `/api/${paymentsResource.path}/webhooks/${provider}`;

export function registerCheckoutRoutes(
  app: FastifyInstance,
  context: AppContext,
  provider: HostedCheckoutProvider,
) {
  app.post(
    `/api/${paymentsResource.path}/:invoiceId/checkout`,
    // Paying changes the invoice: the "edit" permission of payments.
    { config: { access: access.permission({ and: [tagFor(paymentsResource, 'update')] }) } },
    async (request): Promise<{ data: CheckoutStarted }> => {
      parseInput(workspaceQuerySchema, request.query);
      const { workspaceId } = requestCaller(request);
      const { invoiceId } = request.params as { invoiceId: string };
      const [asked] = isUuid(invoiceId)
        ? await context.db
            .select()
            .from(payments)
            .where(and(eq(payments.workspaceId, workspaceId), eq(payments.id, invoiceId)))
            .limit(1)
        : [];
      if (!asked) throw new AppError('NOT_FOUND', 'Invoice not found', { key: 'invoiceId' });
      if (asked.status !== 'pending') {
        throw validationError(
          [{ path: 'invoiceId', message: validationCodes.INVOICE_NOT_PENDING }],
          `Invoice ${asked.number} is ${asked.status}, not waiting for its payment`,
          409,
        );
      }
      // A request's first invoice follows the locations billed today before it is charged.
      const invoice = await payableInvoice(context.db, asked, context.now());
      if (invoice.id !== asked.id)
        request.log.info(
          { voided: asked.id, invoiceId: invoice.id },
          'request invoice reissued for its locations',
        );
      const back = `${context.config.publicUrl}/payments?workspaceId=${encodeURIComponent(workspaceId)}`;
      try {
        const started = await provider.startCheckout({
          invoiceId: invoice.id,
          workspaceId,
          number: invoice.number,
          amount: invoice.amount,
          currency: invoice.currency,
          description: `${pickLocalized(invoice.details.application, 'en')} — invoice ${invoice.number}`,
          successUrl: `${back}&checkout=paid`,
          cancelUrl: `${back}&checkout=cancelled`,
        });
        request.log.info({ invoiceId: invoice.id, provider: provider.name }, 'checkout started');
        return { data: started };
      } catch (error) {
        if (error instanceof UnchargeableAmountError) {
          request.log.warn(
            {
              invoiceId: invoice.id,
              provider: provider.name,
              amount: invoice.amount,
              currency: invoice.currency,
            },
            'checkout refused: the provider cannot charge this amount',
          );
          throw validationError(
            [
              {
                path: 'invoiceId',
                message: validationCodes.CHECKOUT_AMOUNT_UNSUPPORTED,
                params: { currency: error.currency, step: error.step },
              },
            ],
            error.message,
            422,
          );
        }
        request.log.error(
          { err: error, invoiceId: invoice.id, provider: provider.name },
          'checkout not started',
        );
        throw validationError(
          [{ path: 'invoiceId', message: validationCodes.CHECKOUT_UNAVAILABLE }],
          'The payment provider could not start a checkout',
          502,
        );
      }
    },
  );

  app.register(async (scope) => {
    // The signature is over the body's exact bytes: the route reads them unparsed.
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      webhookPath(provider.name),
      {
        // The provider's servers call it, without a session or the app's origin: its signature
        // (checked first, before anything is read) is its authentication.
        config: { access: access.public, originCheck: false },
      },
      async (request, reply) => {
        const log = request.log.child({ provider: provider.name });
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        let event: ReturnType<HostedCheckoutProvider['readEvent']>;
        try {
          event = provider.readEvent(body, request.headers);
        } catch (error) {
          if (!(error instanceof WebhookSignatureError)) throw error;
          log.warn({ reason: error.message }, 'payment webhook refused: signature');
          throw new AppError('UNAUTHORIZED', 'The webhook signature does not verify');
        }
        if (!event) return reply.send({ received: true });
        const refused = (reason: string, message: string, status = 400) => {
          log.warn({ eventId: event.id, type: event.type, invoiceId: event.invoiceId, reason }, message);
          return reply.code(status).send({ received: false, reason });
        };
        try {
          const settled = await asRecordedActor(
            {
              kind: 'provider',
              userId: null,
              requestId: request.id,
              address: request.ip ?? null,
              userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
            },
            () =>
              settleInvoice(
                {
                  db: context.db,
                  mailer: context.mailer,
                  publicUrl: context.config.publicUrl,
                  log: request.log,
                  operatorEmail: context.config.operatorEmail,
                },
                event.invoiceId,
                event.outcome,
                context.now(),
                {
                  provider: provider.name,
                  eventId: event.id,
                  eventType: event.type,
                  workspaceId: event.workspaceId,
                  amount: event.amount,
                  currency: event.currency,
                },
              ),
          );
          log.info(
            {
              eventId: event.id,
              type: event.type,
              invoiceId: event.invoiceId,
              status: settled.invoice.status,
              activated: settled.activated,
              renewed: settled.renewed,
            },
            'payment webhook applied',
          );
          return reply.send({ received: true });
        } catch (error) {
          if (!(error instanceof SubscriptionCommandError)) throw error;
          // A replay was applied before: answered as received, so the provider stops sending it.
          if (error.reason === 'replay') {
            log.info({ eventId: event.id, type: event.type }, 'payment webhook ignored: already applied');
            return reply.send({ received: true, replay: true });
          }
          // A paid invoice's later event (an expiry after the payment) changes nothing either.
          if (error.reason === 'alreadyPaid')
            return refused('alreadyPaid', 'payment webhook ignored: invoice paid', 200);
          return refused(error.reason, `payment webhook refused: ${error.message}`);
        }
      },
    );
  });
}
