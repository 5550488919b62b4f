import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FieldFrame } from './field-frame.tsx';
import { type FieldComponentProps, textOf, useFieldError } from './field-props.ts';

/** radio: native radios in a fieldset (arrow keys move between them). */
export function RadioField({ field, id }: FieldComponentProps) {
  const { t } = useTranslation();
  const { register } = useFormContext();
  const error = useFieldError(field.name);
  return (
    <FieldFrame field={field} id={id} error={error} asGroup>
      {(control) => (
        <div id={id} className="flex flex-wrap gap-x-5 gap-y-2">
          {(field.options ?? []).map((option) => (
            <label key={option.value} className="inline-flex cursor-pointer items-center gap-2 text-sm">
              <input
                type="radio"
                value={option.value}
                {...register(field.name)}
                disabled={field.disabled}
                aria-invalid={control['aria-invalid']}
                className="size-4 accent-brand-600 dark:accent-brand-400"
              />
              {textOf(t, option.label)}
            </label>
          ))}
        </div>
      )}
    </FieldFrame>
  );
}
