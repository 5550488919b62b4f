import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Input } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { FieldFrame } from './field-frame.tsx';
import { type FieldComponentProps, textOf, useFieldError } from './field-props.ts';

/** An empty number box is "no value" (so zod says Required), not 0 or NaN. */
const toNumber = (value: unknown) => (value === '' || value == null ? undefined : Number(value));

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
        return (
          <Input
            {...control}
            {...register(field.name, number ? { setValueAs: toNumber } : {})}
            type={field.type === 'time' ? 'time' : number ? 'number' : 'text'}
            inputMode={number ? 'decimal' : undefined}
            step={number ? (field.step ?? 'any') : field.type === 'time' ? 60 : undefined}
            min={number ? field.defaultMin : undefined}
            max={number ? field.defaultMax : undefined}
            placeholder={placeholder}
            disabled={field.disabled}
            dir={number || field.type === 'time' ? 'ltr' : undefined}
            className={number || field.type === 'time' ? 'text-start' : undefined}
          />
        );
      }}
    </FieldFrame>
  );
}
