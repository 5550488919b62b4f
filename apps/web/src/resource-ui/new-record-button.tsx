import type { ResourceDefinition } from '@dukkan/contract';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportKeptRecord } from '../components/kept-records.tsx';
import { PlusIcon } from '../components/ui/action-icons.tsx';
import { recordName, requireResource } from './option-sources.ts';
import { useRecordEditor } from './record-editor-context.ts';
import { type RecordOf, useResourceAccess } from './use-resource.ts';

/** Whether "New …" is offered for a resource: it declares a form, and the member may add its records. */
export function useMayCreate(definition: ResourceDefinition): boolean {
  const { allows } = useResourceAccess(definition);
  return Boolean(definition.form) && allows('create');
}

interface NewRecordButtonProps {
  /** The key of the resource whose records the field chooses. */
  resource: string;
  /**
   * The field's control: it has the focus when the editor closes — or, in a list of checkboxes,
   * the new record's own box (`<fieldId>-<record id>`).
   */
  fieldId: string;
  /** Told the saved record, for the field to choose it. */
  onCreated: (record: RecordOf<ResourceDefinition>) => void;
}

/**
 * "New …" under a field that chooses records of `resource` (a product's unit, category, tags,
 * variation type): the resource's own editor opens over the form, which keeps its values; the
 * record saved there is handed to `onCreated` for the field to choose, the focus goes back to the
 * field, and the forms around are told it was saved (`useReportKeptRecord`), so leaving them
 * without saving says it is kept. Offered only when the member may add such records and the
 * resource declares a form. The editor's own fields offer "New …" in turn.
 */
export function NewRecordButton({ resource, ...props }: NewRecordButtonProps) {
  const definition = requireResource(resource);
  return useMayCreate(definition) ? <OfferedNewRecord definition={definition} {...props} /> : null;
}

function OfferedNewRecord({
  definition,
  fieldId,
  onCreated,
}: Omit<NewRecordButtonProps, 'resource'> & { definition: ResourceDefinition }) {
  const { t, i18n } = useTranslation();
  const { Editor, preload } = useRecordEditor();
  const report = useReportKeptRecord();
  const [open, setOpen] = useState(false);
  const created = useRef<string | null>(null);
  const entity = t(`resources.${definition.key}.one` as never) as string;
  const label = t('resourceList.new', { entity });

  return (
    <>
      <div className="flex justify-end">
        <button
          type="button"
          onClick={() => {
            created.current = null;
            setOpen(true);
          }}
          onPointerEnter={preload}
          onFocus={preload}
          className="inline-flex min-h-8 items-center gap-1 rounded-md px-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-300 dark:hover:bg-brand-500/10 dark:hover:text-brand-200"
        >
          <PlusIcon className="size-4 shrink-0" />
          {label}
        </button>
      </div>
      {open && (
        <Editor
          definition={definition}
          title={label}
          onClose={() => setOpen(false)}
          onSaved={(record) => {
            created.current = record.id;
            onCreated(record as RecordOf<ResourceDefinition>);
            report({ entity, name: recordName(definition, record, i18n.language) });
          }}
          returnFocus={() => {
            const own = created.current && document.getElementById(`${fieldId}-${created.current}`);
            const field = document.getElementById(fieldId);
            // A group of checkboxes is no control of its own: the focus then goes back to this button.
            return own || (field && field.tabIndex >= 0 ? field : null);
          }}
        />
      )}
    </>
  );
}
