import {
  paymentsResource,
  subscriptionEventInputSchema,
  subscriptionsResource,
  tagFor,
  upcomingPaymentSchema,
  workspaceQuerySchema,
} from '@dukkan/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../errors.ts';
import { access } from '../../http/access.ts';
import { requestCaller } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import { loadCauserLanguage } from '../../http/mail-language.ts';
import { upcomingPayments } from './invoices.ts';
import {
  refusalAsHttpError,
  SubscriptionEventRefused,
  toSubscriptionSummary,
} from './subscription-lifecycle.ts';
import { runSubscriptionEvent } from './subscriptions.ts';

const eventSchema = subscriptionEventInputSchema.strict();
const { $schema: _, ...upcomingJsonSchema } = z.toJSONSchema(upcomingPaymentSchema, {
  io: 'output',
}) as Record<string, unknown>;

/**
 * The workspace's side of its subscriptions beyond the engine's read-only lists: the dashboard's
 * events (start a trial, subscribe, renew, change plan, cancel) and the invoices to come.
 */
export function registerSubscriptionRoutes(app: FastifyInstance, context: AppContext) {
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
          },
          {
            workspaceId,
            applicationId: input.applicationId,
            event: input.event,
            plan: input.plan,
            actor: 'workspace',
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
      config: { access: access.permission({ and: [tagFor(paymentsResource, 'list')] }) },
      schema: {
        response: {
          200: { type: 'object', properties: { data: { type: 'array', items: upcomingJsonSchema } } },
        },
      },
    },
    async (request) => {
      parseInput(workspaceQuerySchema, request.query);
      return { data: await upcomingPayments(context.db, requestCaller(request).workspaceId) };
    },
  );
}
