import {
  type InviteUserInput,
  inviteUserInputSchema,
  type WorkspaceUserRecord,
  workspaceUsersResource,
} from '@dukkan/contract';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Dialog, DialogForm, formDialogState } from '../../components/ui/dialog.tsx';
import { Field } from '../../components/ui/field.tsx';
import { EmailInput, Input } from '../../components/ui/input.tsx';
import { apiRequest } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';
import { zodResolver } from '../../lib/zod/resolver.ts';
import { useOperationRunner } from '../../resource-ui/use-resource.ts';
import { ApplicationsField, applicationsHint, showApplicationsRefusal } from './application-select.tsx';
import { RoleField } from './role-select.tsx';
import { useInstalledApplications } from './use-installed-applications.ts';
import { useRoleOptions } from './use-role-options.ts';
import { usersDialogOperationOptions } from './users-operation-options.ts';

type InviteForm = z.input<typeof inviteUserInputSchema>;

/** Invite by email with a role (`POST workspaces/users/invite`); the mail carries the link. */
export function InviteUserDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const run = useOperationRunner(workspaceUsersResource, usersDialogOperationOptions);
  const roles = useRoleOptions();
  const installed = useInstalledApplications();
  const installedApplications = installed.data ?? [];
  const form = useForm<InviteForm, unknown, InviteUserInput>({
    resolver: zodResolver(inviteUserInputSchema),
    defaultValues: { email: '', roleId: '', code: '', applications: [] },
  });
  const { errors, isSubmitting, isDirty } = form.formState;

  const invite = async ({ code, ...input }: InviteUserInput) => {
    try {
      await run('invite', 'addUsers', (workspaceId) =>
        apiRequest<WorkspaceUserRecord>('/workspaces/users/invite', {
          method: 'POST',
          body: { ...input, ...(code ? { code } : {}) },
          query: { workspaceId },
        }),
      );
      onClose();
    } catch (error) {
      const placed = applyValidationIssues(error, form.setError, ['email', 'roleId', 'code']);
      showApplicationsRefusal(error, placed, form.setError, (refusal) =>
        describeApiError(refusal, t, i18n.language),
      );
    }
  };

  return (
    <Dialog
      {...formDialogState({ dirty: isDirty, submitting: isSubmitting, onClose })}
      title={t('users.inviteTitle')}
      description={t('users.inviteDescription')}
    >
      <DialogForm
        onSubmit={form.handleSubmit(invite)}
        submitting={isSubmitting}
        error={errors.root?.server?.message}
        submitLabel={t('users.sendInvite')}
      >
        <Field id="invite-email" label={t('common.email')} error={errors.email?.message} required>
          {(control) => <EmailInput {...control} {...form.register('email')} autoComplete="off" />}
        </Field>
        <RoleField
          id="invite-role"
          roles={roles}
          error={errors.roleId?.message}
          input={form.register('roleId')}
        />
        <ApplicationsField
          id="invite-applications"
          control={form.control}
          name="applications"
          installed={installedApplications}
          error={errors.applications?.message}
          hint={t(applicationsHint(installedApplications))}
          onChosen={() => form.clearErrors('applications')}
        />
        <Field id="invite-code" label={t('users.columns.code')} error={errors.code?.message} showOptional>
          {(control) => <Input {...control} {...form.register('code')} autoComplete="off" maxLength={60} />}
        </Field>
      </DialogForm>
    </Dialog>
  );
}
