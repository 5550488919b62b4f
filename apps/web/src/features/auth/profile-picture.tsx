import type { CurrentUser, FormField } from '@dukkan/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { apiRequest, apiUpload } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useWorkspace } from '../../lib/workspace-context.tsx';
import { allFileAccess } from '../../resource-ui/form/field-props.ts';
import { ImageUploadField } from '../../resource-ui/form/image-upload-field.tsx';

const picturePath = '/auth/profile/picture';

/** The picture as a field of the generic form: one image, the uploader every image field uses. */
const pictureField: FormField = {
  name: 'profilePicture',
  type: 'imageUpload',
  multiple: false,
  label: 'profile.picture',
  hint: 'profile.pictureHint',
};

interface PictureForm {
  profilePicture: string[];
}

/**
 * The person's picture on /profile (spec §3 `profilePicture`), shown by the user menu and the
 * sign-in portal. Picking an image saves it at once (`PUT auth/profile/picture`, counted as an
 * upload of the selected workspace, which is why it needs one); removing it saves at once too.
 * Needs no permission: it is the person's own.
 */
export function ProfilePicture({ user }: { user: CurrentUser }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const { selectedWorkspace } = useWorkspace();
  const workspaceId = selectedWorkspace?.id;
  const id = useId();
  const saved = user.profilePicture ? [user.profilePicture] : [];
  const form = useForm<PictureForm>({ values: { profilePicture: saved } });

  const show = useCallback(
    (updated: CurrentUser) => queryClient.setQueryData(queryKeys.currentUser, updated),
    [queryClient],
  );

  const upload = useCallback(
    async (files: File[]) => {
      const updated = await apiUpload<CurrentUser>(
        picturePath,
        'file',
        files.slice(0, 1),
        { workspaceId },
        'PUT',
      );
      show(updated);
      toast.success(t('profile.pictureSaved'));
      return updated.profilePicture ? [updated.profilePicture] : [];
    },
    [workspaceId, show, t],
  );

  // The uploader's remove button empties the field: the picture is removed then and there.
  const current = user.profilePicture;
  useEffect(() => {
    const { unsubscribe } = form.watch((values, { name }) => {
      if (name !== 'profilePicture' || (values.profilePicture ?? []).length > 0 || !current) return;
      apiRequest<CurrentUser>(picturePath, { method: 'DELETE' }).then(
        (updated) => {
          show(updated);
          toast.success(t('profile.pictureRemoved'));
        },
        (error: unknown) => {
          form.setValue('profilePicture', [current]);
          toast.error(describeApiError(error, t, i18n.language));
        },
      );
    });
    return unsubscribe;
  }, [form, current, show, t, i18n.language]);

  return (
    <FormProvider {...form}>
      <ImageUploadField
        field={pictureField}
        id={`${id}-picture`}
        uploadFiles={workspaceId ? upload : undefined}
        fileAccess={allFileAccess}
      />
    </FormProvider>
  );
}
