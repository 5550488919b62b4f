import {
  type CategoryRecord,
  categoriesResource,
  noReference,
  pickLocalized,
  type ResourceDefinition,
  wasteCategoriesResource,
} from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { ResourceScreen } from '../../resource-ui/resource-screen.tsx';
import { useResourceRecord } from '../../resource-ui/use-resource.ts';

/** Deeper than any real tree: a guard against a parent loop, not a product limit. */
const maxDepth = 12;

const crumbLink =
  'rounded text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 dark:text-brand-300';

/** One category of the trail, after its ancestors (each loaded by its parent id). */
function Crumb({
  definition,
  id,
  base,
  current,
  depth,
}: {
  definition: ResourceDefinition;
  id: string;
  base: string;
  current: boolean;
  depth: number;
}) {
  const { i18n } = useTranslation();
  const record = useResourceRecord(definition, id).data as CategoryRecord | undefined;
  const name = record ? pickLocalized(record.name, i18n.language) : '…';
  return (
    <>
      {record?.parentId && depth < maxDepth && (
        <Crumb definition={definition} id={record.parentId} base={base} current={false} depth={depth + 1} />
      )}
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="text-slate-400 rtl:-scale-x-100">
          ›
        </span>
        {current ? (
          <span aria-current="page" className="font-semibold text-slate-900 dark:text-slate-100">
            {name}
          </span>
        ) : (
          <Link to={`${base}/${id}`} className={crumbLink}>
            {name}
          </Link>
        )}
      </li>
    </>
  );
}

/**
 * A category tree: the top level at `base`, a category's sub-categories at `base/<id>` with the
 * trail of its ancestors; what is created there is created under it.
 */
function CategoryTreeScreen({
  definition,
  base,
  title,
}: {
  definition: typeof categoriesResource | typeof wasteCategoriesResource;
  base: string;
  title: string;
}) {
  const { t } = useTranslation();
  const parentId = useParams()['*']?.split('/')[0] || null;
  const parent = useResourceRecord(definition, parentId);

  const intro = parentId ? (
    <nav aria-label={t('categories.breadcrumbs')}>
      <ol className="flex flex-wrap items-center gap-1.5 text-sm">
        <li>
          <Link to={base} className={crumbLink}>
            {title}
          </Link>
        </li>
        <Crumb definition={definition} id={parentId} base={base} current depth={0} />
      </ol>
      {parent.isError && (
        <Alert tone="error" className="mt-3">
          {t('categories.notFound')}
        </Alert>
      )}
    </nav>
  ) : undefined;

  return (
    <ResourceScreen
      // A new parent is a new list: its own search, page and dialogs.
      key={parentId ?? noReference}
      definition={definition}
      title={title}
      intro={intro}
      fixedFilters={{ parentId: [parentId ?? noReference] }}
      newValues={parentId ? { parentId } : undefined}
      primaryLink={(category) => `${base}/${category.id}`}
    />
  );
}

export function CategoriesPage() {
  const { t } = useTranslation();
  return (
    <CategoryTreeScreen definition={categoriesResource} base="/categories" title={t('nav.categories')} />
  );
}

export function WasteCategoriesPage() {
  const { t } = useTranslation();
  return (
    <CategoryTreeScreen
      definition={wasteCategoriesResource}
      base="/waste-categories"
      title={t('nav.wasteCategories')}
    />
  );
}
