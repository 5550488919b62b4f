import type { FormField, FormFieldOption } from '@dukkan/contract';
import { type ReactNode, useState } from 'react';
import { useController, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Select } from '../../components/ui/select.tsx';
import { choiceLabel, useComputedOptions, useRecordOptions } from '../option-sources.ts';
import { useResourceRecord } from '../use-resource.ts';
import { FieldFrame, type FrameControlProps } from './field-frame.tsx';
import { type FieldComponentProps, textOf, useFieldError } from './field-props.ts';

/** Past this many choices a multi select offers a filter box. */
const longListSize = 12;

type ChoiceProps = FieldComponentProps & { options: readonly FormFieldOption[]; loading?: boolean };

/**
 * select: a native select for one value; for several, a list of checkboxes (keyboard and screen
 * readers for free, no listbox library). With no options it says so (noOptionsMessage). Choices
 * are the field's own, every country or currency, or the workspace's records of a resource (a
 * tree's indented under their parents, without the edited record's own branch; disabled records
 * only as the value already chosen, marked).
 */
export function SelectField(props: FieldComponentProps) {
  const source = props.field.optionSource;
  return source?.kind === 'resource' ? (
    <RecordSelect {...props} resource={source.resource} parentField={source.parentField} />
  ) : (
    <ComputedSelect {...props} />
  );
}

function ComputedSelect(props: FieldComponentProps) {
  const current: unknown = useWatch({ name: props.field.name });
  return <Choices {...props} options={useComputedOptions(props.field, current)} />;
}

function RecordSelect({
  resource,
  parentField,
  ...props
}: FieldComponentProps & { resource: string; parentField?: string }) {
  const { t, i18n } = useTranslation();
  // The chosen record may lie beyond the first page of choices: it is fetched and offered too.
  const current: unknown = useWatch({ name: props.field.name });
  const { options, isLoading, definition } = useRecordOptions(
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
  return <Choices {...props} options={all} loading={isLoading} />;
}

function Choices({ field, id, options, loading = false }: ChoiceProps) {
  const { t } = useTranslation();
  const error = useFieldError(field.name);
  const noOptions = loading
    ? t('form.loadingOptions')
    : textOf(t, field.noOptionsMessage ?? 'form.noOptions');

  if (field.isMulti)
    return <MultiSelect field={field} id={id} error={error} noOptions={noOptions} options={options} />;
  return (
    <FieldFrame field={field} id={id} error={error}>
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

function MultiSelect({
  field,
  id,
  error,
  noOptions,
  options,
}: FieldComponentProps & {
  error: string | undefined;
  noOptions: string;
  options: readonly FormFieldOption[];
}) {
  const { t } = useTranslation();
  const { field: controller } = useController({ name: field.name });
  const [query, setQuery] = useState('');
  const selected: string[] = Array.isArray(controller.value) ? controller.value : [];
  const toggle = (value: string, checked: boolean) =>
    controller.onChange(checked ? [...selected, value] : selected.filter((item) => item !== value));
  // A long list (every currency) gets a filter box; the chosen values stay listed first.
  const searchable = options.length > longListSize;
  const needle = query.trim().toLocaleLowerCase();
  const shown = searchable
    ? [...options]
        .filter((option) => !needle || textOf(t, option.label).toLocaleLowerCase().includes(needle))
        .sort((a, b) => Number(selected.includes(b.value)) - Number(selected.includes(a.value)))
    : options;
  return (
    <FieldFrame field={field} id={id} error={error} asGroup>
      {(control) =>
        options.length === 0 ? (
          <p id={id} className="text-sm text-slate-500 dark:text-slate-400">
            {noOptions}
          </p>
        ) : (
          <div className="space-y-2">
            {searchable && (
              <Input
                type="search"
                value={query}
                onChange={(event) => setQuery(event.target.value)}
                placeholder={t('form.filterOptions')}
                aria-label={t('form.filterOptionsOf', { field: textOf(t, field.label) })}
                disabled={field.disabled}
              />
            )}
            <div
              id={id}
              className="max-h-48 space-y-1 overflow-y-auto rounded-lg border border-slate-300 p-2 dark:border-slate-700"
            >
              {shown.length === 0 && (
                <p className="px-1.5 py-1 text-sm text-slate-500 dark:text-slate-400">
                  {t('form.noMatchingOptions')}
                </p>
              )}
              {shown.map((option, index) => (
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
          </div>
        )
      }
    </FieldFrame>
  );
}
