/**
 * For the tests only: a stand-in for Dukkan's OpenID Connect endpoints, just enough for the demo
 * client's flow with the real openid-client (discovery, sign-in with PKCE, tokens, userinfo,
 * refresh, revocation). It signs in one user, Mona, in one workspace, with no page of its own.
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const fakeUser = {
  sub: 'user-1',
  name: 'Mona Salem',
  email: 'mona@example.com',
  picture: 'https://example.com/mona.png',
  locale: 'en',
  workspace_id: 'ws-9',
  workspace_name: 'Cairo Shop',
};

export interface FakeDukkan {
  server: Server;
  url: string;
  /** Answer the next sign-ins with access_denied, as Dukkan does when the workspace lacks the app. */
  denyAccess: boolean;
  /** What Dukkan does when the workspace's subscription expires: every token stops working. */
  revokeEverything(): void;
  revoked: string[];
  close(): Promise<void>;
}

const clientId = 'dukkan-demo';
const random = () => randomBytes(16).toString('base64url');

export async function startFakeDukkan(): Promise<FakeDukkan> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const codes = new Map<string, { challenge: string; nonce: string; redirectUri: string }>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const base = `http://localhost:${(server.address() as AddressInfo).port}`;
  const issuer = `${base}/oidc`;

  const fake: FakeDukkan = {
    server,
    url: base,
    denyAccess: false,
    revoked: [],
    revokeEverything() {
      accessTokens.clear();
      refreshTokens.clear();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  function idToken(nonce: string | undefined): string {
    const now = Math.floor(Date.now() / 1000);
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = { iss: issuer, aud: clientId, iat: now, exp: now + 600, nonce, ...fakeUser };
    const input = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode(claims)}`;
    return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
  }

  function tokens(nonce?: string) {
    const access = random();
    const refresh = random();
    accessTokens.add(access);
    refreshTokens.add(refresh);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: refresh,
      id_token: idToken(nonce),
      scope: 'openid profile email',
    };
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', base);
    let body = '';
    for await (const chunk of request) body += chunk;
    const form = new URLSearchParams(body);
    const json = (status: number, value: object, headers: Record<string, string> = {}) =>
      response
        .writeHead(status, { 'Content-Type': 'application/json', ...headers })
        .end(JSON.stringify(value));

    switch (`${request.method} ${url.pathname}`) {
      case 'GET /oidc/.well-known/openid-configuration':
        return void json(200, {
          issuer,
          authorization_endpoint: `${base}/authenticate`,
          token_endpoint: `${issuer}/token`,
          userinfo_endpoint: `${issuer}/me`,
          revocation_endpoint: `${issuer}/token/revocation`,
          end_session_endpoint: `${issuer}/session/end`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
          id_token_signing_alg_values_supported: ['RS256'],
          authorization_response_iss_parameter_supported: true,
        });
      case 'GET /authenticate': {
        const query = url.searchParams;
        const back = new URL(query.get('redirect_uri') ?? '');
        back.searchParams.set('state', query.get('state') ?? '');
        back.searchParams.set('iss', issuer);
        if (query.get('client_id') !== clientId || query.get('code_challenge_method') !== 'S256') {
          return void json(400, { error: 'invalid_request' });
        }
        if (fake.denyAccess) {
          back.searchParams.set('error', 'access_denied');
          back.searchParams.set('error_description', 'The workspace has not installed Demo app');
        } else {
          const code = random();
          codes.set(code, {
            challenge: query.get('code_challenge') ?? '',
            nonce: query.get('nonce') ?? '',
            redirectUri: query.get('redirect_uri') ?? '',
          });
          back.searchParams.set('code', code);
        }
        return void response.writeHead(303, { Location: back.href }).end();
      }
      case 'POST /oidc/token': {
        if (form.get('client_id') !== clientId) return void json(401, { error: 'invalid_client' });
        if (form.get('grant_type') === 'authorization_code') {
          const grant = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const challenge = createHash('sha256').update(verifier).digest('base64url');
          if (!grant || grant.challenge !== challenge || grant.redirectUri !== form.get('redirect_uri')) {
            return void json(400, { error: 'invalid_grant', error_description: 'grant request is invalid' });
          }
          return void json(200, tokens(grant.nonce));
        }
        if (form.get('grant_type') === 'refresh_token') {
          const refresh = form.get('refresh_token') ?? '';
          if (!refreshTokens.delete(refresh)) {
            return void json(400, {
              error: 'invalid_grant',
              // What Dukkan's authorization server says, as any OAuth server would.
              error_description: 'grant request is invalid',
            });
          }
          return void json(200, tokens());
        }
        return void json(400, { error: 'unsupported_grant_type' });
      }
      case 'GET /oidc/me': {
        const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
        if (!accessTokens.has(token)) {
          return void json(
            401,
            { error: 'invalid_token' },
            {
              'WWW-Authenticate':
                'Bearer realm="dukkan", error="invalid_token", error_description="invalid token provided"',
            },
          );
        }
        return void json(200, fakeUser);
      }
      case 'POST /oidc/token/revocation': {
        const token = form.get('token') ?? '';
        fake.revoked.push(token);
        refreshTokens.delete(token);
        accessTokens.delete(token);
        return void response.writeHead(200).end();
      }
      default:
        return void json(404, { error: 'not_found' });
    }
  }

  server.on('request', (request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  return fake;
}
