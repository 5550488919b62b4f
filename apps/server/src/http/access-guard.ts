import { satisfies, validationCodes, type WorkspaceGrant } from '@dukkan/contract';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/client.ts';
import { permissionList } from '../db/permission-list.ts';
import { memberships, roles, sessions, users } from '../db/schema/index.ts';
import type { RouteAccess } from './access.ts';
import type { AppContext } from './context.ts';
import { AppError, forbidden, validationError } from './errors.ts';
import { findSession, sessionTokenHash } from './sessions.ts';

const workspaceIdSchema = z.uuid();
const notSignedIn = () => new AppError('UNAUTHORIZED', 'You are not signed in');

/** What one query tells about the caller: who they are and what they hold in one workspace. */
interface SessionGrant {
  userId: string;
  /** Null when the user has no active membership in the workspace. */
  grant: WorkspaceGrant | null;
}

/** The guard's lookup, prepared once per database: it runs before every workspace request. */
function prepareSessionGrant(db: Database) {
  return db
    .select({
      userId: sessions.userId,
      isAdmin: memberships.isAdmin,
      permissions: permissionList(),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(
      memberships,
      and(
        eq(memberships.userId, sessions.userId),
        eq(memberships.workspaceId, sql.placeholder('workspaceId')),
        eq(memberships.status, 'active'),
      ),
    )
    .leftJoin(roles, eq(roles.id, memberships.roleId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare('session_grant');
}
const sessionGrantStatements = new WeakMap<Database, ReturnType<typeof prepareSessionGrant>>();

/**
 * The session's user and their grant in `workspaceId`, in one query: sessions ⋈ users ⟕ the
 * active membership there ⟕ its role. Inactive and invited memberships match nothing, so a
 * member who is disabled loses access with their very next request.
 */
export async function findSessionGrant(
  db: Database,
  tokenHash: string,
  workspaceId: string,
): Promise<SessionGrant | null> {
  let statement = sessionGrantStatements.get(db);
  if (!statement) {
    statement = prepareSessionGrant(db);
    sessionGrantStatements.set(db, statement);
  }
  const [row] = await statement.execute({ tokenHash, workspaceId, now: new Date().toISOString() });
  if (!row) return null;
  if (row.isAdmin === null) return { userId: row.userId, grant: null };
  return {
    userId: row.userId,
    grant: row.isAdmin
      ? { isAdmin: true, tags: new Set() }
      : { isAdmin: false, tags: new Set(row.permissions ?? []) },
  };
}

/** The raw `workspaceId` of the query string: named for what it is until the guard has checked it. */
function unverifiedWorkspaceId(request: FastifyRequest): unknown {
  return (request.query as { workspaceId?: unknown } | undefined)?.workspaceId;
}

/**
 * Enforces each route's declared access before validation or the handler runs: a session for
 * `signedIn`, and for `permission` also an active membership of the named workspace holding the
 * required tags. Either way one query; the handler then finds `request.session` (and, on
 * permission routes, `request.workspace`) set.
 */
export function registerAccessGuard(app: FastifyInstance, context: AppContext) {
  app.decorateRequest('session', null);
  app.decorateRequest('workspace', null);
  app.addHook('preValidation', async (request) => {
    const declared = request.routeOptions.config?.access as RouteAccess | undefined;
    if (!declared || declared.kind === 'public') return;

    if (declared.kind === 'signedIn') {
      const session = await findSession(context.db, request);
      if (!session) throw notSignedIn();
      request.session = session;
      return;
    }

    const tokenHash = sessionTokenHash(request);
    if (!tokenHash) throw notSignedIn();
    const workspaceId = workspaceIdSchema.safeParse(unverifiedWorkspaceId(request));
    if (!workspaceId.success) {
      // Signed-out callers still learn only that they are signed out.
      if (!(await findSession(context.db, request))) throw notSignedIn();
      throw validationError([{ path: 'workspaceId', message: validationCodes.WORKSPACE_ID_IS_REQUIRED }]);
    }
    const found = await findSessionGrant(context.db, tokenHash, workspaceId.data);
    if (!found) throw notSignedIn();
    request.session = { tokenHash, userId: found.userId };
    if (!found.grant || !satisfies(found.grant, declared.requirement)) throw forbidden();
    request.workspace = { id: workspaceId.data, grant: found.grant };
  });
}
