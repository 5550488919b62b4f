import type { FormField } from '@dukkan/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { InfoTooltip } from '../../components/ui/tooltip.tsx';
import { cn } from '../../lib/class-names.ts';
import { useDeclaredTextValues } from '../declared-text-values.ts';
import { useFormMessageText } from './form-messages.ts';

/** What a control needs to be tied to its label and error. */
export interface FrameControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  'aria-required': true | undefined;
}

interface FieldFrameProps {
  field: FormField;
  id: string;
  error?: string;
  /** A group of controls (radio, multi select, phone) is a fieldset named by a legend, not a label. */
  asGroup?: boolean;
  /** What is said for `error` when it is more than one message (a `lines` field's, line by line). */
  errorContent?: ReactNode;
  /** A control beside the field's own, after its hint and message (a select's "New …"). */
  action?: ReactNode;
  children: (control: FrameControlProps) => ReactNode;
}

/** The error's id for a control, so a nested control (a phone's number) can point at its own. */
export const errorIdOf = (id: string) => `${id}-error`;
/** The label's id, for a control named by more than its label (a searchable select adds its choice). */
export const labelIdOf = (id: string) => `${id}-label`;
/** The hint's id: the sentence under a control that says what the field does (`FormField.hint`). */
const hintIdOf = (id: string) => `${id}-hint`;

/** The ids that describe a control: its hint, then its error, each when shown. */
const describedBy = (id: string, hint: boolean, error: boolean) =>
  [hint ? hintIdOf(id) : undefined, error ? errorIdOf(id) : undefined].filter(Boolean).join(' ') || undefined;

/**
 * A field's label (asterisk or 'Optional', tooltip), its control, its hint, and its one message
 * (spec §4, §5). The hint and the message describe the control.
 */
export function FieldFrame({
  field,
  id,
  error,
  asGroup = false,
  errorContent,
  action,
  children,
}: FieldFrameProps) {
  const { t } = useTranslation();
  const text = useFormMessageText();
  const values = useDeclaredTextValues();
  const showIndicator = !field.disableRequiredIndicator;
  const label = t(field.label as never, { ...values, defaultValue: field.label }) as string;
  const heading = (
    <span className="flex items-baseline gap-1">
      {asGroup ? (
        // The legend (first in the fieldset) names the group; this is its visible twin.
        <span aria-hidden="true" className="text-sm font-semibold text-slate-700 dark:text-slate-200">
          {label}
        </span>
      ) : (
        <label
          id={labelIdOf(id)}
          htmlFor={id}
          className="text-sm font-semibold text-slate-700 dark:text-slate-200"
        >
          {label}
        </label>
      )}
      {showIndicator && field.required && (
        <span className="text-sm text-red-600 dark:text-red-400" aria-hidden="true">
          *
        </span>
      )}
      {field.tooltipMessage && (
        <InfoTooltip className="self-center">
          {t(field.tooltipMessage as never, { ...values, defaultValue: field.tooltipMessage }) as string}
        </InfoTooltip>
      )}
      {showIndicator && !field.required && (
        <span className="ms-auto text-xs text-slate-500 dark:text-slate-400">{t('common.optional')}</span>
      )}
    </span>
  );
  const control = children({
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, !!field.hint, !!error),
    'aria-required': field.required || undefined,
  });
  const hint = field.hint && (
    <p id={hintIdOf(id)} className="text-xs text-slate-500 dark:text-slate-400">
      {t(field.hint as never, { ...values, defaultValue: field.hint }) as string}
    </p>
  );
  const message =
    error &&
    (errorContent ? (
      <div id={errorIdOf(id)} className="text-sm text-red-600 dark:text-red-400">
        {errorContent}
      </div>
    ) : (
      <p id={errorIdOf(id)} className="text-sm text-red-600 dark:text-red-400">
        {text(error)}
      </p>
    ));
  const className = cn('min-w-0 space-y-1.5', field.className);
  return asGroup ? (
    <fieldset
      className={className}
      aria-describedby={describedBy(id, !!field.hint, !!error)}
      data-field={field.name}
    >
      <legend className="sr-only">{label}</legend>
      {heading}
      {control}
      {hint}
      {message}
      {action}
    </fieldset>
  ) : (
    <div className={className} data-field={field.name}>
      {heading}
      {control}
      {hint}
      {message}
      {action}
    </div>
  );
}
