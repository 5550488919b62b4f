import { emptyPhoneEntry, type FormField } from '@dukkan/contract';
import { useEffect } from 'react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { FieldFrame } from './field-frame.tsx';
import { type FieldComponentProps, useFieldError } from './field-props.ts';
import { useFormMessageText } from './form-messages.ts';

/** One phone entry's two inputs, label and number, both required (spec §5), each with its message. */
function PhoneInputs({
  name,
  id,
  field,
  index,
}: {
  name: string;
  id: string;
  field: FormField;
  index?: number;
}) {
  const { t } = useTranslation();
  const { register } = useFormContext();
  const text = useFormMessageText();
  const labelError = useFieldError(`${name}.label`);
  const numberError = useFieldError(`${name}.number`);
  const suffix = index === undefined ? '' : ` ${t('form.phone.entry', { index: index + 1 })}`;
  const part = (key: 'label' | 'number', error: string | undefined) => (
    <div className="min-w-0 flex-1 space-y-1">
      <div className="flex items-baseline gap-1 text-xs text-slate-600 dark:text-slate-300">
        <label htmlFor={`${id}-${key}`}>
          {t(`form.phone.${key}`)}
          {suffix && <span className="sr-only">{suffix}</span>}
        </label>
        <span className="text-red-600 dark:text-red-400" aria-hidden="true">
          *
        </span>
      </div>
      <Input
        id={`${id}-${key}`}
        {...register(`${name}.${key}`)}
        type={key === 'number' ? 'tel' : 'text'}
        dir={key === 'number' ? 'ltr' : undefined}
        className={key === 'number' ? 'text-start' : undefined}
        autoComplete={key === 'number' ? 'tel' : 'off'}
        disabled={field.disabled}
        aria-required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-${key}-error` : undefined}
      />
      {error && (
        <p id={`${id}-${key}-error`} className="text-sm text-red-600 dark:text-red-400">
          {text(error)}
        </p>
      )}
    </div>
  );
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      {!field.numbersOnly && part('label', labelError)}
      {part('number', numberError)}
    </div>
  );
}

/** phone: one entry { label, number }. */
export function PhoneField({ field, id }: FieldComponentProps) {
  // The entry's own message (e.g. a missing object); its parts show theirs under their inputs.
  const error = useFieldError(field.name);
  return (
    <FieldFrame field={field} id={id} error={error} asGroup>
      {() => <PhoneInputs name={field.name} id={id} field={field} />}
    </FieldFrame>
  );
}

/**
 * phoneNums: a list of entries. An empty list gets one empty entry; an entry can be added, and
 * removed unless it is the only one (spec §4).
 */
export function PhoneListField({ field, id }: FieldComponentProps) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({ name: field.name });
  const error = useFieldError(field.name);
  useEffect(() => {
    if (fields.length === 0) append(emptyPhoneEntry(), { shouldFocus: false });
  }, [fields.length, append]);
  return (
    <FieldFrame field={field} id={id} error={error} asGroup>
      {() => (
        <div className="space-y-3">
          <ul className="space-y-3">
            {fields.map((entry, index) => (
              <li key={entry.id} className="flex items-end gap-2">
                <div className="min-w-0 flex-1">
                  <PhoneInputs
                    name={`${field.name}.${index}`}
                    id={`${id}-${index}`}
                    field={field}
                    index={index}
                  />
                </div>
                <Button
                  variant="ghost"
                  size="icon"
                  onClick={() => remove(index)}
                  disabled={field.disabled || fields.length <= 1}
                  aria-label={t('form.phone.remove', { index: index + 1 })}
                >
                  <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
                    <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
                  </svg>
                </Button>
              </li>
            ))}
          </ul>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => append(emptyPhoneEntry())}
            disabled={field.disabled}
          >
            {t('form.phone.add')}
          </Button>
        </div>
      )}
    </FieldFrame>
  );
}
