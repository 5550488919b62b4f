import {
  auditActions,
  auditLogResource,
  auditResources,
  type SignInEvent,
  signInPageSize,
} from '@dukkan/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { NotAuthorizedView } from '../../components/not-authorized-view.tsx';
import { LoadFailed, Page } from '../../components/page.tsx';
import { SignInList } from '../../components/sign-in-list.tsx';
import { SearchIcon } from '../../components/ui/action-icons.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { CloseIcon, DatabaseIcon } from '../../components/ui/icons.tsx';
import { Input } from '../../components/ui/input.tsx';
import { apiRequestList } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { AuditEntries, resourceText, shortRecordId } from '../../resource-ui/audit-entries.tsx';
import type { ListFilterControl } from '../../resource-ui/columns.ts';
import { fieldText } from '../../resource-ui/declared-columns.tsx';
import { ListFilterMenu } from '../../resource-ui/filter-menu.tsx';
import { Pagination } from '../../resource-ui/pagination.tsx';
import { AuditSkeleton } from '../../resource-ui/record-history.tsx';
import { useListParams } from '../../resource-ui/use-list-params.ts';
import { useResourceAccess, useResourceList } from '../../resource-ui/use-resource.ts';

const definition = auditLogResource;

/** A message in the middle of the card: nothing yet, or nothing matching. */
function CardMessage({
  icon,
  title,
  hint,
  action,
}: {
  icon: ReactNode;
  title: string;
  hint: string;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center px-6 py-14 text-center">
      <span className="grid size-12 place-items-center rounded-full bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
        {icon}
      </span>
      <p className="mt-4 font-semibold">{title}</p>
      <p className="mt-1 max-w-md text-sm text-slate-600 dark:text-slate-400">{hint}</p>
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

/** The days of the date filter: `from..to`, either end open. */
function DateRangeFilter({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (value: string | null) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [from = '', to = ''] = (value ?? '').split('..');
  const set = (nextFrom: string, nextTo: string) =>
    onChange(nextFrom || nextTo ? `${nextFrom}..${nextTo}` : null);
  return (
    <fieldset>
      <legend className="sr-only">{fieldText(t, definition.key, 'at')}</legend>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        {(
          [
            ['from', from, { max: to || undefined }, (value: string) => set(value, to)],
            ['to', to, { min: from || undefined }, (value: string) => set(from, value)],
          ] as const
        ).map(([end, current, bounds, change]) => (
          <div key={end} className="flex items-center gap-2">
            <label
              htmlFor={`${id}-${end}`}
              className="text-sm font-semibold text-slate-700 dark:text-slate-200"
            >
              {t(`audit.${end}`)}
            </label>
            <div className="w-40">
              <Input
                id={`${id}-${end}`}
                type="date"
                value={current}
                {...bounds}
                onChange={(event) => change(event.target.value)}
              />
            </div>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/** The workspace's changes: filters, the feed, its pages. */
function ChangesView() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useListParams(definition);
  const list = useResourceList(definition, params);
  const exists = (key: string) => i18n.exists(key);
  const setFilter = (field: string, values: string[]) =>
    setParams({ filters: { ...params.filters, [field]: values } });

  const menus: ListFilterControl[] = [
    {
      field: 'actorUserId',
      label: fieldText(t, definition.key, 'actorUserId'),
      options: [],
      resource: 'workspaceUsers',
    },
    {
      field: 'resource',
      label: fieldText(t, definition.key, 'resource'),
      options: auditResources.map((value) => ({ value, label: resourceText(t, exists, value) })),
    },
    {
      field: 'action',
      label: fieldText(t, definition.key, 'action'),
      options: auditActions.map((value) => ({
        value,
        label: t(`resources.auditLog.values.action.${value}` as never) as string,
      })),
    },
  ];
  const record = params.filters.recordId?.[0];
  const hasQuery = Object.keys(params.filters).length > 0;
  const data = list.data;

  let content: ReactNode;
  if (data === undefined && list.isError) {
    content = (
      <LoadFailed error={list.error} message={t('audit.loadFailed')} onRetry={() => void list.refetch()} />
    );
  } else if (data === undefined) {
    content = <AuditSkeleton rows={5} />;
  } else if (data.data.length === 0 && !list.isPlaceholderData) {
    content = hasQuery ? (
      <CardMessage
        icon={<SearchIcon />}
        title={t('resourceList.noMatch')}
        hint={t('audit.noMatchHint')}
        action={
          <Button variant="secondary" onClick={() => setParams({ filters: {} })}>
            {t('resourceList.clearFilters')}
          </Button>
        }
      />
    ) : (
      <CardMessage
        icon={<DatabaseIcon />}
        title={t('resources.auditLog.empty')}
        hint={t('resources.auditLog.emptyHint')}
      />
    );
  } else {
    content = (
      <div aria-busy={list.isPlaceholderData || undefined}>
        <AuditEntries
          rows={data.data}
          onRecord={(row) =>
            setParams({ filters: { ...params.filters, resource: [row.resource], recordId: [row.recordId] } })
          }
        />
        <Pagination
          page={params.page}
          pageSize={params.pageSize}
          total={data.meta.total}
          totalCapped={data.meta.totalCapped}
          onPageChange={(page) => setParams({ page })}
          onPageSizeChange={(pageSize) => setParams({ pageSize })}
        />
      </div>
    );
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        {menus.map((filter) => (
          <ListFilterMenu
            key={filter.field}
            filter={filter}
            selected={params.filters[filter.field] ?? []}
            onChange={(values) => setFilter(filter.field, values)}
          />
        ))}
        <DateRangeFilter
          value={params.filters.at?.[0]}
          onChange={(value) => setFilter('at', value ? [value] : [])}
        />
        {record && (
          <span className="inline-flex h-10 items-center gap-1 rounded-lg border border-brand-300 bg-brand-50 ps-3 pe-1 text-sm font-semibold text-brand-800 dark:border-brand-700 dark:bg-brand-500/10 dark:text-brand-300">
            {t('audit.recordFilter')} <bdi className="font-mono text-xs">{shortRecordId(record)}</bdi>
            <button
              type="button"
              onClick={() => setFilter('recordId', [])}
              aria-label={t('audit.clearRecord')}
              title={t('audit.clearRecord')}
              className="grid size-8 place-items-center rounded-md hover:bg-brand-100 dark:hover:bg-brand-500/20"
            >
              <CloseIcon className="size-4" />
            </button>
          </span>
        )}
        {hasQuery && (
          <Button variant="ghost" size="sm" onClick={() => setParams({ filters: {} })}>
            {t('resourceList.clearFilters')}
          </Button>
        )}
      </div>
      <Card className="overflow-hidden">{content}</Card>
    </div>
  );
}

/** The sign-ins of the workspace's members (`GET audit-log/sign-ins`), newest first. */
function SignInsView() {
  const { t } = useTranslation();
  const { workspaceId } = useResourceAccess(definition);
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const signIns = useQuery({
    queryKey: [...queryKeys.resource(workspaceId ?? '', definition.key), 'sign-ins', page],
    queryFn: ({ signal }) =>
      apiRequestList<SignInEvent>('/audit-log/sign-ins', { query: { workspaceId, page }, signal }),
    enabled: workspaceId !== null,
    placeholderData: keepPreviousData,
  });
  let content: ReactNode;
  if (signIns.data === undefined && signIns.isError) {
    content = (
      <LoadFailed
        error={signIns.error}
        message={t('signIns.loadFailed')}
        onRetry={() => void signIns.refetch()}
      />
    );
  } else if (signIns.data === undefined) {
    content = <AuditSkeleton rows={5} />;
  } else if (signIns.data.data.length === 0) {
    content = (
      <CardMessage icon={<DatabaseIcon />} title={t('signIns.empty')} hint={t('signIns.membersEmptyHint')} />
    );
  } else {
    content = (
      <>
        <SignInList events={signIns.data.data} showPerson />
        <Pagination
          page={page}
          pageSize={signInPageSize}
          total={signIns.data.meta.total}
          onPageChange={(next) =>
            setSearch((current) => {
              const updated = new URLSearchParams(current);
              updated.set('page', String(next));
              return updated;
            })
          }
        />
      </>
    );
  }
  return <Card className="overflow-hidden">{content}</Card>;
}

const views = ['changes', 'signIns'] as const;
type View = (typeof views)[number];

/**
 * `/activity`: the workspace's audit log — who changed what, when, from what — filtered by
 * member, resource, record, action and days, and its members' sign-ins. Behind viewAudit.
 */
export function ActivityPage() {
  const { t } = useTranslation();
  const { allows } = useResourceAccess(definition);
  const [search, setSearch] = useSearchParams();
  const view: View = search.get('view') === 'sign-ins' ? 'signIns' : 'changes';
  const title = t('nav.auditLog');
  if (!allows('list')) {
    return (
      <Page title={title}>
        <NotAuthorizedView />
      </Page>
    );
  }
  // A view is an address of its own; its filters and pages do not carry over.
  const show = (next: View) => setSearch(next === 'signIns' ? { view: 'sign-ins' } : {});
  return (
    <Page title={title}>
      <div className="mx-auto max-w-5xl space-y-4">
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('audit.intro')}</p>
        <nav aria-label={title} className="flex gap-1 border-b border-slate-200 dark:border-slate-700">
          {views.map((name) => (
            <a
              key={name}
              href={name === 'signIns' ? '?view=sign-ins' : '?'}
              aria-current={view === name ? 'page' : undefined}
              onClick={(event) => {
                event.preventDefault();
                show(name);
              }}
              className={
                view === name
                  ? '-mb-px border-b-2 border-brand-600 px-3 py-2 text-sm font-semibold text-brand-700 dark:border-brand-400 dark:text-brand-300'
                  : '-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white'
              }
            >
              {t(`audit.views.${name}` as never) as string}
            </a>
          ))}
        </nav>
        {view === 'changes' ? <ChangesView /> : <SignInsView />}
      </div>
    </Page>
  );
}
