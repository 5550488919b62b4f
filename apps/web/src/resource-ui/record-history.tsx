import { auditLogResource, auditResources } from '@dukkan/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../components/page.tsx';
import { AuditEntries } from './audit-entries.tsx';
import { Pagination } from './pagination.tsx';
import { useResourceAccess, useResourceList } from './use-resource.ts';

/** The page size of a record's History. */
const historyPageSize = 10;

/** Lines standing in for the feed while it loads. */
export function AuditSkeleton({ rows = 3 }: { rows?: number }) {
  const { t } = useTranslation();
  return (
    <div role="status" className="space-y-4 px-4 py-4 sm:px-5">
      <span className="sr-only">{t('common.loading')}</span>
      {Array.from({ length: rows }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders with nothing else to tell them apart
        <div key={index} aria-hidden="true" className="animate-pulse space-y-2">
          <div className="h-4 w-48 rounded bg-slate-200 dark:bg-slate-700" />
          <div className="h-3 w-72 max-w-full rounded bg-slate-100 dark:bg-slate-800" />
        </div>
      ))}
    </div>
  );
}

/** Whether the user may read the workspace's audit log (viewAudit), and so a record's History. */
export function useMayReadHistory(resourceKey: string): boolean {
  const { allows } = useResourceAccess(auditLogResource);
  return allows('list') && (auditResources as readonly string[]).includes(resourceKey);
}

/**
 * A record's History: its rows of the audit log (`GET audit-log?resource=&recordId=`), newest
 * first, with their changes as the forms show them.
 */
export function RecordHistory({ resourceKey, recordId }: { resourceKey: string; recordId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useResourceList(auditLogResource, {
    page,
    pageSize: historyPageSize,
    search: '',
    sort: auditLogResource.defaultSort,
    filters: { resource: [resourceKey], recordId: [recordId] },
  });
  if (list.data === undefined && list.isError) {
    return (
      <LoadFailed error={list.error} message={t('audit.loadFailed')} onRetry={() => void list.refetch()} />
    );
  }
  if (list.data === undefined) return <AuditSkeleton />;
  if (list.data.data.length === 0) {
    return (
      <p
        className="px-4 py-10 text-center text-sm text-slate-600 dark:text-slate-400"
        data-testid="history-empty"
      >
        {t('audit.historyEmpty')}
      </p>
    );
  }
  return (
    <div aria-busy={list.isPlaceholderData || undefined}>
      <AuditEntries rows={list.data.data} showResource={false} />
      {list.data.meta.total > historyPageSize && (
        <Pagination
          page={page}
          pageSize={historyPageSize}
          total={list.data.meta.total}
          totalCapped={list.data.meta.totalCapped}
          onPageChange={setPage}
        />
      )}
    </div>
  );
}
