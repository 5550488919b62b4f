import { type FormEntry, formEntriesFor } from '@dukkan/contract';
import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';
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
  /**
   * A second tab beside the form's (a record's History): the form stays mounted, with what was
   * typed, while the other tab shows.
   */
  extraTab?: { label: string; content: ReactNode };
  /** What saving changes beyond the record (a new location's next invoice), above the fields. */
  notice?: ReactNode;
}

/** The tabs of a dialog with a second one: the form's and the other. */
function DialogTabs({
  tabs,
  selected,
  onSelect,
  idOf,
}: {
  tabs: readonly string[];
  selected: number;
  onSelect: (index: number) => void;
  idOf: (index: number) => { tab: string; panel: string };
}) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  // Either arrow moves to the other tab, whichever the writing direction (there are two).
  const onKeyDown = (event: KeyboardEvent) => {
    if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
    event.preventDefault();
    const next =
      event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : (selected + 1) % tabs.length;
    onSelect(next);
    buttons.current[next]?.focus();
  };
  return (
    <div
      role="tablist"
      className="mb-4 flex gap-1 border-b border-slate-200 dark:border-slate-700"
      onKeyDown={onKeyDown}
    >
      {tabs.map((label, index) => (
        <button
          key={label}
          ref={(element) => {
            buttons.current[index] = element;
          }}
          type="button"
          role="tab"
          id={idOf(index).tab}
          aria-selected={index === selected}
          aria-controls={idOf(index).panel}
          tabIndex={index === selected ? 0 : -1}
          onClick={() => onSelect(index)}
          className={
            index === selected
              ? '-mb-px border-b-2 border-brand-600 px-3 py-2 text-sm font-semibold text-brand-700 dark:border-brand-400 dark:text-brand-300'
              : '-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white'
          }
        >
          {label}
        </button>
      ))}
    </div>
  );
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
  extraTab,
  notice,
}: FormDialogProps<S>) {
  const { t, i18n } = useTranslation();
  const formId = useId();
  const tabsId = useId();
  const [tab, setTab] = useState(0);
  const idOf = (index: number) => ({ tab: `${tabsId}-tab-${index}`, panel: `${tabsId}-panel-${index}` });
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
        {extraTab && (
          <DialogTabs
            tabs={[t('audit.detailsTab'), extraTab.label]}
            selected={tab}
            onSelect={setTab}
            idOf={idOf}
          />
        )}
        <div
          {...(extraTab ? { role: 'tabpanel', id: idOf(0).panel, 'aria-labelledby': idOf(0).tab } : {})}
          hidden={tab !== 0}
          // Saving from the other tab shows the form, where its issues are.
          onSubmit={() => setTab(0)}
        >
          {failure && (
            <Alert tone="error" className="mb-4">
              {failure}
            </Alert>
          )}
          {notice && <div className="mb-4">{notice}</div>}
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
        </div>
        {extraTab && tab === 1 && (
          <div role="tabpanel" id={idOf(1).panel} aria-labelledby={idOf(1).tab}>
            {extraTab.content}
          </div>
        )}
      </DialogBody>
      <DialogSubmitFooter submitting={saving} form={formId}>
        {submitLabel}
      </DialogSubmitFooter>
    </Dialog>
  );
}
