import { appClientHeader } from '@dukkan/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../errors.ts';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Same origin when the Origin header names the public URL or the host the request was sent to. */
function isAllowedOrigin(request: FastifyRequest, publicUrl: string): boolean {
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

/**
 * Whether a request is the app's own fetch, not a navigation, an image, a frame or a page of
 * another origin (same-site ones included): with Fetch Metadata, `Sec-Fetch-Site: same-origin` and
 * `Sec-Fetch-Dest: empty`; without it (an older browser), the header the app's client adds.
 */
function isAppFetch(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' && request.headers['sec-fetch-dest'] === 'empty';
  return request.headers[appClientHeader.name] === appClientHeader.value;
}

/**
 * CSRF defence: state-changing API requests from another origin are refused with 403. A GET that
 * changes state (`GET auth/logout`) must also be the app's own fetch: a stored image URL, a link or
 * a sibling site's page pointing at it is refused the same way, and changes nothing.
 */
export function registerOriginCheck(app: FastifyInstance, publicUrl: string) {
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.originCheck === false) return;
    const stateChanging =
      unsafeMethods.has(request.method) || request.routeOptions.config?.stateChanging === true;
    // Every state-changing request, whatever its path: the raw URL may spell /api percent-encoded
    // (`/%61pi/auth/login`), which the router decodes and matches.
    if (!stateChanging) return;
    if (!isAllowedOrigin(request, publicUrl)) throw forbidden('Cross-origin request refused');
    if (!unsafeMethods.has(request.method) && !isAppFetch(request)) {
      throw forbidden("Refused: not the app's own request");
    }
  });
}
