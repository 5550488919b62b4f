import { authorityRolesResource, numberFormat, type RoleRecord } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import type { ResourceColumn } from '../../resource-ui/columns.ts';
import { ResourceListPage } from '../../resource-ui/resource-list-page.tsx';
import { RoleEditorDialog } from './role-editor-dialog.tsx';

/** `/authority-roles`: the workspace's roles and what each one may do. */
export function RolesPage() {
  const { t, i18n } = useTranslation();
  const number = numberFormat(i18n.language);
  const columns: ResourceColumn<RoleRecord>[] = [
    {
      key: 'code',
      header: t('roles.columns.code'),
      sortField: 'code',
      cell: (role) => <bdi className="font-mono text-xs">{role.code}</bdi>,
      className: 'whitespace-nowrap',
    },
    {
      key: 'title',
      header: t('roles.columns.title'),
      sortField: 'title',
      primary: true,
      cell: (role) => role.title,
    },
    {
      key: 'permissions',
      header: t('roles.columns.permissions'),
      cell: (role) => number.format(role.permissions.length),
      className: 'tabular-nums',
    },
    {
      key: 'usersCount',
      header: t('roles.columns.usersCount'),
      sortField: 'usersCount',
      cell: (role) => number.format(role.usersCount),
      className: 'tabular-nums',
    },
  ];

  return (
    <ResourceListPage
      definition={authorityRolesResource}
      title={t('nav.authorityRoles')}
      columns={columns}
      recordLabel={(role) => role.title}
      editor={(props) => <RoleEditorDialog {...props} />}
      createLabel={t('roles.create')}
      emptyTitle={t('roles.emptyTitle')}
      emptyHint={t('roles.emptyHint')}
      deleteWording={{
        action: 'delete',
        label: t('common.delete'),
        title: (role) => t('roles.deleteTitle', { name: role.title }),
        body: (role) =>
          role.usersCount > 0
            ? t('roles.deleteBodyInUse', { users: number.format(role.usersCount) })
            : t('roles.deleteBody'),
        keep: (role) => t('roles.keep', { name: role.title }),
        confirm: t('common.delete'),
      }}
    />
  );
}
