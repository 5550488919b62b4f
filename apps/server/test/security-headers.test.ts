import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityDirectives, inlineScriptHashes } from '../src/http/security-headers.ts';
import { sessionCookieName } from '../src/http/sessions.ts';
import { pageDocumentKind, withModulePreloads } from '../src/http/spa.ts';
import {
  api,
  appFetchHeaders,
  createUser,
  dataOf,
  multipart,
  sessionCookieFrom,
  tinyPng,
} from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace } from './helpers/workspaces.ts';

/**
 * The response layer (issue 10): security headers on every page and API answer, caching by kind
 * (hashed assets and uploads for a year, index.html revalidated, everything else `no-store`) and
 * compression (build-time twins for static files, on the fly for API JSON of 1 KB or more).
 * The web build is stood in for by a small folder of the same shape, so these tests need no build.
 */
const themeScript =
  "\n      try { if (localStorage.getItem('theme') === 'dark') document.documentElement.classList.add('dark'); } catch (_) {}\n    ";
const indexHtml = `<!doctype html><html><head><script>${themeScript}</script><script type="module" crossorigin src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>`;
const assetJs = `export const words = ${JSON.stringify('dukkan '.repeat(400))};\n`;
const tinyJs = 'export const tiny = 1;\n';
/** What the web build records of the scripts after the entry (`apps/web/vite.config.ts`). */
const preloadHints = {
  queryRoot: ['/assets/query-root-AbC123.js'],
  signedIn: ['/assets/signed-in-app-AbC123.js', '/assets/avatar-AbC123.js'],
};

let webDist: string;
let t: TestApp;
beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'dukkan-web-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), indexHtml);
  writeFileSync(join(webDist, 'assets', 'index-AbC123.js'), assetJs);
  writeFileSync(join(webDist, 'assets', 'index-AbC123.js.br'), brotliCompressSync(assetJs));
  writeFileSync(join(webDist, 'assets', 'index-AbC123.js.gz'), gzipSync(assetJs));
  writeFileSync(join(webDist, 'assets', 'tiny-AbC123.js'), tinyJs);
  writeFileSync(join(webDist, 'assets', 'mark-AbC123.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  mkdirSync(join(webDist, '.vite'));
  writeFileSync(join(webDist, '.vite', 'preload-hints.json'), JSON.stringify(preloadHints));
  t = await createTestApp({ env: { WEB_DIST_DIR: webDist } });
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});

/** The policy as a map of directive → sources. */
function csp(header: unknown): Map<string, string[]> {
  expect(typeof header, 'content-security-policy').toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('pages', () => {
  it('/login: a policy with no inline script but the hashed theme script, and no framing', async () => {
    const response = await t.app.inject({ url: '/login' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(indexHtml);
    const policy = csp(response.headers['content-security-policy']);
    expect(policy.get('script-src')).toEqual(["'self'", sha256(themeScript)]);
    expect(policy.get('script-src-attr')).toEqual(["'none'"]);
    expect(String(response.headers['content-security-policy'])).not.toMatch(/unsafe-eval/);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.get('frame-src')).toEqual(["'none'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    // On http the browser must not be told to upgrade (a LAN install has no TLS).
    expect(policy.has('upgrade-insecure-requests')).toBe(false);

    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers.vary).toBe('accept-encoding, cookie');
  });

  it('pages whose address carries a token send no Referer', async () => {
    for (const url of ['/reset-password?token=abc', '/set-password?token=abc', '/accept-invite?token=abc']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it("the theme start-up script of the web app's index.html is the one inline script, and is hashed", () => {
    const source = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
    const hashes = inlineScriptHashes(source);
    expect(hashes).toHaveLength(1);
    const body = /<script>([\s\S]*?)<\/script>/.exec(source)?.[1] ?? '';
    expect(body).toContain("localStorage.getItem('theme')");
    expect(hashes[0]).toBe(sha256(body));
  });
});

describe('the first answer of a page: what it downloads beside the entry script', () => {
  const session = { cookie: `${sessionCookieName}=any-token` };
  const preloads = (html: string) =>
    [...html.matchAll(/<link rel="modulepreload" fetchpriority="low" crossorigin href="([^"]+)">/g)].map(
      (match) => match[1],
    );

  it('the login page: the entry alone, with a session cookie or without', async () => {
    for (const headers of [{}, session]) {
      const response = await t.app.inject({ url: '/login?lng=ar', headers });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(indexHtml);
    }
  });

  it('a visitor without a session, and a public page or the portal: the server-state chunk', async () => {
    for (const [url, headers] of [
      ['/brands', {}],
      ['/', {}],
      ['/forgot-password', session],
      ['/accept-invite?token=abc', session],
      ['/authenticate?error=access_denied', session],
    ] as const) {
      const response = await t.app.inject({ url, headers });
      expect(response.statusCode, url).toBe(200);
      expect(preloads(response.body), url).toEqual(preloadHints.queryRoot);
    }
  });

  it('a signed-in page with a session cookie: the signed-in area too', async () => {
    for (const url of ['/brands', '/', '/brands/', '/products/new?x=1']) {
      const response = await t.app.inject({ url, headers: session });
      expect(response.statusCode, url).toBe(200);
      expect(preloads(response.body), url).toEqual([...preloadHints.queryRoot, ...preloadHints.signedIn]);
      // The theme script is unchanged: its hash in the policy still lets it run.
      expect(response.body).toContain(`<script>${themeScript}</script>`);
      expect(csp(response.headers['content-security-policy']).get('script-src')).toContain(
        sha256(themeScript),
      );
    }
  });

  it('compressed as the browser accepts, and answered 304 when the browser has it', async () => {
    const plain = await t.app.inject({ url: '/brands', headers: session });
    const br = await t.app.inject({ url: '/brands', headers: { ...session, 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await t.app.inject({ url: '/brands', headers: { ...session, 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    // An encoding the browser refuses (q=0) is not sent, whatever its name.
    const refused = await t.app.inject({
      url: '/brands',
      headers: { ...session, 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(refused.headers['content-encoding']).toBe('gzip');

    const etag = String(plain.headers.etag);
    const again = await t.app.inject({ url: '/brands', headers: { ...session, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // Another kind of page is another document: the browser's copy of the first is not it.
    const signedOut = await t.app.inject({ url: '/brands', headers: { 'if-none-match': etag } });
    expect(signedOut.statusCode).toBe(200);
    expect(signedOut.headers.etag).not.toBe(etag);
  });
});

describe('which first answer a page gets', () => {
  it('the login page by its path, however written; public pages by theirs; the rest by the session cookie', () => {
    for (const url of ['/login', '/login/', '//login', '/login?lng=ar', '/login#top'])
      expect(pageDocumentKind(url, true), url).toBe('login');
    for (const url of ['/forgot-password', '/authenticate', '/404/', '/logout?x=1'])
      expect(pageDocumentKind(url, true), url).toBe('public');
    for (const url of ['/', '/brands', '/login-help', '/products/123'])
      expect([pageDocumentKind(url, true), pageDocumentKind(url, false)], url).toEqual([
        'signedIn',
        'public',
      ]);
  });

  it('preload links go into the head, as Vite writes its own; none leaves the page as it is', () => {
    const html = '<html><head><title>x</title></head><body></body></html>';
    expect(withModulePreloads(html, [])).toBe(html);
    expect(withModulePreloads(html, ['/assets/a.js', '/assets/b.js'])).toBe(
      '<html><head><title>x</title>    <link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/a.js">\n    <link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/b.js">\n  </head><body></body></html>',
    );
  });
});

describe('policy by driver', () => {
  it('ALTCHA: no third-party script or frame; the local file store: images from the app only', async () => {
    const policy = csp((await t.app.inject({ url: '/login' })).headers['content-security-policy']);
    expect(policy.get('img-src')).toEqual(["'self'"]);
    expect(String([...policy.values()])).not.toMatch(/google|gstatic|https?:/);
  });

  it("reCAPTCHA: Google's script and frame origins join the policy", async () => {
    const recaptcha = await createTestApp({
      database: t.database,
      env: { WEB_DIST_DIR: webDist, RECAPTCHA_SITE_KEY: 'site', RECAPTCHA_SECRET_KEY: 'secret' },
    });
    try {
      const policy = csp((await recaptcha.app.inject({ url: '/login' })).headers['content-security-policy']);
      expect(policy.get('script-src')).toEqual([
        "'self'",
        sha256(themeScript),
        'https://www.google.com/recaptcha/',
        'https://www.gstatic.com/recaptcha/',
      ]);
      expect(policy.get('frame-src')).toEqual([
        'https://www.google.com/recaptcha/',
        'https://recaptcha.google.com/recaptcha/',
      ]);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    } finally {
      await recaptcha.close();
    }
  });

  it("a file store on an origin of its own (S3, a CDN): that origin joins img-src, nothing else's", () => {
    const directives = contentSecurityDirectives(
      {
        publicUrl: 'https://shop.example.com',
        captchaProvider: 'altcha',
        fileStoreUrl: new URL('https://bucket.s3.example.net/dukkan/files/'),
      },
      [],
    );
    expect(directives['img-src']).toEqual(["'self'", 'https://bucket.s3.example.net']);
    expect(directives['default-src']).toEqual(["'self'"]);
  });
});

describe('https', () => {
  it('HSTS, upgrade-insecure-requests and a __Host- session cookie that is the only one read', async () => {
    const secure = await createTestApp({
      database: t.database,
      env: { WEB_DIST_DIR: webDist, PUBLIC_URL: 'https://shop.example.com' },
    });
    try {
      const page = await secure.app.inject({ url: '/login' });
      expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(csp(page.headers['content-security-policy']).get('upgrade-insecure-requests')).toEqual([]);

      const user = await createUser(secure.db);
      const login = await api(secure.app, {
        url: '/api/auth/login',
        body: { email: user.email, password: user.password },
        headers: { origin: 'https://shop.example.com' },
      });
      expect(login.status, login.text).toBe(200);
      const cookie = login.setCookies.find((header) => header.startsWith('__Host-dukkan_session='));
      expect(cookie, login.setCookies.join('\n')).toBeDefined();
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; Path=\/(;|$)/);
      expect(cookie).not.toMatch(/; Domain=/i);
      const pair = cookie!.split(';')[0]!;

      expect((await api(secure.app, { url: '/api/auth/user', cookie: pair })).status).toBe(200);
      // The same token under the unprefixed name (which a sibling subdomain could set) is not read.
      const unprefixed = pair.replace(/^__Host-/, '');
      const withUnprefixed = await api(secure.app, { url: '/api/auth/user', cookie: unprefixed });
      expect(withUnprefixed.json).toEqual({ data: null });

      const logout = await api(secure.app, {
        url: '/api/auth/logout',
        cookie: pair,
        headers: appFetchHeaders,
      });
      expect(logout.setCookies.find((header) => header.startsWith('__Host-dukkan_session=;'))).toMatch(
        /; Secure/,
      );
    } finally {
      await secure.close();
    }
  });

  it('on http the cookie keeps its plain name (a __Host- cookie needs Secure)', async () => {
    const user = await createUser(t.db);
    const login = await api(t.app, {
      url: '/api/auth/login',
      body: { email: user.email, password: user.password },
    });
    expect(sessionCookieFrom(login)).toMatch(/^dukkan_session=/);
  });
});

describe('API answers', () => {
  it('are never stored by a cache and never sniffed, errors included', async () => {
    for (const url of ['/api/health', '/api/auth/user', '/api/nope', '//api//health']) {
      const response = await t.app.inject({ url });
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('JSON of 1 KB or more is compressed as the client asks; a smaller answer is sent as is', async () => {
    const shop = await createWorkspace(t.db);
    const admin = await addMember(t.db, shop.id, { isAdmin: true });
    for (let i = 0; i < 10; i++) await addMember(t.db, shop.id, { tags: ['viewUsers'] });
    const url = `/api/workspaces/users?workspaceId=${shop.id}&pageSize=50`;
    const plain = await api(t.app, { url, cookie: admin.cookie });
    expect(plain.status, plain.text).toBe(200);
    expect(dataOf<unknown[]>(plain).length).toBe(11);
    expect(Buffer.byteLength(plain.text)).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();

    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const response = await t.app.inject({
        url,
        headers: { cookie: admin.cookie, 'accept-encoding': encoding },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'], encoding).toBe(encoding);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.rawPayload.length).toBeLessThan(Buffer.byteLength(plain.text));
      expect(JSON.parse(decode(response.rawPayload).toString())).toEqual(plain.json);
    }

    const small = await t.app.inject({ url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('static files', () => {
  it('a hashed asset: cached for a year, immutable, served from its precompressed twin as it is', async () => {
    const response = await t.app.inject({
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toBe('accept-encoding');
    expect(response.rawPayload.equals(readFileSync(join(webDist, 'assets', 'index-AbC123.js.br')))).toBe(
      true,
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');

    const identity = await t.app.inject({ url: '/assets/index-AbC123.js' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(assetJs);
    expect(identity.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('a script carries no document policy (never a document under nosniff); an SVG, which can be one, keeps it', async () => {
    const script = await t.app.inject({
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(script.statusCode).toBe(200);
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(script.headers['referrer-policy']).toBe('no-referrer');
    for (const header of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy']) {
      expect(script.headers[header], header).toBeUndefined();
    }
    const svg = await t.app.inject({ url: '/assets/mark-AbC123.svg' });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-security-policy']).toContain("script-src 'self'");
    expect(svg.headers['x-frame-options']).toBe('DENY');
  });

  it('a small asset without a twin is sent as it is: static files are never compressed per request', async () => {
    const response = await t.app.inject({
      url: '/assets/tiny-AbC123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(tinyJs);
  });

  it('index.html is revalidated; a missing asset is not stored', async () => {
    expect((await t.app.inject({ url: '/index.html' })).headers['cache-control']).toBe('no-cache');
    const missing = await t.app.inject({ url: '/assets/gone-123.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  it('an uploaded file: cached for a year, immutable, under a policy of its own', async () => {
    const shop = await createWorkspace(t.db);
    const editor = await addMember(t.db, shop.id, { tags: ['addFiles'] });
    const uploaded = await api(t.app, {
      method: 'POST',
      url: `/api/files?workspaceId=${shop.id}`,
      ...multipart([{ field: 'file', filename: 'logo.png', type: 'image/png', content: tinyPng }]),
      cookie: editor.cookie,
    });
    expect(uploaded.status, uploaded.text).toBe(201);
    const served = await t.app.inject({ url: dataOf<{ url: string }>(uploaded).url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'");
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });
});
