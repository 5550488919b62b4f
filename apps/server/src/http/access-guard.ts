import { grantIn, satisfies } from '@dukkan/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { loadCurrentUser } from '../features/auth/current-user.ts';
import { findSession } from '../features/auth/sessions.ts';
import type { RouteAccess } from './access.ts';
import type { AppContext } from './context.ts';
import { AppError, forbidden, validationError } from './errors.ts';

const workspaceIdSchema = z.uuid();

/**
 * Enforces each route's declared access before validation or the handler runs: a session for
 * `signedIn`, and for `permission` also a workspace the caller belongs to and the required tags.
 */
export function registerAccessGuard(app: FastifyInstance, context: AppContext) {
  app.decorateRequest('session', null);
  app.decorateRequest('workspace', null);
  app.addHook('preValidation', async (request) => {
    const declared = request.routeOptions.config?.access as RouteAccess | undefined;
    if (!declared || declared.kind === 'public') return;

    const session = await findSession(context.db, request);
    if (!session) throw new AppError('UNAUTHORIZED', 'You are not signed in');
    request.session = session;
    if (declared.kind === 'signedIn') return;

    const unverifiedWorkspaceId = (request.query as { workspaceId?: unknown } | undefined)?.workspaceId;
    const parsed = workspaceIdSchema.safeParse(unverifiedWorkspaceId);
    if (!parsed.success)
      throw validationError([{ path: 'workspaceId', message: 'WORKSPACE_ID_IS_REQUIRED' }]);
    const user = await loadCurrentUser(context.db, session.userId);
    if (!user) throw new AppError('UNAUTHORIZED', 'You are not signed in');
    const grant = grantIn(user, parsed.data);
    const isMember = grant.isAdmin || user.workspaces.some((entry) => entry.workspaceId === parsed.data);
    if (!isMember || !satisfies(grant, declared.requirement)) throw forbidden();
    request.workspace = { id: parsed.data, grant };
  });
}
