import {
  imageUrlField,
  listFormFields,
  parseStoredFileUrl,
  type ResourceDefinition,
  type ValidationIssue,
  validationCodes,
} from '@dukkan/contract';
import { schemaFieldsOf, stringsAt } from './schema-fields.ts';

/**
 * The fields of an input schema that hold stored images (`imageUrlField`, alone or in a list), at
 * any depth, by their dotted path: `logo`, a product's `images` and its variant edits'
 * `variants.images`.
 */
export const schemaImageFields = (schema: object): string[] => schemaFieldsOf(schema, imageUrlField);

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
    stringsAt(input, field.split('.')).flatMap(({ path, value: url }): ValidationIssue[] =>
      parseStoredFileUrl(url)?.workspaceId === workspaceId
        ? []
        : [{ path, message: validationCodes.URL_IS_INVALID }],
    ),
  );
}
