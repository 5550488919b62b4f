import { z } from 'zod';
import { textField } from '../text-field.ts';
import type { ResourceDefinition } from './define-resource.ts';
import { recordStatuses } from './fields.ts';

export const maxPageSize = 100;
export const defaultPageSize = 20;
/** The most rows one `POST {resource}/bulk` takes (all written in one transaction, or none). */
export const maxBulkRows = 500;

/** The reference filter value for records that reference nothing (`?parentId=none`: the top level). */
export const noReference = 'none';

/** Filter values: one value or several, comma-separated; each bounded. */
const filterValues = (allowed?: readonly string[]) =>
  z
    .string()
    .max(1000)
    .transform((raw) => raw.split(',').filter(Boolean))
    .pipe(
      z
        .array(
          allowed ? z.enum(allowed as [string, ...string[]]) : z.union([z.uuid(), z.literal(noReference)]),
        )
        .min(1)
        .max(50),
    );

/**
 * The query string of `GET {resource}`: page, pageSize (1–100), search, a whitelisted sort and
 * the declared filters. Strict: an unknown parameter is a `VALIDATION` error, not ignored.
 */
export function listQuerySchema(definition: ResourceDefinition) {
  const sortValues = definition.sort.flatMap((field) => [field, `-${field}`]) as [string, ...string[]];
  const filters = Object.fromEntries(
    definition.filters.map((filter) => [
      filter.field,
      filterValues(filter.kind === 'enum' ? filter.values : undefined).optional(),
    ]),
  );
  return z.strictObject({
    workspaceId: z.uuid(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(defaultPageSize),
    search: textField().trim().max(100).optional(),
    sort: z.enum(sortValues).default(definition.defaultSort),
    ...(definition.hasStatus ? { status: filterValues(recordStatuses).optional() } : {}),
    ...filters,
  });
}
export type ListQuery = z.infer<ReturnType<typeof listQuerySchema>>;
