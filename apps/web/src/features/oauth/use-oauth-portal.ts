import {
  type AuthorizeClientSideResult,
  type InstalledOauthApplication,
  isOauthToastError,
  type OauthApplication,
  type OauthErrorBody,
} from '@dukkan/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, isApiError } from '../../lib/api-client.ts';
import { shouldRetryUnlessNotFound } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export function isNotFound(error: unknown): boolean {
  return isApiError(error) && error.statusCode === 404;
}

/** `GET oauth/application/{clientId}`: the application's name and logo; 404 for an unknown client. */
export function useOauthApplication(clientId: string) {
  return useQuery({
    queryKey: queryKeys.oauthApplication(clientId),
    queryFn: ({ signal }) =>
      apiRequest<OauthApplication>(`/oauth/application/${encodeURIComponent(clientId)}`, { signal }),
    retry: shouldRetryUnlessNotFound,
    staleTime: 60_000,
  });
}

/**
 * `GET oauth/installed-application/{clientId}?workspaceId=…`: whether the user may use the
 * application in the workspace; 404 when not (Access Denied).
 */
export function installedOauthApplicationQuery(clientId: string, workspaceId: string) {
  return {
    queryKey: queryKeys.installedOauthApplication(workspaceId, clientId),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      apiRequest<InstalledOauthApplication>(`/oauth/installed-application/${encodeURIComponent(clientId)}`, {
        query: { workspaceId },
        signal,
      }),
    retry: shouldRetryUnlessNotFound,
  };
}

/**
 * The installed-application check in the selected workspace; idle without a workspace. With
 * `poll`, a refusal is asked again every `pollMs` (a subscription waiting for the operator's
 * activation), so the sign-in goes on once it is allowed.
 */
export function useInstalledOauthApplication(
  clientId: string,
  workspaceId: string | null,
  { poll = false }: { poll?: boolean } = {},
) {
  return useQuery({
    ...installedOauthApplicationQuery(clientId, workspaceId ?? ''),
    enabled: workspaceId !== null,
    refetchInterval: (query) => (poll && isNotFound(query.state.error) ? pollMs : false),
  });
}

/** How often a portal waiting for an activation asks again. */
export const pollMs = 15_000;

/**
 * `GET oauth/authorize/client-side` with the page's parameters (those the authorization server
 * sent the browser here with, `interaction` among them) and the workspace: where the browser goes
 * next. The workspace chosen here wins over any `workspaceId` in the address.
 */
export function authorizeClientSide(
  params: URLSearchParams,
  workspaceId: string,
  language: string,
): Promise<AuthorizeClientSideResult> {
  const query: Record<string, string> = Object.fromEntries(params);
  query.workspaceId = workspaceId;
  // A refusal's description is shown as it comes: the server writes it in the page's language.
  return apiRequest<AuthorizeClientSideResult>('/oauth/authorize/client-side', { query, language });
}

/** The description of a refusal the page shows as it is (spec §8's OAuth error values), or null. */
export function oauthToastDescription(error: unknown): string | null {
  if (!isApiError(error)) return null;
  const answer = error.payload as Partial<OauthErrorBody> | null | undefined;
  if (!answer || !isOauthToastError(answer.error)) return null;
  return typeof answer.error_description === 'string' && answer.error_description.trim() !== ''
    ? answer.error_description
    : null;
}
