import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { filesPathPrefix, pagePath, publicPages } from '@dukkan/contract';
import negotiate from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors.ts';
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

/**
 * What the web build records of the scripts a page needs after the entry (`apps/web/vite.config.ts`,
 * `preloadHints`): `queryRoot` for every page but the login page, `signedIn` for the signed-in area.
 */
interface PreloadHints {
  queryRoot: string[];
  signedIn: string[];
}

const preloadHintsFile = join('.vite', 'preload-hints.json');

/** The three first answers of the app: what each kind of page downloads beside the entry script. */
type PageDocumentKind = 'login' | 'public' | 'signedIn';

const publicPagePaths = new Set<string>(Object.values(publicPages));

/**
 * Which answer a page gets. The login page: the entry alone (its budget is 100 KB of script). A
 * public page or the sign-in portal, and any page of a visitor without a session: the server-state
 * chunk too. Any other page of a visitor with a session cookie: the signed-in area as well (a
 * stale cookie costs the download, as it did when the area was asked for while the session was
 * checked).
 */
export function pageDocumentKind(url: string, hasSessionCookie: boolean): PageDocumentKind {
  const path = pagePath(url);
  if (path === publicPages.login) return 'login';
  if (!hasSessionCookie || publicPagePaths.has(path)) return 'public';
  return 'signedIn';
}

/**
 * index.html with `<link rel="modulepreload">` for each script, as Vite writes its own, at low
 * priority: the entry script and the styles come first on a slow line (nothing runs before the
 * entry), and these follow in the time the entry takes to run.
 */
export function withModulePreloads(html: string, scripts: readonly string[]): string {
  if (scripts.length === 0) return html;
  const links = scripts
    .map((script) => `    <link rel="modulepreload" fetchpriority="low" crossorigin href="${script}">\n`)
    .join('');
  return html.replace('</head>', `${links}  </head>`);
}

interface PageDocument {
  plain: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

function pageDocument(html: string): PageDocument {
  const plain = Buffer.from(html);
  return {
    plain,
    br: brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(plain, { level: 9 }),
    etag: `"${createHash('sha256').update(plain).digest('base64url').slice(0, 27)}"`,
  };
}

/** The three documents, made once at start from the build's index.html and its preload hints. */
function pageDocuments(webDist: string): Record<PageDocumentKind, PageDocument> {
  const html = readFileSync(join(webDist, 'index.html'), 'utf8');
  const hintsPath = join(webDist, preloadHintsFile);
  const hints: PreloadHints = existsSync(hintsPath)
    ? (JSON.parse(readFileSync(hintsPath, 'utf8')) as PreloadHints)
    : { queryRoot: [], signedIn: [] };
  return {
    login: pageDocument(html),
    public: pageDocument(withModulePreloads(html, hints.queryRoot)),
    signedIn: pageDocument(withModulePreloads(html, [...hints.queryRoot, ...hints.signedIn])),
  };
}

function sendPageDocument(request: FastifyRequest, reply: FastifyReply, document: PageDocument) {
  // The answer depends on the session cookie's presence and on the accepted encodings.
  void reply
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-encoding, cookie')
    .header('etag', document.etag)
    .type('text/html; charset=utf-8');
  if (request.headers['if-none-match'] === document.etag) return reply.code(304).send();
  // The negotiator @fastify/static uses for its precompressed twins: weights and `q=0` honoured.
  const encoding = negotiate(String(request.headers['accept-encoding'] ?? ''), ['br', 'gzip', 'identity']);
  if (encoding === 'br' || encoding === 'gzip')
    return reply.header('content-encoding', encoding).send(document[encoding]);
  return reply.send(document.plain);
}

/** The build's hashed scripts, stylesheets and fonts (`/assets/index-AbC123.js`). */
const builtSubresource = /^\/assets\/[^/]+\.(js|css|woff2?)$/;

/**
 * Serves the SPA with a history fallback: any GET outside `/api/` that is not a file gets
 * index.html. Unknown API paths answer the contract's NOT_FOUND.
 */
export async function registerSpa(
  app: FastifyInstance,
  webDist: string | undefined,
  sessionCookieName: string,
) {
  const documents = webDist ? pageDocuments(webDist) : undefined;
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
    if (!documents) throw notFound();
    const kind = pageDocumentKind(path, Boolean(request.cookies[sessionCookieName]));
    return sendPageDocument(request, reply, documents[kind]);
  });
}
