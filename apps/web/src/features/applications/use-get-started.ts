import {
  type GetStarted,
  getStartedDismissalPath,
  getStartedPath,
  getStartedRequirement,
} from '@dukkan/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useCan, useWorkspace } from '../../lib/workspace-context.tsx';
import { PermissionDeniedError } from '../../resource-ui/use-resource.ts';

/**
 * `GET workspaces/get-started?workspaceId=…`: the steps this member may take, ticked from the
 * workspace's data. Not asked for by a member who may take none (the server would refuse).
 */
export function useGetStarted() {
  const { selectedWorkspace } = useWorkspace();
  const workspaceId = selectedWorkspace?.id ?? null;
  const mayAct = useCan(getStartedRequirement);
  return useQuery({
    queryKey: queryKeys.getStarted(workspaceId ?? ''),
    queryFn: ({ signal }) => apiRequest<GetStarted>(`/${getStartedPath}`, { query: { workspaceId }, signal }),
    enabled: workspaceId !== null && mayAct,
  });
}

/**
 * Hides the list for every member of the workspace (`hide: true`, a PUT) or shows it again (a
 * DELETE); the answer replaces the cached list.
 */
export function useGetStartedDismissal() {
  const { selectedWorkspace } = useWorkspace();
  const workspaceId = selectedWorkspace?.id ?? null;
  const mayAct = useCan(getStartedRequirement);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (hide: boolean) => {
      if (!workspaceId || !mayAct) throw new PermissionDeniedError(null);
      const answer = await apiRequest<GetStarted>(`/${getStartedDismissalPath}`, {
        method: hide ? 'PUT' : 'DELETE',
        query: { workspaceId },
      });
      queryClient.setQueryData(queryKeys.getStarted(workspaceId), answer);
      return answer;
    },
  });
}
