import type { LocalizedText } from '../domain/localized-text.ts';

/*
 * The sign-in portal (`/authenticate`, spec §2 and §7): what its page reads from the API. A client
 * application sends the user to `/authenticate` with the OAuth parameters; the server hands them to
 * its authorization server, which checks the client, the redirect URI and PKCE and sends the
 * browser on to the page with the parameters and the `interaction` it opened. The page then calls:
 *
 * - `GET /api/oauth/application/{clientId}` (public) → `{ data: OauthApplication }`, 404 for an
 *   unknown client (the page goes to `/404`);
 * - `GET /api/oauth/installed-application/{clientId}?workspaceId=…` (signed in) →
 *   `{ data: InstalledOauthApplication }`, 404 when the workspace has not installed the
 *   application or the user may not use it (Access Denied);
 * - `GET /api/oauth/authorize/client-side?…the page's parameters…&workspaceId=…` (signed in, the
 *   app's own request only) → `{ data: { redirect } }`, where the browser goes next; a refusal
 *   answers 400 or 403 with an `OauthErrorBody`.
 */

/** What a client id may be (the operator chooses it): no other text names an application. */
export const clientIdPattern = /^[a-z0-9-]{3,60}$/;

/** `GET /api/oauth/application/{clientId}`: the application as the portal page shows it. */
export interface OauthApplication {
  clientId: string;
  localizedName: LocalizedText;
  /** The logo's address under `/files/`, or null. */
  logo: string | null;
}

/** `GET /api/oauth/installed-application/{clientId}`: the workspace the sign-in will act in. */
export interface InstalledOauthApplication {
  clientId: string;
  workspace: { id: string; name: string };
}

/** `GET /api/oauth/authorize/client-side` → `{ data: AuthorizeClientSideResult }`. */
export interface AuthorizeClientSideResult {
  /** The authorization server's address that completes the sign-in (and redirects to the client). */
  redirect: string;
}

/** The OAuth error values whose `error_description` the page shows in a toast (spec §8). */
export const oauthToastErrors = [
  'access_denied',
  'invalid_grant',
  'invalid_request',
  'unauthorized_client',
  'invalid_client',
  'unsupported_response_type',
  'invalid_scope',
  'insufficient_scope',
  'invalid_token',
  'unauthorized_request',
  'unsupported_grant_type',
] as const;
export type OauthToastError = (typeof oauthToastErrors)[number];

/** What a refused portal call answers (RFC 6749 §5.2's shape). */
export interface OauthErrorBody {
  error: string;
  error_description?: string;
}

export function isOauthToastError(value: unknown): value is OauthToastError {
  return typeof value === 'string' && (oauthToastErrors as readonly string[]).includes(value);
}

/** The query parameter the server adds when it sends the browser to the portal page. */
export const oauthInteractionParam = 'interaction';
