import type { FormField, FormFieldOption } from '@dukkan/contract';
import { lazy, type ReactNode, Suspense, useCallback, useEffect } from 'react';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { Select } from '../../components/ui/select.tsx';
import { whenIdle } from '../../lib/when-idle.ts';
import { NewRecordButton } from '../new-record-button.tsx';
import {
  choiceLabel,
  computedOptionLabel,
  computedOptions,
  useComputedOptions,
  useOptionSearchTexts,
  useRecordOptions,
} from '../option-sources.ts';
import { useResourceRecord } from '../use-resource.ts';
import { FieldFrame, type FrameControlProps } from './field-frame.tsx';
import { type FieldComponentProps, textOf, useFieldError } from './field-props.ts';

/** Past this many choices a multi select is a searchable combobox, not a list of checkboxes. */
const longListSize = 8;

/** The combobox (downshift) loads only for a form with a long multi select, never on sign-in. */
const MultiCombobox = lazy(() =>
  import('./multi-combobox.tsx').then((module) => ({ default: module.MultiCombobox })),
);
/** Loads only for a form with a searchable select (Radix's popover with it). */
const SearchableSelect = lazy(() =>
  import('./searchable-select.tsx').then((module) => ({ default: module.SearchableSelect })),
);

type ChoiceProps = FieldComponentProps & {
  options: readonly FormFieldOption[];
  loading?: boolean;
  searchTexts?: ReadonlyMap<string, string>;
  /** Beside the choices: "New …" for a select of records. */
  action?: ReactNode;
  /** Why there are no choices when the member may not see them ("You may not view brands"). */
  refusal?: string | null;
};

/**
 * select: a native select for one value; for several, a list of checkboxes, or past
 * `longListSize` choices a searchable combobox with chips (one tab stop instead of one per choice). With no options it says so (noOptionsMessage). Choices
 * are the field's own, every country or currency, or the workspace's records of a resource (a
 * tree's indented under their parents, without the edited record's own branch; disabled records
 * only as the value already chosen, marked). A select of records offers "New …" when the member
 * may add one (`NewRecordButton`): the record saved there is chosen, the rest of the form kept.
 */
export function SelectField(props: FieldComponentProps) {
  const source = props.field.optionSource;
  if (source?.kind === 'resource')
    return <RecordSelect {...props} resource={source.resource} parentField={source.parentField} />;
  if (props.field.searchable && !props.field.isMulti) return <SearchableComputedSelect {...props} />;
  return <ComputedSelect {...props} />;
}

/**
 * A searchable select of computed choices (`FormField.searchable`): the button names the choice
 * at once; the list is made while the page is idle, or when it is first opened.
 */
function SearchableComputedSelect(props: FieldComponentProps) {
  const { i18n } = useTranslation();
  const { field } = props;
  const error = useFieldError(field.name);
  const current: unknown = useWatch({ name: field.name });
  const stored = typeof current === 'string' && current ? current : null;
  const language = i18n.language;
  const options = useCallback(
    () => computedOptions(field, language, stored ? [stored] : []),
    [field, language, stored],
  );
  const labelOf = useCallback(
    (value: string) => computedOptionLabel(field, value, language),
    [field, language],
  );
  // Time zones are kept once named (~120–320 ms for the ~420 of them on a busy 2-core machine):
  // named while the page is idle, opening the list does not wait for them.
  useEffect(() => (field.disabled ? undefined : whenIdle(() => void options())), [field.disabled, options]);
  const searchTexts = useOptionSearchTexts(field);
  return (
    <Suspense fallback={<div className="h-16" aria-busy="true" />}>
      <SearchableSelect
        {...props}
        error={error}
        options={options}
        labelOf={labelOf}
        searchTexts={searchTexts}
      />
    </Suspense>
  );
}

function ComputedSelect(props: FieldComponentProps) {
  const current: unknown = useWatch({ name: props.field.name });
  return (
    <Choices
      {...props}
      options={useComputedOptions(props.field, current)}
      searchTexts={useOptionSearchTexts(props.field)}
    />
  );
}

function RecordSelect({
  resource,
  parentField,
  ...props
}: FieldComponentProps & { resource: string; parentField?: string }) {
  const { t, i18n } = useTranslation();
  const { setValue, formState } = useFormContext();
  // The chosen record may lie beyond the first page of choices: it is fetched and offered too.
  const current: unknown = useWatch({ name: props.field.name });
  const { options, isLoading, definition, refusal } = useRecordOptions(
    resource,
    parentField ? { parentField, leaveOut: props.recordId } : undefined,
    { current },
  );
  const missing =
    !isLoading &&
    typeof current === 'string' &&
    current &&
    !options.some((option) => option.value === current)
      ? current
      : null;
  const chosen = useResourceRecord(definition, missing).data;
  const all = chosen
    ? [
        ...options,
        {
          value: chosen.id,
          label: choiceLabel(definition, chosen as Record<string, unknown>, i18n.language, t),
        },
      ]
    : options;
  // A record made with "New …" is chosen: the value of one, added to those of several.
  const choose = (id: string) => {
    const chosenIds = Array.isArray(current) ? (current as string[]) : [];
    setValue(
      props.field.name,
      props.field.isMulti ? [...chosenIds.filter((value) => value !== id), id] : id,
      {
        shouldDirty: true,
        shouldValidate: formState.isSubmitted,
      },
    );
  };
  const action = props.field.disabled ? undefined : (
    <NewRecordButton resource={resource} fieldId={props.id} onCreated={(record) => choose(record.id)} />
  );
  return <Choices {...props} options={all} loading={isLoading} action={action} refusal={refusal} />;
}

function Choices({ field, id, options, loading = false, searchTexts, action, refusal }: ChoiceProps) {
  const { t } = useTranslation();
  const error = useFieldError(field.name);
  const noOptions = loading
    ? t('form.loadingOptions')
    : (refusal ?? textOf(t, field.noOptionsMessage ?? 'form.noOptions'));

  if (field.isMulti && options.length > longListSize)
    return (
      <Suspense fallback={<div className="h-16" aria-busy="true" />}>
        <MultiCombobox
          field={field}
          id={id}
          error={error}
          options={options}
          searchTexts={searchTexts}
          action={action}
        />
      </Suspense>
    );
  if (field.isMulti)
    return (
      <MultiSelect
        field={field}
        id={id}
        error={error}
        noOptions={noOptions}
        options={options}
        action={action}
      />
    );
  return (
    <FieldFrame field={field} id={id} error={error} action={action}>
      {(control) => (
        <SingleSelect
          field={field}
          control={control}
          disabled={field.disabled || options.length === 0}
          loading={loading}
        >
          {options.length === 0 ? (
            <option value="">{noOptions}</option>
          ) : (
            <option value="">{field.placeholder ? textOf(t, field.placeholder) : t('common.choose')}</option>
          )}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {textOf(t, option.label)}
            </option>
          ))}
        </SingleSelect>
      )}
    </FieldFrame>
  );
}

/**
 * The value lives in the form's state, not in the element: a choice that is not offered yet
 * (records still loading) is kept, and shown once it arrives.
 */
function SingleSelect({
  field,
  control,
  disabled,
  loading,
  children,
}: {
  field: FormField;
  control: FrameControlProps;
  disabled: boolean;
  loading: boolean;
  children: ReactNode;
}) {
  const { field: controller } = useController({ name: field.name });
  return (
    <Select
      {...control}
      name={controller.name}
      ref={controller.ref}
      value={(controller.value as string | undefined) ?? ''}
      onChange={controller.onChange}
      onBlur={controller.onBlur}
      disabled={disabled}
      aria-busy={loading || undefined}
    >
      {children}
    </Select>
  );
}

/** A few choices, each a checkbox (keyboard and screen readers for free). */
function MultiSelect({
  field,
  id,
  error,
  noOptions,
  options,
  action,
}: FieldComponentProps & {
  error: string | undefined;
  noOptions: string;
  options: readonly FormFieldOption[];
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  const { field: controller } = useController({ name: field.name });
  const selected: string[] = Array.isArray(controller.value) ? controller.value : [];
  const toggle = (value: string, checked: boolean) =>
    controller.onChange(checked ? [...selected, value] : selected.filter((item) => item !== value));
  return (
    <FieldFrame field={field} id={id} error={error} asGroup action={action}>
      {(control) =>
        options.length === 0 ? (
          <p id={id} className="text-sm text-slate-500 dark:text-slate-400">
            {noOptions}
          </p>
        ) : (
          <div id={id} className="space-y-1 rounded-lg border border-slate-300 p-2 dark:border-slate-700">
            {options.map((option, index) => (
              <label
                key={option.value}
                htmlFor={`${id}-${option.value}`}
                className="flex cursor-pointer items-center gap-2 rounded px-1.5 py-1 text-sm hover:bg-slate-50 dark:hover:bg-slate-800"
              >
                <Checkbox
                  id={`${id}-${option.value}`}
                  checked={selected.includes(option.value)}
                  onChange={(event) => toggle(option.value, event.target.checked)}
                  onBlur={controller.onBlur}
                  disabled={field.disabled}
                  aria-invalid={control['aria-invalid']}
                  ref={index === 0 ? controller.ref : undefined}
                />
                {textOf(t, option.label)}
              </label>
            ))}
          </div>
        )
      }
    </FieldFrame>
  );
}
