import { useController, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { Select } from '../../components/ui/select.tsx';
import { FieldFrame } from './field-frame.tsx';
import { type FieldComponentProps, textOf, useFieldError } from './field-props.ts';

/**
 * select: a native select for one value; for several, a list of checkboxes (keyboard and screen
 * readers for free, no listbox library). With no options it says so (noOptionsMessage).
 */
export function SelectField({ field, id }: FieldComponentProps) {
  const { t } = useTranslation();
  const { register } = useFormContext();
  const error = useFieldError(field.name);
  const options = field.options ?? [];
  const noOptions = textOf(t, field.noOptionsMessage ?? 'form.noOptions');

  if (field.isMulti) return <MultiSelect field={field} id={id} error={error} noOptions={noOptions} />;
  return (
    <FieldFrame field={field} id={id} error={error}>
      {(control) => (
        <Select {...control} {...register(field.name)} disabled={field.disabled || options.length === 0}>
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
        </Select>
      )}
    </FieldFrame>
  );
}

function MultiSelect({
  field,
  id,
  error,
  noOptions,
}: FieldComponentProps & { error: string | undefined; noOptions: string }) {
  const { t } = useTranslation();
  const { field: controller } = useController({ name: field.name });
  const selected: string[] = Array.isArray(controller.value) ? controller.value : [];
  const options = field.options ?? [];
  const toggle = (value: string, checked: boolean) =>
    controller.onChange(checked ? [...selected, value] : selected.filter((item) => item !== value));
  return (
    <FieldFrame field={field} id={id} error={error} asGroup>
      {(control) =>
        options.length === 0 ? (
          <p id={id} className="text-sm text-slate-500 dark:text-slate-400">
            {noOptions}
          </p>
        ) : (
          <div
            id={id}
            className="max-h-48 space-y-1 overflow-y-auto rounded-lg border border-slate-300 p-2 dark:border-slate-700"
          >
            {options.map((option, index) => (
              <label
                key={option.value}
                htmlFor={`${id}-${index}`}
                className="flex cursor-pointer items-center gap-2 rounded px-1.5 py-1 text-sm hover:bg-slate-50 dark:hover:bg-slate-800"
              >
                <Checkbox
                  id={`${id}-${index}`}
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
