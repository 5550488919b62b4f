import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { textField } from '../text-field.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import type { ResourceDefinition } from './define-resource.ts';
import { recordStatuses } from './fields.ts';

export const maxPageSize = 100;
export const defaultPageSize = 20;
/** The most rows one `POST {resource}/bulk` takes (all written in one transaction, or none). */
export const maxBulkRows = 500;

/** A workspace's id where a call names its workspace (`?workspaceId=`). */
export const workspaceIdField = lazySchema(() => z.uuid({ error: codes.WORKSPACE_ID_IS_REQUIRED }));

/** The query string of a workspace-scoped call that takes nothing else: `?workspaceId=` alone. */
export const workspaceQuerySchema = lazySchema(() => z.strictObject({ workspaceId: workspaceIdField }));

/** The body of `POST {resource}/bulk`: 1 to `maxBulkRows` rows, each then parsed as a create. */
export const bulkRowsSchema = lazySchema(() =>
  z
    .array(z.unknown(), { error: codes.BULK_ROWS_ARE_REQUIRED })
    .min(1, codes.BULK_ROWS_ARE_REQUIRED)
    .max(maxBulkRows, codes.TOO_MANY_BULK_ROWS),
);

/** The reference filter value for records that reference nothing (`?parentId=none`: the top level). */
export const noReference = 'none';

/** Filter values: one value or several, comma-separated; each bounded. */
const filterValues = (allowed?: readonly string[], ids: 'references' | 'text' = 'references') =>
  z
    .string({ error: codes.FILTER_IS_INVALID })
    .max(1000, codes.FILTER_TOO_LONG)
    .transform((raw) => raw.split(',').filter(Boolean))
    .pipe(
      z
        .array(
          allowed
            ? z.enum(allowed as [string, ...string[]], { error: codes.FILTER_IS_INVALID })
            : ids === 'references'
              ? z.union([z.uuid({ error: codes.FILTER_IS_INVALID }), z.literal(noReference)], {
                  error: codes.FILTER_IS_INVALID,
                })
              : // Any record's id as text, but never U+0000, which PostgreSQL's text cannot hold.
                z
                  .string()
                  .max(100, codes.FILTER_TOO_LONG)
                  .refine((value) => !value.includes('\u0000'), { message: codes.FILTER_IS_INVALID }),
        )
        .min(1, codes.FILTER_IS_INVALID)
        .max(50, codes.FILTER_TOO_LONG),
    );

/** A day of a date range's end. */
const rangeDay = /^\d{4}-\d{2}-\d{2}$/;

/** The ends of a `dateRange` filter's value `<from>..<to>` (either may be empty); days of the workspace's calendar. */
export interface DateRange {
  from?: string;
  to?: string;
}

/** `from..to`, `from..` or `..to`: a day at either end or both, `from` not after `to`. */
const dateRangeValue = () =>
  z
    .string({ error: codes.FILTER_IS_INVALID })
    .max(30, codes.FILTER_TOO_LONG)
    .transform((raw, context): DateRange => {
      const parts = raw.split('..');
      const [from, to] = parts;
      const valid =
        parts.length === 2 &&
        [from, to].every((end) => end === '' || (rangeDay.test(end!) && !Number.isNaN(Date.parse(end!)))) &&
        (from !== '' || to !== '') &&
        (from === '' || to === '' || from! <= to!);
      if (!valid) {
        context.addIssue({ code: 'custom', message: codes.FILTER_IS_INVALID });
        return z.NEVER;
      }
      return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
    });

/** The value of a filter of this declaration as its query parameter takes it. */
function filterValue(filter: ResourceDefinition['filters'][number]) {
  if (filter.kind === 'dateRange') return dateRangeValue();
  if (filter.kind === 'enum') return filterValues(filter.values);
  if (filter.kind === 'id') return filterValues(undefined, 'text');
  return filterValues();
}

/**
 * The query string of `GET {resource}`: page, pageSize (1–100), search, a whitelisted sort and
 * the declared filters. Strict: an unknown parameter is a `VALIDATION` error, not ignored.
 */
export function listQuerySchema(definition: ResourceDefinition) {
  const sortValues = definition.sort.flatMap((field) => [field, `-${field}`]) as [string, ...string[]];
  const filters = Object.fromEntries(
    definition.filters.map((filter) => [filter.field, filterValue(filter).optional()]),
  );
  return z.strictObject({
    workspaceId: workspaceIdField,
    // The field's own message covers each of its checks, and a value that is not a number.
    page: z.coerce.number({ error: codes.PAGE_IS_INVALID }).int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce
      .number({ error: codes.PAGE_SIZE_IS_INVALID })
      .int()
      .min(1)
      .max(maxPageSize)
      .default(defaultPageSize),
    search: textField().trim().max(100, codes.SEARCH_TOO_LONG).optional(),
    // None: by relevance while searching (a field that is the search, then one that starts with
    // it, then the rest), else the declaration's `defaultSort`. A sort given wins.
    sort: z.enum(sortValues, { error: codes.SORT_IS_INVALID }).optional(),
    ...(definition.hasStatus ? { status: filterValues(recordStatuses).optional() } : {}),
    ...filters,
  });
}
export type ListQuery = z.infer<ReturnType<typeof listQuerySchema>>;

/** The formats a list exports to (`GET {resource}/export?format=`). */
export const exportFormats = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof exportFormats)[number];

/** The query string of `GET {resource}/export`: the list's, and the file's format. */
export function exportQuerySchema(definition: ResourceDefinition) {
  return listQuerySchema(definition).extend({
    format: z.enum(exportFormats, { error: codes.VALUE_IS_INVALID }),
  });
}
