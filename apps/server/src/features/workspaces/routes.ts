import {
  type BaseCurrencyChange,
  baseCurrencyChangeQuerySchema,
  usedSecondFactor,
  type WorkspaceSettings,
  workspaceQuerySchema,
  workspaceSettingsInputSchema,
} from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { auditedChange } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { workspaces } from '../../db/schema/index.ts';
import { notFound, parseInput, validationError } from '../../errors.ts';
import { access } from '../../http/access.ts';
import { secondFactorRequired } from '../../http/access-guard.ts';
import { requestCaller, requestUser } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import { foreignImageIssues, schemaImageFields } from '../../resource-engine/images.ts';
import { changeBaseCurrency, planBaseCurrencyChange } from './base-currency-change.ts';

const settingsColumns = {
  id: workspaces.id,
  name: workspaces.name,
  logo: workspaces.logo,
  baseCurrency: workspaces.baseCurrency,
  timeZone: workspaces.timeZone,
  auditRetentionDays: workspaces.auditRetentionDays,
  requireSecondFactor: workspaces.requireSecondFactor,
};

async function loadSettings(db: Database, workspaceId: string): Promise<WorkspaceSettings> {
  const [settings] = await db.select(settingsColumns).from(workspaces).where(eq(workspaces.id, workspaceId));
  // The guard found a membership, so the workspace exists unless deleted since.
  if (!settings) throw notFound();
  return settings;
}

/**
 * A workspace's own settings (name, logo, base currency, time zone, how many days its audit log
 * keeps a change), the workspace named by `?workspaceId=` like every workspace call: every active
 * member reads them (`/settings` shows them), its admins alone change them — no role's tag grants
 * that; each change is on the audit log as the `settings` record's. The current user
 * (`GET auth/user`) carries the name, logo, currency and zone too, refreshed by the web after a change.
 */
export function registerWorkspaceSettingsRoutes(app: FastifyInstance, context: AppContext) {
  const { db } = context;

  app.get('/api/workspaces/settings', { config: { access: access.workspaceMember } }, async (request) => {
    parseInput(workspaceQuerySchema, request.query);
    const { workspaceId } = requestCaller(request);
    return { data: await loadSettings(db, workspaceId) };
  });

  app.patch('/api/workspaces/settings', { config: { access: access.workspaceAdmin } }, async (request) => {
    parseInput(workspaceQuerySchema, request.query);
    const { workspaceId } = requestCaller(request);
    const input = parseInput(workspaceSettingsInputSchema, request.body);
    // A logo is a file uploaded to this workspace, never another's: the resources' own check.
    const imageIssues = foreignImageIssues(
      workspaceId,
      input,
      schemaImageFields(workspaceSettingsInputSchema),
    );
    if (imageIssues.length > 0) throw validationError(imageIssues);
    // Requiring a second factor of everyone is done by someone who has just used one: a stolen
    // password alone cannot turn it on (and lock the workspace's members out of a stranger's reach).
    if (input.requireSecondFactor === true && !usedSecondFactor(requestUser(request).factors)) {
      throw secondFactorRequired();
    }
    if (Object.keys(input).length > 0) {
      await db.transaction(async (tx) => {
        const now = context.now();
        const ofWorkspace = eq(workspaces.id, workspaceId);
        await auditedChange(
          tx,
          workspaces,
          { workspaceId, resource: 'settings', recordId: workspaceId, where: ofWorkspace },
          async () => {
            if (input.baseCurrency) await changeBaseCurrency(tx, workspaceId, input.baseCurrency, now);
            await tx
              .update(workspaces)
              .set({ ...input, updatedAt: now })
              .where(ofWorkspace);
          },
        );
      });
    }
    return { data: await loadSettings(db, workspaceId) };
  });

  /**
   * What saving another base currency would do, for the settings page's confirmation to name:
   * how many prices and costs convert, at which rate, or why the change would be refused. Asked
   * by the admins who may make the change; nothing is written.
   */
  app.get(
    '/api/workspaces/settings/base-currency-change',
    { config: { access: access.workspaceAdmin } },
    async (request) => {
      const { currency } = parseInput(baseCurrencyChangeQuerySchema, request.query);
      const { workspaceId } = requestCaller(request);
      const plan = await planBaseCurrencyChange(db, workspaceId, currency, false);
      if (!plan) throw notFound();
      const data: BaseCurrencyChange = {
        amounts: plan.amounts,
        rate: plan.rate,
        ...(plan.refusal ? { refusal: plan.refusal } : {}),
      };
      return { data };
    },
  );
}
