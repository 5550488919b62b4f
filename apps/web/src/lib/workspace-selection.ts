import type { CurrentUser, WorkspaceSummary } from '@dukkan/contract';

export const selectedWorkspaceStorageKey = 'selectedWorkspace';

/** The workspaces a user can pick: those they administer, then those of their roles, each once. */
export function listUserWorkspaces(
  user: Pick<CurrentUser, 'adminWorkspaces' | 'workspaces'>,
): WorkspaceSummary[] {
  const seen = new Set<string>();
  const result: WorkspaceSummary[] = [];
  for (const workspace of [...user.adminWorkspaces, ...user.workspaces.map((entry) => entry.workspace)]) {
    if (seen.has(workspace.id)) continue;
    seen.add(workspace.id);
    result.push(workspace);
  }
  return result;
}

/** The stored id when it is still one of the user's workspaces, otherwise the first one (spec §4). */
export function chooseWorkspaceId(
  workspaces: readonly WorkspaceSummary[],
  storedId: string | null | undefined,
): string | null {
  if (storedId && workspaces.some((workspace) => workspace.id === storedId)) return storedId;
  return workspaces[0]?.id ?? null;
}

export function readStoredWorkspaceId(
  storage: Pick<Storage, 'getItem'> | undefined = safeLocalStorage(),
): string | null {
  try {
    return storage?.getItem(selectedWorkspaceStorageKey) ?? null;
  } catch {
    return null;
  }
}

export function storeWorkspaceId(
  id: string,
  storage: Pick<Storage, 'setItem'> | undefined = safeLocalStorage(),
) {
  try {
    storage?.setItem(selectedWorkspaceStorageKey, id);
  } catch {
    // Private mode or a full quota: the choice then lasts for this page only.
  }
}

function safeLocalStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}
