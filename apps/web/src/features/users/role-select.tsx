import type { ComponentProps } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../components/ui/field.tsx';
import { Select } from '../../components/ui/select.tsx';
import type { RoleOption, useRoleOptions } from './use-role-options.ts';

/** A role picker; roles the user may not hand out are listed but cannot be chosen. */
function RoleSelect({
  options,
  currentRole,
  ...props
}: ComponentProps<typeof Select> & {
  options: readonly RoleOption[];
  /** The member's role now, kept as an option even when the list cannot be read. */
  currentRole?: { id: string; title: string } | null;
}) {
  const { t } = useTranslation();
  const all =
    currentRole && !options.some((option) => option.id === currentRole.id)
      ? [{ ...currentRole, assignable: true }, ...options]
      : options;
  return (
    <Select {...props}>
      <option value="" disabled>
        {t('common.choose')}
      </option>
      {all.map((option) => (
        <option key={option.id} value={option.id} disabled={!option.assignable}>
          {option.assignable ? option.title : t('users.roleNotAssignable', { role: option.title })}
        </option>
      ))}
    </Select>
  );
}

/** A member's role, required; locked, with a hint saying why, for a user who may not read roles. */
export function RoleField({
  id,
  roles,
  error,
  input,
  currentRole,
}: {
  id: string;
  roles: Pick<ReturnType<typeof useRoleOptions>, 'options' | 'mayViewRoles'>;
  error: string | undefined;
  /** `register('roleId')`. */
  input: UseFormRegisterReturn;
  currentRole?: { id: string; title: string } | null;
}) {
  const { t } = useTranslation();
  return (
    <Field
      id={id}
      label={t('users.columns.role')}
      error={error}
      hint={roles.mayViewRoles ? undefined : t('users.rolesHidden')}
      required
    >
      {(control) => (
        <RoleSelect
          {...control}
          {...input}
          options={roles.options}
          currentRole={currentRole}
          disabled={!roles.mayViewRoles}
        />
      )}
    </Field>
  );
}
