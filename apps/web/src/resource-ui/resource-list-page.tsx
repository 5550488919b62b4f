import type { ResourceDefinition } from '@dukkan/contract';
import { type ReactNode, useCallback, useDeferredValue, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NotAuthorizedView } from '../components/not-authorized-view.tsx';
import { LoadFailed, Page } from '../components/page.tsx';
import { PencilIcon, PlusIcon, PowerIcon, SearchIcon, TrashIcon } from '../components/ui/action-icons.tsx';
import { Alert } from '../components/ui/alert.tsx';
import { Button, buttonClassName } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { ConfirmDialog } from '../components/ui/confirm-dialog.tsx';
import { DatabaseIcon } from '../components/ui/icons.tsx';
import type { ListFilterControl, ResourceColumn, RowAction } from './columns.ts';
import { ExportMenu } from './export-menu.tsx';
import { ListFilterMenu } from './filter-menu.tsx';
import { ImportButton } from './import-dialog.tsx';
import { type UseOperationNotice, useNoOperationNotice } from './operation-notice.ts';
import type { OperationAction } from './operation-toast.tsx';
import { Pagination } from './pagination.tsx';
import { ResourceTable, TableSkeleton } from './resource-table.tsx';
import { SearchBox } from './search-box.tsx';
import { useListParams } from './use-list-params.ts';
import {
  type OperationOptions,
  type RecordOf,
  useResourceAccess,
  useResourceFilters,
  useResourceList,
  useResourceMutations,
} from './use-resource.ts';

/** What the page's own editor (a dialog) gets: the record to edit, or null to create one. */
export interface ResourceEditorProps<R> {
  record: R | null;
  onClose: () => void;
  /** What saving changes beyond the record (a new location's next invoice), shown above the form. */
  notice?: ReactNode;
}

/**
 * How deleting reads for this resource: "Delete" by default, "Remove from workspace" for members;
 * the confirmation's safe button names what it keeps ("Keep Manager", `keep`).
 */
interface DeleteWording<R> {
  action: OperationAction;
  label: string;
  title: (record: R) => string;
  body: (record: R) => ReactNode;
  keep: (record: R) => string;
  confirm: string;
}

interface ResourceListPageProps<D extends ResourceDefinition> {
  definition: D;
  title: string;
  columns: readonly ResourceColumn<RecordOf<D>>[];
  /** The record's name in action labels and confirmations ("Delete Manager"). */
  recordLabel: (record: RecordOf<D>) => string;
  /** Controls for the definition's declared filters. */
  filters?: readonly ListFilterControl[];
  /** The create/edit dialog; with it, New and Edit appear for users who may use them. */
  editor?: (props: ResourceEditorProps<RecordOf<D>>) => ReactNode;
  /** Downloads what `editor` needs: called once the rows show, when the browser is idle. */
  prepareEditor?: () => void;
  /** Where New goes when records are created on a page of their own (a product), not in `editor`. */
  createHref?: string;
  createLabel?: string;
  /** More buttons beside New (e.g. Invite), each guarded by its own permission. */
  toolbarActions?: ReactNode;
  /** Actions of this resource beyond edit, enable/disable and delete; shown first. */
  extraActions?: (record: RecordOf<D>) => RowAction[];
  /** May this row be deleted at all (beyond the permission)? */
  canDelete?: (record: RecordOf<D>) => boolean;
  deleteWording?: DeleteWording<RecordOf<D>>;
  emptyTitle?: string;
  emptyHint?: string;
  /** Other caches the page's changes affect. */
  operationOptions?: OperationOptions;
  /** Filters the page itself sets, not shown or kept in the address (a sub-category page's parent). */
  fixedFilters?: Record<string, string[]>;
  /** Shown above the toolbar (e.g. breadcrumbs). */
  intro?: ReactNode;
  /** The resource's declared hook saying what an operation changes elsewhere (`operation-notice.ts`). */
  useOperationNotice?: UseOperationNotice;
}

/**
 * The generic list screen of a resource definition: server-side pages, debounced search, sort and
 * filters kept in the address bar; loading, empty and error states; row actions each shown only
 * with its permission; delete behind a confirmation; every change with the spec's toasts.
 */
export function ResourceListPage<D extends ResourceDefinition>({
  definition,
  title,
  columns,
  recordLabel,
  filters = [],
  editor,
  prepareEditor,
  createHref,
  createLabel,
  toolbarActions,
  extraActions,
  canDelete,
  deleteWording,
  emptyTitle,
  emptyHint,
  operationOptions,
  fixedFilters,
  intro,
  useOperationNotice = useNoOperationNotice,
}: ResourceListPageProps<D>) {
  type R = RecordOf<D>;
  const { t } = useTranslation();
  // Declared once per resource, so the same hook on every render.
  const noticeOf = useOperationNotice();
  const [params, setParams] = useListParams(definition);
  const { allows, workspaceId } = useResourceAccess(definition);
  const shownParams = fixedFilters ? { ...params, filters: { ...params.filters, ...fixedFilters } } : params;
  const list = useResourceList(definition, shownParams);
  const filterCounts = useResourceFilters(definition, { enabled: filters.length > 0 });
  const mutations = useResourceMutations(definition, operationOptions);
  // A refused delete (records in use, with their names), or a refused change confirmed in a dialog,
  // is said once, in the confirmation, which stays open: no failure toast.
  const deletion = useResourceMutations(definition, { ...operationOptions, failureShownByCaller: true });
  const [editing, setEditing] = useState<{ record: R | null } | null>(null);
  const [deleting, setDeleting] = useState<R | null>(null);
  const [toggling, setToggling] = useState<{ record: R; status: 'active' | 'inactive' } | null>(null);

  // A settled search is a history entry (debounced, so not one per keystroke): Back returns to the list before it.
  const onSearch = useCallback((search: string) => setParams({ search }), [setParams]);

  // New rows render as a transition (a deferred value): React builds the table in slices of a few
  // milliseconds rather than one long task, the rows shown so far (or the skeleton) staying meanwhile.
  const data = useDeferredValue(list.data);
  // A page emptied by a delete (or an old link past the end) moves back to the last real page.
  const rowsShown = data !== undefined;
  useEffect(() => {
    if (!rowsShown || !prepareEditor) return;
    const idle = window.requestIdleCallback?.(prepareEditor) ?? window.setTimeout(prepareEditor, 1);
    return () => (window.cancelIdleCallback ?? window.clearTimeout)(idle);
  }, [rowsShown, prepareEditor]);
  useEffect(() => {
    if (!data || list.isPlaceholderData || data.data.length > 0 || params.page === 1) return;
    const lastPage = Math.max(1, Math.ceil(data.meta.total / params.pageSize));
    if (lastPage < params.page) setParams({ page: lastPage }, { replace: true });
  }, [data, list.isPlaceholderData, params.page, params.pageSize, setParams]);

  if (!allows('list')) {
    return (
      <Page title={title}>
        <NotAuthorizedView />
      </Page>
    );
  }

  const mayCreate = Boolean(editor || createHref) && allows('create');
  const mayEdit = Boolean(editor) && allows('update');
  const mayToggle = definition.hasStatus && allows('update');
  const mayDelete = allows('delete');
  const wording: DeleteWording<R> = deleteWording ?? {
    action: 'delete',
    label: t('common.delete'),
    title: (record) => t('resourceList.deleteTitle', { name: recordLabel(record) }),
    body: (record) => t('resourceList.deleteBody', { name: recordLabel(record) }),
    keep: (record) => t('resourceList.keep', { name: recordLabel(record) }),
    confirm: t('common.delete'),
  };

  const actionsFor = (record: R): RowAction[] => {
    const actions = [...(extraActions?.(record) ?? [])];
    if (mayEdit) {
      actions.unshift({
        key: 'edit',
        label: t('common.edit'),
        icon: <PencilIcon className="size-4" />,
        onSelect: () => setEditing({ record }),
      });
    }
    const status = (record as { status?: unknown }).status;
    if (mayToggle && (status === 'active' || status === 'inactive')) {
      const next = status === 'active' ? 'inactive' : 'active';
      actions.push({
        key: 'status',
        label: next === 'active' ? t('common.enable') : t('common.disable'),
        icon: <PowerIcon className="size-4" />,
        // At once, unless the change moves something elsewhere the user should see first.
        onSelect: () =>
          noticeOf({ kind: 'setStatus', record, status: next })
            ? setToggling({ record, status: next })
            : void mutations.setStatus.mutateAsync({ id: record.id, status: next }).catch(() => undefined),
      });
    }
    if (mayDelete && (canDelete?.(record) ?? true)) {
      actions.push({
        key: 'delete',
        label: wording.label,
        icon: <TrashIcon className="size-4" />,
        tone: 'danger',
        onSelect: () => setDeleting(record),
      });
    }
    return actions;
  };

  const hasQuery = params.search !== '' || Object.keys(params.filters).length > 0;
  const createContent = (
    <>
      <PlusIcon className="size-4" />
      {createLabel ?? t('common.create')}
    </>
  );
  const createButton =
    mayCreate &&
    (createHref ? (
      <Link to={createHref} className={buttonClassName()}>
        {createContent}
      </Link>
    ) : (
      <Button onClick={() => setEditing({ record: null })}>{createContent}</Button>
    ));

  let content: ReactNode;
  if (data === undefined && list.isError) {
    content = (
      <LoadFailed
        error={list.error}
        message={t('resourceList.loadFailed')}
        onRetry={() => void list.refetch()}
      />
    );
  } else if (data === undefined) {
    content = <TableSkeleton columns={columns.length + 1} />;
  } else if (
    data.data.length === 0 &&
    !list.isPlaceholderData &&
    (data.meta.total === 0 || params.page === 1)
  ) {
    content = hasQuery ? (
      <div className="flex flex-col items-center px-6 py-14 text-center">
        <span className="grid size-12 place-items-center rounded-full bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
          <SearchIcon />
        </span>
        <p className="mt-4 font-semibold">{t('resourceList.noMatch')}</p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('resourceList.noMatchHint')}</p>
        <Button variant="secondary" className="mt-4" onClick={() => setParams({ search: '', filters: {} })}>
          {t('resourceList.clearSearch')}
        </Button>
      </div>
    ) : (
      <div className="flex flex-col items-center px-6 py-14 text-center">
        <span className="grid size-12 place-items-center rounded-full bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
          <DatabaseIcon />
        </span>
        <p className="mt-4 font-semibold">{emptyTitle ?? t('resourceList.emptyTitle')}</p>
        <p className="mt-1 max-w-md text-sm text-slate-600 dark:text-slate-400">
          {emptyHint ?? t('resourceList.emptyHint')}
        </p>
        {createButton && <div className="mt-4">{createButton}</div>}
      </div>
    );
  } else {
    content = (
      <>
        {list.isError && (
          <Alert tone="error" className="m-3 flex flex-wrap items-center justify-between gap-2">
            {t('resourceList.refreshFailed')}
            <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
              {t('common.retry')}
            </Button>
          </Alert>
        )}
        <ResourceTable
          caption={title}
          columns={columns}
          records={data.data}
          // None chosen: the default sort's arrow, except while searching (ranked by relevance).
          sort={params.sort || (params.search ? '' : definition.defaultSort)}
          onSort={(sort) => setParams({ sort })}
          actionsFor={mayEdit || mayToggle || mayDelete || extraActions ? actionsFor : undefined}
          recordLabel={recordLabel}
          busy={list.isPlaceholderData}
        />
        <Pagination
          page={params.page}
          pageSize={params.pageSize}
          total={data.meta.total}
          onPageChange={(page) => setParams({ page })}
          onPageSizeChange={(pageSize) => setParams({ pageSize })}
        />
      </>
    );
  }

  return (
    <Page title={title}>
      <div className="mx-auto max-w-7xl space-y-4">
        {intro}
        <div className="flex flex-wrap items-center gap-3">
          {/* A resource without searchable fields (invoices, subscriptions) offers no search. */}
          {definition.search.length > 0 && (
            <SearchBox
              value={params.search}
              onSearch={onSearch}
              label={t('resourceList.searchLabel', { title })}
            />
          )}
          {filters.map((filter) => (
            <ListFilterMenu
              key={filter.field}
              filter={filter}
              selected={params.filters[filter.field] ?? []}
              counts={filterCounts.data?.[filter.field]}
              onChange={(values) =>
                setParams({ filters: { ...params.filters, [filter.field]: values.length > 0 ? values : [] } })
              }
            />
          ))}
          {Object.keys(params.filters).length > 0 && (
            <Button variant="ghost" size="sm" onClick={() => setParams({ filters: {} })}>
              {t('resourceList.clearFilters')}
            </Button>
          )}
          <div className="ms-auto flex flex-wrap items-center gap-2">
            {toolbarActions}
            {workspaceId && (
              <ExportMenu definition={definition} workspaceId={workspaceId} params={shownParams} />
            )}
            {workspaceId && <ImportButton definition={definition} workspaceId={workspaceId} />}
            {createButton}
          </div>
        </div>
        <Card className="overflow-hidden">{content}</Card>
      </div>
      {editing &&
        editor?.({
          record: editing.record,
          onClose: () => setEditing(null),
          notice: editing.record ? undefined : noticeOf({ kind: 'create' }),
        })}
      <ConfirmDialog
        open={toggling !== null}
        onOpenChange={(open) => {
          if (!open) setToggling(null);
        }}
        title={
          toggling
            ? t(toggling.status === 'active' ? 'resourceList.enableTitle' : 'resourceList.disableTitle', {
                name: recordLabel(toggling.record),
              })
            : ''
        }
        keepLabel={
          toggling
            ? t(toggling.status === 'active' ? 'resourceList.keepInactive' : 'resourceList.keepActive', {
                name: recordLabel(toggling.record),
              })
            : ''
        }
        confirmLabel={toggling?.status === 'active' ? t('common.enable') : t('common.disable')}
        tone={toggling?.status === 'active' ? 'default' : 'danger'}
        // A refusal is said in the confirmation, which stays open: no failure toast (as a delete's).
        onConfirm={() =>
          toggling
            ? deletion.setStatus.mutateAsync({ id: toggling.record.id, status: toggling.status })
            : Promise.resolve()
        }
      >
        {toggling ? noticeOf({ kind: 'setStatus', record: toggling.record, status: toggling.status }) : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title={deleting ? wording.title(deleting) : ''}
        keepLabel={deleting ? wording.keep(deleting) : ''}
        confirmLabel={wording.confirm}
        onConfirm={() =>
          deleting
            ? deletion.remove.mutateAsync({ id: deleting.id, action: wording.action })
            : Promise.resolve()
        }
      >
        {deleting ? wording.body(deleting) : null}
        {deleting ? noticeOf({ kind: 'delete', record: deleting }) : null}
      </ConfirmDialog>
    </Page>
  );
}
