import {
  type AuditLogRecord,
  type ColumnDefinition,
  type DateRange,
  defaultBaseCurrency,
  type FormattedRecipeChange,
  type FormattedVariantChange,
  type FormEntry,
  type FormField,
  findResource,
  formatProductOptions,
  formatRecipeChanges,
  formatVariantChanges,
  numberFormat,
  pickLocalized,
  productsResource,
  type ResourceDefinition,
} from '@dukkan/contract';
import type { TFunction } from 'i18next';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, type BadgeTone } from '../components/ui/badge.tsx';
import { useFormatters, useWorkspaceTimeZone } from '../lib/use-formatters.ts';
import { useSelectedWorkspaceIfAny } from '../lib/workspace-context.tsx';
import { fieldText, useCellRenderer } from './declared-columns.tsx';

type AnyRecord = Record<string, unknown>;

/**
 * A record's id as the log shows it: its last 8 characters. A record's id is time-ordered (its
 * first characters are when it was made, the same for every record made within a minute), so its
 * end is what tells two apart; an older, random id's end does as well.
 */
export const shortRecordId = (id: string) => id.slice(-8);

/** Consecutive rows of one request, shown together (a bulk, a save of several records); never merged. */
export interface AuditGroup {
  key: string;
  rows: AuditLogRecord[];
}

/** The rows in their order, consecutive ones of the same request grouped (display only). */
export function groupByRequest(rows: readonly AuditLogRecord[]): AuditGroup[] {
  const groups: AuditGroup[] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    if (last && row.requestId !== null && last.rows[0]!.requestId === row.requestId) last.rows.push(row);
    else groups.push({ key: row.id, rows: [row] });
  }
  return groups;
}

/** The form's fields, groups opened. */
function formFieldsOf(definition: ResourceDefinition | undefined): FormField[] {
  const flatten = (entries: readonly FormEntry[]): FormField[] =>
    entries.flatMap((entry) => ('fields' in entry ? flatten(entry.fields) : [entry as FormField]));
  return definition?.form ? flatten(definition.form.fields) : [];
}

/** A product's money fields outside its list's columns: amounts in the workspace's base currency. */
const productMoneyFields = new Set(['price', 'cost']);

/**
 * How a changed field's value is shown: as the list's column of that field shows it, else as the
 * form's field would (a choice by its label, a reference by the record's name), else as text.
 */
function columnFor(definition: ResourceDefinition | undefined, field: string): ColumnDefinition | undefined {
  // A product's own price and cost are in no column of its list and it has no declared form.
  if (definition?.key === productsResource.key && productMoneyFields.has(field))
    return { field, kind: 'money' };
  // A column showing a range (a product's lowest to highest price) is two fields here, each shown alone.
  const range = definition?.columns?.find(
    (candidate) => candidate.rangeTo && (candidate.field === field || candidate.rangeTo === field),
  );
  if (range) {
    const { rangeTo: _upTo, ...end } = range;
    return { ...end, field };
  }
  const column = definition?.columns?.find((candidate) => candidate.field === field);
  if (column) return column;
  const formField = formFieldsOf(definition).find((candidate) => candidate.name === field);
  if (!formField) return undefined;
  const source = formField.optionSource;
  if (source?.kind === 'resource' && !formField.isMulti)
    return { field, kind: 'reference', reference: source.resource };
  if (source?.kind === 'countries') return { field, kind: 'country' };
  if (source?.kind === 'currencies') return { field, kind: formField.isMulti ? 'currencies' : 'currency' };
  if (formField.type === 'date') return { field, kind: 'date' };
  if (formField.type === 'number') return { field, kind: 'number' };
  if (formField.type === 'phoneNums') return { field, kind: 'phones' };
  if (formField.type === 'imageUpload' && !formField.multiple) return { field, kind: 'image' };
  return undefined;
}

/**
 * Fields the log names by its own text before their list's: a count shown beside the changes it
 * counts (a product's `variantsCount`, "Variants" on its list, is "Number of variants" beside its
 * changed "Variants").
 */
const fieldsNamedApart = new Set(['variantsCount']);

/**
 * A field's label: the resource's text (or the common one), else the form's label, else its name.
 * The two ends of a list's range column (a product's `priceMin` and `priceMax`, its "Price") and
 * the fields named apart (`fieldsNamedApart`) are named by the log's own texts first.
 */
export function changeFieldLabel(
  t: TFunction,
  exists: (key: string) => boolean,
  resourceKey: string,
  field: string,
): string {
  const rangeEnd = findResource(resourceKey)?.columns?.some(
    (column) => column.rangeTo && (column.field === field || column.rangeTo === field),
  );
  if ((rangeEnd || fieldsNamedApart.has(field)) && exists(`audit.fields.${field}`))
    return t(`audit.fields.${field}` as never) as string;
  if (exists(`resources.${resourceKey}.fields.${field}`) || exists(`resources.common.fields.${field}`)) {
    return fieldText(t, resourceKey, field);
  }
  const formField = formFieldsOf(findResource(resourceKey)).find((candidate) => candidate.name === field);
  if (formField && exists(formField.label)) return t(formField.label as never) as string;
  if (exists(`audit.fields.${field}`)) return t(`audit.fields.${field}` as never) as string;
  return field;
}

/**
 * The value of a changed field as the forms and lists show it; a product's options as its page
 * lists them, by the names of their types and values (the row's `names`).
 */
function useChangeValue(resourceKey: string, names: AuditLogRecord['names']) {
  const { t, i18n } = useTranslation();
  const render = useCellRenderer(resourceKey);
  const definition = findResource(resourceKey);
  const formFields = formFieldsOf(definition);
  const empty = <span className="text-slate-500 dark:text-slate-400">{t('audit.emptyValue')}</span>;

  const show = (field: string, value: unknown, record: AnyRecord): ReactNode => {
    if (value === null || value === undefined || value === '') return empty;
    if (resourceKey === productsResource.key && field === 'options') {
      const text = formatProductOptions(value, {
        language: i18n.language,
        name: (id) => names?.[id],
        unknownType: t('audit.variants.unknownType'),
        unknownValue: t('audit.variants.unknownValue'),
      });
      if (text === '') return empty;
      if (text !== null) return <bdi className="[overflow-wrap:anywhere]">{text}</bdi>;
    }
    const column = columnFor(definition, field);
    if (column) return render(column, value, record);
    const option = formFields
      .find((candidate) => candidate.name === field)
      ?.options?.find((candidate) => candidate.value === value);
    if (option) return t(option.label as never) as string;
    if (typeof value === 'boolean') return value ? t('audit.yes') : t('audit.no');
    if (Array.isArray(value)) {
      if (value.length === 0) return empty;
      if (value.every((item) => typeof item === 'object' && item && 'locale' in item && 'value' in item)) {
        return pickLocalized(value as never, i18n.language);
      }
      if (value.every((item) => typeof item !== 'object')) return value.join(', ');
    }
    // A long value (a product's changed variants, an address) wraps anywhere rather than widen the page.
    if (typeof value === 'object')
      return <bdi className="font-mono text-xs [overflow-wrap:anywhere]">{JSON.stringify(value)}</bdi>;
    return <bdi className="[overflow-wrap:anywhere]">{String(value)}</bdi>;
  };
  return show;
}

const actionTones: Record<string, BadgeTone> = {
  create: 'success',
  delete: 'danger',
  disable: 'warning',
  enable: 'success',
  revoke: 'danger',
  purge: 'danger',
};

/** An action's name ("Updated"), or the action as recorded when the texts have none. */
function actionText(t: TFunction, exists: (key: string) => boolean, action: string): string {
  const key = `resources.auditLog.values.action.${action}`;
  return exists(key) ? (t(key as never) as string) : action;
}

/** A resource's name ("Brands"), or its key when the texts have none. */
export function resourceText(t: TFunction, exists: (key: string) => boolean, resource: string): string {
  const key = `resources.auditLog.values.resource.${resource}`;
  return exists(key) ? (t(key as never) as string) : resource;
}

/** Who made the change: the member's name, or the operator, the system, a payment provider. */
export function actorText(t: TFunction, row: Pick<AuditLogRecord, 'actorKind' | 'actorName'>): string {
  if (row.actorKind === 'member') return row.actorName ?? t('audit.actors.formerMember');
  return t(`audit.actors.${row.actorKind}` as never) as string;
}

/** How many of a save's changed variants are listed before the rest are asked for. */
export const variantsShown = 10;

/** A variant's field label: the variant grid's column, else the log's own. */
function variantFieldLabel(t: TFunction, exists: (key: string) => boolean, field: string): string {
  const column = `products.variants.column${field.charAt(0).toUpperCase()}${field.slice(1)}`;
  if (field !== 'images' && exists(column)) return t(column as never) as string;
  const own = `audit.variants.fields.${field}`;
  return exists(own) ? (t(own as never) as string) : field;
}

/** A product save's changed variants (`formatVariantChanges`): as text, or null when the change is not of that shape. */
function useVariantChanges(row: AuditLogRecord, pair: unknown): FormattedVariantChange[] | null {
  const { t, i18n } = useTranslation();
  const timeZone = useWorkspaceTimeZone();
  const currency = useSelectedWorkspaceIfAny()?.baseCurrency ?? defaultBaseCurrency;
  if (row.resource !== productsResource.key) return null;
  const names = row.names ?? {};
  return formatVariantChanges(pair, {
    language: i18n.language,
    currency,
    timeZone,
    valueName: (id) => names[id],
    unknownValue: t('audit.variants.unknownValue'),
    status: (status) => t(status === 'active' ? 'products.variants.active' : 'products.variants.inactive'),
    images: (count) => t('audit.variants.images', { count }),
  });
}

/** One line of a product save's changed variants or recipe: added, removed or its changed fields. */
type LineChange = FormattedVariantChange | FormattedRecipeChange;

/**
 * A product save's changed lines — its variants or its recipe's lines — one item each: its title,
 * whether it was added or removed, and its changed fields as the product's page shows them; the
 * first `variantsShown`, then the rest on asking.
 */
function LineChanges({
  changes,
  label,
  testId,
  showAll,
  showFewer,
}: {
  changes: LineChange[];
  label: (field: string) => string;
  testId: string;
  showAll: (count: number, formatted: string) => string;
  showFewer: string;
}) {
  const { t, i18n } = useTranslation();
  const [all, setAll] = useState(false);
  const shown = all ? changes : changes.slice(0, variantsShown);
  const empty = <span className="text-slate-500 dark:text-slate-400">{t('audit.emptyValue')}</span>;
  return (
    <div className="w-full">
      <ul className="mt-1 space-y-1.5 border-s border-slate-200 ps-3 dark:border-slate-700">
        {shown.map((change) => {
          // An added line is shown by what it has, a removed one by what it had.
          const fields =
            change.kind === 'changed'
              ? change.fields
              : change.fields.filter(
                  (field) => (change.kind === 'added' ? field.after : field.before) !== null,
                );
          return (
            <li key={change.key} data-testid={testId}>
              <p className="flex flex-wrap items-center gap-x-2">
                <bdi className="font-medium text-slate-800 dark:text-slate-200">{change.title}</bdi>
                {change.kind !== 'changed' && (
                  <Badge tone={change.kind === 'added' ? 'success' : 'danger'}>
                    {t(`audit.variants.${change.kind}`)}
                  </Badge>
                )}
              </p>
              <dl className="flex flex-wrap gap-x-4 gap-y-0.5">
                {fields.map((field) => (
                  <div key={field.field} className="flex flex-wrap items-baseline gap-x-1.5">
                    <dt className="text-slate-600 dark:text-slate-400">
                      {label(field.field)}
                      <span aria-hidden="true">:</span>
                    </dt>
                    <dd className="flex flex-wrap items-baseline gap-x-1.5 tabular-nums">
                      {change.kind !== 'added' && (
                        <span
                          className={
                            change.kind === 'changed'
                              ? 'text-slate-600 line-through decoration-slate-400 dark:text-slate-400'
                              : undefined
                          }
                        >
                          {change.kind === 'changed' && <span className="sr-only">{t('audit.before')} </span>}
                          <bdi className="[overflow-wrap:anywhere]">{field.before ?? empty}</bdi>
                        </span>
                      )}
                      {change.kind === 'changed' && (
                        <span aria-hidden="true" className="text-slate-400">
                          {t('audit.arrow')}
                        </span>
                      )}
                      {change.kind !== 'removed' && (
                        <span>
                          {change.kind === 'changed' && <span className="sr-only">{t('audit.after')} </span>}
                          <bdi className="[overflow-wrap:anywhere]">{field.after ?? empty}</bdi>
                        </span>
                      )}
                    </dd>
                  </div>
                ))}
              </dl>
            </li>
          );
        })}
      </ul>
      {changes.length > variantsShown && (
        <button
          type="button"
          onClick={() => setAll(!all)}
          aria-expanded={all}
          className="mt-1 rounded text-sm font-semibold text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-brand-300"
        >
          {all ? showFewer : showAll(changes.length, numberFormat(i18n.language).format(changes.length))}
        </button>
      )}
    </div>
  );
}

/** A product save's changed variants (`LineChanges`), each field named as the variant grid names it. */
function VariantChanges({ changes }: { changes: FormattedVariantChange[] }) {
  const { t, i18n } = useTranslation();
  const exists = (key: string) => i18n.exists(key);
  return (
    <LineChanges
      changes={changes}
      label={(field) => variantFieldLabel(t, exists, field)}
      testId="audit-variant"
      showAll={(count, formatted) => t('audit.variants.showAll', { count, formatted })}
      showFewer={t('audit.variants.showFewer')}
    />
  );
}

/** A product save's changed recipe lines (`formatRecipeChanges`): as text, or null when the change is not of that shape. */
function useRecipeChanges(row: AuditLogRecord, pair: unknown): FormattedRecipeChange[] | null {
  const { t, i18n } = useTranslation();
  if (row.resource !== productsResource.key || pair === null) return null;
  return formatRecipeChanges(pair, {
    language: i18n.language,
    orderType: (orderType) => t(`products.recipe.orderType.${orderType}` as never) as string,
    allOrderTypes: t('products.recipe.allOrderTypes'),
    allBrands: t('products.recipe.allBrands'),
  });
}

/** A product save's changed recipe lines (`LineChanges`), each field named as the recipe's editor names it. */
function RecipeChanges({ changes }: { changes: FormattedRecipeChange[] }) {
  const { t } = useTranslation();
  return (
    <LineChanges
      changes={changes}
      label={(field) => t(`products.recipe.${field}` as never) as string}
      testId="audit-recipe-line"
      showAll={(count, formatted) => t('audit.recipe.showAll', { count, formatted })}
      showFewer={t('audit.recipe.showFewer')}
    />
  );
}

/** One changed field: "Field: before → after", or a product's variants or recipe lines listed one by one. */
function ChangedField({
  row,
  field,
  pair,
  show,
  before,
  after,
}: {
  row: AuditLogRecord;
  field: string;
  pair: unknown[];
  show: (field: string, value: unknown, record: AnyRecord) => ReactNode;
  before: AnyRecord;
  after: AnyRecord;
}) {
  const { t, i18n } = useTranslation();
  const exists = (key: string) => i18n.exists(key);
  const variants = useVariantChanges(row, field === 'variants' ? pair : null);
  const recipe = useRecipeChanges(row, field === 'recipe' ? pair : null);
  const [was, now] = [pair[0], pair[1]];
  const created = row.action === 'create';
  const deleted = row.action === 'delete';
  const label = (
    <dt className="font-medium text-slate-700 dark:text-slate-300">
      {changeFieldLabel(t, exists, row.resource, field)}
      <span aria-hidden="true">:</span>
    </dt>
  );
  if (variants || recipe) {
    return (
      <div className="flex flex-wrap items-baseline gap-x-1.5" data-testid="audit-change">
        {label}
        <dd className="w-full text-slate-900 dark:text-slate-100">
          {variants ? <VariantChanges changes={variants} /> : <RecipeChanges changes={recipe!} />}
        </dd>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-baseline gap-x-1.5" data-testid="audit-change">
      {label}
      <dd className="flex min-w-0 flex-wrap items-baseline gap-x-1.5 text-slate-900 dark:text-slate-100">
        {!created && (
          <span className="text-slate-600 line-through decoration-slate-400 dark:text-slate-400">
            <span className="sr-only">{t('audit.before')} </span>
            {show(field, was, before)}
          </span>
        )}
        {!created && !deleted && (
          <span aria-hidden="true" className="text-slate-400">
            {t('audit.arrow')}
          </span>
        )}
        {!deleted && (
          <span>
            {!created && <span className="sr-only">{t('audit.after')} </span>}
            {show(field, now, after)}
          </span>
        )}
      </dd>
    </div>
  );
}

/** A list's filter as the list's menus name it: its label, and its values by their names. */
function ExportFilter({ row, field, value }: { row: AuditLogRecord; field: string; value: unknown }) {
  const { t, i18n } = useTranslation();
  const render = useCellRenderer(row.resource);
  const { formatDate } = useFormatters();
  const filter = findResource(row.resource)?.filters.find((candidate) => candidate.field === field);
  const label =
    field === 'status' ? t('resources.common.fields.status' as never) : fieldText(t, row.resource, field);
  const valueName = (item: string): ReactNode => {
    if (item === 'none') return t('audit.export.none');
    if (field === 'status')
      return t(`resources.common.status.${item === 'active' ? 'active' : 'inactive'}` as never) as string;
    if (filter?.kind === 'enum') {
      const key = `resources.${row.resource}.values.${field}.${item}`;
      return i18n.exists(key) ? (t(key as never) as string) : item;
    }
    if (filter?.kind === 'reference')
      return render({ field, kind: 'reference', reference: filter.resource }, item, {});
    return <bdi>{item}</bdi>;
  };
  let values: ReactNode;
  if (Array.isArray(value)) {
    values = value.map((item, index) => (
      <span key={String(item)}>
        {index > 0 && <span aria-hidden="true">{t('audit.export.or')}</span>}
        {valueName(String(item))}
      </span>
    ));
  } else if (typeof value === 'object' && value !== null) {
    const { from, to } = value as DateRange;
    values = `${from ? formatDate(from) : '…'} – ${to ? formatDate(to) : '…'}`;
  } else values = String(value);
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-1" data-testid="audit-export-filter">
      <span className="text-slate-600 dark:text-slate-400">{label}:</span> {values}
    </span>
  );
}

/** One named detail of an export's or an import's row: a term and its value. */
function DetailItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline gap-x-1.5" data-testid="audit-change">
      <dt className="font-medium text-slate-700 dark:text-slate-300">
        {label}
        <span aria-hidden="true">:</span>
      </dt>
      <dd className="min-w-0 text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}

/** An export's row: the file's format and rows, the list's search and filters, and whether it was cut short. */
function ExportDetails({ row }: { row: AuditLogRecord }) {
  const { t, i18n } = useTranslation();
  const after = (field: string) => row.changes[field]?.[1];
  const format = after('format');
  const rows = after('rows');
  const search = after('search');
  const filters = after('filters');
  const item = (field: 'format' | 'rows' | 'search' | 'filters', value: ReactNode) => (
    <DetailItem key={field} label={t(`audit.export.${field}`)}>
      {value}
    </DetailItem>
  );
  return (
    <div className="mt-2 space-y-1 text-sm">
      <dl className="space-y-1">
        {typeof format === 'string' && item('format', <bdi>{format.toUpperCase()}</bdi>)}
        {typeof rows === 'number' &&
          item('rows', <span className="tabular-nums">{numberFormat(i18n.language).format(rows)}</span>)}
        {typeof search === 'string' && item('search', <bdi>“{search}”</bdi>)}
        {typeof filters === 'object' &&
          filters !== null &&
          item(
            'filters',
            <ul className="inline-flex flex-wrap gap-x-3 gap-y-0.5">
              {Object.entries(filters).map(([field, value]) => (
                <li key={field}>
                  <ExportFilter row={row} field={field} value={value} />
                </li>
              ))}
            </ul>,
          )}
      </dl>
      {after('complete') === false && (
        <p className="text-amber-700 dark:text-amber-300">{t('audit.export.cutShort')}</p>
      )}
    </div>
  );
}

/**
 * An import's row: the file's name and format, the rows read, and the records added, changed and
 * left unchanged (decision 0038).
 */
function ImportDetails({ row }: { row: AuditLogRecord }) {
  const { t, i18n } = useTranslation();
  const after = (field: string) => row.changes[field]?.[1];
  const fileName = after('fileName');
  const format = after('format');
  const counted = (['rows', 'created', 'updated', 'unchanged'] as const).filter(
    (field) => typeof after(field) === 'number',
  );
  const item = (
    field: 'fileName' | 'format' | 'rows' | 'created' | 'updated' | 'unchanged',
    value: ReactNode,
  ) => (
    <DetailItem key={field} label={t(`audit.import.${field}`)}>
      {value}
    </DetailItem>
  );
  return (
    <dl className="mt-2 space-y-1 text-sm">
      {typeof fileName === 'string' && item('fileName', <bdi>{fileName}</bdi>)}
      {typeof format === 'string' && item('format', <bdi>{format.toUpperCase()}</bdi>)}
      {counted.map((field) =>
        item(
          field,
          <span className="tabular-nums">{numberFormat(i18n.language).format(after(field) as number)}</span>,
        ),
      )}
    </dl>
  );
}

/** The changed fields of one row: "Field: before → after", one per line. */
function Changes({ row }: { row: AuditLogRecord }) {
  const { t } = useTranslation();
  const show = useChangeValue(row.resource, row.names);
  if (row.action === 'export') return <ExportDetails row={row} />;
  if (row.action === 'import') return <ImportDetails row={row} />;
  // The record's id is its row's own (named beside the resource), not a field anyone typed.
  const entries = Object.entries(row.changes).filter(([field]) => field !== 'id');
  if (entries.length === 0)
    return <p className="text-sm text-slate-500 dark:text-slate-400">{t('audit.noFields')}</p>;
  // A money amount is shown in the currency the same change names (or the record's, unknown here: the base).
  const before = Object.fromEntries(entries.map(([field, [value]]) => [field, value]));
  const after = Object.fromEntries(entries.map(([field, pair]) => [field, pair[1]]));
  return (
    <dl className="mt-2 space-y-1 text-sm">
      {entries.map(([field, pair]) => (
        <ChangedField
          key={field}
          row={row}
          field={field}
          pair={pair}
          show={show}
          before={before}
          after={after}
        />
      ))}
    </dl>
  );
}

/** One row: the action on the resource's record, then its changes. */
function AuditRow({
  row,
  showResource,
  onRecord,
}: {
  row: AuditLogRecord;
  showResource: boolean;
  onRecord?: (row: AuditLogRecord) => void;
}) {
  const { t, i18n } = useTranslation();
  const exists = (key: string) => i18n.exists(key);
  return (
    <li className="py-3 first:pt-0 last:pb-0" data-testid="audit-row">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={actionTones[row.action] ?? 'brand'}>{actionText(t, exists, row.action)}</Badge>
        {showResource && (
          <span className="text-sm font-semibold text-slate-900 dark:text-white">
            {resourceText(t, exists, row.resource)}
          </span>
        )}
        {/* An export's or an import's id names no stored record: nothing to narrow the list to. */}
        {showResource &&
          row.action !== 'export' &&
          row.action !== 'import' &&
          (onRecord ? (
            <button
              type="button"
              onClick={() => onRecord(row)}
              className="rounded font-mono text-xs text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-brand-300"
              aria-label={t('audit.showRecord', { record: row.recordId })}
              title={t('audit.showRecord', { record: row.recordId })}
            >
              <bdi>{shortRecordId(row.recordId)}</bdi>
            </button>
          ) : (
            <bdi className="font-mono text-xs text-slate-500 dark:text-slate-400">
              {shortRecordId(row.recordId)}
            </bdi>
          ))}
      </div>
      <Changes row={row} />
    </li>
  );
}

/**
 * Audit rows as a feed, newest first: consecutive rows of one request under one heading (its time,
 * who, from where), each row its action, resource and record, and the changed fields with their
 * values as the forms show them.
 */
export function AuditEntries({
  rows,
  showResource = true,
  onRecord,
}: {
  rows: readonly AuditLogRecord[];
  /** The Activity page names each row's resource and record; a record's History does not. */
  showResource?: boolean;
  /** The record's id becomes a button narrowing the list to that record. */
  onRecord?: (row: AuditLogRecord) => void;
}) {
  const { t } = useTranslation();
  const { formatDate, formatTime } = useFormatters();
  return (
    <ol className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="audit-entries">
      {groupByRequest(rows).map((group) => {
        const first = group.rows[0]!;
        return (
          <li key={group.key} className="px-4 py-4 sm:px-5" data-testid="audit-group">
            <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
              <span className="font-semibold text-slate-900 dark:text-white">{actorText(t, first)}</span>
              <time dateTime={first.at} className="text-slate-600 tabular-nums dark:text-slate-400">
                {formatDate(first.at)} · {formatTime(first.at)}
              </time>
              {group.rows.length > 1 && (
                <span className="text-slate-500 dark:text-slate-400">
                  {t('audit.inOneRequest', { count: group.rows.length })}
                </span>
              )}
            </p>
            <ul className="mt-2 divide-y divide-slate-100 border-s-2 border-slate-200 ps-3 dark:divide-slate-800 dark:border-slate-700">
              {group.rows.map((row) => (
                <AuditRow key={row.id} row={row} showResource={showResource} onRecord={onRecord} />
              ))}
            </ul>
          </li>
        );
      })}
    </ol>
  );
}
