import { type FormValues, listFilters, type ResourceDefinition } from '@dukkan/contract';
import { type ComponentProps, type ComponentType, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { lazyComponent } from '../lib/lazy-component.tsx';
import type { ListFilterControl, ResourceColumn, RowAction } from './columns.ts';
import { fieldText, useDeclaredColumns } from './declared-columns.tsx';
import { useDeclaredTextValues } from './declared-text-values.ts';
import type { UseOperationNotice } from './operation-notice.ts';
import { recordName } from './option-sources.ts';
import type { ResourceEditorDialog as EditorDialog } from './resource-editor-dialog.tsx';
import { ResourceListPage } from './resource-list-page.tsx';
import type { RecordOf } from './use-resource.ts';

// The form renderer (its fields, the dialog's focus and scroll locks) is not needed to show a
// list: it downloads once the rows show, while the browser is idle, and a dialog opened before
// that waits for it.
// One download, shared by the idle preload and the dialog; a failed one is tried again.
const LazyEditor = lazyComponent(() =>
  import('./resource-editor-dialog.tsx').then(
    (module) => module.ResourceEditorDialog as ComponentType<ComponentProps<typeof EditorDialog>>,
  ),
);
const preloadEditor = () => void LazyEditor.preload().catch(() => undefined);

/**
 * The editor dialog, downloaded when the browser is idle after the rows show (or at the first
 * open). Always the same element tree: switching from the lazy one to the loaded module while a
 * dialog is open would mount it again and drop what the user typed.
 */
function ResourceEditorDialog<D extends ResourceDefinition>(props: ComponentProps<typeof EditorDialog<D>>) {
  return (
    <Suspense fallback={null}>
      <LazyEditor {...(props as ComponentProps<typeof EditorDialog>)} />
    </Suspense>
  );
}

interface ResourceScreenProps<D extends ResourceDefinition> {
  definition: D;
  title: string;
  /** Filters the screen sets itself (not offered as menus). */
  fixedFilters?: Record<string, string[]>;
  /** Starting values of a record created here. */
  newValues?: FormValues;
  /** Makes the row's name a link (a category opens its sub-categories, a product its page). */
  primaryLink?: (record: RecordOf<D>) => string;
  /**
   * A line under the row's name, outside its link (a product found by a variant's SKU names the
   * variant); nothing where it gives none.
   */
  primaryNote?: (record: RecordOf<D>) => ReactNode;
  /** New opens this page instead of the declared form's dialog (a product's own page). */
  createHref?: string;
  /** Above the toolbar, e.g. breadcrumbs. */
  intro?: ReactNode;
  /**
   * The declared columns as the screen shows them, for a field no column kind can show (an
   * invoice's details): the screen adds its own column among the declared ones.
   */
  arrangeColumns?: (declared: ResourceColumn<RecordOf<D>>[]) => ResourceColumn<RecordOf<D>>[];
  /** The resource's declared hook saying what an operation changes elsewhere (`operation-notice.ts`). */
  useOperationNotice?: UseOperationNotice;
  /** Row actions of the screen's own beyond the declared ones (an invoice's document). */
  extraActions?: (record: RecordOf<D>) => RowAction[];
}

/**
 * The whole screen of a resource from its declaration: its columns, its filters, its form. Every
 * simple resource's page is this screen (`resource-page.tsx`); a custom screen (a category tree)
 * adds fixed filters, a link on the name and an intro.
 */
export function ResourceScreen<D extends ResourceDefinition>({
  definition,
  title,
  fixedFilters,
  newValues,
  primaryLink,
  primaryNote,
  createHref,
  intro,
  arrangeColumns,
  useOperationNotice,
  extraActions,
}: ResourceScreenProps<D>) {
  type R = RecordOf<D>;
  const { t, i18n } = useTranslation();
  const textValues = useDeclaredTextValues();
  const ownColumns = useDeclaredColumns<R>(definition);
  const declared = arrangeColumns ? arrangeColumns(ownColumns) : ownColumns;
  const named = (column: ResourceColumn<R>): ResourceColumn<R> => ({
    ...column,
    cell: (record) => {
      const name = primaryLink ? (
        <Link
          to={primaryLink(record)}
          className="font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
        >
          {column.cell(record)}
        </Link>
      ) : (
        column.cell(record)
      );
      const note = primaryNote?.(record);
      return note ? (
        <>
          {name}
          {note}
        </>
      ) : (
        name
      );
    },
  });
  const columns: ResourceColumn<R>[] =
    primaryLink || primaryNote
      ? declared.map((column) => (column.primary ? named(column) : column))
      : declared;
  const filters: ListFilterControl[] = listFilters(definition)
    .filter((filter) => !fixedFilters?.[filter.field])
    .map((filter) => ({
      field: filter.field,
      label: fieldText(t, definition.key, filter.field),
      resource: filter.kind === 'reference' ? filter.resource : undefined,
      options: (filter.values ?? []).map((value) => ({
        value,
        label: t(`resources.${definition.key}.values.${filter.field}.${value}` as never) as string,
      })),
    }));
  const label = (record: R) => recordName(definition, record as Record<string, unknown>, i18n.language);
  const entity = t(`resources.${definition.key}.one` as never) as string;

  return (
    <ResourceListPage
      definition={definition}
      title={title}
      columns={columns}
      recordLabel={label}
      filters={filters}
      fixedFilters={fixedFilters}
      useOperationNotice={useOperationNotice}
      extraActions={extraActions}
      intro={
        intro ??
        (definition.intro && (
          <p className="mb-4 text-sm text-slate-600 dark:text-slate-300" data-testid="resource-intro">
            {t(definition.intro as never, { ...textValues, defaultValue: definition.intro }) as string}
          </p>
        ))
      }
      createHref={createHref}
      createLabel={t('resourceList.new', { entity })}
      emptyTitle={t(`resources.${definition.key}.empty` as never) as string}
      // A resource says how its records come (a read-only one's are not "added" here); else the list's own hint.
      emptyHint={
        i18n.exists(`resources.${definition.key}.emptyHint`)
          ? (t(`resources.${definition.key}.emptyHint` as never) as string)
          : undefined
      }
      prepareEditor={definition.form && !createHref ? preloadEditor : undefined}
      editor={
        definition.form && !createHref
          ? ({ record, onClose, notice }) => (
              <ResourceEditorDialog
                definition={definition}
                record={record}
                onClose={onClose}
                notice={notice}
                newValues={newValues}
                title={
                  record
                    ? t('resourceList.editTitle', { name: label(record) })
                    : t('resourceList.new', { entity })
                }
              />
            )
          : undefined
      }
    />
  );
}
