import {
  type InviteUserInput,
  inviteUserInputSchema,
  type WorkspaceUserRecord,
  workspaceUsersResource,
} from '@dukkan/contract';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogBody,
  DialogCancel,
  DialogFooter,
  dialogFormClassName,
} from '../../components/ui/dialog.tsx';
import { Field } from '../../components/ui/field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { apiRequest } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';
import { zodResolver } from '../../lib/zod/resolver.ts';
import { useOperationRunner } from '../../resource-ui/use-resource.ts';
import { ApplicationsField, applicationsHint, applicationsIssue } from './application-select.tsx';
import { RoleSelect } from './role-select.tsx';
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
    // An invited member is not an admin: once the workspace has an application, they need one (the server's rule too).
    if (installedApplications.length > 0 && input.applications.length === 0) {
      form.setError(
        'applications',
        { type: 'required', message: 'APPLICATIONS_REQUIRED' },
        { shouldFocus: true },
      );
      return;
    }
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
      const applicationsMessage = applicationsIssue(error);
      if (applicationsMessage)
        form.setError(
          'applications',
          { type: 'server', message: applicationsMessage },
          { shouldFocus: !placed },
        );
      else if (!placed) {
        form.setError('root.server', { message: describeApiError(error, t, i18n.language) });
      }
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !isSubmitting) onClose();
      }}
      confirmClose={isDirty && !isSubmitting}
      title={t('users.inviteTitle')}
      description={t('users.inviteDescription')}
    >
      <form noValidate onSubmit={form.handleSubmit(invite)} className={dialogFormClassName}>
        <DialogBody className="space-y-5">
          {errors.root?.server?.message && <Alert tone="error">{errors.root.server.message}</Alert>}
          <Field id="invite-email" label={t('common.email')} error={errors.email?.message} required>
            {(control) => (
              <Input
                {...control}
                {...form.register('email')}
                type="email"
                inputMode="email"
                autoComplete="off"
                dir="ltr"
                className="text-start"
              />
            )}
          </Field>
          <Field
            id="invite-role"
            label={t('users.columns.role')}
            error={errors.roleId?.message}
            hint={roles.mayViewRoles ? undefined : t('users.rolesHidden')}
            required
          >
            {(control) => (
              <RoleSelect
                {...control}
                {...form.register('roleId')}
                options={roles.options}
                disabled={!roles.mayViewRoles}
              />
            )}
          </Field>
          <ApplicationsField
            id="invite-applications"
            control={form.control}
            name="applications"
            installed={installedApplications}
            error={errors.applications?.message}
            hint={t(applicationsHint(installedApplications))}
            required={installedApplications.length > 0}
            onChosen={() => form.clearErrors('applications')}
          />
          <Field id="invite-code" label={t('users.columns.code')} error={errors.code?.message} showOptional>
            {(control) => <Input {...control} {...form.register('code')} autoComplete="off" maxLength={60} />}
          </Field>
        </DialogBody>
        <DialogFooter>
          <DialogCancel disabled={isSubmitting} />
          <Button type="submit" loading={isSubmitting}>
            {t('users.sendInvite')}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
