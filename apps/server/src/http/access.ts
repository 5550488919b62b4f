import type { PermissionRequirement } from '@dukkan/contract';
import type { FastifyInstance } from 'fastify';

/**
 * Who may call a route. Every API route declares one (default-deny): `buildApp` refuses to
 * start with an undeclared route, and a test walks the route table.
 */
export type RouteAccess =
  | { kind: 'public' }
  | { kind: 'signedIn' }
  | { kind: 'permission'; requirement: PermissionRequirement };

export const access = {
  public: { kind: 'public' } as RouteAccess,
  signedIn: { kind: 'signedIn' } as RouteAccess,
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
  }
}

export class UndeclaredAccessError extends Error {
  override name = 'UndeclaredAccessError';
}

/** Makes registering an API route without `config.access` a startup error. */
export function requireDeclaredAccess(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    const declared = (route.config as { access?: RouteAccess } | undefined)?.access;
    if (!declared) {
      throw new UndeclaredAccessError(`Route ${String(route.method)} ${route.url} declares no access`);
    }
  });
}
