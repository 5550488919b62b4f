import { satisfies, usedSecondFactor, validationCodes, type WorkspaceGrant } from '@dukkan/contract';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/client.ts';
import { permissionList } from '../db/permission-list.ts';
import { memberships, roles, sessions, users, workspaces } from '../db/schema/index.ts';
import { AppError, forbidden, validationError } from '../errors.ts';
import type { RouteAccess } from './access.ts';
import type { AppContext } from './context.ts';
import { findSession, sessionCookieNameFor, sessionTokenHash, touchSession } from './sessions.ts';

const workspaceIdSchema = z.uuid();
const notSignedIn = () => new AppError('UNAUTHORIZED', 'You are not signed in');
/** A workspace that requires a second factor, to a session that has not used one: enrol or step up. */
export const secondFactorRequired = () =>
  new AppError('SECOND_FACTOR_REQUIRED', 'This workspace requires a second factor: use one to continue');

/** What one query tells about the caller: who they are and what they hold in one workspace. */
interface SessionGrant {
  userId: string;
  /** How the session authenticated (`pwd`, and a second factor's method once used). */
  factors: string[];
  lastSeenAt: Date;
  /** The workspace requires its members' sessions to have used a second factor. */
  requireSecondFactor: boolean;
  /** Null when the user has no active membership in the workspace. */
  grant: WorkspaceGrant | null;
  /** The session's sign-in, when the membership does not show it yet as its last sign-in. */
  unrecordedSignIn?: Date;
}

/** The guard's lookup, prepared once per database: it runs before every workspace request. */
function prepareSessionGrant(db: Database) {
  return db
    .select({
      userId: sessions.userId,
      isAdmin: memberships.isAdmin,
      permissions: permissionList(),
      signedInAt: sessions.createdAt,
      lastSignInAt: memberships.lastSignInAt,
      factors: sessions.factors,
      lastSeenAt: sessions.lastSeenAt,
      requireSecondFactor: workspaces.requireSecondFactor,
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
    .leftJoin(roles, and(eq(roles.id, memberships.roleId), eq(roles.workspaceId, memberships.workspaceId)))
    .leftJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
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
async function findSessionGrant(
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
  const session = {
    userId: row.userId,
    factors: row.factors,
    lastSeenAt: row.lastSeenAt,
    requireSecondFactor: row.requireSecondFactor === true,
  };
  if (row.isAdmin === null) return { ...session, grant: null };
  const recorded = row.lastSignInAt !== null && row.lastSignInAt >= row.signedInAt;
  return {
    ...session,
    grant: row.isAdmin
      ? { isAdmin: true, tags: new Set() }
      : { isAdmin: false, tags: new Set(row.permissions ?? []) },
    ...(recorded ? {} : { unrecordedSignIn: row.signedInAt }),
  };
}

/**
 * A membership's last sign-in is the start of the latest session that opened the workspace: set
 * by that session's first request there (one write per session and workspace), so a workspace
 * sees when its member came to it, not when they signed in to use another.
 */
async function recordWorkspaceSignIn(db: Database, workspaceId: string, userId: string, signedInAt: Date) {
  await db
    .update(memberships)
    .set({ lastSignInAt: signedInAt })
    .where(
      and(
        eq(memberships.workspaceId, workspaceId),
        eq(memberships.userId, userId),
        or(isNull(memberships.lastSignInAt), lt(memberships.lastSignInAt, signedInAt)),
      ),
    );
}

/** The raw `workspaceId` of the query string: named for what it is until the guard has checked it. */
function unverifiedWorkspaceId(request: FastifyRequest): unknown {
  return (request.query as { workspaceId?: unknown } | undefined)?.workspaceId;
}

/**
 * Enforces each route's declared access before validation or the handler runs: a session for
 * `signedIn`, and for `permission` also an active membership of the named workspace holding the
 * required tags (for `workspaceAdmin`, an admin's membership; for `workspaceMember`, any active
 * one). Either way one query; the handler then finds `request.session` (and, on workspace
 * routes, `request.workspace`) set.
 */
export function registerAccessGuard(app: FastifyInstance, context: AppContext) {
  app.decorateRequest('session', null);
  app.decorateRequest('workspace', null);
  const cookieName = sessionCookieNameFor(context.config.publicUrl);
  app.addHook('preValidation', async (request) => {
    const declared = request.routeOptions.config?.access as RouteAccess | undefined;
    if (!declared || declared.kind === 'public') return;

    if (declared.kind === 'signedIn') {
      const session = await findSession(context.db, request, cookieName);
      if (!session) throw notSignedIn();
      request.session = session;
      return;
    }

    const tokenHash = sessionTokenHash(request, cookieName);
    if (!tokenHash) throw notSignedIn();
    const workspaceId = workspaceIdSchema.safeParse(unverifiedWorkspaceId(request));
    if (!workspaceId.success) {
      // Signed-out callers still learn only that they are signed out.
      if (!(await findSession(context.db, request, cookieName))) throw notSignedIn();
      throw validationError([{ path: 'workspaceId', message: validationCodes.WORKSPACE_ID_IS_REQUIRED }]);
    }
    const found = await findSessionGrant(context.db, tokenHash, workspaceId.data);
    if (!found) throw notSignedIn();
    request.session = { tokenHash, userId: found.userId, factors: found.factors };
    await touchSession(context.db, tokenHash, found.lastSeenAt);
    const allowed =
      declared.kind === 'workspaceAdmin'
        ? found.grant?.isAdmin === true
        : declared.kind === 'workspaceMember'
          ? found.grant !== null
          : found.grant !== null && satisfies(found.grant, declared.requirement);
    if (!found.grant || !allowed) throw forbidden();
    // After the membership's check: only the workspace's own members learn that it requires one.
    if (found.requireSecondFactor && !usedSecondFactor(found.factors)) throw secondFactorRequired();
    request.workspace = { id: workspaceId.data, grant: found.grant };
    if (found.unrecordedSignIn) {
      await recordWorkspaceSignIn(context.db, workspaceId.data, found.userId, found.unrecordedSignIn);
    }
  });
}
