import {
  type CurrentUser,
  can,
  grantIn,
  type PermissionRequirement,
  type WorkspaceGrant,
  type WorkspaceSummary,
} from '@dukkan/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { leaveIfAllowed } from './leave-guard.ts';
import { queryKeys } from './query-keys.ts';
import {
  chooseWorkspaceId,
  listUserWorkspaces,
  readStoredWorkspaceId,
  storeWorkspaceId,
} from './workspace-selection.ts';

interface WorkspaceContextValue {
  user: CurrentUser;
  workspaces: WorkspaceSummary[];
  selectedWorkspace: WorkspaceSummary | null;
  selectWorkspace: (id: string) => void;
}

const WorkspaceContext = createContext<WorkspaceContextValue | null>(null);

/** The signed-in user and the workspace that scopes everything they see (spec §4). */
export function WorkspaceProvider({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const workspaces = useMemo(() => listUserWorkspaces(user), [user]);
  const [preferredId, setPreferredId] = useState(() => readStoredWorkspaceId());
  const selectedId = chooseWorkspaceId(workspaces, preferredId);

  useEffect(() => {
    if (selectedId) storeWorkspaceId(selectedId);
  }, [selectedId]);

  // Leaving a workspace drops its cached data: coming back loads it afresh, never a stale copy.
  const queryClient = useQueryClient();
  const previousId = useRef(selectedId);
  useEffect(() => {
    const left = previousId.current;
    previousId.current = selectedId;
    if (left && left !== selectedId) queryClient.removeQueries({ queryKey: queryKeys.workspace(left) });
  }, [selectedId, queryClient]);

  // Another workspace is another page: unsaved changes on this one are asked about first.
  const selectWorkspace = useCallback(
    (id: string) => {
      if (id !== selectedId) leaveIfAllowed(() => setPreferredId(id));
    },
    [selectedId],
  );
  const value = useMemo(
    () => ({
      user,
      workspaces,
      selectedWorkspace: workspaces.find((workspace) => workspace.id === selectedId) ?? null,
      selectWorkspace,
    }),
    [user, workspaces, selectedId, selectWorkspace],
  );
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

export function useWorkspace(): WorkspaceContextValue {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error('useWorkspace needs a <WorkspaceProvider> (inside the signed-in shell)');
  return value;
}

/** The selected workspace, or null outside the signed-in shell (a form shown on its own). */
export function useSelectedWorkspaceIfAny(): WorkspaceSummary | null {
  return useContext(WorkspaceContext)?.selectedWorkspace ?? null;
}

/** A permission checker bound to the user and the selected workspace. */
export function usePermissionCheck(): (requirement: PermissionRequirement | null) => boolean {
  const { user, selectedWorkspace } = useWorkspace();
  const workspaceId = selectedWorkspace?.id;
  return useCallback(
    (requirement) => requirement === null || can(user, workspaceId, requirement),
    [user, workspaceId],
  );
}

/** What the user holds in the selected workspace: admin, or their role's tags. */
export function useWorkspaceGrant(): WorkspaceGrant {
  const { user, selectedWorkspace } = useWorkspace();
  const workspaceId = selectedWorkspace?.id;
  return useMemo(() => grantIn(user, workspaceId), [user, workspaceId]);
}

/** `useCan({ or: ['viewBrands'] })`: may the user do this in the selected workspace? */
export function useCan(requirement: PermissionRequirement): boolean {
  return usePermissionCheck()(requirement);
}
