import type { UploadedFiles } from '@dukkan/contract';
import { useCallback, useMemo } from 'react';
import { apiUpload } from '../lib/api-client.ts';
import { usePermissionCheck, useWorkspace } from '../lib/workspace-context.tsx';
import type { FileAccess, UploadFiles } from './form/field-props.ts';

/**
 * Uploads into the selected workspace (`POST /files/bulk`), and what the user may do with files
 * (spec §6). Without the permission to pick files there is no upload call at all.
 */
export function useFileUploads(): { uploadFiles?: UploadFiles; fileAccess: FileAccess } {
  const { selectedWorkspace } = useWorkspace();
  const check = usePermissionCheck();
  const workspaceId = selectedWorkspace?.id;
  const fileAccess = useMemo(
    () => ({
      view: check({ and: ['viewFiles'] }),
      change: check({ or: ['addFiles', 'editFiles'] }),
      remove: check({ and: ['deleteFiles'] }),
    }),
    [check],
  );
  const upload = useCallback(
    async (files: File[]) =>
      (await apiUpload<UploadedFiles>('/files/bulk', 'files', files, { workspaceId })).urls,
    [workspaceId],
  );
  return { uploadFiles: workspaceId && fileAccess.change ? upload : undefined, fileAccess };
}
