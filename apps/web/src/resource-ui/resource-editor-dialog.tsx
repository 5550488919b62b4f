import { type FormValues, listFormFields, type ResourceDefinition } from '@dukkan/contract';
import { useId, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Alert } from '../components/ui/alert.tsx';
import { Button } from '../components/ui/button.tsx';
import { Dialog, DialogBody, DialogCancel, DialogFooter } from '../components/ui/dialog.tsx';
import { isApiError } from '../lib/api-client.ts';
import { describeApiError } from '../lib/error-messages.ts';
import { applyValidationIssues } from '../lib/form-errors.ts';
import { useMessageText } from '../lib/message-text.ts';
import { ResourceForm } from './form/resource-form.tsx';
import type { ResourceEditorProps } from './resource-list-page.tsx';
import { useFileUploads } from './use-file-uploads.ts';
import { type RecordOf, useResourceMutations } from './use-resource.ts';

export interface ResourceEditorDialogProps<D extends ResourceDefinition>
  extends ResourceEditorProps<RecordOf<D>> {
  definition: D;
  /** The dialog's title: New … or Edit …. */
  title: string;
  /** Starting values of a new record beyond the form's defaults (a sub-category's parent). */
  newValues?: FormValues;
}

/**
 * The create/edit dialog of a resource with a declared form: the generic form renderer, the
 * spec's operation toasts, and the server's refusals under the fields they name (a repeated code,
 * a reference of another workspace), or above the form when no field is named.
 */
export function ResourceEditorDialog<D extends ResourceDefinition>({
  definition,
  record,
  onClose,
  title,
  newValues,
}: ResourceEditorDialogProps<D>) {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  const formId = useId();
  const form = definition.form;
  if (!form) throw new Error(`Resource ${definition.key} declares no form`);
  // The dialog stays open with the reason (under a field or above the form): the toast only says it failed.
  const { create, update } = useResourceMutations(definition, { reasonShownByCaller: true });
  const { uploadFiles, fileAccess } = useFileUploads();
  const [failure, setFailure] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const saving = create.isPending || update.isPending;
  const fieldNames = listFormFields(form.fields).map((field) => field.name);

  const save = async (input: unknown, methods: UseFormReturn<FieldValues>) => {
    setFailure(null);
    try {
      if (record) await update.mutateAsync({ id: record.id, input: input as never });
      else await create.mutateAsync(input as never);
      onClose();
    } catch (error) {
      const target = isApiError(error) && error.code === 'DB' ? error.body?.target : undefined;
      if (target && fieldNames.includes(target)) {
        methods.setError(
          target,
          { type: 'server', message: target === 'code' ? 'CODE_MUST_BE_UNIQUE' : 'VALUE_MUST_BE_UNIQUE' },
          { shouldFocus: true },
        );
      } else if (!applyValidationIssues(error, methods.setError, fieldNames)) {
        setFailure(
          !isApiError(error) || error.code === 'INTERNAL'
            ? t('resourceList.saveFailed')
            : error.code === 'VALIDATION' && i18n.exists(`validation.${error.message}`)
              ? messageText(error.message)
              : describeApiError(error, t, i18n.language),
        );
      }
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !saving) onClose();
      }}
      title={title}
      size="lg"
      confirmClose={dirty && !saving}
    >
      <DialogBody>
        {failure && (
          <Alert tone="error" className="mb-4">
            {failure}
          </Alert>
        )}
        <ResourceForm
          id={formId}
          fields={form.fields}
          schema={form.schema}
          defaultValues={record ? form.values(record as never) : newValues}
          recordId={record?.id}
          onSubmit={save}
          uploadFiles={uploadFiles}
          fileAccess={fileAccess}
          footer={false}
          onDirtyChange={setDirty}
        />
      </DialogBody>
      <DialogFooter>
        <DialogCancel disabled={saving} />
        <Button type="submit" form={formId} loading={saving}>
          {record ? t('common.save') : t('common.create')}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
