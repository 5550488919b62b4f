import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesPathPrefix } from '@dukkan/contract';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from './errors.ts';
import { documentOnlyHeaders } from './security-headers.ts';
import { isPlainStaticPath } from './static-paths.ts';

/** The built web app: `apps/web/dist`, found from this file in `src/` or in the bundle. */
export function findWebDist(configured?: string): string | undefined {
  if (configured) return existsSync(join(configured, 'index.html')) ? configured : undefined;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth++) {
    const candidate = join(dir, 'web', 'dist');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    dir = dirname(dir);
  }
  return undefined;
}

/** The build's hashed scripts, stylesheets and fonts (`/assets/index-AbC123.js`). */
const builtSubresource = /^\/assets\/[^/]+\.(js|css|woff2?)$/;

/**
 * Serves the SPA with a history fallback: any GET outside `/api/` that is not a file gets
 * index.html. Unknown API paths answer the contract's NOT_FOUND.
 */
export async function registerSpa(app: FastifyInstance, webDist: string | undefined) {
  if (webDist) {
    // A built script, stylesheet or font is never a document: no document policy on it.
    app.addHook('onSend', async (request, reply, payload) => {
      if (builtSubresource.test(request.url.split('?')[0] ?? '')) {
        for (const header of documentOnlyHeaders) reply.removeHeader(header);
      }
      return payload;
    });
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      allowedPath: isPlainStaticPath,
      // The web build writes .br and .gz twins of its text assets.
      preCompressed: true,
      // The plugin's own `public, max-age=0` would replace the header set below.
      cacheControl: false,
      setHeaders(response, path) {
        // Vite's hashed assets never change; index.html must always be revalidated.
        response.setHeader(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        // The same address answers br, gzip or plain by the request's Accept-Encoding.
        response.setHeader('vary', 'accept-encoding');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.replace(/\/{2,}/g, '/');
    if (path.startsWith('/api/') || path === '/api' || !webDist || request.method !== 'GET') throw notFound();
    if (/\.[a-z0-9]+$/i.test(path.split('?')[0] ?? '')) throw notFound();
    // Uploads are files or nothing: no page lives under their prefix.
    if (path.startsWith(filesPathPrefix)) throw notFound();
    void reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
