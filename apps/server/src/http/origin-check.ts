import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './errors.ts';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Same origin when the Origin header names the public URL or the host the request was sent to. */
export function isAllowedOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) {
    // No Origin: not a browser form or fetch from another site (browsers send Origin on those),
    // unless Fetch Metadata says the request crossed sites.
    return request.headers['sec-fetch-site'] !== 'cross-site';
  }
  if (origin === new URL(publicUrl).origin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/** CSRF defence: state-changing API requests from another origin are refused with 403. */
export function registerOriginCheck(app: FastifyInstance, publicUrl: string) {
  app.addHook('onRequest', async (request) => {
    const stateChanging =
      unsafeMethods.has(request.method) || request.routeOptions.config?.stateChanging === true;
    // Every state-changing request, whatever its path: the raw URL may spell /api percent-encoded
    // (`/%61pi/auth/login`), which the router decodes and matches.
    if (!stateChanging) return;
    if (!isAllowedOrigin(request, publicUrl)) throw forbidden('Cross-origin request refused');
  });
}
