import type { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import type { PermissionAction, PermissionResource, PermissionTag } from '../permissions/tags.ts';
import { type ColumnDefinition, columnFitsField } from './columns.ts';
import { recordStatuses } from './fields.ts';
import type { FormEntry } from './form-fields.ts';

/** What the generic router can do with a resource; a resource lists the verbs it offers. */
export const resourceVerbs = ['list', 'get', 'filters', 'create', 'bulk', 'update', 'delete'] as const;
export type ResourceVerb = (typeof resourceVerbs)[number];

/** The permission action each verb needs (design brief §3). */
export const verbPermission: Record<ResourceVerb, PermissionAction> = {
  list: 'view',
  get: 'view',
  filters: 'view',
  create: 'add',
  bulk: 'add',
  update: 'edit',
  delete: 'delete',
};

/**
 * A filter a list can take: `?<field>=<value>`; several values are comma-separated.
 *
 * - `enum`: one of the declared values;
 * - `reference`: ids of the named resource's records, or `none`;
 * - `id`: ids of records of any resource as text (an audit row's record), offered by no menu;
 * - `dateRange`: `?<field>=<from>..<to>`, days (`YYYY-MM-DD`) of the workspace's calendar, either
 *   end left open (`2026-11-01..`), both ends included.
 */
export interface FilterDefinition {
  field: string;
  kind: 'enum' | 'reference' | 'id' | 'dateRange';
  /** enum: the allowed values. */
  values?: readonly string[];
  /**
   * reference: the key of the referenced resource. Its values are that resource's ids, or
   * `none` for records that reference nothing.
   */
  resource?: string;
}

/** The groups of the web's menu (`nav.groups.<group>`), in the order the menu shows them. */
export const menuGroups = ['data', 'subscriptions', 'settings'] as const;
export type MenuGroup = (typeof menuGroups)[number];

/**
 * Where the web's menu lists a resource's screen: in a group (`nav.groups.<group>`) or, without
 * one, among the menu's top-level entries; by `order` among its neighbours there (the menu's
 * other entries — the dashboard, settings, profile — and the groups' own places are declared in
 * `apps/web/src/app/navigation.ts`, whose test refuses two entries at one place).
 */
export interface MenuPlacement {
  group?: MenuGroup;
  order: number;
}

/** A form's values by field name (nested for dotted names). */
export type FormValues = { [field: string]: unknown };

/**
 * The create and edit form of a resource. Its values may be shaped for editing (a name per
 * language, times as 'HH:MM'); `schema` validates them under the form's own field names and
 * turns them into the resource's create input, which the server validates again.
 */
export interface ResourceFormDefinition<RecordValue = never> {
  fields: readonly FormEntry[];
  schema: z.ZodType<unknown, FormValues>;
  /** A record as the form's starting values. */
  values: (record: RecordValue) => FormValues;
}

/** A resource, declared once: both the server's generic router and the web's pages read it. */
export interface ResourceDefinition<
  Record extends z.ZodObject = z.ZodObject,
  Create extends z.ZodObject = z.ZodObject,
  Update extends z.ZodObject = z.ZodObject,
  Key extends string = string,
> {
  /**
   * The resource's name everywhere: translations (`resources.<key>`, `nav.<key>`), query caches,
   * the server's table (`db/schema` exports it under this name) and the web's screen.
   */
  key: Key;
  /** API path below `/api/`, e.g. `authority-roles`. */
  path: string;
  /** Whose tags guard it: `view<permission>`, `add<permission>`, … */
  permission: PermissionResource;
  /** Its place in the web's menu. */
  menu: MenuPlacement;
  verbs: readonly ResourceVerb[];
  schemas: { record: Record; create: Create; update: Update };
  /** Fields the `search` parameter looks in (localized fields in every language). */
  search: readonly string[];
  /** Fields a list may be sorted by: `sort=field` ascending, `sort=-field` descending. */
  sort: readonly string[];
  defaultSort: string;
  filters: readonly FilterDefinition[];
  /** Records can be switched on and off: `PATCH {path}/{id}` with `{ status }`. */
  hasStatus: boolean;
  /** The list offers the status among its filters (every list with a status takes `?status=`). */
  statusFilter?: boolean;
  /**
   * The prefix of the codes the server assigns (`BR` → `BR-0001`, `BR-0002`, …, `BR-10000`):
   * a create, bulk row or update that leaves `code` empty gets the next code of the workspace's
   * sequence for this resource that no record has. Without it a code must be typed, or given by
   * the resource's own hook (a variation value takes one from its type).
   */
  codePrefix?: string;
  /** The list's columns, for the generic screen (resources with their own screen may leave them out). */
  columns?: readonly ColumnDefinition[];
  /** The create/edit form, for the generic screen. */
  form?: ResourceFormDefinition<z.infer<Record>>;
  /**
   * The most matching records a list counts: past it, `meta.total` is this number and
   * `meta.totalCapped` is true ("1–20 of more than 1,000"). For a list of millions of rows (the
   * audit log), where an exact count reads every matching row and a page reads twenty.
   */
  countLimit?: number;
  /**
   * A text shown above the generic list (a translation key). Like every declared text (labels,
   * hints), it may name the selected workspace: `{{baseCurrency}}`, `{{workspaceName}}`.
   */
  intro?: string;
  /**
   * False keeps a resource the engine creates and updates out of imports (`POST {path}/import`):
   * a role's permissions are granted in the role editor. Otherwise a resource with create and update verbs is importable.
   */
  importable?: false;
}

/** Whether a resource takes imports of a list's file: it is created and updated, and not kept out. */
export const isImportableResource = (definition: Pick<ResourceDefinition, 'verbs' | 'importable'>) =>
  definition.importable !== false &&
  definition.verbs.includes('create') &&
  definition.verbs.includes('update');

/**
 * The schemas of a resource created from its input and updated with any part of it (the update
 * schema is lazy, as the others are).
 */
export function inputSchemas<Record extends z.ZodObject, Input extends z.ZodObject>(
  record: Record,
  input: Input,
) {
  return { record, create: input, update: lazySchema(() => input.partial()) };
}

/**
 * A resource's declaration, as it is: its schemas are lazy (`lazySchema`), so declaring builds
 * none of them. `checkResource` says whether the declaration holds together.
 */
export function defineResource<
  Record extends z.ZodObject,
  Create extends z.ZodObject,
  Update extends z.ZodObject,
  const Key extends string,
>(
  definition: ResourceDefinition<Record, Create, Update, Key>,
): ResourceDefinition<Record, Create, Update, Key> {
  return definition;
}

/**
 * Throws when a declaration names a field its record does not have (to search, sort or show in a
 * column), or shows a field in a column of another type. It builds the record schema, so it runs
 * where the schemas are built anyway: the server, for every registered resource as it starts, and
 * the contract's tests; a page that only lists records never pays for it.
 */
export function checkResource(definition: ResourceDefinition): void {
  if (definition.statusFilter && !definition.hasStatus) {
    throw new Error(`Resource ${definition.key}: a status filter needs hasStatus`);
  }
  if (definition.codePrefix !== undefined) {
    if (!/^[A-Z][A-Z0-9]{0,9}$/.test(definition.codePrefix)) {
      throw new Error(
        `Resource ${definition.key}: the code prefix ${definition.codePrefix} must be 1–10 capital letters or digits`,
      );
    }
    if (!('code' in definition.schemas.record.shape && 'code' in definition.schemas.create.shape)) {
      throw new Error(`Resource ${definition.key}: a code prefix needs a code field in its record and input`);
    }
  }
  const columnFields = (definition.columns ?? []).map((column) => column.field);
  for (const field of [...definition.search, ...definition.sort, ...columnFields]) {
    if (!(field in definition.schemas.record.shape)) {
      throw new Error(`Resource ${definition.key}: ${field} is not a field of its record`);
    }
  }
  for (const column of definition.columns ?? []) {
    for (const named of [column.currencyField, column.rangeTo]) {
      if (named !== undefined && !(named in definition.schemas.record.shape)) {
        throw new Error(
          `Resource ${definition.key}: the column ${column.field} names ${named}, not a field of its record`,
        );
      }
    }
    if (!columnFitsField(column.kind, definition.schemas.record.shape[column.field] as z.ZodType)) {
      throw new Error(
        `Resource ${definition.key}: a ${column.kind} column cannot show ${column.field}, a field of another type`,
      );
    }
  }
}

/** The tag a verb of a resource needs, e.g. `addBrands`. */
export function tagFor(
  definition: Pick<ResourceDefinition, 'permission'>,
  verb: ResourceVerb,
): PermissionTag {
  return `${verbPermission[verb]}${definition.permission}` as PermissionTag;
}

const statusFilter: FilterDefinition = { field: 'status', kind: 'enum', values: recordStatuses };
/** What `listFilters` reads of a declaration. */
export type FilterSource = Pick<ResourceDefinition, 'filters' | 'statusFilter'> & { hasStatus?: boolean };
const offered = new WeakMap<FilterSource, readonly FilterDefinition[]>();

/**
 * The filters a list offers: the declared ones (of the record's own fields), then the status when
 * the declaration asks for it. The same array for the same declaration, for React's memos.
 */
export function listFilters(definition: FilterSource): readonly FilterDefinition[] {
  if (!(definition.statusFilter && definition.hasStatus)) return definition.filters;
  let filters = offered.get(definition);
  if (!filters) {
    filters = [...definition.filters, statusFilter];
    offered.set(definition, filters);
  }
  return filters;
}
