import {
  imageUrlField,
  listFormFields,
  parseStoredFileUrl,
  type ResourceDefinition,
  type ValidationIssue,
  validationCodes,
} from '@dukkan/contract';

/** A zod schema as far as the walk below reads it (zod 4 keeps its definition in `_zod.def`). */
interface SchemaNode {
  _zod?: {
    def: {
      type: string;
      innerType?: SchemaNode;
      element?: SchemaNode;
      shape?: Record<string, SchemaNode>;
      in?: SchemaNode;
    };
  };
}

/**
 * The fields of an input schema that hold stored images (`imageUrlField`, alone or in a list), at
 * any depth, by their dotted path: `logo`, a product's `images` and its variant edits'
 * `variants.images`.
 */
export function schemaImageFields(schema: object, path = ''): string[] {
  if (schema === imageUrlField) return [path];
  const def = (schema as SchemaNode)._zod?.def;
  if (!def) return [];
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return def.innerType ? schemaImageFields(def.innerType, path) : [];
    case 'array':
      return def.element ? schemaImageFields(def.element, path) : [];
    case 'pipe':
      return def.in ? schemaImageFields(def.in, path) : [];
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([field, child]) =>
        schemaImageFields(child, path ? `${path}.${field}` : field),
      );
    default:
      return [];
  }
}

/**
 * The image fields a resource declares: its form's image uploads, its image columns and the
 * fields of its input that take stored images (nested ones by their dotted path).
 */
export function declaredImageFields(definition: ResourceDefinition): string[] {
  const fields = new Set<string>();
  for (const field of listFormFields(definition.form?.fields ?? [])) {
    if (field.type === 'imageUpload') fields.add(field.name);
  }
  for (const column of definition.columns ?? []) {
    if (column.kind === 'image') fields.add(column.field);
  }
  for (const field of schemaImageFields(definition.schemas.create)) fields.add(field);
  return [...fields];
}

/** The strings found at a dotted field path, through objects and lists, each with its full path. */
function valuesAt(
  value: unknown,
  segments: readonly string[],
  path: string,
): { path: string; url: string }[] {
  const at = (step: string | number) => (path ? `${path}.${step}` : String(step));
  if (Array.isArray(value)) return value.flatMap((item, index) => valuesAt(item, segments, at(index)));
  if (segments.length === 0) return typeof value === 'string' ? [{ path, url: value }] : [];
  if (typeof value !== 'object' || value === null) return [];
  const [field, ...rest] = segments as [string, ...string[]];
  return valuesAt((value as Record<string, unknown>)[field], rest, at(field));
}

/**
 * Images must be files uploaded to this workspace: the contract takes only the upload route's
 * URL shape, and here its workspace must be the caller's (another workspace's file would be shown
 * here, and kept alive by this reference after that workspace let go of it). URL_IS_INVALID at
 * each refused image's own path (`logo`, `images.0`, `variants.2.images.0`); absent fields pass.
 */
export function foreignImageIssues(
  workspaceId: string,
  input: Record<string, unknown>,
  imageFields: readonly string[],
): ValidationIssue[] {
  return imageFields.flatMap((field) =>
    valuesAt(input, field.split('.'), '').flatMap(({ path, url }): ValidationIssue[] =>
      parseStoredFileUrl(url)?.workspaceId === workspaceId
        ? []
        : [{ path, message: validationCodes.URL_IS_INVALID }],
    ),
  );
}
