import type { PermissionRequirement } from '@dukkan/contract';
import type { FastifyInstance } from 'fastify';

/**
 * Who may call a route. Every API route declares one (default-deny): `buildApp` refuses to
 * start with an undeclared route, and a test walks the route table.
 */
export type RouteAccess =
  | { kind: 'public' }
  | { kind: 'signedIn' }
  | { kind: 'permission'; requirement: PermissionRequirement }
  /** Admins of the named workspace only (`?workspaceId=`): no role's tag grants it (its settings). */
  | { kind: 'workspaceAdmin' }
  /** Every active member of the named workspace, whatever their role: what no tag guards (reading its settings). */
  | { kind: 'workspaceMember' };

export const access = {
  public: { kind: 'public' } as RouteAccess,
  signedIn: { kind: 'signedIn' } as RouteAccess,
  workspaceAdmin: { kind: 'workspaceAdmin' } as RouteAccess,
  workspaceMember: { kind: 'workspaceMember' } as RouteAccess,
  permission: (requirement: PermissionRequirement): RouteAccess => {
    if (!requirement.and?.length && !requirement.or?.length) {
      // An empty list read as "allowed" was a real bypass elsewhere; here it is a startup error.
      throw new Error('A permission requirement needs at least one tag');
    }
    return { kind: 'permission', requirement };
  },
};

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** A GET that changes state (the spec's `GET auth/logout`): origin-checked like a POST. */
    stateChanging?: boolean;
    /**
     * `false` on the authorization server's endpoints (`/oidc/*`): they authenticate their clients,
     * defend their own forms and answer other origins by each client's registered origins.
     */
    originCheck?: boolean;
  }
}

export class UndeclaredAccessError extends Error {
  override name = 'UndeclaredAccessError';
}

/** An API route and who may call it, as registered. */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: RouteAccess;
}

const routeTables = new WeakMap<FastifyInstance, DeclaredRoute[]>();

/** Makes registering an API route without `config.access` a startup error, and records the rest. */
export function requireDeclaredAccess(app: FastifyInstance) {
  const table: DeclaredRoute[] = [];
  routeTables.set(app, table);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    const declared = (route.config as { access?: RouteAccess } | undefined)?.access;
    if (!declared) {
      throw new UndeclaredAccessError(`Route ${String(route.method)} ${route.url} declares no access`);
    }
    for (const method of [route.method].flat()) table.push({ method, url: route.url, access: declared });
  });
}

/**
 * Every API route of an app with its declared access (HEAD twins of GET routes included): what
 * the route-table, tenant-isolation and permission tests walk.
 */
export function declaredRoutes(app: FastifyInstance): readonly DeclaredRoute[] {
  return routeTables.get(app) ?? [];
}
