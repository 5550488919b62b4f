import {
  type GetStarted,
  type GetStartedFacts,
  getStartedDismissalPath,
  getStartedPath,
  getStartedRequirement,
  getStartedSchema,
  getStartedSteps,
  type WorkspaceGrant,
  workspaceQuerySchema,
} from '@dukkan/contract';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditedChange } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import {
  brands,
  locations,
  memberships,
  products,
  subscriptions,
  workspaces,
} from '../../db/schema/index.ts';
import { notFound, parseInput } from '../../errors.ts';
import { access } from '../../http/access.ts';
import { requestCaller } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';

/** `exists (select 1 from <table> where workspace_id = … [and …])`: one index probe each. */
const anyRow = (table: PgTable & { workspaceId: AnyPgColumn }, workspaceId: string, also?: SQL) =>
  sql<boolean>`exists (select 1 from ${table} where ${and(eq(table.workspaceId, workspaceId), also)})`;

/** The list as `grant` sees it: the workspace's facts and dismissal, read in one query. */
async function loadGetStarted(db: Database, workspaceId: string, grant: WorkspaceGrant): Promise<GetStarted> {
  const [row] = await db
    .select({
      dismissedAt: workspaces.getStartedDismissedAt,
      brand: anyRow(brands, workspaceId),
      activeBrand: anyRow(brands, workspaceId, eq(brands.status, 'active')),
      location: anyRow(locations, workspaceId),
      product: anyRow(products, workspaceId),
      secondMember: sql<boolean>`(select count(*) from (select 1 from ${memberships} where ${eq(memberships.workspaceId, workspaceId)} limit 2) as firsts) = 2`,
      subscription: anyRow(subscriptions, workspaceId),
    })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  // The guard found the caller's membership, so the workspace exists unless deleted since.
  if (!row) throw notFound();
  const { dismissedAt, ...facts } = row;
  return {
    dismissedAt: dismissedAt?.toISOString() ?? null,
    steps: getStartedSteps(facts satisfies GetStartedFacts, grant),
  };
}

const { $schema: _, ...getStartedJsonSchema } = z.toJSONSchema(getStartedSchema, { io: 'output' }) as Record<
  string,
  unknown
>;

/**
 * The dashboard's "Get started" list (`GET`), and its dismissal for the whole workspace (`PUT`
 * hides it, `DELETE` shows it again; both answer the list). Open to a member who may take one of
 * its steps; each member is answered the steps they may take.
 */
export function registerGetStartedRoutes(app: FastifyInstance, context: AppContext) {
  const { db } = context;
  const options = {
    config: { access: access.permission(getStartedRequirement) },
    schema: { response: { 200: { type: 'object', properties: { data: getStartedJsonSchema } } } },
  };

  /** A change of the dismissal, on record as a change of the workspace's settings. */
  const dismissal = (workspaceId: string, change: (tx: Database) => Promise<unknown>) =>
    db.transaction((tx) =>
      auditedChange(
        tx,
        workspaces,
        { workspaceId, resource: 'settings', recordId: workspaceId, where: eq(workspaces.id, workspaceId) },
        () => change(tx),
      ),
    );

  app.get(`/api/${getStartedPath}`, options, async (request) => {
    parseInput(workspaceQuerySchema, request.query);
    const { workspaceId, grant } = requestCaller(request);
    return { data: await loadGetStarted(db, workspaceId, grant) };
  });

  app.put(`/api/${getStartedDismissalPath}`, options, async (request) => {
    parseInput(workspaceQuerySchema, request.query);
    const { workspaceId, grant } = requestCaller(request);
    // The first dismissal's time stays: hiding an already hidden list changes nothing.
    await dismissal(workspaceId, (tx) =>
      tx
        .update(workspaces)
        .set({ getStartedDismissedAt: context.now() })
        .where(and(eq(workspaces.id, workspaceId), isNull(workspaces.getStartedDismissedAt))),
    );
    return { data: await loadGetStarted(db, workspaceId, grant) };
  });

  app.delete(`/api/${getStartedDismissalPath}`, options, async (request) => {
    parseInput(workspaceQuerySchema, request.query);
    const { workspaceId, grant } = requestCaller(request);
    await dismissal(workspaceId, (tx) =>
      tx.update(workspaces).set({ getStartedDismissedAt: null }).where(eq(workspaces.id, workspaceId)),
    );
    return { data: await loadGetStarted(db, workspaceId, grant) };
  });
}
