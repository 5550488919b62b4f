import { useState } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner.tsx';
import { isApiError } from '../../lib/api-client.ts';
import { FieldFrame } from './field-frame.tsx';
import { allFileAccess, type FieldComponentProps, useFieldError } from './field-props.ts';

const isImage = (file: File) => file.type.startsWith('image/');

/**
 * imageUpload: the value is a list of URLs. Picked files (images only) go through `uploadFiles`
 * with a spinner while pending; a multiple field adds to the list, a single one replaces it.
 * Removing drops that URL (multiple) or empties the list (single) — spec §4.
 */
export function ImageUploadField({
  field,
  id,
  uploadFiles,
  fileAccess = allFileAccess,
}: FieldComponentProps) {
  const { t } = useTranslation();
  const { field: controller } = useController({ name: field.name });
  const formError = useFieldError(field.name);
  const [pending, setPending] = useState(false);
  const [localError, setLocalError] = useState<string>();
  const urls: string[] = Array.isArray(controller.value) ? controller.value : [];
  const multiple = field.multiple ?? false;

  const pick = async (files: File[]) => {
    if (files.length === 0) return;
    if (!files.every(isImage)) {
      setLocalError(t('form.imageUpload.onlyImages'));
      return;
    }
    if (!uploadFiles) return;
    setLocalError(undefined);
    setPending(true);
    try {
      const uploaded = await uploadFiles(multiple ? files : files.slice(0, 1));
      controller.onChange(multiple ? [...urls, ...uploaded] : uploaded.slice(0, 1));
    } catch (error) {
      // The server's reason (too large, not an image) when it gave one; its code is translated below the field.
      const reason =
        isApiError(error) && error.code === 'VALIDATION' ? error.body?.issues?.[0]?.message : undefined;
      setLocalError(reason ?? t('form.imageUpload.failed'));
    } finally {
      setPending(false);
    }
  };

  const remove = (url: string) => controller.onChange(multiple ? urls.filter((item) => item !== url) : []);

  // Spec §6: without viewFiles there is no uploader at all; the value is kept as it is.
  if (!fileAccess.view) return null;
  return (
    <FieldFrame field={field} id={id} error={formError ?? localError}>
      {(control) => (
        <div className="flex flex-wrap items-start gap-3" aria-busy={pending || undefined}>
          {urls.map((url, index) => (
            <div
              key={url}
              className="relative size-20 overflow-hidden rounded-lg border border-slate-200 dark:border-slate-700"
            >
              <img
                src={url}
                alt={t('form.imageUpload.image', { index: index + 1 })}
                className="size-full object-cover"
              />
              {fileAccess.remove && (
                <button
                  type="button"
                  onClick={() => remove(url)}
                  disabled={field.disabled || pending}
                  aria-label={t('form.imageUpload.remove', { index: index + 1 })}
                  className="absolute end-1 top-1 grid size-6 place-items-center rounded-full bg-slate-900/70 text-white hover:bg-slate-900"
                >
                  <svg viewBox="0 0 20 20" fill="currentColor" className="size-3.5" aria-hidden="true">
                    <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
                  </svg>
                </button>
              )}
            </div>
          ))}
          {urls.length === 0 && !fileAccess.change && (
            <p className="text-sm text-slate-600 dark:text-slate-400">{t('form.imageUpload.none')}</p>
          )}
          {pending ? (
            <div
              role="status"
              className="grid size-20 place-items-center rounded-lg border border-dashed border-slate-300 text-slate-500 dark:border-slate-600"
            >
              <Spinner className="size-5" />
              <span className="sr-only">{t('form.imageUpload.uploading')}</span>
            </div>
          ) : (
            fileAccess.change && (
              <label className="grid size-20 cursor-pointer place-items-center rounded-lg border border-dashed border-slate-300 text-center text-xs text-slate-500 hover:border-brand-600 hover:text-brand-700 has-disabled:cursor-not-allowed has-disabled:opacity-60 dark:border-slate-600 dark:text-slate-400">
                <span aria-hidden="true" className="text-xl leading-none">
                  +
                </span>
                <input
                  {...control}
                  ref={controller.ref}
                  type="file"
                  accept="image/*"
                  multiple={multiple}
                  disabled={field.disabled || !uploadFiles}
                  onBlur={controller.onBlur}
                  onChange={(event) => {
                    const files = [...(event.target.files ?? [])];
                    event.target.value = '';
                    void pick(files);
                  }}
                  className="sr-only"
                />
              </label>
            )
          )}
        </div>
      )}
    </FieldFrame>
  );
}
