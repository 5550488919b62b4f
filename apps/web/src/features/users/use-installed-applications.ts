import type { LocalizedText } from '@dukkan/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useWorkspace } from '../../lib/workspace-context.tsx';

/** An application the workspace may use (in a free trial or subscribed): what a member can be given. */
export interface InstalledApplication {
  clientId: string;
  name: LocalizedText;
  /** The signed-in user may give it: an admin any, anyone else only those they hold themselves. */
  grantable: boolean;
}

/**
 * `GET applications/installed?workspaceId=…`. Cached under the applications' prefix, so a
 * subscription event on the dashboard refreshes it too.
 */
export function useInstalledApplications() {
  const { selectedWorkspace } = useWorkspace();
  const workspaceId = selectedWorkspace?.id ?? null;
  // Sorted by name in the reader's language on the server.
  const { language } = useTranslation().i18n;
  return useQuery({
    queryKey: [...queryKeys.resource(workspaceId ?? '', 'applications'), 'installed', language],
    queryFn: ({ signal }) =>
      apiRequest<InstalledApplication[]>('/applications/installed', {
        query: { workspaceId },
        signal,
        language,
      }),
    enabled: workspaceId !== null,
  });
}
