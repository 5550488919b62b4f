import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** What the browser of each captcha driver loads (Google's documented sources for reCAPTCHA). */
const captchaSources = {
  altcha: { script: [], frame: [] },
  recaptcha: {
    script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
    frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
  },
} satisfies Record<string, { script: string[]; frame: string[] }>;

interface ResponsePolicy {
  /** The app's public URL: HSTS and `upgrade-insecure-requests` only when it is https. */
  publicUrl: string;
  captchaProvider: keyof typeof captchaSources;
  /** Where stored files are served from (`fileStorePublicUrl`): its origin joins `img-src`. */
  fileStoreUrl: URL;
  /** The built web app, whose index.html inline scripts are allowed by their hashes. */
  webDist?: string;
}

/** `'sha256-…'` of each inline `<script>` of a page: the theme start-up script of index.html. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    const digest = createHash('sha256')
      .update(match[1] ?? '')
      .digest('base64');
    hashes.push(`'sha256-${digest}'`);
  }
  return hashes;
}

/** The page policy: only the app's own files, the configured drivers' origins, no inline script. */
export function contentSecurityDirectives(policy: ResponsePolicy, scriptHashes: string[]) {
  const https = policy.publicUrl.startsWith('https://');
  const appOrigin = new URL(policy.publicUrl).origin;
  const fileOrigin = policy.fileStoreUrl.origin === appOrigin ? [] : [policy.fileStoreUrl.origin];
  const captcha = captchaSources[policy.captchaProvider];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...scriptHashes, ...captcha.script],
    'script-src-attr': ["'none'"],
    // React and Radix set style attributes and a scroll-lock <style>: styles cannot run code.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", ...fileOrigin],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'frame-src': captcha.frame.length > 0 ? captcha.frame : ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/**
 * What only a document (a page, an SVG opened by itself) acts on: its content policy, framing,
 * opener and agent-cluster isolation, and the legacy headers of old browsers. A script, stylesheet
 * or font served with its own content type and `nosniff` is never rendered as a document, so these
 * are left off the built scripts, styles and fonts (`spa.ts`) — ~0.5 KB on each of the dozens of
 * files a first visit downloads. `nosniff`, `Cross-Origin-Resource-Policy` and `Referrer-Policy`
 * (which governs a module script's own imports) stay on every response.
 */
export const documentOnlyHeaders = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;

/**
 * The one layer every response passes through: security headers (helmet), caching and
 * compression. Responses are `no-store` unless the code serving them says otherwise (hashed
 * assets and uploads: one year, immutable; index.html: revalidated). API JSON of 1 KB or more is
 * compressed on the fly; static files are compressed once, at build time (`.br`/`.gz` twins).
 * Registered before any route: the compression applies to routes declared after it.
 */
export async function registerSecurityHeaders(app: FastifyInstance, policy: ResponsePolicy) {
  const https = policy.publicUrl.startsWith('https://');
  const indexHtml = policy.webDist ? readFileSync(join(policy.webDist, 'index.html'), 'utf8') : '';

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: contentSecurityDirectives(policy, inlineScriptHashes(indexHtml)),
    },
    frameguard: { action: 'deny' },
    // Reset and invitation links carry their token in the address: no page sends a Referer.
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });

  app.addHook('onRequest', async (_request, reply) => {
    // On the raw response, so that @fastify/static's `setHeaders` (also raw) replaces it for
    // files, and `reply.header()` in a handler (index.html's `no-cache`) wins over it.
    reply.raw.setHeader('cache-control', 'no-store');
  });

  // Static routes serve precompressed twins or binary images: they are never compressed here.
  app.addHook('onRoute', (route) => {
    if (!/^\/api(\/|$)/.test(route.url)) route.compress ??= false;
  });
  await app.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    // Request bodies are read as sent: no decompression (and no decompression bomb) before the body limit.
    globalDecompression: false,
  });
}
