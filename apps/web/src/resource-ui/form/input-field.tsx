import type { FormField } from '@dukkan/contract';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Input } from '../../components/ui/input.tsx';
import { NumberInput, numberFromInput } from '../../components/ui/number-input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { resolveLanguage } from '../../i18n/languages.ts';
import { FieldFrame } from './field-frame.tsx';
import { type FieldComponentProps, textOf, useFieldError } from './field-props.ts';

/**
 * A box's direction: a language's own for text in that language (an English name is left to
 * right in the Arabic UI), left to right for times and codes, else the typed text's own.
 */
function directionOf(field: FormField): 'ltr' | 'rtl' | 'auto' {
  if (field.locale) return resolveLanguage(field.locale).dir;
  return field.ltr || field.type === 'time' ? 'ltr' : 'auto';
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
        if (field.type === 'number')
          return (
            <NumberInput
              {...control}
              {...register(field.name, { setValueAs: numberFromInput })}
              placeholder={placeholder}
              disabled={field.disabled}
            />
          );
        const dir = directionOf(field);
        return (
          <Input
            {...control}
            {...register(field.name)}
            type={field.type === 'time' ? 'time' : 'text'}
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
