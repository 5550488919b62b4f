import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientFor, type PortalFixture, portalFixture } from '../helpers/oauth.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { basicAuthorization, codeFor, confidentialApplication, formPost } from './negative-support.ts';

/*
 * A confidential client authenticates the one way it registered (its `token_endpoint_auth_method`),
 * at every endpoint that authenticates clients: a secret sent the other way is refused with
 * invalid_client (RFC 6749 §2.3, §5.2), however right it is.
 */

/** Clients registered for `client_secret_post`: the applications register Basic, so one is made here. */
const postClients = vi.hoisted(() => new Set<string>());
vi.mock('../../src/features/oauth/clients.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/features/oauth/clients.ts')>();
  return {
    ...original,
    findClientMetadata: async (...args: Parameters<typeof original.findClientMetadata>) => {
      const metadata = await original.findClientMetadata(...args);
      return metadata && postClients.has(args[1])
        ? { ...metadata, token_endpoint_auth_method: 'client_secret_post' }
        : metadata;
    },
  };
});

let testApp: TestApp;
let fixture: PortalFixture;
const secret = 'dukkan-test-secret-7a2e91c4d0b3';
let basicClient: Awaited<ReturnType<typeof confidentialApplication>>;
let postClient: Awaited<ReturnType<typeof confidentialApplication>>;

beforeAll(async () => {
  testApp = await createTestApp();
  fixture = await portalFixture(testApp);
  basicClient = await confidentialApplication(testApp, fixture.workspace.id, secret);
  postClient = await confidentialApplication(testApp, fixture.workspace.id, secret);
  postClients.add(postClient.application.clientId);
});
afterAll(async () => {
  await testApp.close();
});

/** The secret presented one way or the other: the headers and the form fields to add. */
function presented(
  method: 'client_secret_basic' | 'client_secret_post',
  clientId: string,
): { headers: Record<string, string>; form: Record<string, string> } {
  return method === 'client_secret_basic'
    ? { headers: basicAuthorization(clientId, secret), form: {} }
    : { headers: {}, form: { client_id: clientId, client_secret: secret } };
}

const registrations = [
  { registered: 'client_secret_basic', other: 'client_secret_post', client: () => basicClient },
  { registered: 'client_secret_post', other: 'client_secret_basic', client: () => postClient },
] as const;

describe.each(registrations)(
  'a client registered for $registered',
  ({ registered, other, client: registeredClient }) => {
    it(`the code exchange with the right secret by ${other}: 401 invalid_client; by ${registered}, the code is exchanged`, async () => {
      const { application, redirectUri } = registeredClient();
      const config = await clientFor(testApp, application.clientId, client.None());
      const started = await codeFor({ ...fixture, config, redirectUri });
      const form = {
        grant_type: 'authorization_code',
        code: started.code,
        redirect_uri: redirectUri,
        code_verifier: started.request.verifier,
      };

      const wrongWay = presented(other, application.clientId);
      const refused = await formPost(testApp, '/token', { ...form, ...wrongWay.form }, wrongWay.headers);
      expect(refused.status).toBe(401);
      expect(refused.json.error).toBe('invalid_client');

      // The refusal spent nothing: the same code is exchanged the registered way.
      const rightWay = presented(registered, application.clientId);
      const accepted = await formPost(testApp, '/token', { ...form, ...rightWay.form }, rightWay.headers);
      expect(accepted.status).toBe(200);
      expect(accepted.json.access_token).toEqual(expect.any(String));
    });

    it.each([
      ['/token/introspection', 200],
      ['/token/revocation', 200],
      // Past client authentication, the unknown refresh token is the grant's refusal.
      ['/token', 400],
    ] as const)(
      `%s: the secret by ${other} is 401 invalid_client, by ${registered} it authenticates`,
      async (path, acceptedStatus) => {
        const { application } = registeredClient();
        const form: Record<string, string> =
          path === '/token'
            ? { grant_type: 'refresh_token', refresh_token: 'no-such-refresh-token' }
            : { token: 'no-such-token' };

        const wrongWay = presented(other, application.clientId);
        const refused = await formPost(testApp, path, { ...form, ...wrongWay.form }, wrongWay.headers);
        expect(refused.status).toBe(401);
        expect(refused.json.error).toBe('invalid_client');

        const rightWay = presented(registered, application.clientId);
        const accepted = await formPost(testApp, path, { ...form, ...rightWay.form }, rightWay.headers);
        expect(accepted.status).toBe(acceptedStatus);
        expect(accepted.json.error).not.toBe('invalid_client');
      },
    );
  },
);
