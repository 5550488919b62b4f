import {
  rebaseExchangeRates,
  validationCodes,
  type WorkspaceSettings,
  workspaceQuerySchema,
  workspaceSettingsInputSchema,
} from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { exchangeRates, workspaces } from '../../db/schema/index.ts';
import { notFound, parseInput, validationError } from '../../errors.ts';
import { access } from '../../http/access.ts';
import { requestCaller } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import { foreignImageIssues, schemaImageFields } from '../../resource-engine/images.ts';

const settingsColumns = {
  id: workspaces.id,
  name: workspaces.name,
  logo: workspaces.logo,
  baseCurrency: workspaces.baseCurrency,
  timeZone: workspaces.timeZone,
};

async function loadSettings(db: Database, workspaceId: string): Promise<WorkspaceSettings> {
  const [settings] = await db.select(settingsColumns).from(workspaces).where(eq(workspaces.id, workspaceId));
  // The guard found a membership, so the workspace exists unless deleted since.
  if (!settings) throw notFound();
  return settings;
}

/**
 * A workspace's own settings (name, logo, base currency, time zone), the workspace named by
 * `?workspaceId=` like every workspace call: every active member reads them (`/settings` shows
 * them), its admins alone change them — no role's tag grants that. The current user
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
    if (Object.keys(input).length > 0) {
      await db.transaction(async (tx) => {
        const now = context.now();
        if (input.baseCurrency) await rebaseRates(tx, workspaceId, input.baseCurrency, now);
        await tx
          .update(workspaces)
          .set({ ...input, updatedAt: now })
          .where(eq(workspaces.id, workspaceId));
      });
    }
    return { data: await loadSettings(db, workspaceId) };
  });
}

/**
 * A new base currency converts the workspace's exchange rates through the new base's own rate
 * (`rebaseExchangeRates`): the new base's row becomes the old base's, the others are divided.
 * Refused under the field, with nothing changed, when there are rates but none for the new base.
 * The workspace row is locked first: a rate written meanwhile waits (its rule reads the base).
 */
async function rebaseRates(tx: Database, workspaceId: string, newBase: string, now: Date) {
  const [workspace] = await tx
    .select({ baseCurrency: workspaces.baseCurrency })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .for('update');
  if (!workspace || workspace.baseCurrency === newBase) return;
  const oldBase = workspace.baseCurrency;
  const stored = await tx
    .select({ id: exchangeRates.id, currency: exchangeRates.currency, rate: exchangeRates.rate })
    .from(exchangeRates)
    .where(eq(exchangeRates.workspaceId, workspaceId));
  const outcome = rebaseExchangeRates(stored, oldBase, newBase);
  if (!outcome.ok) {
    throw validationError([{ path: 'baseCurrency', message: validationCodes[outcome.code] }]);
  }
  const pivot = stored.find((entry) => entry.currency === newBase);
  if (!pivot) return;
  // A rate for the old base itself cannot be kept by the rule; it is replaced by the converted one.
  await tx
    .delete(exchangeRates)
    .where(and(eq(exchangeRates.workspaceId, workspaceId), eq(exchangeRates.currency, oldBase)));
  for (const entry of outcome.rates) {
    const row =
      entry.currency === oldBase ? pivot : stored.find((candidate) => candidate.currency === entry.currency);
    if (!row) continue;
    await tx
      .update(exchangeRates)
      .set({ currency: entry.currency, rate: entry.rate, updatedAt: now })
      .where(eq(exchangeRates.id, row.id));
  }
}
