import { type FormEntry, listFormFields } from '@dukkan/contract';
import type { TFunction } from 'i18next';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { isApiError } from '../../lib/api-client.ts';
import { describeSaveFailure } from '../../lib/error-messages.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';

/**
 * Puts a declared form's refused save where it belongs: a repeated value or a broken rule under
 * the field it names (and null is returned), anything else as the text to show above the form
 * ("… could not be saved", in the server's own words where it has some).
 */
export function placeSaveFailure(
  error: unknown,
  methods: Pick<UseFormReturn<FieldValues>, 'setError'>,
  fields: readonly FormEntry[],
  t: TFunction,
  language: string,
  failedText: string,
): string | null {
  const shown = listFormFields(fields);
  const fieldNames = shown.map((field) => field.name);
  // A `lines` field's issue names its line (`values.3.name`): it is shown under the field.
  const lineFields = shown.filter((field) => field.type === 'lines').map((field) => field.name);
  const target = isApiError(error) && error.code === 'DB' ? error.body?.target : undefined;
  if (target && fieldNames.includes(target)) {
    methods.setError(
      target,
      { type: 'server', message: target === 'code' ? 'CODE_MUST_BE_UNIQUE' : 'VALUE_MUST_BE_UNIQUE' },
      { shouldFocus: true },
    );
    return null;
  }
  if (applyValidationIssues(error, methods.setError, fieldNames, lineFields)) return null;
  return describeSaveFailure(error, t, language, failedText);
}
