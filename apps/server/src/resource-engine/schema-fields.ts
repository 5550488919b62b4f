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
 * The fields of an input schema that are made of the contract's `field` schema (alone, optional,
 * nullable or in a list), at any depth, by their dotted path: the image fields (`imageUrlField`) of
 * a product are `images` and its variant edits' `variants.images`; a brand's date (`dateField`)
 * is `creationDate`.
 */
export function schemaFieldsOf(schema: object, field: object, path = ''): string[] {
  if (schema === field) return [path];
  const def = (schema as SchemaNode)._zod?.def;
  if (!def) return [];
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return def.innerType ? schemaFieldsOf(def.innerType, field, path) : [];
    case 'array':
      return def.element ? schemaFieldsOf(def.element, field, path) : [];
    case 'pipe':
      return def.in ? schemaFieldsOf(def.in, field, path) : [];
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([name, child]) =>
        schemaFieldsOf(child, field, path ? `${path}.${name}` : name),
      );
    default:
      return [];
  }
}

/** The strings found at a dotted field path, through objects and lists, each with its full path. */
export function stringsAt(
  value: unknown,
  segments: readonly string[],
  path = '',
): { path: string; value: string }[] {
  const at = (step: string | number) => (path ? `${path}.${step}` : String(step));
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsAt(item, segments, at(index)));
  if (segments.length === 0) return typeof value === 'string' ? [{ path, value }] : [];
  if (typeof value !== 'object' || value === null) return [];
  const [name, ...rest] = segments as [string, ...string[]];
  return stringsAt((value as Record<string, unknown>)[name], rest, at(name));
}
