import { useRef } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { controlClassName } from '../../components/ui/input.tsx';
import { cn } from '../../lib/class-names.ts';
import { FieldFrame } from './field-frame.tsx';
import { type FieldComponentProps, useFieldError } from './field-props.ts';

/** The value a cleared file field holds: the text 'undefined', as spec §4 says. */
const clearedFileValue = 'undefined';

const hasFile = (value: unknown) =>
  value instanceof File ||
  (Array.isArray(value) && value.length > 0) ||
  (typeof value === 'string' && value !== '' && value !== clearedFileValue);

const nameOf = (value: unknown) =>
  value instanceof File
    ? value.name
    : Array.isArray(value)
      ? value.map((item: unknown) => (item instanceof File ? item.name : String(item))).join(', ')
      : String(value);

/** upload: a file input holding the File (or Files when `multiple`), or an existing file's name; clearable. */
export function UploadField({ field, id }: FieldComponentProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement | null>(null);
  const { field: controller } = useController({ name: field.name });
  const error = useFieldError(field.name);
  const present = hasFile(controller.value);
  return (
    <FieldFrame field={field} id={id} error={error}>
      {(control) => (
        <div className="space-y-2">
          <input
            {...control}
            ref={(node) => {
              input.current = node;
              controller.ref(node);
            }}
            type="file"
            name={controller.name}
            accept={field.accept}
            multiple={field.multiple}
            disabled={field.disabled}
            onBlur={controller.onBlur}
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              controller.onChange(field.multiple ? files : (files[0] ?? clearedFileValue));
            }}
            className={cn(
              controlClassName,
              'py-1.5 file:me-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1 file:text-sm dark:file:bg-slate-800 dark:file:text-slate-200',
            )}
          />
          {present && (
            <div className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
              <span className="truncate">{t('form.upload.current', { name: nameOf(controller.value) })}</span>
              <Button
                variant="ghost"
                size="sm"
                disabled={field.disabled}
                onClick={() => {
                  if (input.current) input.current.value = '';
                  controller.onChange(clearedFileValue);
                }}
              >
                {t('form.upload.clear')}
              </Button>
            </div>
          )}
        </div>
      )}
    </FieldFrame>
  );
}
