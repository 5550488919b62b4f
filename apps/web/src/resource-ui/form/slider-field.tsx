import { fieldStep, numberFormat } from '@dukkan/contract';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FieldFrame } from './field-frame.tsx';
import { type FieldComponentProps, useFieldError } from './field-props.ts';

/** slider: a native range from defaultMin to defaultMax (0–100 if absent), step 1 unless declared. */
export function SliderField({ field, id }: FieldComponentProps) {
  const { i18n } = useTranslation();
  const { field: controller } = useController({ name: field.name });
  const error = useFieldError(field.name);
  const min = field.defaultMin ?? 0;
  const max = field.defaultMax ?? 100;
  const value = typeof controller.value === 'number' ? controller.value : min;
  const shown = numberFormat(i18n.language).format(value);
  return (
    <FieldFrame field={field} id={id} error={error}>
      {(control) => (
        <div className="flex items-center gap-3">
          <input
            {...control}
            type="range"
            name={controller.name}
            ref={controller.ref}
            min={min}
            max={max}
            step={fieldStep(field)}
            value={value}
            onChange={(event) => controller.onChange(event.target.valueAsNumber)}
            onBlur={controller.onBlur}
            disabled={field.disabled}
            aria-valuetext={shown}
            className="h-2 w-full cursor-pointer accent-brand-600 disabled:cursor-not-allowed dark:accent-brand-400"
          />
          <output htmlFor={id} className="min-w-10 text-end text-sm tabular-nums">
            {shown}
          </output>
        </div>
      )}
    </FieldFrame>
  );
}
