import {
  allowedWorkspaceEvents,
  applicationCardState,
  type DashboardApplication,
  type DashboardMeta,
  situationOf,
  workspaceQuerySchema,
} from '@dukkan/contract';
import { and, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { dueInvoices } from '../../db/due-invoices.ts';
import {
  applicationNameOrder,
  heldApplications,
  installedApplications,
} from '../../db/installed-applications.ts';
import { applications, locations, subscriptions } from '../../db/schema/index.ts';
import { parseInput } from '../../errors.ts';
import { access } from '../../http/access.ts';
import { requestCaller } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import { readerLocale } from '../../resource-engine/routes.ts';

const localized = (en: string, ar: string) => [
  { locale: 'en' as const, value: en },
  { locale: 'ar' as const, value: ar },
];

/**
 * The platform's applications as a workspace sees them: the dashboard (`/`), with each one's
 * prices and the workspace's subscription, and the installed ones the Users page's dialogs offer.
 */
export function registerApplicationRoutes(app: FastifyInstance, context: AppContext) {
  const { db } = context;

  app.get(
    '/api/applications',
    { config: { access: access.permission({ and: ['viewApplications'] }) } },
    async (request) => {
      parseInput(workspaceQuerySchema, request.query);
      const { workspaceId } = requestCaller(request);
      const [rows, [active], due] = await Promise.all([
        db
          .select({
            application: applications,
            subscription: {
              id: subscriptions.id,
              status: subscriptions.status,
              plan: subscriptions.plan,
              nextPlan: subscriptions.nextPlan,
              startDate: subscriptions.startDate,
              endDate: subscriptions.endDate,
              cancelling: subscriptions.cancelling,
              graceEndsAt: subscriptions.graceEndsAt,
              trialUsed: subscriptions.trialUsed,
            },
          })
          .from(applications)
          // Only this workspace's subscription joins: another's is never read.
          .leftJoin(
            subscriptions,
            and(eq(subscriptions.applicationId, applications.id), eq(subscriptions.workspaceId, workspaceId)),
          )
          .orderBy(...applicationNameOrder(readerLocale(request))),
        db
          .select({ count: count() })
          .from(locations)
          .where(and(eq(locations.workspaceId, workspaceId), eq(locations.status, 'active'))),
        dueInvoices(db, workspaceId),
      ]);

      const data = rows.map(({ application, subscription }): DashboardApplication => {
        const status = subscription?.status ?? null;
        const trialUsed = subscription?.trialUsed ?? false;
        const situation = situationOf(status, {
          cancelling: subscription?.cancelling ?? false,
          inGrace: (subscription?.graceEndsAt ?? null) !== null,
        });
        // The lifecycle table allows a trial to whoever never subscribed; the application and
        // the workspace's history may still rule it out.
        const noTrial = application.trialDays === 0 || trialUsed;
        return {
          id: application.id,
          clientId: application.clientId,
          name: localized(application.nameEn, application.nameAr),
          description: localized(application.descriptionEn, application.descriptionAr),
          logo: application.logo,
          homeUrl: application.homeUrl,
          pricing: {
            currency: application.currency,
            monthlyPricePerLocation: application.monthlyPricePerLocation,
            discounts: application.discounts,
            trialDays: application.trialDays,
          },
          subscription: subscription && {
            id: subscription.id,
            status: subscription.status,
            plan: subscription.plan,
            nextPlan: subscription.nextPlan,
            startDate: subscription.startDate?.toISOString() ?? null,
            endDate: subscription.endDate?.toISOString() ?? null,
            cancelling: subscription.cancelling,
            graceEndsAt: subscription.graceEndsAt?.toISOString() ?? null,
          },
          card: applicationCardState(status),
          allowedEvents: allowedWorkspaceEvents(situation).filter(
            (event) => !(event === 'startTrial' && noTrial),
          ),
          trialUsed,
          // Newest first: the one a subscription in grace waits for before an older unpaid one.
          duePayment:
            (subscription && due.find((payment) => payment.subscriptionId === subscription.id)) ?? null,
        };
      });
      const meta: DashboardMeta = {
        activeLocations: active?.count ?? 0,
        reviewHours: context.config.subscriptions.reviewHours,
        graceDays: context.config.subscriptions.graceDays,
      };
      return { data, meta };
    },
  );

  // The Users page's invite and edit dialogs choose a member's applications among these:
  // `grantable` ones only, those the caller may give (an admin any, anyone else those they hold).
  app.get(
    '/api/applications/installed',
    { config: { access: access.permission({ or: ['viewUsers', 'addUsers', 'editUsers'] }) } },
    async (request) => {
      parseInput(workspaceQuerySchema, request.query);
      const { workspaceId, grant, userId } = requestCaller(request);
      const [rows, held] = await Promise.all([
        installedApplications(db, workspaceId, readerLocale(request)),
        grant.isAdmin ? null : heldApplications(db, workspaceId, userId),
      ]);
      return {
        data: rows.map((row) => ({
          clientId: row.clientId,
          name: localized(row.nameEn, row.nameAr),
          grantable: held === null || held.includes(row.clientId),
        })),
      };
    },
  );
}
