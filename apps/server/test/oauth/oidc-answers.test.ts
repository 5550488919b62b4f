import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalFixture } from '../helpers/oauth.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/*
 * Everything under `/oidc` is the authorization server's: each answer with a body says its content
 * type (a HEAD the same as its GET), and each refusal is OAuth's `{ error, error_description }`
 * (RFC 6749 §5.2), whether the provider, its router or Fastify before it refuses, never the API's
 * `{ error: { statusCode, code… } }` nor plain text.
 */

let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp();
  await portalFixture(testApp);
});
afterAll(async () => {
  await testApp.close();
});

const endpoints = [
  '/oidc/.well-known/openid-configuration',
  '/oidc/.well-known/oauth-authorization-server',
  '/oidc/jwks',
  '/oidc/auth',
  '/oidc/auth/no-such-interaction',
  '/oidc/token',
  '/oidc/token/introspection',
  '/oidc/token/revocation',
  '/oidc/me',
  '/oidc/session/end',
  '/oidc/session/end/confirm',
  '/oidc/session/end/success',
];
/** No endpoint lives there (`/oidc` itself, a registration endpoint that is not enabled…). */
const unknownPaths = [
  '/oidc',
  '/oidc/',
  '/oidc/nope',
  '/oidc/reg',
  '/oidc/token/nope',
  '/oidc/interaction/x',
];
const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'] as const;

interface Answer {
  status: number;
  contentType: string | undefined;
  body: string;
}

async function send(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  payload?: string,
): Promise<Answer> {
  const response = await testApp.app.inject({
    method: method as 'GET',
    url,
    headers: { host: new URL(testApp.config.publicUrl).host, ...headers },
    ...(payload === undefined ? {} : { payload }),
  });
  const contentType = response.headers['content-type'];
  return {
    status: response.statusCode,
    contentType: contentType === undefined ? undefined : String(contentType),
    body: response.body,
  };
}

/** What every answer under /oidc must be; returns the refusal's body when it is one. */
function expectOauthAnswer(where: string, answer: Answer) {
  if (answer.body !== '') expect(answer.contentType, `${where}: content type`).toBeDefined();
  if (answer.status < 400 || answer.body === '') return undefined;
  expect(answer.contentType, `${where}: content type`).toBe('application/json; charset=utf-8');
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(body, `${where}: OAuth's shape`).toEqual({
    error: expect.any(String),
    error_description: expect.any(String),
  });
  return body;
}

describe("every answer under /oidc has a content type, every refusal OAuth's shape", () => {
  it('known endpoints and unknown paths, with every method: HEAD answers as GET does', async () => {
    for (const path of [...endpoints, ...unknownPaths]) {
      const get = await send('GET', path);
      for (const method of methods) {
        const answer = method === 'GET' ? get : await send(method, path);
        expectOauthAnswer(`${method} ${path}`, answer);
        if (method === 'HEAD') {
          expect(answer.status, `HEAD ${path}`).toBe(get.status);
          expect(answer.contentType, `HEAD ${path}: content type`).toBe(get.contentType);
        }
      }
    }
  });

  it.each(unknownPaths)('%s (no endpoint): 404 invalid_request, whatever the method', async (path) => {
    for (const method of methods.filter((one) => one !== 'HEAD')) {
      const answer = await send(method, path);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(expectOauthAnswer(`${method} ${path}`, answer)?.error).toBe('invalid_request');
    }
  });

  it("a method an endpoint does not take: 404 invalid_request (oidc-provider's words)", async () => {
    const answer = await send('DELETE', '/oidc/token');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({
      error: 'invalid_request',
      error_description: 'unrecognized route or not allowed method (DELETE on /oidc/token)',
    });
  });

  it.each([
    ['a malformed URL', 'GET', '/oidc/%zz', {}],
    ['a malformed content type', 'POST', '/oidc/token', { 'content-type': ';;;' }],
  ] as const)('%s, refused before the provider: 400 invalid_request', async (_name, method, url, headers) => {
    const answer = await send(method, url, headers, method === 'POST' ? 'grant_type=x' : undefined);
    expect(answer.status).toBe(400);
    expect(expectOauthAnswer(`${method} ${url}`, answer)?.error).toBe('invalid_request');
  });

  it('a CORS preflight from an origin no client registered: 204 with no body', async () => {
    const answer = await send('OPTIONS', '/oidc/token', {
      origin: 'https://elsewhere.example',
      'access-control-request-method': 'POST',
    });
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
  });
});
