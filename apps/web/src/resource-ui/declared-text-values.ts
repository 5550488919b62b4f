import { useMemo } from 'react';
import { useSelectedWorkspaceIfAny } from '../lib/workspace-context.tsx';

/** What a declared text (a label, a hint, a list's intro) may name of the selected workspace. */
interface DeclaredTextValues {
  /** ISO 4217, e.g. `EGP`: what the workspace's exchange rates are against. */
  baseCurrency?: string;
  workspaceName?: string;
}

/**
 * The selected workspace's values for declared texts, so a resource's declaration can say
 * "Rates against {{baseCurrency}}" without a page of its own. Empty outside the signed-in shell.
 */
export function useDeclaredTextValues(): DeclaredTextValues {
  const workspace = useSelectedWorkspaceIfAny();
  return useMemo(
    () => (workspace ? { baseCurrency: workspace.baseCurrency, workspaceName: workspace.name } : {}),
    [workspace],
  );
}
