import { type FieldError, type FieldValues, get, type Path, type UseFormReturn } from 'react-hook-form';
import { Trans } from 'react-i18next';
import { Field } from './ui/field.tsx';
import { PasswordInput } from './ui/password-input.tsx';

/** The strength rule under a new-password field; the symbol list stays left-to-right and unbroken. */
function PasswordRules() {
  return (
    <Trans
      i18nKey="auth.newPassword.rules"
      components={{ symbols: <bdi dir="ltr" className="whitespace-nowrap" /> }}
    />
  );
}

/**
 * A new password, with the strength rule under it, and its confirmation, both required: the two
 * fields `names` of the form, with their ids and labels.
 */
export function NewPasswordFields<Form extends FieldValues>({
  form,
  names: [password, confirmation],
  ids,
  labels,
}: {
  form: Pick<UseFormReturn<Form>, 'register' | 'formState'>;
  names: [Path<Form>, Path<Form>];
  ids: [string, string];
  labels: [string, string];
}) {
  const errorOf = (name: Path<Form>): string | undefined =>
    (get(form.formState.errors, name) as FieldError | undefined)?.message;
  return (
    <>
      <Field id={ids[0]} label={labels[0]} error={errorOf(password)} hint={<PasswordRules />} required>
        {(control) => <PasswordInput {...control} {...form.register(password)} autoComplete="new-password" />}
      </Field>
      <Field id={ids[1]} label={labels[1]} error={errorOf(confirmation)} required>
        {(control) => (
          <PasswordInput {...control} {...form.register(confirmation)} autoComplete="new-password" />
        )}
      </Field>
    </>
  );
}
