import { membershipStatuses, type WorkspaceUserRecord, workspaceUsersResource } from '@dukkan/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MailIcon, PlusIcon, PowerIcon } from '../../components/ui/action-icons.tsx';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { apiRequest } from '../../lib/api-client.ts';
import { useFormatters } from '../../lib/use-formatters.ts';
import { useCan, useWorkspace } from '../../lib/workspace-context.tsx';
import type { ListFilterControl, ResourceColumn, RowAction } from '../../resource-ui/columns.ts';
import { CompactList, compactLimits } from '../../resource-ui/compact-list.tsx';
import { useCellRenderer } from '../../resource-ui/declared-columns.tsx';
import { ResourceListPage } from '../../resource-ui/resource-list-page.tsx';
import {
  useOperationRunner,
  useResourceFilters,
  useResourceMutations,
} from '../../resource-ui/use-resource.ts';
import { applicationName } from './application-select.tsx';
import { InviteUserDialog } from './invite-user-dialog.tsx';
import { MemberDialog } from './member-dialog.tsx';
import { useInstalledApplications } from './use-installed-applications.ts';
import { useRoleOptions } from './use-role-options.ts';
import { usersOperationOptions } from './users-operation-options.ts';

const statusTones: Record<WorkspaceUserRecord['status'], BadgeTone> = {
  active: 'success',
  inactive: 'neutral',
  invited: 'warning',
};

const none = <span className="text-slate-400 dark:text-slate-500">—</span>;

/** `/users`: the workspace's members and invitations (resource `workspaces/users`). */
export function UsersPage() {
  const { t, i18n } = useTranslation();
  const { formatDate, formatTime } = useFormatters();
  // Members' applications are client ids: shown by their names in the reader's language.
  const installed = useInstalledApplications();
  const { user, selectedWorkspace } = useWorkspace();
  const secondFactorRequired = selectedWorkspace?.requireSecondFactor === true;
  const mayInvite = useCan({ and: ['addUsers'] });
  const mayEdit = useCan({ and: ['editUsers'] });
  const roles = useRoleOptions();
  // Shared with the list page's own request (same key): role names for those who cannot list roles.
  const filterCounts = useResourceFilters(workspaceUsersResource);
  const { setStatus } = useResourceMutations(workspaceUsersResource, usersOperationOptions);
  const run = useOperationRunner(workspaceUsersResource, usersOperationOptions);
  const [inviting, setInviting] = useState(false);
  const render = useCellRenderer(workspaceUsersResource.key);

  const columns: ResourceColumn<WorkspaceUserRecord>[] = [
    {
      key: 'code',
      header: t('users.columns.code'),
      sortField: 'code',
      cell: (member) => (member.code ? <bdi className="font-mono text-xs">{member.code}</bdi> : none),
      className: 'whitespace-nowrap',
    },
    {
      key: 'name',
      header: t('users.columns.name'),
      sortField: 'name',
      primary: true,
      cell: (member) => (
        <span className="flex flex-wrap items-center gap-1.5">
          <span>{member.name || none}</span>
          {member.isAdmin && <Badge tone="brand">{t('users.admin')}</Badge>}
          {member.id === user.id && <Badge>{t('users.you')}</Badge>}
        </span>
      ),
    },
    {
      key: 'email',
      header: t('users.columns.email'),
      sortField: 'email',
      cell: (member) => <bdi dir="ltr">{member.email}</bdi>,
    },
    {
      key: 'phone',
      header: t('users.columns.phone'),
      // An invited member has given no phone yet: '—'.
      cell: (member) => render({ field: 'phone', kind: 'phone' }, member.phone, member),
      className: 'whitespace-nowrap',
    },
    { key: 'role', header: t('users.columns.role'), cell: (member) => member.role?.title ?? none },
    {
      key: 'applications',
      header: t('users.columns.applications'),
      cell: (member) =>
        member.applications.length === 0 ? (
          none
        ) : (
          <CompactList
            layout="inline"
            limit={compactLimits.names}
            summary={member.applications
              .map((clientId) => applicationName(installed.data ?? [], clientId, i18n.language))
              .join(', ')}
            items={member.applications.map((clientId) => ({
              key: clientId,
              node: <Badge>{applicationName(installed.data ?? [], clientId, i18n.language)}</Badge>,
            }))}
          />
        ),
    },
    {
      key: 'lastLoginAt',
      header: t('users.columns.lastLogin'),
      sortField: 'lastLoginAt',
      className: 'whitespace-nowrap',
      cell: (member) =>
        member.lastLoginAt ? (
          <span>
            <span className="block">{formatDate(member.lastLoginAt)}</span>
            <span className="block text-xs text-slate-500 dark:text-slate-400">
              {formatTime(member.lastLoginAt)}
            </span>
          </span>
        ) : (
          <span className="text-slate-500 dark:text-slate-400">{t('users.neverLoggedIn')}</span>
        ),
    },
    {
      key: 'secondFactor',
      header: t('users.columns.secondFactor'),
      className: 'whitespace-nowrap',
      // Invited: not theirs to show yet. Without one where the workspace requires it: a warning.
      cell: (member) =>
        member.secondFactor === null ? (
          none
        ) : member.secondFactor ? (
          <Badge tone="success">{t('users.secondFactor.on')}</Badge>
        ) : (
          <Badge tone={secondFactorRequired ? 'warning' : 'neutral'}>{t('users.secondFactor.off')}</Badge>
        ),
    },
    {
      key: 'status',
      header: t('users.columns.status'),
      cell: (member) => <Badge tone={statusTones[member.status]}>{t(`users.status.${member.status}`)}</Badge>,
    },
  ];

  const filters: ListFilterControl[] = [
    {
      field: 'status',
      label: t('users.columns.status'),
      options: membershipStatuses.map((status) => ({ value: status, label: t(`users.status.${status}`) })),
    },
    {
      field: 'role',
      label: t('users.columns.role'),
      options: roles.mayViewRoles
        ? roles.options.map((role) => ({ value: role.id, label: role.title }))
        : (filterCounts.data?.role ?? []).flatMap((entry) =>
            entry.value ? [{ value: entry.value, label: entry.label ?? entry.value }] : [],
          ),
    },
  ];

  const extraActions = (member: WorkspaceUserRecord): RowAction[] => {
    const actions: RowAction[] = [];
    if (member.status === 'invited' && mayInvite) {
      actions.push({
        key: 'resend',
        label: t('users.resendInvite'),
        icon: <MailIcon className="size-4" />,
        onSelect: () =>
          void run('resendInvite', 'addUsers', (workspaceId) =>
            apiRequest('/workspaces/users/resend-invite', {
              method: 'POST',
              body: { userId: member.id },
              query: { workspaceId },
            }),
          ).catch(() => undefined),
      });
    }
    // The workspace's only active admin cannot be disabled (LAST_ADMIN): not offered, rather than refused.
    if (member.status !== 'invited' && mayEdit && !member.isLastAdmin) {
      const next = member.status === 'active' ? 'inactive' : 'active';
      actions.push({
        key: 'status',
        label: next === 'active' ? t('common.enable') : t('common.disable'),
        icon: <PowerIcon className="size-4" />,
        onSelect: () => void setStatus.mutateAsync({ id: member.id, status: next }).catch(() => undefined),
      });
    }
    return actions;
  };

  return (
    <>
      <ResourceListPage
        definition={workspaceUsersResource}
        title={t('nav.workspaceUsers')}
        columns={columns}
        recordLabel={(member) => member.name || member.email}
        filters={filters}
        editor={(props) => <MemberDialog {...props} />}
        extraActions={extraActions}
        canDelete={(member) => !member.isLastAdmin}
        toolbarActions={
          mayInvite && (
            <Button onClick={() => setInviting(true)}>
              <PlusIcon className="size-4" />
              {t('users.invite')}
            </Button>
          )
        }
        emptyTitle={t('users.emptyTitle')}
        emptyHint={t('users.emptyHint')}
        operationOptions={usersOperationOptions}
        deleteWording={{
          action: 'remove',
          label: t('users.remove'),
          title: (member) => t('users.removeTitle', { name: member.name || member.email }),
          body: () => t('users.removeBody'),
          keep: (member) => t('users.keep', { name: member.name || member.email }),
          confirm: t('users.remove'),
        }}
      />
      {inviting && <InviteUserDialog onClose={() => setInviting(false)} />}
    </>
  );
}
