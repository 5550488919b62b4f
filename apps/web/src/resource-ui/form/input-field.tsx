import { type FormField, parseNumberInput } from '@dukkan/contract';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Input } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { resolveLanguage } from '../../i18n/languages.ts';
import { FieldFrame } from './field-frame.tsx';
import { type FieldComponentProps, textOf, useFieldError } from './field-props.ts';

/**
 * A number box's text as a number, Arabic-Indic digits and separators included (`١٢٫٥` is 12.5);
 * an empty box is "no value" (so zod says Required), not 0, and anything else NaN.
 */
const toNumber = (value: unknown) =>
  typeof value === 'number' ? value : value == null ? undefined : parseNumberInput(String(value));

/**
 * A box's direction: a language's own for text in that language (an English name is left to
 * right in the Arabic UI), left to right for numbers, times and codes, else the typed text's own.
 */
function directionOf(field: FormField): 'ltr' | 'rtl' | 'auto' {
  if (field.locale) return resolveLanguage(field.locale).dir;
  return field.ltr || field.type === 'number' || field.type === 'time' ? 'ltr' : 'auto';
}

/** text, password, number and time: one native input each. */
export function InputField({ field, id }: FieldComponentProps) {
  const { t } = useTranslation();
  const { register } = useFormContext();
  const error = useFieldError(field.name);
  const placeholder = field.placeholder ? textOf(t, field.placeholder) : undefined;
  return (
    <FieldFrame field={field} id={id} error={error}>
      {(control) => {
        if (field.type === 'password')
          return (
            <PasswordInput
              {...control}
              {...register(field.name)}
              placeholder={placeholder}
              disabled={field.disabled}
              autoComplete="new-password"
            />
          );
        const number = field.type === 'number';
        const dir = directionOf(field);
        // A number is a text box: a native number input takes the browser locale's digits only, and
        // reads '' for anything else, so Arabic-Indic digits typed on a Latin locale were lost.
        return (
          <Input
            {...control}
            {...register(field.name, number ? { setValueAs: toNumber } : {})}
            type={field.type === 'time' ? 'time' : 'text'}
            inputMode={number ? 'decimal' : undefined}
            step={field.type === 'time' ? 60 : undefined}
            placeholder={placeholder}
            disabled={field.disabled}
            dir={dir}
            lang={field.locale}
            className={dir === 'auto' ? undefined : 'text-start'}
          />
        );
      }}
    </FieldFrame>
  );
}
