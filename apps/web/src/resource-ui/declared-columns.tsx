import {
  type ColumnDefinition,
  displayNames,
  formatMoney,
  formatMoneyRange,
  numberFormat,
  pickLocalized,
  type ResourceDefinition,
  type WorkingDay,
} from '@dukkan/contract';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../components/ui/badge.tsx';
import { useFormatters } from '../lib/use-formatters.ts';
import { useSelectedWorkspaceIfAny } from '../lib/workspace-context.tsx';
import type { ResourceColumn } from './columns.ts';
import { CompactList, compactLimits } from './compact-list.tsx';
import { optionListParams, recordName, requireResource } from './option-sources.ts';
import { useResourceAccess, useResourceList, useResourceRecord } from './use-resource.ts';
import { WorkingDaysCell } from './working-days-cell.tsx';

type AnyRecord = Record<string, unknown>;

/** A field's label: the resource's own text, else the catalogue's common one (`code`, `name`, `status`). */
export function fieldText(t: TFunction, resourceKey: string, field: string): string {
  return t([
    `resources.${resourceKey}.fields.${field}`,
    `resources.common.fields.${field}`,
  ] as never) as string;
}

const { names: namesLimit, lines: linesLimit } = compactLimits;

const muted = <span className="text-slate-400 dark:text-slate-500">—</span>;

/** The name of a referenced record: looked up in the cached first page, else fetched alone. */
function ReferenceName({ resource, id }: { resource: string; id: string }) {
  const { i18n } = useTranslation();
  const definition = requireResource(resource);
  const { allows } = useResourceAccess(definition);
  const page = useResourceList(definition, optionListParams(definition));
  const inPage = page.data?.data.find((record) => record.id === id);
  const alone = useResourceRecord(definition, page.isSuccess && !inPage ? id : null);
  const record = inPage ?? alone.data;
  if (!allows('list') || !record) return muted;
  return <>{recordName(definition, record as AnyRecord, i18n.language)}</>;
}

/** A phone number reads left to right in either language, isolated from the text around it. */
function PhoneNumber({ number }: { number: string }) {
  return <bdi dir="ltr">{number}</bdi>;
}

/** The cell of each column kind: `render(column, value, record)`. */
export function useCellRenderer(resourceKey: string) {
  const { t, i18n } = useTranslation();
  const { formatDate } = useFormatters();
  const number = numberFormat(i18n.language, { maximumFractionDigits: 6 });
  const percent = numberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 2 });
  const baseCurrency = useSelectedWorkspaceIfAny()?.baseCurrency;

  return (column: ColumnDefinition, value: unknown, record: AnyRecord): ReactNode => {
    if (value === null || value === undefined || value === '') return muted;
    switch (column.kind) {
      case 'code':
        return <bdi className="font-mono text-xs">{String(value)}</bdi>;
      case 'localizedText':
        return pickLocalized(value as never, i18n.language);
      case 'date':
        // A calendar day ('YYYY-MM-DD') is that day anywhere; a timestamp, its day in the workspace's zone.
        return <span className="whitespace-nowrap">{formatDate(String(value))}</span>;
      case 'number':
        return <span className="tabular-nums">{number.format(Number(value))}</span>;
      case 'percent':
        return <span className="tabular-nums">{percent.format(Number(value) / 100)}</span>;
      case 'money': {
        // A column naming no currency field is in the workspace's base currency.
        const currency = column.currencyField ? record[column.currencyField] : baseCurrency;
        const upTo = column.rangeTo ? record[column.rangeTo] : undefined;
        const amount = Number(value);
        const text =
          typeof currency !== 'string'
            ? number.format(amount)
            : typeof upTo === 'number'
              ? formatMoneyRange(amount, upTo, currency, i18n.language)
              : formatMoney(amount, currency, i18n.language);
        return <span className="whitespace-nowrap tabular-nums">{text}</span>;
      }
      case 'enum':
        return t(`resources.${resourceKey}.values.${column.field}.${String(value)}` as never) as string;
      case 'country':
        return displayNames(i18n.language, 'region').of(String(value)) ?? String(value);
      case 'currency':
        return (
          <span>
            <bdi className="font-mono text-xs">{String(value)}</bdi>{' '}
            <span className="text-slate-500 dark:text-slate-400">
              {displayNames(i18n.language, 'currency').of(String(value))}
            </span>
          </span>
        );
      case 'currencies': {
        const list = value as string[];
        if (list.length === 0) return muted;
        return (
          <CompactList
            layout="inline"
            limit={namesLimit}
            summary={list.join(', ')}
            items={list.map((code) => ({ key: code, node: <Badge>{code}</Badge> }))}
          />
        );
      }
      case 'reference':
        return <ReferenceName resource={column.reference ?? ''} id={String(value)} />;
      case 'phone':
        return <PhoneNumber number={String(value)} />;
      case 'phones': {
        const phones = (value as (string | { label: string; number: string })[]).map((phone) =>
          typeof phone === 'string' ? { label: '', number: phone } : phone,
        );
        if (phones.length === 0) return muted;
        const text = (phone: { label: string; number: string }) =>
          phone.label ? `${phone.label}: ${phone.number}` : phone.number;
        return (
          <CompactList
            limit={linesLimit}
            className="text-sm whitespace-nowrap"
            summary={phones.map(text).join('\n')}
            items={phones.map((phone) => ({
              key: `${phone.label}-${phone.number}`,
              node: (
                <>
                  {phone.label && <span className="text-slate-500 dark:text-slate-400">{phone.label}: </span>}
                  <PhoneNumber number={phone.number} />
                </>
              ),
            }))}
          />
        );
      }
      case 'image':
        return (
          <img
            src={String(value)}
            alt=""
            loading="lazy"
            className="size-9 rounded-lg border border-slate-200 object-cover dark:border-slate-700"
          />
        );
      case 'workingDays':
        return <WorkingDaysCell days={value as WorkingDay[]} limit={linesLimit} />;
      case 'status':
        return (
          <Badge tone={value === 'active' ? 'success' : 'neutral'}>
            {t(`resources.common.status.${value === 'active' ? 'active' : 'inactive'}`)}
          </Badge>
        );
      default:
        return String(value);
    }
  };
}

/** A resource's declared columns as the list page's columns (headers, sorting, cells). */
export function useDeclaredColumns<R extends { id: string }>(
  definition: ResourceDefinition,
): ResourceColumn<R>[] {
  const { t } = useTranslation();
  const render = useCellRenderer(definition.key);
  return (definition.columns ?? []).map((column) => ({
    key: column.field,
    header: fieldText(t, definition.key, column.field),
    sortField: definition.sort.includes(column.field) ? column.field : undefined,
    primary: column.primary,
    status: column.kind === 'status',
    className: column.kind === 'code' || column.kind === 'date' ? 'whitespace-nowrap' : undefined,
    cell: (record: R) =>
      render(column, (record as unknown as AnyRecord)[column.field], record as unknown as AnyRecord),
  }));
}
