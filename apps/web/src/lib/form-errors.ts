import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from './api-client.ts';

/**
 * Puts a VALIDATION answer's issues under the form's own fields (one message per path, spec §5).
 * Returns false when none of the issues names a field of this form, so the caller shows a toast.
 */
export function applyValidationIssues<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
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
    if (!known.has(issue.path)) continue;
    setError(issue.path as Path<T>, { type: 'server', message: issue.message }, { shouldFocus: !applied });
    applied = true;
  }
  return applied;
}
