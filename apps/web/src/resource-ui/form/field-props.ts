import type { FormField } from '@dukkan/contract';
import { type FieldError, get, useFormContext } from 'react-hook-form';

/** Uploads files and answers their URLs, in the same order (the /files call, injected). */
export type UploadFiles = (files: File[]) => Promise<string[]>;

/**
 * What the user may do with files (spec §6): see the image uploader (viewFiles), pick files
 * (addFiles or editFiles), remove an image (deleteFiles). Everything, when not given.
 */
export interface FileAccess {
  view: boolean;
  change: boolean;
  remove: boolean;
}
export const allFileAccess: FileAccess = { view: true, change: true, remove: true };

/** What every field component of the renderer receives. */
export interface FieldComponentProps {
  field: FormField;
  /** The control's DOM id (unique per form). */
  id: string;
  uploadFiles?: UploadFiles;
  fileAccess?: FileAccess;
  /** The id of the record the form edits; absent for a new one. */
  recordId?: string;
}

/** The one message of a path (an array's own message may sit under `root`). */
export function useFieldError(name: string): string | undefined {
  const { formState } = useFormContext();
  const error = get(formState.errors, name) as (FieldError & { root?: FieldError }) | undefined;
  return error?.message ?? error?.root?.message;
}

/** An option label or placeholder: an i18n key, or ready text when no key matches. */
export const textOf = (t: (key: never, options: { defaultValue: string }) => unknown, text: string) =>
  String(t(text as never, { defaultValue: text }));
