import type { WorkspaceGrant } from '@dukkan/contract';
import type { FastifyRequest } from 'fastify';
import type { SessionUser } from './sessions.ts';

/** Who calls a permission route: the signed-in user, the checked workspace and their grant there. */
interface RequestCaller {
  userId: string;
  workspaceId: string;
  grant: WorkspaceGrant;
}

/**
 * The caller of a permission route, as the access guard checked it. Throws when the guard did
 * not run (a route without a permission declaration): a bug, never the caller's fault.
 */
export function requestCaller(request: FastifyRequest): RequestCaller {
  const { workspace, session } = request;
  if (!workspace || !session) {
    throw new Error(
      `${request.method} ${request.routeOptions.url ?? request.url} ran without the access guard`,
    );
  }
  return { userId: session.userId, workspaceId: workspace.id, grant: workspace.grant };
}

/**
 * The signed-in user of a `signedIn` (or permission) route, as the access guard found them.
 * Throws when the guard did not run: a bug, never the caller's fault.
 */
export function requestUser(request: FastifyRequest): SessionUser {
  if (!request.session) {
    throw new Error(
      `${request.method} ${request.routeOptions.url ?? request.url} ran without the access guard`,
    );
  }
  return request.session;
}
