import * as oidc from 'openid-client';
import { isLocalHttp, issuerUrl } from './config.ts';
import type { PendingLogin, Tokens, UserClaims } from './sessions.ts';

export const scope = 'openid profile email';

/**
 * Why a call to Dukkan did not succeed:
 * - `refused`: Dukkan answered with an OAuth error (e.g. `invalid_grant` when the workspace's
 *   subscription expired, or `access_denied` when the workspace has not installed the app);
 * - `unauthorized`: the access token is no longer accepted (401), e.g. it was revoked;
 * - `failed`: anything else (Dukkan unreachable, an answer that does not check out).
 */
export type DukkanErrorKind = 'refused' | 'unauthorized' | 'failed';

export class DukkanError extends Error {
  constructor(
    readonly kind: DukkanErrorKind,
    /** The OAuth error code when Dukkan gave one, e.g. `invalid_grant`. */
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DukkanError';
  }
}

/** The few things this application asks of Dukkan. Tests pass a fake of it. */
export interface Dukkan {
  /** A fresh PKCE verifier, state and nonce, and the URL of Dukkan's sign-in page that uses them. */
  startLogin(): Promise<{ url: URL; pendingLogin: PendingLogin }>;
  /** Exchanges the code Dukkan sent back to the callback for tokens, checking state, PKCE and nonce. */
  finishLogin(callbackUrl: URL, pendingLogin: PendingLogin): Promise<{ tokens: Tokens; user: UserClaims }>;
  userInfo(accessToken: string, expectedSub: string): Promise<UserClaims>;
  refresh(refreshToken: string): Promise<Tokens>;
  revoke(refreshToken: string): Promise<void>;
  /** Dukkan's sign-out page, which comes back to `postLogoutRedirectUri`. */
  endSessionUrl(idToken: string | undefined, postLogoutRedirectUri: string): Promise<URL>;
}

/** The real thing, with openid-client. Dukkan's metadata is discovered on first use. */
export function openIdDukkan(options: {
  dukkanUrl: string;
  clientId: string;
  redirectUri: () => string;
}): Dukkan {
  const issuer = issuerUrl(options.dukkanUrl);
  let configuration: Promise<oidc.Configuration> | undefined;

  function discover(): Promise<oidc.Configuration> {
    configuration ??= oidc
      .discovery(
        issuer,
        options.clientId,
        // A public client: no secret, it proves itself with PKCE.
        { token_endpoint_auth_method: 'none' },
        oidc.None(),
        // openid-client talks only https by default; plain http is allowed here for a Dukkan on
        // this machine (http://localhost or 127.0.0.1) and for nothing else.
        isLocalHttp(issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        configuration = undefined; // Dukkan may not be started yet: try again on the next request.
        throw error;
      });
    return configuration;
  }

  return {
    startLogin: () =>
      translateErrors(async () => {
        const config = await discover();
        const pendingLogin: PendingLogin = {
          codeVerifier: oidc.randomPKCECodeVerifier(),
          state: oidc.randomState(),
          nonce: oidc.randomNonce(),
        };
        const url = oidc.buildAuthorizationUrl(config, {
          redirect_uri: options.redirectUri(),
          scope,
          code_challenge: await oidc.calculatePKCECodeChallenge(pendingLogin.codeVerifier),
          code_challenge_method: 'S256',
          state: pendingLogin.state,
          nonce: pendingLogin.nonce,
        });
        return { url, pendingLogin };
      }),

    finishLogin: (callbackUrl, pendingLogin) =>
      translateErrors(async () => {
        const response = await oidc.authorizationCodeGrant(await discover(), callbackUrl, {
          pkceCodeVerifier: pendingLogin.codeVerifier,
          expectedState: pendingLogin.state,
          expectedNonce: pendingLogin.nonce,
        });
        const claims = response.claims();
        if (!claims) throw new DukkanError('failed', 'no_id_token', 'Dukkan did not return an ID token');
        return { tokens: tokensFrom(response), user: userClaimsFrom(claims) };
      }),

    userInfo: (accessToken, expectedSub) =>
      translateErrors(async () => {
        return userClaimsFrom(await oidc.fetchUserInfo(await discover(), accessToken, expectedSub));
      }),

    refresh: (refreshToken) =>
      translateErrors(async () => tokensFrom(await oidc.refreshTokenGrant(await discover(), refreshToken))),

    revoke: (refreshToken) =>
      translateErrors(async () =>
        oidc.tokenRevocation(await discover(), refreshToken, { token_type_hint: 'refresh_token' }),
      ),

    endSessionUrl: (idToken, postLogoutRedirectUri) =>
      translateErrors(async () =>
        oidc.buildEndSessionUrl(await discover(), {
          post_logout_redirect_uri: postLogoutRedirectUri,
          ...(idToken ? { id_token_hint: idToken } : {}),
        }),
      ),
  };
}

function tokensFrom(response: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers): Tokens {
  const expiresIn = response.expiresIn();
  return {
    accessToken: response.access_token,
    accessTokenExpiresAt: expiresIn === undefined ? undefined : Date.now() + expiresIn * 1000,
    refreshToken: response.refresh_token,
    idToken: response.id_token,
  };
}

/** The claims this application shows, from the ID token or the userinfo answer. */
function userClaimsFrom(claims: oidc.IDToken | oidc.UserInfoResponse): UserClaims {
  const text = (name: string) => {
    const value = claims[name];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  };
  return {
    sub: claims.sub,
    name: text('name'),
    email: text('email'),
    picture: text('picture'),
    locale: text('locale'),
    workspace_id: text('workspace_id'),
    workspace_name: text('workspace_name'),
  };
}

async function translateErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toDukkanError(error);
  }
}

/** Sorts openid-client's errors into the three kinds the pages care about. */
export function toDukkanError(error: unknown): DukkanError {
  if (error instanceof DukkanError) return error;
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) {
    return new DukkanError('refused', error.error, error.error_description || error.error, { cause: error });
  }
  if (error instanceof oidc.WWWAuthenticateChallengeError) {
    const challenge = error.cause[0]?.parameters;
    const code = challenge?.error ?? 'invalid_token';
    const message = challenge?.error_description ?? code;
    return new DukkanError(error.status === 401 ? 'unauthorized' : 'refused', code, message, {
      cause: error,
    });
  }
  if (error instanceof Error && error.cause instanceof Response && error.cause.status === 401) {
    return new DukkanError('unauthorized', 'invalid_token', 'The access token was not accepted', {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return new DukkanError('failed', 'failed', `${message}${cause}`, { cause: error });
}
