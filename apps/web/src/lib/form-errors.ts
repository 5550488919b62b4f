import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from './api-client.ts';

/**
 * Puts a VALIDATION answer's issues under the form's own fields (one message per path, spec §5).
 * An issue of an item of a list field typed as one text (a `lines` field, named in `itemFields`),
 * `<field>.<index>…`, goes to `<field>.<index>`, where the field says it as its line's. Returns
 * false when none of the issues names a field of this form, so the caller shows a toast.
 */
export function applyValidationIssues<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  itemFields: readonly string[] = [],
): boolean {
  if (!isApiError(error) || error.code !== 'VALIDATION') return false;
  const known = new Set<string>(fields);
  const issues = error.body?.issues?.length
    ? error.body.issues
    : error.body?.key
      ? [{ path: error.body.key, message: error.message }]
      : [];
  let applied = false;
  for (const issue of issues) {
    const path = known.has(issue.path) ? issue.path : itemPath(issue.path, itemFields);
    if (!path) continue;
    setError(path as Path<T>, { type: 'server', message: issue.message }, { shouldFocus: !applied });
    applied = true;
  }
  return applied;
}

/** `<field>.<index>` of a path `<field>.<index>…` of one of `itemFields`, else undefined. */
function itemPath(path: string, itemFields: readonly string[]): string | undefined {
  for (const field of itemFields) {
    if (!path.startsWith(`${field}.`)) continue;
    const index = path.slice(field.length + 1).split('.')[0] ?? '';
    if (/^\d+$/.test(index)) return `${field}.${index}`;
  }
  return undefined;
}
