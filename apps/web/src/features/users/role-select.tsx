import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../../components/ui/select.tsx';
import type { RoleOption } from './use-role-options.ts';

/** A role picker; roles the user may not hand out are listed but cannot be chosen. */
export function RoleSelect({
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
