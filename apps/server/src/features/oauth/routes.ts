import { STATUS_CODES } from 'node:http';
import {
  type AuthorizeClientSideResult,
  applicationSignInNeedsSecondFactor,
  authenticationLevels,
  clientIdPattern,
  type InstalledOauthApplication,
  type OauthApplication,
  type OauthErrorBody,
  oauthInteractionParam,
  usedSecondFactor,
  workspaceIdField,
} from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import { z } from 'zod';
import { getOrCreateSecret } from '../../db/app-meta.ts';
import type { Database } from '../../db/client.ts';
import { memberMayUseApplication } from '../../db/installed-applications.ts';
import { recordGrant } from '../../db/oauth-grants.ts';
import { applications, workspaces } from '../../db/schema/index.ts';
import { notFound, parseInput } from '../../errors.ts';
import { access } from '../../http/access.ts';
import { secondFactorRequired } from '../../http/access-guard.ts';
import { requestUser } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import { requestLanguage } from '../../http/mail-language.ts';
import { deleteExpiredOauthModels } from './oauth-adapter.ts';
import { webFontFaces } from './pages.ts';
import { createAuthorizationServer, oidcMountPath, portalPath, supportedScopes } from './provider.ts';
import { ensureSigningKey, keySetVersion, loadSigningKeys } from './signing-keys.ts';

/** How often an instance looks for a rotated signing key (another instance's operator command) and sweeps. */
const keyRefreshMs = 60_000;

const clientIdSchema = z.string().regex(clientIdPattern);
const workspaceQuerySchema = z.object({ workspaceId: workspaceIdField });

/**
 * The authorization server of the running app: rebuilt when the signing keys change, so a
 * rotation on any instance reaches every instance within `keyRefreshMs`.
 */
async function startAuthorizationServer(
  app: FastifyInstance,
  context: AppContext,
  options: { webDist?: string },
) {
  const { db, config } = context;
  const fontFaces = webFontFaces(options.webDist);
  await ensureSigningKey(db);
  const cookieKeys = [await getOrCreateSecret(db, 'oidc_cookie_key')];
  const build = async () => {
    const keys = await loadSigningKeys(db, context.now());
    const provider = createAuthorizationServer({
      db,
      publicUrl: config.publicUrl,
      cookieKeys,
      proxy: config.trustProxy !== false && config.trustProxy !== 0,
      keys,
      log: app.log,
      fontFaces,
    });
    return { version: keySetVersion(keys), provider, handle: provider.callback() };
  };
  let current = await build();
  const refresh = async () => {
    const keys = await loadSigningKeys(db, context.now());
    if (keySetVersion(keys) !== current.version) current = await build();
  };
  // Each minute: a rotated key is picked up, and codes, tokens and sessions past their life go.
  const timer = setInterval(() => {
    refresh().catch((error: unknown) => app.log.error({ err: error }, 'signing keys not reloaded'));
    deleteExpiredOauthModels(db).catch((error: unknown) =>
      app.log.error({ err: error }, 'expired sign-in records not removed'),
    );
  }, keyRefreshMs);
  timer.unref();
  return {
    get provider(): Provider {
      return current.provider;
    },
    /** Hands the request to the provider as if it were mounted at `/oidc`, with `path` below it. */
    handOver(request: FastifyRequest, reply: FastifyReply, path: string) {
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      raw.url = path;
      raw.originalUrl = `${oidcMountPath}${path}`;
      // The security headers set on this reply so far (hijacking skips Fastify's sending).
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.hijack();
      void current.handle(raw, reply.raw);
    },
    refresh,
    close: () => clearInterval(timer),
  };
}

/** The path and query of a request, duplicate slashes folded (as the router folds them). */
function requestTarget(request: FastifyRequest): { path: string; search: string } {
  const url = new URL(request.raw.url ?? '/', 'http://dukkan.invalid');
  return { path: url.pathname.replace(/\/{2,}/g, '/'), search: url.search };
}

function oauthError(reply: FastifyReply, status: number, body: OauthErrorBody) {
  return reply.code(status).header('cache-control', 'no-store').send(body);
}

/** Whether a request's URL is the authorization server's (`/oidc` or below it). */
export function isOidcUrl(url: string): boolean {
  const path = (url.split('?')[0] ?? '').replace(/\/{2,}/g, '/');
  return path === oidcMountPath || path.startsWith(`${oidcMountPath}/`);
}

/** Fastify's words for what it refuses before the provider reads the request. */
const fastifyRefusals: Record<string, string> = {
  FST_ERR_BAD_URL: 'malformed request URL',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'malformed or unsupported content-type',
};

/**
 * What Fastify refuses under `/oidc` before the provider sees the request (a malformed URL or
 * content type) answers in OAuth's shape, as the provider's own refusals do: the clients there
 * read `{ error, error_description }`, never the API's error shape.
 */
export function oauthRefusal(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { statusCode } = error;
  if (statusCode === undefined || statusCode < 400 || statusCode >= 500) {
    request.log.error({ err: error }, 'authorization server error');
    return oauthError(reply, 500, { error: 'server_error', error_description: 'oops! something went wrong' });
  }
  const known = error.code in fastifyRefusals;
  return oauthError(reply, known ? 400 : statusCode, {
    error: 'invalid_request',
    error_description:
      fastifyRefusals[error.code] ?? (STATUS_CODES[statusCode] ?? 'bad request').toLowerCase(),
  });
}

/**
 * The portal's own refusals, which its page shows as they come (spec §8: the returned
 * error_description in a toast), in the language of the page that asked (its `Accept-Language`).
 */
const refusalTexts = {
  expired: {
    en: 'This sign-in request has expired. Start again from the application.',
    ar: 'انتهت صلاحية طلب تسجيل الدخول هذا. ابدأ من جديد من التطبيق.',
  },
  otherApplication: {
    en: 'This sign-in request belongs to another application. Start again from it.',
    ar: 'طلب تسجيل الدخول هذا يخص تطبيقًا آخر. ابدأ من جديد منه.',
  },
  notAuthorized: {
    en: (application: string) => `You are not authorized to access ${application}`,
    ar: (application: string) => `ليست لديك صلاحية للوصول إلى ${application}`,
  },
} as const;

/** The application of a client id; none for a text that cannot be one. */
async function findApplication(db: Database, clientId: string) {
  if (!clientIdPattern.test(clientId)) return undefined;
  const [row] = await db
    .select({
      id: applications.id,
      clientId: applications.clientId,
      nameEn: applications.nameEn,
      nameAr: applications.nameAr,
      logo: applications.logo,
    })
    .from(applications)
    .where(eq(applications.clientId, clientId))
    .limit(1);
  return row;
}

/**
 * The sign-in portal: the authorization server under `/oidc`, the authorization endpoint at
 * `/authenticate` (the provider checks the request, then the page takes over), and the page's
 * three calls (spec §7).
 */
export async function registerOauthRoutes(
  app: FastifyInstance,
  context: AppContext,
  options: { webDist?: string } = {},
) {
  const { db } = context;
  const server = await startAuthorizationServer(app, context, options);
  app.addHook('onClose', async () => server.close());

  await app.register(
    async (scope) => {
      // The provider reads request bodies itself (form-encoded token, revocation, introspection).
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.setErrorHandler(oauthRefusal);
      const handOver = (request: FastifyRequest, reply: FastifyReply) => {
        const { path, search } = requestTarget(request);
        server.handOver(request, reply, `${path.slice(oidcMountPath.length) || '/'}${search}`);
      };
      // Every path and method below the mount goes to the provider, which answers those it has no
      // endpoint for itself (404 in OAuth's shape). Its endpoints authenticate clients, or defend
      // their forms themselves, and answer other origins' requests by the clients' registered
      // origins (CORS).
      for (const url of ['/', '/*']) scope.all(url, { config: { originCheck: false } }, handOver);
      // A method Fastify routes nowhere (PROPFIND…) too.
      scope.setNotFoundHandler(handOver);
    },
    { prefix: oidcMountPath },
  );

  // RFC 8414 §3.1: an issuer with a path is discovered at the well-known path followed by it.
  app.get(`/.well-known/oauth-authorization-server${oidcMountPath}`, (request, reply) => {
    server.handOver(request, reply, '/.well-known/oauth-authorization-server');
  });

  // The authorization endpoint clients send users to. The provider checks the client, the redirect
  // URI and PKCE first; it then sends the browser back here with the interaction it opened, and
  // the page (the web app) is served. What it refuses goes to /404 or to the page with the error.
  app.get(portalPath, (request, reply) => {
    const query = request.query as Record<string, unknown>;
    if (oauthInteractionParam in query || 'error' in query) return reply.callNotFound();
    server.handOver(request, reply, `/auth${requestTarget(request).search}`);
  });

  app.get<{ Params: { clientId: string } }>(
    '/api/oauth/application/:clientId',
    { config: { access: access.public } },
    async (request) => {
      // Any text that names no application is unknown (404): the page then shows /404.
      const application = await findApplication(db, request.params.clientId);
      if (!application) throw notFound('Unknown application');
      const data: OauthApplication = {
        clientId: application.clientId,
        localizedName: [
          { locale: 'en', value: application.nameEn },
          { locale: 'ar', value: application.nameAr },
        ],
        logo: application.logo,
      };
      return { data };
    },
  );

  app.get<{ Params: { clientId: string } }>(
    '/api/oauth/installed-application/:clientId',
    { config: { access: access.signedIn } },
    async (request) => {
      const { clientId } = request.params;
      const { workspaceId } = parseInput(workspaceQuerySchema, request.query);
      const { userId } = requestUser(request);
      if (!(await memberMayUseApplication(db, workspaceId, userId, clientId))) {
        throw notFound('The application is not installed for you in this workspace');
      }
      const [workspace] = await db
        .select({ id: workspaces.id, name: workspaces.name })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId))
        .limit(1);
      const data: InstalledOauthApplication = { clientId, workspace: workspace! };
      return { data };
    },
  );

  // Grants a code, so only the app's own request may call it (a link or another site's page is
  // refused by the origin check), and only for the interaction this browser opened.
  app.get(
    '/api/oauth/authorize/client-side',
    { config: { access: access.signedIn, stateChanging: true } },
    async (request, reply) => {
      const query = parseInput(
        z.looseObject({
          workspaceId: workspaceIdField,
          client_id: clientIdSchema,
          [oauthInteractionParam]: z.string(),
        }),
        request.query,
      );
      const { userId, factors } = requestUser(request);
      const provider = server.provider;
      let interaction: Awaited<ReturnType<Provider['interactionDetails']>>;
      try {
        interaction = await provider.interactionDetails(request.raw, reply.raw);
      } catch (error) {
        if (!(error instanceof errors.SessionNotFound)) throw error;
        return oauthError(reply, 400, {
          error: 'invalid_request',
          error_description: refusalTexts.expired[requestLanguage(request)],
        });
      }
      if (
        interaction.uid !== query[oauthInteractionParam] ||
        interaction.params.client_id !== query.client_id
      ) {
        return oauthError(reply, 400, {
          error: 'invalid_request',
          error_description: refusalTexts.otherApplication[requestLanguage(request)],
        });
      }
      const application = await findApplication(db, query.client_id);
      if (!application || !(await memberMayUseApplication(db, query.workspaceId, userId, query.client_id))) {
        const language = requestLanguage(request);
        const name = (language === 'ar' ? application?.nameAr : application?.nameEn) ?? query.client_id;
        return oauthError(reply, 403, {
          error: 'access_denied',
          error_description: refusalTexts.notAuthorized[language](name),
        });
      }

      // A workspace that requires a second factor, or a client that asks for one (`acr_values`),
      // gets no code from a session that has not used one: the portal asks for the second step.
      const multiFactor = usedSecondFactor(factors);
      const [workspace] = await db
        .select({ requireSecondFactor: workspaces.requireSecondFactor })
        .from(workspaces)
        .where(eq(workspaces.id, query.workspaceId))
        .limit(1);
      if (
        applicationSignInNeedsSecondFactor({
          factors,
          workspaceRequires: workspace?.requireSecondFactor === true,
          acrValues: typeof interaction.params.acr_values === 'string' ? interaction.params.acr_values : null,
        })
      ) {
        throw secondFactorRequired();
      }

      const grant = new provider.Grant({ accountId: userId, clientId: query.client_id });
      const requested = String(interaction.params.scope ?? 'openid').split(' ');
      grant.addOIDCScope(
        requested.filter((scope) => (supportedScopes as readonly string[]).includes(scope)).join(' '),
      );
      const grantId = await grant.save();
      await recordGrant(db, {
        grantId,
        userId,
        workspaceId: query.workspaceId,
        applicationId: application.id,
        multiFactor,
      });
      const redirect = await provider.interactionResult(
        request.raw,
        reply.raw,
        {
          login: {
            accountId: userId,
            amr: [...new Set(factors)],
            acr: multiFactor ? authenticationLevels.multiFactor : authenticationLevels.password,
          },
          consent: { grantId },
        },
        { mergeWithLastSubmission: false },
      );
      const data: AuthorizeClientSideResult = { redirect };
      return reply.header('cache-control', 'no-store').send({ data });
    },
  );
}
