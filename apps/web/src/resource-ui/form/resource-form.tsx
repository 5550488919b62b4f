import { type FormEntry, formDefaultValues, formEntriesFor, isFormFieldGroup } from '@dukkan/contract';
import { type ReactNode, useEffect, useId } from 'react';
import { type FieldValues, FormProvider, type Resolver, type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/class-names.ts';
import { getRegisteredComponent } from '../../lib/component-registry.ts';
import { zodResolver } from '../../lib/zod/resolver.ts';
import type { FileAccess, UploadFiles } from './field-props.ts';
import { fieldComponents } from './field-registry.ts';
import { formErrorMap } from './form-messages.ts';

export interface ResourceFormProps<S extends z.ZodType> {
  /** The resource's form fields and groups (contract `FormEntry`). */
  fields: readonly FormEntry[];
  /** The resource's input schema: the same one the server validates with. */
  schema: S;
  /** A record's values; fields it lacks start from their definition (phone lists with one empty entry). */
  defaultValues?: Record<string, unknown>;
  /** Receives the parsed values, and the form, so server issues can be put under fields. */
  onSubmit: (values: z.output<S>, form: UseFormReturn<FieldValues>) => unknown;
  /** The upload call of imageUpload fields (the /files endpoint), injected. */
  uploadFiles?: UploadFiles;
  /** What the user may do with files (spec §6); everything when not given. */
  fileAccess?: FileAccess;
  /**
   * The id of the record edited; absent for a new one (a tree's parent select leaves it out). A
   * stored record's form leaves out the `createOnly` fields.
   */
  recordId?: string;
  /** The form's id, for a submit button outside it (a dialog footer). */
  id?: string;
  className?: string;
  /** Replaces the default submit button (e.g. Cancel + Save). */
  footer?: ReactNode;
  submitLabel?: string;
  /** Told when the values start or stop differing from the starting ones (a dialog asks before discarding). */
  onDirtyChange?: (dirty: boolean) => void;
  /**
   * Shows the values without letting them change (a member who may not edit them): every control
   * disabled, no required marks, no file picking or removal, no submit button.
   */
  readOnly?: boolean;
}

const readOnlyFileAccess: FileAccess = { view: true, change: false, remove: false };

/** Tailwind needs whole class names: one column on narrow screens, the group's columns from `sm`. */
const columnClasses: Record<number, string> = {
  1: 'grid-cols-1',
  2: 'grid-cols-1 sm:grid-cols-2',
  3: 'grid-cols-1 sm:grid-cols-2 lg:grid-cols-3',
  4: 'grid-cols-1 sm:grid-cols-2 lg:grid-cols-4',
};
const columnsClass = (columns = 1) => columnClasses[Math.min(Math.max(Math.trunc(columns), 1), 4)];

/**
 * The generic form of a resource: every field type of spec §3 with react-hook-form, validated by
 * the resource's zod schema; messages under the fields in the current language (spec §4, §5).
 * A field of an unregistered type throws 'Unknown component: {type}' while rendering.
 */
export function ResourceForm<S extends z.ZodType>({
  fields: declared,
  schema,
  defaultValues,
  onSubmit,
  uploadFiles,
  fileAccess,
  recordId,
  id,
  className,
  footer,
  submitLabel,
  onDirtyChange,
  readOnly = false,
}: ResourceFormProps<S>) {
  const { t } = useTranslation();
  const formId = useId();
  // A stored record's form leaves out what only a create takes (a new type's first values).
  const fields = formEntriesFor(declared, recordId === undefined);
  const form = useForm<FieldValues>({
    // zod's own messages become codes translated at render time; a schema's own messages win.
    resolver: zodResolver(schema as unknown as z.ZodType<FieldValues, FieldValues>, {
      error: formErrorMap,
    }) as Resolver<FieldValues>,
    defaultValues: formDefaultValues(fields, defaultValues),
  });
  // Told from inside the input event, not from an effect after the render: a state set in an
  // effect renders later, and an Escape pressed right after typing would find the form clean.
  useEffect(() => {
    if (!onDirtyChange) return;
    return form.subscribe({
      formState: { isDirty: true },
      callback: ({ isDirty }) => onDirtyChange(Boolean(isDirty)),
    });
  }, [form, onDirtyChange]);

  const renderField = (entry: Exclude<FormEntry, { kind: 'group' }>) => {
    const Component = getRegisteredComponent(fieldComponents, entry.type);
    return (
      <Component
        key={entry.name}
        field={readOnly ? { ...entry, disabled: true, disableRequiredIndicator: true } : entry}
        id={`${formId}-${entry.name}`}
        uploadFiles={readOnly ? undefined : uploadFiles}
        fileAccess={readOnly ? readOnlyFileAccess : fileAccess}
        recordId={recordId}
      />
    );
  };

  return (
    <FormProvider {...form}>
      <form
        id={id}
        noValidate
        className={cn('space-y-5', className)}
        onSubmit={(event) => {
          // A dialog opened from a field (a "New …" editor) is rendered in a portal, yet its
          // submit event still bubbles through React's tree into the form underneath.
          event.stopPropagation();
          void form.handleSubmit((values) => onSubmit(values as z.output<S>, form))(event);
        }}
      >
        {/* Read only, the one disabled fieldset disables every control a field renders. */}
        <fieldset disabled={readOnly} className="min-w-0 space-y-5">
          {fields.map((entry, index) =>
            isFormFieldGroup(entry) ? (
              <section
                // Groups have no name of their own; their place in the list is stable.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                key={`group-${index}`}
                aria-labelledby={`${formId}-group-${index}`}
                className="space-y-3"
              >
                <h3
                  id={`${formId}-group-${index}`}
                  className="text-sm font-semibold text-slate-900 dark:text-slate-100"
                >
                  {t(entry.label as never, { defaultValue: entry.label }) as string}
                </h3>
                <div
                  className={cn('grid gap-4', columnsClass(entry.columns))}
                  data-columns={entry.columns ?? 1}
                >
                  {entry.fields.map(renderField)}
                </div>
              </section>
            ) : (
              renderField(entry)
            ),
          )}
        </fieldset>
        {readOnly
          ? null
          : (footer ?? (
              <div className="flex justify-end">
                <Button type="submit" loading={form.formState.isSubmitting}>
                  {submitLabel ?? t('common.save')}
                </Button>
              </div>
            ))}
      </form>
    </FormProvider>
  );
}
