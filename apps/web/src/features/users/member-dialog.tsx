import {
  type UpdateWorkspaceUserInput,
  updateWorkspaceUserInputSchema,
  type WorkspaceUserRecord,
  workspaceUsersResource,
} from '@dukkan/contract';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { Dialog, DialogForm, formDialogState } from '../../components/ui/dialog.tsx';
import { Field } from '../../components/ui/field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { describeApiError } from '../../lib/error-messages.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';
import { useWorkspace, useWorkspaceGrant } from '../../lib/workspace-context.tsx';
import { zodResolver } from '../../lib/zod/resolver.ts';
import type { ResourceEditorProps } from '../../resource-ui/resource-list-page.tsx';
import { useResourceMutations } from '../../resource-ui/use-resource.ts';
import { ApplicationsField, applicationsHint, showApplicationsRefusal } from './application-select.tsx';
import { RoleField } from './role-select.tsx';
import { useInstalledApplications } from './use-installed-applications.ts';
import { useRoleOptions } from './use-role-options.ts';
import { usersDialogOperationOptions } from './users-operation-options.ts';

type MemberForm = z.input<typeof updateWorkspaceUserInputSchema>;

/** A member's role, staff code and (for admins to decide) admin rights in this workspace. */
export function MemberDialog({ record, onClose }: ResourceEditorProps<WorkspaceUserRecord>) {
  const { t, i18n } = useTranslation();
  const grant = useWorkspaceGrant();
  const { user } = useWorkspace();
  const roles = useRoleOptions();
  const installed = useInstalledApplications();
  const installedApplications = installed.data ?? [];
  const { update } = useResourceMutations(workspaceUsersResource, usersDialogOperationOptions);
  const form = useForm<MemberForm, unknown, UpdateWorkspaceUserInput>({
    resolver: zodResolver(updateWorkspaceUserInputSchema),
    defaultValues: {
      roleId: record?.role?.id ?? '',
      code: record?.code ?? '',
      isAdmin: record?.isAdmin ?? false,
      applications: record?.applications ?? [],
    },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const willBeAdmin = form.watch('isAdmin') ?? false;
  // Made admin: a refusal of the member's applications no longer applies (admins use every one).
  useEffect(() => {
    if (willBeAdmin) form.clearErrors('applications');
  }, [willBeAdmin, form]);
  if (!record) return null;
  // Like their admin rights, a non-admin's own applications are an admin's to change (the server's rule too).
  const ownApplications = !grant.isAdmin && record.id === user.id;

  const save = async (input: UpdateWorkspaceUserInput) => {
    const applications = input.applications ?? [];
    // Only what changed: an unchanged role is not "assigned" again.
    const patch: UpdateWorkspaceUserInput = {};
    const sameApplications =
      applications.length === record.applications.length &&
      applications.every((clientId) => record.applications.includes(clientId));
    if (!sameApplications) patch.applications = applications;
    if (input.roleId && input.roleId !== record.role?.id) patch.roleId = input.roleId;
    if ((input.code ?? '') !== (record.code ?? '')) patch.code = input.code;
    if (grant.isAdmin && input.isAdmin !== undefined && input.isAdmin !== record.isAdmin)
      patch.isAdmin = input.isAdmin;
    try {
      if (Object.keys(patch).length > 0) await update.mutateAsync({ id: record.id, input: patch });
      onClose();
    } catch (error) {
      const placed = applyValidationIssues(error, form.setError, ['roleId', 'code']);
      showApplicationsRefusal(error, placed, form.setError, (refusal) =>
        describeApiError(refusal, t, i18n.language),
      );
    }
  };

  return (
    <Dialog
      {...formDialogState({ dirty: isDirty, submitting: isSubmitting, onClose })}
      title={t('users.editTitle', { name: record.name || record.email })}
      description={<bdi dir="ltr">{record.email}</bdi>}
    >
      <DialogForm
        onSubmit={form.handleSubmit(save)}
        submitting={isSubmitting}
        error={errors.root?.server?.message}
        submitLabel={t('common.save')}
      >
        <RoleField
          id="member-role"
          roles={roles}
          error={errors.roleId?.message}
          input={form.register('roleId')}
          currentRole={record.role}
        />
        <ApplicationsField
          id="member-applications"
          control={form.control}
          name="applications"
          installed={installedApplications}
          kept={record.applications}
          locked={ownApplications}
          error={errors.applications?.message}
          hint={
            ownApplications
              ? t('users.ownApplications')
              : willBeAdmin
                ? t('users.adminApplications')
                : t(applicationsHint(installedApplications))
          }
          onChosen={() => form.clearErrors('applications')}
        />
        <Field id="member-code" label={t('users.columns.code')} error={errors.code?.message} showOptional>
          {(control) => <Input {...control} {...form.register('code')} autoComplete="off" maxLength={60} />}
        </Field>
        {grant.isAdmin && (
          <div className="flex items-start gap-3 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700">
            <Checkbox
              id="member-admin"
              aria-describedby="member-admin-hint"
              {...form.register('isAdmin')}
              // The only active admin stays one (LAST_ADMIN): the box cannot be cleared.
              disabled={record.isLastAdmin}
              className="mt-0.5"
            />
            <div>
              <label
                htmlFor="member-admin"
                className="block font-semibold text-slate-800 dark:text-slate-100"
              >
                {t('users.adminLabel')}
              </label>
              <p id="member-admin-hint" className="text-slate-600 dark:text-slate-400">
                {record.isLastAdmin ? t('users.lastAdminHint') : t('users.adminHint')}
              </p>
            </div>
          </div>
        )}
      </DialogForm>
    </Dialog>
  );
}
