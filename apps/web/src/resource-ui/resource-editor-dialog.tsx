import type { FormValues, ResourceDefinition } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { FormDialog } from './form-dialog.tsx';
import { RecordHistory, useMayReadHistory } from './record-history.tsx';
import type { ResourceEditorProps } from './resource-list-page.tsx';
import { useFileUploads } from './use-file-uploads.ts';
import { type RecordOf, useResourceMutations } from './use-resource.ts';

interface ResourceEditorDialogProps<D extends ResourceDefinition> extends ResourceEditorProps<RecordOf<D>> {
  definition: D;
  /** The dialog's title: New … or Edit …. */
  title: string;
  /** Starting values of a new record beyond the form's defaults (a sub-category's parent). */
  newValues?: FormValues;
  /** Told the saved record, before the dialog closes (a field chooses the record it created). */
  onSaved?: (record: RecordOf<D> & Record<string, unknown>) => void;
  /** Where the focus goes when the dialog closes, when not back to what opened it. */
  returnFocus?: () => HTMLElement | null;
}

/**
 * The create/edit dialog of a resource with a declared form, with the spec's operation toasts;
 * the dialog shows the server's refusals under the fields they name (a repeated code, a reference
 * of another workspace), or above the form when no field is named.
 */
export function ResourceEditorDialog<D extends ResourceDefinition>({
  definition,
  record,
  onClose,
  title,
  newValues,
  onSaved,
  returnFocus,
  notice,
}: ResourceEditorDialogProps<D>) {
  const { t } = useTranslation();
  const form = definition.form;
  if (!form) throw new Error(`Resource ${definition.key} declares no form`);
  // The dialog stays open with the reason (under a field or above the form): the toast only says it failed.
  const { create, update } = useResourceMutations(definition, { reasonShownByCaller: true });
  const { uploadFiles, fileAccess } = useFileUploads();
  // A stored record's changes, for whoever may read the workspace's audit log.
  const mayReadHistory = useMayReadHistory(definition.key);

  return (
    <FormDialog
      title={title}
      fields={form.fields}
      schema={form.schema}
      defaultValues={record ? form.values(record as never) : newValues}
      recordId={record?.id}
      submitLabel={record ? t('common.save') : t('common.create')}
      failedText={t('resourceList.saveFailed')}
      onSave={async (input) => {
        const saved = record
          ? await update.mutateAsync({ id: record.id, input: input as never })
          : await create.mutateAsync(input as never);
        onSaved?.(saved as RecordOf<D> & Record<string, unknown>);
      }}
      onClose={onClose}
      returnFocus={returnFocus}
      notice={notice}
      uploadFiles={uploadFiles}
      fileAccess={fileAccess}
      extraTab={
        record && mayReadHistory
          ? {
              label: t('audit.historyTab'),
              content: <RecordHistory resourceKey={definition.key} recordId={record.id} />,
            }
          : undefined
      }
    />
  );
}

/** A new record's dialog, as a field's "New …" opens it (`RecordEditorContext`). */
export function NewRecordEditorDialog<D extends ResourceDefinition>(
  props: Omit<ResourceEditorDialogProps<D>, 'record'>,
) {
  return <ResourceEditorDialog {...props} record={null} />;
}
