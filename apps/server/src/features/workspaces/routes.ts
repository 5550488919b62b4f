import {
  parseStoredFileUrl,
  validationCodes,
  type WorkspaceSettings,
  workspaceSettingsInputSchema,
} from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { workspaces } from '../../db/schema/index.ts';
import { access } from '../../http/access.ts';
import { requestCaller } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import { notFound, parseInput, validationError } from '../../http/errors.ts';

const workspaceQuerySchema = z.strictObject({ workspaceId: z.uuid() });

const settingsColumns = {
  id: workspaces.id,
  name: workspaces.name,
  logo: workspaces.logo,
  baseCurrency: workspaces.baseCurrency,
};

async function loadSettings(db: Database, workspaceId: string): Promise<WorkspaceSettings> {
  const [settings] = await db.select(settingsColumns).from(workspaces).where(eq(workspaces.id, workspaceId));
  // The guard found an admin's membership, so the workspace exists unless deleted since.
  if (!settings) throw notFound();
  return settings;
}

/**
 * A workspace's own settings (name, logo, base currency): read and changed by its admins only,
 * the workspace named by `?workspaceId=` like every workspace call. Members see the name, logo and
 * base currency in their current user (`GET auth/user`), which the web refreshes after a change.
 */
export function registerWorkspaceSettingsRoutes(app: FastifyInstance, context: AppContext) {
  const { db } = context;
  const config = { config: { access: access.workspaceAdmin } };

  app.get('/api/workspaces/settings', config, async (request) => {
    parseInput(workspaceQuerySchema, request.query);
    const { workspaceId } = requestCaller(request);
    return { data: await loadSettings(db, workspaceId) };
  });

  app.patch('/api/workspaces/settings', config, async (request) => {
    parseInput(workspaceQuerySchema, request.query);
    const { workspaceId } = requestCaller(request);
    const input = parseInput(workspaceSettingsInputSchema, request.body);
    // A logo is a file uploaded to this workspace, never another's.
    if (input.logo && parseStoredFileUrl(input.logo)?.workspaceId !== workspaceId) {
      throw validationError([{ path: 'logo', message: validationCodes.URL_IS_INVALID }]);
    }
    if (Object.keys(input).length > 0) {
      await db
        .update(workspaces)
        .set({ ...input, updatedAt: context.now() })
        .where(eq(workspaces.id, workspaceId));
    }
    return { data: await loadSettings(db, workspaceId) };
  });
}
