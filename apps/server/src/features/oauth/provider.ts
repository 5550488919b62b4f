import { timingSafeEqual } from 'node:crypto';
import {
  authenticationLevels,
  type OauthErrorBody,
  oauthInteractionParam,
  publicPages,
} from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { JWK } from 'jose';
import Provider, { type Configuration, errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { memberMayUseApplication } from '../../db/installed-applications.ts';
import { findGrantScope, grantLacksSecondFactor } from '../../db/oauth-grants.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { liveSession, sessionCookieNameFor } from '../../http/sessions.ts';
import { hashToken } from '../../http/tokens.ts';
import { findClientMetadata } from './clients.ts';
import { drizzleAdapter } from './oauth-adapter.ts';
import { providerPages } from './pages.ts';

/*
 * The authorization server behind the sign-in portal: oidc-provider (OAuth 2.0 authorization code
 * with PKCE, OpenID Connect), configured here and mounted under `/oidc` by `routes.ts`. Dukkan's
 * own session and pages drive its interactions: the provider checks the request, then sends the
 * browser to the portal page (`/authenticate`), whose Login call finishes the interaction.
 */

/** Where the authorization server lives: its issuer is the public URL plus this path. */
export const oidcMountPath = '/oidc';
/** The portal page, which is also the authorization endpoint clients send users to. */
export const portalPath = publicPages.portal;

const oidcIssuer = (publicUrl: string) => `${publicUrl}${oidcMountPath}`;

/** What the portal grants: OpenID Connect's identity scopes; a refresh token comes with every code. */
export const supportedScopes = ['openid', 'profile', 'email', 'offline_access'] as const;

/** How long each thing lives, in seconds. */
const oauthLifetimes = {
  AccessToken: 10 * 60,
  AuthorizationCode: 60,
  IdToken: 60 * 60,
  Interaction: 60 * 60,
  RefreshToken: 14 * 24 * 60 * 60,
  Session: 14 * 24 * 60 * 60,
  Grant: 14 * 24 * 60 * 60,
} as const;

interface AuthorizationServerOptions {
  db: Database;
  publicUrl: string;
  /** Signs the provider's cookies. */
  cookieKeys: string[];
  /** Behind a proxy: the provider reads the forwarded protocol and host, as Fastify does. */
  proxy: boolean;
  /** The signing keys, the one that signs first (see `signing-keys.ts`). */
  keys: JWK[];
  log: FastifyBaseLogger;
  /** The web app's `@font-face` rules for the provider's own pages (`webFontFaces`). */
  fontFaces?: string;
}

/** The Dukkan session behind the browser's cookie, read inside the provider. */
async function dukkanSessionUser(db: Database, ctx: KoaContextWithOIDC, cookieName: string) {
  const token = ctx.cookies.get(cookieName);
  if (!token || token.length > 100) return undefined;
  const [row] = await db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(liveSession(hashToken(token)))
    .limit(1);
  return row?.userId;
}

export function createAuthorizationServer(options: AuthorizationServerOptions): Provider {
  const { db, publicUrl } = options;
  const secure = publicUrl.startsWith('https://');
  const dukkanCookie = sessionCookieNameFor(publicUrl);

  const configuration: Configuration = {
    adapter: drizzleAdapter(db, (clientId) => findClientMetadata(db, clientId)),
    jwks: { keys: options.keys },
    cookies: {
      keys: options.cookieKeys,
      names: {
        session: 'dukkan_oidc_session',
        interaction: 'dukkan_oidc_interaction',
        resume: 'dukkan_oidc_resume',
      },
      long: { httpOnly: true, sameSite: 'lax', secure },
      // Path `/`: the portal page's API call (`/api/oauth/authorize/client-side`) reads the
      // interaction cookie, which the provider would otherwise scope to the page's path.
      short: { httpOnly: true, sameSite: 'lax', secure, path: '/' },
    },
    scopes: [...supportedScopes],
    claims: {
      // With `sub` and the workspace, how the person signed in: `acr` and `amr` (RFC 8176), from
      // the portal's login result (routes.ts), and when (`auth_time`).
      openid: ['sub', 'workspace_id', 'workspace_name', 'acr', 'amr', 'auth_time'],
      profile: ['name', 'picture', 'locale'],
      email: ['email', 'email_verified'],
    },
    // The scopes' claims go into the ID token too: it carries the workspace the client acts in.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    // How the person signed in, in the ID token (`acr`; `amr` beside it, RFC 8176): a client may
    // ask for multi-factor with `acr_values`, and the portal then asks for the second step.
    acrValues: [authenticationLevels.password, authenticationLevels.multiFactor],
    // OIDC Core §3.1.2.1 and RFC 6749 §4.1.3: the redirect URI is always sent, and matched exactly,
    // even by a client that registered only one.
    allowOmittingSingleRegisteredRedirectUri: false,
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // Each application is another merchant's: it may revoke and introspect its own tokens only.
      // Another client's token is refused (a public client's is ignored, as RFC 7009 allows, so
      // it learns nothing about the token).
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => {
          if (token.clientId === client.clientId) return true;
          if (client.clientAuthMethod === 'none') return false;
          throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
        },
      },
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        ...providerPages({
          db,
          fontFaces: options.fontFaces ?? '',
          dukkanUser: (ctx) => dukkanSessionUser(db, ctx, dukkanCookie),
        }),
      },
    },
    ttl: { ...oauthLifetimes },
    rotateRefreshToken: true,
    // A sign-in lasts as long as its grant allows, not as long as the browser's session with the
    // provider: signing in to the same application again (in another workspace, say) from the
    // same browser must not end the first sign-in's tokens.
    expiresWithSession: async () => false,
    // A browser application may call the token, userinfo and revocation endpoints from the
    // origins of its registered redirect URIs, and from nowhere else.
    clientBasedCORS: (_ctx, origin, client) =>
      origin !== 'null' && (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    // Every code comes with a refresh token (the clients are the platform's applications).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),

    async findAccount(ctx, sub, token) {
      const [user] = await db
        .select({
          id: users.id,
          name: users.name,
          email: users.email,
          picture: users.profilePicture,
          language: users.language,
        })
        .from(users)
        .where(eq(users.id, sub))
        .limit(1);
      if (!user) return undefined;
      const grantId = token?.grantId ?? ctx.oidc.entities.Grant?.jti;
      const scope = grantId ? await findGrantScope(db, grantId) : undefined;
      // A code or token whose grant is gone, or whose user may no longer use the application in
      // its workspace, or was signed in with a password alone where the workspace now requires a
      // second factor, finds no account: the exchange, the refresh or userinfo is refused.
      if (
        token &&
        (!scope ||
          grantLacksSecondFactor(scope) ||
          !(await memberMayUseApplication(db, scope.workspaceId, sub, scope.clientId)))
      ) {
        return undefined;
      }
      return {
        accountId: sub,
        claims: () => ({
          sub,
          name: user.name,
          email: user.email,
          email_verified: true,
          picture: user.picture ? new URL(user.picture, publicUrl).href : undefined,
          // OpenID Connect omits an unknown claim rather than sending null (never chosen).
          locale: user.language ?? undefined,
          workspace_id: scope?.workspaceId,
          workspace_name: scope?.workspaceName,
        }),
      };
    },

    // Access tokens carry their workspace: introspection answers it.
    async extraTokenClaims(_ctx, token) {
      if (!('grantId' in token) || !token.grantId) return undefined;
      const scope = await findGrantScope(db, token.grantId);
      return scope ? { workspace_id: scope.workspaceId } : undefined;
    },

    // An earlier sign-in is reused only for `prompt=none` (a silent check), and only while the
    // browser's Dukkan user is the one who granted it and may still use the application;
    // otherwise the portal page asks again, in the workspace now selected.
    async loadExistingGrant(ctx) {
      // The portal's Login has just made this grant (the interaction's result).
      const granted = ctx.oidc.result?.consent?.grantId;
      if (granted) return ctx.oidc.provider.Grant.find(granted);
      if (
        !String(ctx.oidc.params?.prompt ?? '')
          .split(' ')
          .includes('none')
      )
        return undefined;
      const clientId = ctx.oidc.client?.clientId;
      const grantId = clientId ? ctx.oidc.session?.grantIdFor(clientId) : undefined;
      if (!clientId || !grantId) return undefined;
      const userId = await dukkanSessionUser(db, ctx, dukkanCookie);
      if (!userId || userId !== ctx.oidc.session?.accountId) return undefined;
      const scope = await findGrantScope(db, grantId);
      if (!scope || scope.userId !== userId || grantLacksSecondFactor(scope)) return undefined;
      if (!(await memberMayUseApplication(db, scope.workspaceId, userId, clientId))) return undefined;
      return ctx.oidc.provider.Grant.find(grantId);
    },

    interactions: {
      url(_ctx, interaction) {
        const query = new URLSearchParams();
        for (const [name, value] of Object.entries(interaction.params)) {
          if (typeof value === 'string') query.set(name, value);
        }
        query.set(oauthInteractionParam, interaction.uid);
        return `${portalPath}?${query}`;
      },
    },

    // What cannot go back to the client (an unknown client, a redirect URI not registered): an
    // unknown client to /404, anything else to the portal page, which shows the description.
    async renderError(ctx, out) {
      const target =
        out.error === 'invalid_client'
          ? '/404'
          : `${portalPath}?${new URLSearchParams({
              error: String(out.error),
              ...(out.error_description ? { error_description: String(out.error_description) } : {}),
            })}`;
      ctx.status = 303;
      ctx.redirect(new URL(target, publicUrl).href);
    },
  };

  const provider = new Provider(oidcIssuer(publicUrl), configuration);
  provider.proxy = options.proxy;
  provider.on('server_error', (_ctx, error) =>
    options.log.error({ err: error }, 'authorization server error'),
  );

  // A path or method the provider has no endpoint for (an OPTIONS that is no CORS preflight
  // included) answers in OAuth's shape too, as oidc-provider did before its own router, rather
  // than Koa's plain-text "Not Found".
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body == null) {
      // Set again: Koa makes an answer given a body 200 unless its status was set.
      ctx.status = 404;
      ctx.body = {
        error: 'invalid_request',
        error_description: `unrecognized route or not allowed method (${ctx.method} on ${oidcMountPath}${ctx.path})`,
      } satisfies OauthErrorBody;
    }
  });

  // Clients send users to the portal page, which hands the parameters to the provider's own
  // authorization endpoint: discovery names the page.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.oidc?.route === 'discovery' && ctx.body && typeof ctx.body === 'object') {
      (ctx.body as { authorization_endpoint?: string }).authorization_endpoint = new URL(
        portalPath,
        publicUrl,
      ).href;
    }
  });

  refuseUnstorableParameters(provider);

  // A confidential client's secret is stored as its SHA-256 (the applications keep no secret in
  // clear): what the client presents is hashed before the constant-time comparison. oidc-provider
  // takes the secret from the form or from Basic whichever the client registered: only the way it
  // registered is accepted, as with its other methods (RFC 6749 §2.3: one method per client).
  provider.Client.prototype.compareClientSecret = function compareClientSecret(actual: string) {
    const ctx = Provider.ctx;
    const method = ctx?.oidc.params?.client_secret ? 'client_secret_post' : 'client_secret_basic';
    if (!ctx || method !== this.clientAuthMethod) {
      throw new errors.InvalidClientAuth(
        'the provided authentication mechanism does not match the registered client authentication method',
      );
    }
    const expected = Buffer.from(String(this.clientSecret), 'hex');
    const presented = Buffer.from(hashToken(actual), 'hex');
    return expected.length === presented.length && timingSafeEqual(expected, presented);
  };

  return provider;
}

/** The names of the parameters whose value PostgreSQL cannot store: text with U+0000 in it. */
function unstorableParameters(params: object): string[] {
  return Object.entries(params)
    .filter(([, value]) => [value].flat().some((one) => typeof one === 'string' && one.includes('\u0000')))
    .map(([name]) => name);
}

/**
 * Every endpoint of the provider first gathers what the request brings into `ctx.oidc.params`,
 * inside its own error handling and before it looks anything up or stores anything: a value
 * PostgreSQL cannot store (a NUL in text or jsonb; every other character is stored as sent) is
 * refused there with invalid_request. The authorization endpoint's refusal then goes back to the
 * client when its redirect URI is registered, as oidc-provider's own invalid_request does.
 */
function refuseUnstorableParameters(provider: Provider) {
  const assembled = new WeakMap<object, unknown>();
  Object.defineProperty(provider.OIDCContext.prototype, 'params', {
    configurable: true,
    get(this: object) {
      return assembled.get(this);
    },
    set(this: object, params: object | undefined) {
      const refused = params ? unstorableParameters(params) : [];
      if (refused.length > 0) {
        const names =
          refused.length === 1 ? refused[0] : `${refused.slice(0, -1).join(', ')} and ${refused.at(-1)}`;
        throw new errors.InvalidRequest(
          `${names} ${refused.length === 1 ? 'parameter' : 'parameters'} must not contain a NUL character`,
        );
      }
      assembled.set(this, params);
    },
  });
}
