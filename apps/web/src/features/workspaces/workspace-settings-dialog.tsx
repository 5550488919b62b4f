import {
  type CurrentUser,
  type WorkspaceSettings,
  type WorkspaceSummary,
  workspaceSettingsForm,
} from '@dukkan/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogBody, DialogCancel, DialogFooter } from '../../components/ui/dialog.tsx';
import { apiRequest } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { ResourceForm } from '../../resource-ui/form/resource-form.tsx';
import { useFileUploads } from '../../resource-ui/use-file-uploads.ts';

const fieldNames = ['name', 'logo', 'baseCurrency'];

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
  const { t, i18n } = useTranslation();
  const formId = useId();
  const queryClient = useQueryClient();
  const { uploadFiles, fileAccess } = useFileUploads();
  const [dirty, setDirty] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (input: unknown) =>
      apiRequest<WorkspaceSettings>('/workspaces/settings', {
        method: 'PATCH',
        body: input,
        query: { workspaceId: workspace.id },
      }),
  });

  const submit = async (input: unknown, methods: UseFormReturn<FieldValues>) => {
    setFailure(null);
    try {
      const saved = await save.mutateAsync(input);
      queryClient.setQueryData<CurrentUser>(queryKeys.currentUser, (user) =>
        user ? withSettings(user, saved) : user,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
      toast.success(t('workspaceSettings.saved'));
      onClose();
    } catch (error) {
      if (!applyValidationIssues(error, methods.setError, fieldNames)) {
        setFailure(describeApiError(error, t, i18n.language));
      }
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !save.isPending) onClose();
      }}
      title={t('workspaceSettings.title')}
      size="md"
      confirmClose={dirty && !save.isPending}
    >
      <DialogBody>
        {failure && (
          <Alert tone="error" className="mb-4">
            {failure}
          </Alert>
        )}
        <ResourceForm
          id={formId}
          fields={workspaceSettingsForm.fields}
          schema={workspaceSettingsForm.schema}
          defaultValues={workspaceSettingsForm.values(workspace)}
          recordId={workspace.id}
          onSubmit={submit}
          uploadFiles={uploadFiles}
          fileAccess={fileAccess}
          footer={false}
          onDirtyChange={setDirty}
        />
      </DialogBody>
      <DialogFooter>
        <DialogCancel disabled={save.isPending} />
        <Button type="submit" form={formId} loading={save.isPending}>
          {t('common.save')}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
