import {
  acceptInviteInputSchema,
  baseCurrencyChangeQuerySchema,
  changePasswordInputSchema,
  confirmTotpInputSchema,
  exportQuerySchema,
  forgotPasswordInputSchema,
  importJobsQuerySchema,
  importQuerySchema,
  importTemplateQuerySchema,
  inviteUserInputSchema,
  linkTokenField,
  listQuerySchema,
  loginInputSchema,
  memberSignInsQuerySchema,
  passkeyStepInputSchema,
  type ResourceVerb,
  reauthenticationInputSchema,
  recoveryStepInputSchema,
  registerPasskeyInputSchema,
  requestAccessInputSchema,
  resendInviteInputSchema,
  resetPasswordInputSchema,
  setProfileInputSchema,
  subscriptionEventInputSchema,
  totpStepInputSchema,
  updateProfileInputSchema,
  updateWorkspaceUserInputSchema,
  workspaceSettingsInputSchema,
} from '@dukkan/contract';
import { z } from 'zod';
import { documentQuerySchema } from '../../src/features/subscriptions/routes.ts';
import type { DeclaredRoute } from '../../src/http/access.ts';
import { verbRoutes } from '../../src/resource-engine/routes.ts';
import { type RouteTargets, routeCall, testResources } from '../helpers/route-scenarios.ts';
import type { BaseCall } from './generate.ts';

/** The query of a route that only names its workspace. */
const workspaceQuery = z.strictObject({ workspaceId: z.uuid() });

/** The contract schemas of what a route takes: its body and its query string. */
interface RouteSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
}

/** Schemas of the engine's routes, from each served resource's declaration. */
function engineSchemas(method: string, url: string): RouteSchemas | undefined {
  for (const { storage, engineVerbs } of testResources.served) {
    const { definition } = storage;
    const schemas: Record<ResourceVerb, RouteSchemas> = {
      list: { query: listQuerySchema(definition) },
      filters: { query: workspaceQuery },
      get: { query: workspaceQuery },
      create: { body: definition.schemas.create, query: workspaceQuery },
      bulk: { body: definition.schemas.create, query: workspaceQuery },
      update: { body: definition.schemas.update, query: workspaceQuery },
      delete: { query: workspaceQuery },
    };
    // Only the engine's own verbs: a member is changed by the users feature at the same address.
    const routes = verbRoutes(definition);
    const verb = engineVerbs.find(
      (candidate) => routes[candidate].method === method && routes[candidate].url === url,
    );
    if (verb) return schemas[verb];
    if (engineVerbs.includes('list') && routes.export.method === method && routes.export.url === url)
      return { query: exportQuerySchema(definition) };
    if (routes.import.method === method && routes.import.url === url) return { query: importQuerySchema };
    if (routes.importTemplate.method === method && routes.importTemplate.url === url)
      return { query: importTemplateQuerySchema };
    if (
      [
        routes.importPreview,
        routes.importJobs,
        routes.importJobEvents,
        routes.importJob,
        routes.cancelImportJob,
      ].some((r) => r.method === method && r.url === url)
    )
      return { query: importJobsQuerySchema };
  }
  return undefined;
}

/** The routes off the engine: their schemas, from the contract. */
const featureSchemas: Record<string, RouteSchemas> = {
  'GET /api/workspaces/users/filters': { query: workspaceQuery },
  'PATCH /api/workspaces/users/:id': { body: updateWorkspaceUserInputSchema, query: workspaceQuery },
  'DELETE /api/workspaces/users/:id': { query: workspaceQuery },
  'POST /api/workspaces/users/invite': { body: inviteUserInputSchema, query: workspaceQuery },
  'POST /api/workspaces/users/resend-invite': { body: resendInviteInputSchema, query: workspaceQuery },
  'POST /api/subscriptions/events': { body: subscriptionEventInputSchema, query: workspaceQuery },
  'GET /api/payments/upcoming': { query: workspaceQuery },
  'GET /api/payments/due': { query: workspaceQuery },
  'GET /api/payments/instructions': { query: workspaceQuery },
  'GET /api/payments/:id/document': { query: documentQuerySchema },
  'GET /api/applications': { query: workspaceQuery },
  'GET /api/applications/installed': { query: workspaceQuery },
  'GET /api/audit-log/sign-ins': { query: memberSignInsQuerySchema },
  'GET /api/workspaces/settings': { query: workspaceQuery },
  'PATCH /api/workspaces/settings': { body: workspaceSettingsInputSchema, query: workspaceQuery },
  'GET /api/workspaces/settings/base-currency-change': { query: baseCurrencyChangeQuerySchema },
  'GET /api/workspaces/get-started': { query: workspaceQuery },
  'PUT /api/workspaces/get-started/dismissal': { query: workspaceQuery },
  'DELETE /api/workspaces/get-started/dismissal': { query: workspaceQuery },
  'POST /api/files': { query: workspaceQuery },
  'POST /api/files/bulk': { query: workspaceQuery },
  'GET /api/health': {},
  'GET /api/captcha/config': {},
  'GET /api/captcha/challenge': {},
  'GET /api/auth/user': {},
  'GET /api/auth/sign-ins': {},
  'GET /api/auth/logout': {},
  'POST /api/auth/login': { body: loginInputSchema },
  'POST /api/auth/change-password': { body: changePasswordInputSchema },
  'PATCH /api/auth/profile': { body: updateProfileInputSchema },
  'PUT /api/auth/profile/picture': { query: workspaceQuery },
  'DELETE /api/auth/profile/picture': {},
  'POST /api/auth/second-factor/totp': { body: totpStepInputSchema },
  'POST /api/auth/second-factor/recovery': { body: recoveryStepInputSchema },
  'POST /api/auth/second-factor/passkey/options': {},
  'POST /api/auth/second-factor/passkey': { body: passkeyStepInputSchema },
  'GET /api/auth/second-factors': {},
  'POST /api/auth/second-factors/totp/start': { body: reauthenticationInputSchema },
  'POST /api/auth/second-factors/totp': { body: confirmTotpInputSchema },
  'POST /api/auth/second-factors/passkey/options': { body: reauthenticationInputSchema },
  'POST /api/auth/second-factors/passkey': { body: registerPasskeyInputSchema },
  'DELETE /api/auth/second-factors/:id': { body: reauthenticationInputSchema },
  'POST /api/auth/recovery-codes': { body: reauthenticationInputSchema },
  'GET /api/auth/sessions': {},
  'DELETE /api/auth/sessions/:id': {},
  'POST /api/auth/sessions/sign-out-others': {},
  'POST /api/auth/request-for-access': { body: requestAccessInputSchema },
  'POST /api/auth/forgot-password': { body: forgotPasswordInputSchema },
  'POST /api/auth/reset-password': { body: resetPasswordInputSchema },
  'GET /api/auth/invite-status': { query: z.object({ token: linkTokenField }) },
  'POST /api/auth/set-profile': { body: setProfileInputSchema },
  'POST /api/workspaces/users/accept-invite': { body: acceptInviteInputSchema },
  'GET /api/oauth/application/:clientId': {},
  'GET /api/oauth/installed-application/:clientId': { query: workspaceQuery },
  'GET /api/oauth/authorize/client-side': {
    query: z.looseObject({ workspaceId: z.uuid(), client_id: z.string(), interaction: z.string() }),
  },
};

/** What a valid call of each public or signed-in route sends (the workspace routes' come from route-scenarios). */
function publicCall(
  method: string,
  url: string,
  known: { email: string; inviteToken: string; workspaceId: string },
) {
  const calls: Record<
    string,
    {
      body?: unknown;
      query?: Record<string, string>;
      headers?: Record<string, string>;
      params?: Record<string, string>;
    }
  > = {
    'GET /api/health': {},
    'GET /api/captcha/config': {},
    'GET /api/captcha/challenge': {},
    'GET /api/auth/user': {},
    'GET /api/auth/sign-ins': {},
    // As the app's own fetch sends it.
    'GET /api/auth/logout': { headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' } },
    'POST /api/auth/login': { body: { email: known.email, password: 'Wrong#Pass1' } },
    'POST /api/auth/change-password': {
      body: { currentPassword: 'Wrong#Pass1', newPassword: 'Brand#New2025x' },
    },
    'PATCH /api/auth/profile': { body: { name: 'Fuzz Admin', phone: '0123456789', language: 'en' } },
    // A picture sent without its file (refused), and the picture removed.
    'PUT /api/auth/profile/picture': { query: { workspaceId: known.workspaceId } },
    'DELETE /api/auth/profile/picture': {},
    // The second step as a step-up of the fuzz's session (no factor: each is refused), and the
    // profile's factors and sessions, each proven by a wrong password or naming nothing of theirs.
    'POST /api/auth/second-factor/totp': { body: { code: '123456' } },
    'POST /api/auth/second-factor/recovery': { body: { code: 'abcde-fghij-klmno' } },
    'POST /api/auth/second-factor/passkey/options': { body: {} },
    'POST /api/auth/second-factor/passkey': { body: { response: { id: 'not-a-credential' } } },
    'GET /api/auth/second-factors': {},
    'POST /api/auth/second-factors/totp/start': { body: { password: 'Wrong#Pass1' } },
    'POST /api/auth/second-factors/totp': { body: { name: 'Phone', code: '123456' } },
    'POST /api/auth/second-factors/passkey/options': { body: { password: 'Wrong#Pass1' } },
    'POST /api/auth/second-factors/passkey': { body: { name: 'Key', response: { id: 'not-a-credential' } } },
    'DELETE /api/auth/second-factors/:id': {
      params: { id: '00000000-0000-4000-8000-000000000000' },
      body: { password: 'Wrong#Pass1' },
    },
    'POST /api/auth/recovery-codes': { body: { password: 'Wrong#Pass1' } },
    'GET /api/auth/sessions': {},
    'DELETE /api/auth/sessions/:id': { params: { id: '00000000-0000-4000-8000-000000000000' } },
    'POST /api/auth/sessions/sign-out-others': { body: {} },
    'POST /api/auth/request-for-access': {
      body: {
        name: 'Sara',
        email: 'sara@shop.example',
        phone: '+20 100 1234567',
        companyName: 'Sara Foods',
        companyWebsite: 'https://sara.example',
        businessCategory: 'food',
        howDidYouHearAboutUs: 'google',
        reCaptchaToken: 'solved',
        language: 'en',
      },
    },
    'POST /api/auth/forgot-password': {
      body: { email: known.email, reCaptchaToken: 'solved', language: 'en' },
    },
    'POST /api/auth/reset-password': { body: { password: 'Brand#New2025x', token: 'not-a-real-token' } },
    'GET /api/auth/invite-status': { query: { token: known.inviteToken } },
    'POST /api/auth/set-profile': {
      body: {
        name: 'Invitee',
        phone: '0123456789',
        password: 'Brand#New2025x',
        reCaptchaToken: 'solved',
        passwordResetToken: 'not-a-real-token',
      },
    },
    'POST /api/workspaces/users/accept-invite': { body: { token: known.inviteToken } },
    'GET /api/workspaces/settings': { query: { workspaceId: known.workspaceId } },
    'PATCH /api/workspaces/settings': {
      body: { name: 'Fuzz Store', baseCurrency: 'EGP', timeZone: 'Africa/Cairo' },
      query: { workspaceId: known.workspaceId },
    },
    'GET /api/workspaces/settings/base-currency-change': {
      query: { workspaceId: known.workspaceId, currency: 'USD' },
    },
    'GET /api/oauth/application/:clientId': { params: { clientId: 'dukkan-demo' } },
    'GET /api/oauth/installed-application/:clientId': {
      params: { clientId: 'dukkan-demo' },
      query: { workspaceId: known.workspaceId },
    },
    // No interaction of this browser: the portal's refusal (invalid_request), in OAuth's shape.
    'GET /api/oauth/authorize/client-side': {
      headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' },
      query: { workspaceId: known.workspaceId, client_id: 'dukkan-demo', interaction: 'not-an-interaction' },
    },
  };
  return calls[`${method} ${url}`];
}

/**
 * The valid call of a route, with the schemas of its body and query: the fuzz's starting point.
 * A route the app serves without an entry here fails the fuzz, by name.
 */
export function baseCallOf(
  route: DeclaredRoute,
  targets: RouteTargets,
  known: { email: string; inviteToken: string; workspaceId: string },
): BaseCall {
  const key = `${route.method} ${route.url}`;
  const schemas = engineSchemas(route.method, route.url) ?? featureSchemas[key];
  if (!schemas) throw new Error(`The fuzz knows no schemas of ${key}: add them to test/fuzz/targets.ts`);
  if (route.access.kind === 'permission') {
    const call = routeCall(route, targets, targets.workspaceId);
    const [path = '', search = ''] = call.url.split('?');
    const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);
    const pattern = new RegExp(`^${route.url.replace(/:([A-Za-z]+)/g, '([^/]+)')}$`);
    const values = path.match(pattern)?.slice(1) ?? [];
    const isMultipart =
      route.url.startsWith('/api/files') ||
      route.url.endsWith('/import') ||
      route.url.endsWith('/import/preview');
    return {
      method: route.method,
      route: route.url,
      params: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(values[index] ?? '')])),
      query: Object.fromEntries(new URLSearchParams(search)),
      body: call.body,
      bodyKind: call.body === undefined ? 'none' : isMultipart ? 'multipart' : 'json',
      bodySchema: schemas.body,
      querySchema: schemas.query,
      headers: call.headers,
    };
  }
  const call = publicCall(route.method, route.url, known);
  if (!call) throw new Error(`The fuzz knows no valid call of ${key}: add one to test/fuzz/targets.ts`);
  return {
    method: route.method,
    route: route.url,
    params: call.params ?? {},
    query: call.query ?? {},
    body: call.body,
    bodyKind: call.body === undefined ? 'none' : 'json',
    bodySchema: schemas.body,
    querySchema: schemas.query,
    headers: call.headers,
  };
}
