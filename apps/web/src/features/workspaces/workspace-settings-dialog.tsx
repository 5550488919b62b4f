import {
  type CurrentUser,
  type WorkspaceSettings,
  type WorkspaceSummary,
  workspaceSettingsForm,
} from '@dukkan/contract';
import { useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { FormDialog } from '../../resource-ui/form-dialog.tsx';
import { useFileUploads } from '../../resource-ui/use-file-uploads.ts';

/** The saved settings in every summary of the workspace the current user holds (admin and role lists). */
function withSettings(user: CurrentUser, settings: WorkspaceSettings): CurrentUser {
  const update = (workspace: WorkspaceSummary): WorkspaceSummary =>
    workspace.id === settings.id
      ? { ...workspace, name: settings.name, logo: settings.logo, baseCurrency: settings.baseCurrency }
      : workspace;
  return {
    ...user,
    adminWorkspaces: user.adminWorkspaces.map(update),
    workspaces: user.workspaces.map((entry) => ({ ...entry, workspace: update(entry.workspace) })),
  };
}

/**
 * A workspace's name, logo and base currency (its admins only), in the generic form renderer. On
 * save the shell shows the new name and logo at once, and what reads the base currency follows.
 */
export function WorkspaceSettingsDialog({
  workspace,
  onClose,
}: {
  workspace: WorkspaceSummary;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { uploadFiles, fileAccess } = useFileUploads();

  const save = async (input: unknown) => {
    const saved = await apiRequest<WorkspaceSettings>('/workspaces/settings', {
      method: 'PATCH',
      body: input,
      query: { workspaceId: workspace.id },
    });
    queryClient.setQueryData<CurrentUser>(queryKeys.currentUser, (user) =>
      user ? withSettings(user, saved) : user,
    );
    void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
    toast.success(t('workspaceSettings.saved'));
  };

  return (
    <FormDialog
      title={t('workspaceSettings.title')}
      size="md"
      fields={workspaceSettingsForm.fields}
      schema={workspaceSettingsForm.schema}
      defaultValues={workspaceSettingsForm.values(workspace)}
      recordId={workspace.id}
      submitLabel={t('common.save')}
      failedText={t('resourceList.saveFailed')}
      onSave={save}
      onClose={onClose}
      uploadFiles={uploadFiles}
      fileAccess={fileAccess}
    />
  );
}
