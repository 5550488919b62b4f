import { type FormEntry, formEntriesFor } from '@dukkan/contract';
import { useId, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { KeptRecordsNote, KeptRecordsScope, useKeptRecords } from '../components/kept-records.tsx';
import { Alert } from '../components/ui/alert.tsx';
import { Dialog, DialogBody, type DialogProps, DialogSubmitFooter } from '../components/ui/dialog.tsx';
import type { FileAccess, UploadFiles } from './form/field-props.ts';
import { ResourceForm } from './form/resource-form.tsx';
import { placeSaveFailure } from './form/save-failure.ts';

interface FormDialogProps<S extends z.ZodType> {
  title: string;
  size?: DialogProps['size'];
  /** The declared form: its fields and the schema the server validates with. */
  fields: readonly FormEntry[];
  schema: S;
  defaultValues?: Record<string, unknown>;
  /** The record edited; absent for a new one. */
  recordId?: string;
  /** Create or Save. */
  submitLabel: string;
  /** Said above the form when the server failed ("… could not be saved"). */
  failedText: string;
  /** Saves the values; throws the refusal, which the dialog shows where it belongs. */
  onSave: (values: z.output<S>) => Promise<unknown>;
  /** After a save, and on Cancel, Escape, the close button or the backdrop (asked first when changed). */
  onClose: () => void;
  uploadFiles?: UploadFiles;
  fileAccess?: FileAccess;
  /** Where the focus goes when the dialog closes, when not back to what opened it. */
  returnFocus?: () => HTMLElement | null;
}

/**
 * A declared form in a dialog: the generic form renderer, Cancel and the submit button in the
 * footer, "Discard your changes?" before unsaved values are lost, and a refusal where it belongs —
 * a repeated value or a broken rule under the field it names, anything else above the form. While
 * a save is under way nothing closes the dialog; when it fails, the values stay. Records saved
 * meanwhile from its fields ("New …") stay saved: closing without saving then asks too, and the
 * question says which are kept.
 */
export function FormDialog<S extends z.ZodType>({
  title,
  size = 'lg',
  fields,
  schema,
  defaultValues,
  recordId,
  submitLabel,
  failedText,
  onSave,
  onClose,
  uploadFiles,
  fileAccess,
  returnFocus,
}: FormDialogProps<S>) {
  const { t, i18n } = useTranslation();
  const formId = useId();
  const kept = useKeptRecords();
  const [failure, setFailure] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);

  const submit = async (values: z.output<S>, methods: UseFormReturn<FieldValues>) => {
    setFailure(null);
    setSaving(true);
    try {
      await onSave(values);
      onClose();
    } catch (error) {
      setFailure(
        placeSaveFailure(
          error,
          methods,
          formEntriesFor(fields, recordId === undefined),
          t,
          i18n.language,
          failedText,
        ),
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !saving) onClose();
      }}
      title={title}
      size={size}
      confirmClose={(dirty || kept.records.length > 0) && !saving}
      discardNote={<KeptRecordsNote records={kept.records} />}
      returnFocus={returnFocus}
    >
      <DialogBody>
        {failure && (
          <Alert tone="error" className="mb-4">
            {failure}
          </Alert>
        )}
        <KeptRecordsScope report={kept.report}>
          <ResourceForm
            id={formId}
            fields={fields}
            schema={schema}
            defaultValues={defaultValues}
            recordId={recordId}
            onSubmit={submit}
            uploadFiles={uploadFiles}
            fileAccess={fileAccess}
            footer={false}
            onDirtyChange={setDirty}
          />
        </KeptRecordsScope>
      </DialogBody>
      <DialogSubmitFooter submitting={saving} form={formId}>
        {submitLabel}
      </DialogSubmitFooter>
    </Dialog>
  );
}
