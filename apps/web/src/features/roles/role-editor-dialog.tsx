import {
  authorityRolesResource,
  type PermissionTag,
  type RoleInput,
  type RoleRecord,
  roleInputSchema,
} from '@dukkan/contract';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Dialog, DialogForm, formDialogState } from '../../components/ui/dialog.tsx';
import { Field } from '../../components/ui/field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { isApiError } from '../../lib/api-client.ts';
import { describeSaveFailure } from '../../lib/error-messages.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useWorkspaceGrant } from '../../lib/workspace-context.tsx';
import { zodResolver } from '../../lib/zod/resolver.ts';
import type { ResourceEditorProps } from '../../resource-ui/resource-list-page.tsx';
import { useResourceMutations } from '../../resource-ui/use-resource.ts';
import { PermissionMatrix } from './permission-matrix.tsx';

type RoleForm = z.input<typeof roleInputSchema>;

const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((tag) => b.includes(tag));

/** Editing your own role changes what you may do: the current user is reloaded after a change. */
const roleOperationOptions = { alsoInvalidate: [queryKeys.currentUser] };

/** New role / Edit role: code, title and the permission matrix. */
export function RoleEditorDialog({ record, onClose }: ResourceEditorProps<RoleRecord>) {
  const { t, i18n } = useTranslation();
  const matrixLabelId = useId();
  const grant = useWorkspaceGrant();
  const grantable = (tag: PermissionTag) => grant.isAdmin || grant.tags.has(tag);
  const { create, update } = useResourceMutations(authorityRolesResource, roleOperationOptions);

  const form = useForm<RoleForm, unknown, RoleInput>({
    resolver: zodResolver(roleInputSchema),
    defaultValues: {
      code: record?.code ?? '',
      title: record?.title ?? '',
      permissions: (record?.permissions ?? []) as PermissionTag[],
    },
  });
  const { errors, isSubmitting, isDirty } = form.formState;

  const save = async (input: RoleInput) => {
    try {
      if (!record) await create.mutateAsync(input);
      else {
        // Only what changed: a non-admin may keep tags on a role they could not grant themselves.
        const patch: Partial<RoleInput> = {};
        if (input.code !== record.code) patch.code = input.code;
        if (input.title !== record.title) patch.title = input.title;
        if (!sameTags(input.permissions, record.permissions)) patch.permissions = input.permissions;
        if (Object.keys(patch).length > 0) await update.mutateAsync({ id: record.id, input: patch });
      }
      onClose();
    } catch (error) {
      if (isApiError(error) && error.code === 'DB' && error.body?.target === 'code') {
        form.setError('code', { message: 'CODE_MUST_BE_UNIQUE' }, { shouldFocus: true });
      } else if (!applyValidationIssues(error, form.setError, ['code', 'title', 'permissions'])) {
        form.setError('root.server', {
          message: describeSaveFailure(error, t, i18n.language, t('roles.saveFailed')),
        });
      }
    }
  };

  return (
    <Dialog
      {...formDialogState({ dirty: isDirty, submitting: isSubmitting, onClose })}
      title={record ? t('roles.editTitle', { name: record.title }) : t('roles.createTitle')}
      description={t('roles.editorDescription')}
      size="lg"
    >
      <DialogForm
        onSubmit={form.handleSubmit(save)}
        submitting={isSubmitting}
        error={errors.root?.server?.message}
        submitLabel={record ? t('common.save') : t('roles.createSubmit')}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          {/* Optional: left empty, the server assigns the next ROLE- code. */}
          <Field
            id="role-code"
            label={t('roles.columns.code')}
            error={errors.code?.message}
            hint={t('resources.common.codeHint')}
            showOptional
          >
            {(control) => (
              <Input {...control} {...form.register('code')} autoComplete="off" maxLength={60} dir="ltr" />
            )}
          </Field>
          <Field id="role-title" label={t('roles.columns.title')} error={errors.title?.message} required>
            {(control) => (
              <Input {...control} {...form.register('title')} autoComplete="off" maxLength={60} />
            )}
          </Field>
        </div>
        <div className="space-y-2">
          <div>
            <h3 id={matrixLabelId} className="text-sm font-semibold text-slate-800 dark:text-slate-100">
              {t('roles.permissions')}
            </h3>
            {!grant.isAdmin && (
              <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
                {t('permissions.notHeldHint')}
              </p>
            )}
          </div>
          {/* watch/setValue rather than <Controller>: it keeps react-hook-form's controller code out of the chunk /login shares. */}
          <PermissionMatrix
            value={form.watch('permissions') ?? []}
            onChange={(tags) =>
              form.setValue('permissions', tags as PermissionTag[], {
                shouldDirty: true,
                shouldValidate: true,
              })
            }
            grantable={grantable}
            labelledBy={matrixLabelId}
          />
          {errors.permissions && (
            <p className="text-sm text-red-600 dark:text-red-400">{t('validation.PERMISSION_IS_INVALID')}</p>
          )}
        </div>
      </DialogForm>
    </Dialog>
  );
}
