import type { LocalizedName } from '@dukkan/contract';
import type { FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../../lib/api-client.ts';

/** The boxes of a code-and-name form: the code, and the name per language. */
const codeAndNameFieldNames = ['code', 'name.en', 'name.ar'] as const;
type FieldName = (typeof codeAndNameFieldNames)[number];

const folded = (text: string | undefined) => text?.trim().toLowerCase() ?? '';

/**
 * The box a refusal of the whole name belongs under. The server says `name` (VALUE_REPEATED: a
 * text the type already has, in either language); the box is the one whose text another value
 * has, else the first one filled.
 */
function nameBoxOf(name: LocalizedName, takenTexts: readonly string[]): FieldName {
  const taken = new Set(takenTexts.map(folded));
  const repeated = name.find((entry) => taken.has(folded(entry.value)));
  return `name.${(repeated ?? name[0])?.locale ?? 'en'}`;
}

/** A server path of the `[{ locale, value }]` name (`name`, `name.1.value`) as the form's box. */
function boxOf(path: string, name: LocalizedName, takenTexts: readonly string[]): FieldName | undefined {
  if (path === 'code') return 'code';
  if (path === 'name') return nameBoxOf(name, takenTexts);
  const entry = path.match(/^name\.(\d+)/)?.[1];
  if (entry !== undefined) return `name.${name[Number(entry)]?.locale ?? 'en'}`;
  return undefined;
}

/**
 * Puts a refused save of a code-and-name form under its boxes: a repeated code (the database's
 * 409), and each validation issue that names the code or the name. `takenTexts`: the texts of the
 * other values of the type, to tell which language repeated one. False when nothing was placed
 * (the operation's toast has said why).
 */
export function placeNameRefusal(
  error: unknown,
  setError: UseFormSetError<FieldValues>,
  name: LocalizedName,
  takenTexts: readonly string[] = [],
): boolean {
  if (!isApiError(error)) return false;
  if (error.code === 'DB' && error.body?.target === 'code') {
    setError('code', { type: 'server', message: 'CODE_MUST_BE_UNIQUE' }, { shouldFocus: true });
    return true;
  }
  if (error.code !== 'VALIDATION') return false;
  let placed = false;
  for (const issue of error.body?.issues ?? []) {
    const box = boxOf(issue.path, name, takenTexts);
    if (!box) continue;
    setError(box, { type: 'server', message: issue.message }, { shouldFocus: !placed });
    placed = true;
  }
  return placed;
}

/** Every text of the values (both languages), for `placeNameRefusal`. */
export const textsOf = (values: readonly { name: LocalizedName }[]) =>
  values.flatMap((value) => value.name.map((entry) => entry.value));
